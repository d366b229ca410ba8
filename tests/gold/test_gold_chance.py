"""Gold with explicit chance (goldrush_env.gold.chance): lockstep with our environment and engine, exact chance,
privacy by non-interference, and the resampling that information-set search plays on."""

import numpy as np
import pytest

from goldrush_env.chance import CHANCE, TERMINAL
from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import EMPTY, NUM_POSITIONS, TABLES
from goldrush_env.gold.chance import FORGET, GoldChance, GoldPosition
from goldrush_env.gold.engine import Game


def play(chance, seed, choose=None, script=None):
    """A random game of ``chance``: decisions uniform (or ``choose(position, rng)``), chance by its odds, both from
    ``seed``; ``script`` replays a history instead. Returns the final position, the history, and at every decision
    (seat, legal actions, rewards since the last decision, every seat's observation, texts)."""
    rng = np.random.default_rng(seed)
    position, history, decisions = chance.new_position(), [], []
    while position.player != TERMINAL:
        if script is not None and len(history) == len(script):
            break
        if position.player == CHANCE:
            action = script[len(history)] if script is not None else position.draw(rng.random)
        else:
            n = chance.num_players
            decisions.append((position.player, position.legal_actions(), list(position.rewards),
                              [position.observation(s) for s in range(n)],
                              [position.knowledge_text(s) for s in range(n)], position.public_text()))
            if script is not None:
                action = script[len(history)]
            else:
                action = choose(position, rng) if choose else int(rng.choice(position.legal_actions()))
        history.append((position.player, action))
        position.apply(action)
    return position, history, decisions


@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 3, "reward": "win", "table": "half"},
    {"players": 2, "memory": "human", "table": "quarter"}, {"players": 4, "memory": "human", "forget_prob": 0.3},
    {"players": 5, "memory": "human", "memory_capacity": 3, "reward": "win"},
])
def test_a_game_through_explicit_chance_is_the_same_game_in_our_environment(params):
    """Replay each game in our own environment, dealt the cards chance decided and forgetting as chance said:
    at every decision the same legal positions, rewards and every seat's observation; the same returns; and the
    engine's record of it replays."""
    chance = GoldChance(**params)
    for seed in range(3):
        position, history, decisions = play(chance, seed)
        record = position.env.game.to_record()
        assert Game.from_record(record).scores == position.env.game.scores  # its flips' outcomes all match

        config = chance.config
        # The environment's seats forget nothing by themselves: they forget what chance decided, when it did.
        env = raw_env(num_players=config.num_players, table=config.table, memory=config.memory,
                      reward=config.reward, max_turns=config.max_turns, forget_prob=0.0,
                      memory_capacity=config.memory_capacity, observation="plain", action="positions")
        env.reset(options={"layout": record["layout"]})
        replay = GoldChance(**params).new_position()
        totals, steps = [0.0] * chance.num_players, 0
        forgets = {}  # completed turns -> (seat, position) forgotten then
        for player, action in history:
            if player == CHANCE and replay.fading and action == FORGET:
                forgets.setdefault(int(replay.env.record["turn"]), []).append(replay.fading[0])
            replay.apply(action)
        decision = 0
        while not env.game.is_finished:
            seat, legal, _, observations, _, _ = decisions[decision]
            assert seat == env.game.current_player
            assert legal == np.flatnonzero(env.action_mask(env.agent_selection)).tolist()
            for s in range(chance.num_players):
                np.testing.assert_array_equal(observations[s], env.observe(f"player_{s}")["observation"])
            env.step(record["flips"][steps])
            for seat, where in forgets.pop(int(env.one.record["turn"]), []):
                env.one.record["memo"][seat, where] = -1
            steps += 1
            totals = [t + env.rewards[f"player_{s}"] for s, t in enumerate(totals)]
            decision += 1
            if decision < len(decisions):
                assert decisions[decision][2] == pytest.approx([env.rewards[f"player_{s}"]
                                                                for s in range(chance.num_players)])
        assert decision == len(decisions) and steps == len(record["flips"])
        assert position.returns() == pytest.approx(totals)
        assert replay.returns() == position.returns()


def test_a_turned_card_is_drawn_from_the_cards_no_one_has_seen_with_their_exact_odds():
    chance = GoldChance(players=3, table="half")
    position, rng = chance.new_position(), np.random.default_rng(5)
    box = TABLES["half"].box()
    unseen = {card: box.count(card) for card in set(box)}
    checked = 0
    while position.player != TERMINAL:
        if position.player == CHANCE and position.flip is not None:
            total = sum(unseen.values())
            assert position.chance_outcomes() == [(card, count / total) for card, count in sorted(unseen.items())
                                                  if count]
            card = position.draw(rng.random)
            unseen[card] -= 1
            position.apply(card)
            checked += 1
        elif position.player == CHANCE:
            position.apply(position.draw(rng.random))
        else:
            position.apply(int(rng.choice(position.legal_actions())))
    assert checked == len(box)  # every card was turned at least once, and decided once


def test_a_remembered_card_is_forgotten_with_forget_prob_after_each_turn_it_was_not_seen():
    chance = GoldChance(players=3, table="half", memory="human", forget_prob=0.25, memory_capacity=40)
    position, rng, nodes = chance.new_position(), np.random.default_rng(1), 0
    while position.player != TERMINAL:
        if position.player == CHANCE and position.flip is None:
            seat, where = position.fading[0]
            assert position.env.record["memo"][seat, where] >= 0
            assert position.chance_outcomes() == [(0, 0.75), (FORGET, 0.25)]
            nodes += 1
        position.apply(position.draw(rng.random) if position.player == CHANCE
                       else int(rng.choice(position.legal_actions())))
    assert nodes > 20


def test_the_first_card_turned_is_distributed_as_a_shuffled_box():
    chance = GoldChance(players=2, table="quarter")
    rng = np.random.default_rng(0)
    counts = np.zeros(25)
    for _ in range(2000):
        position = chance.new_position()
        position.apply(int(rng.integers(16)))
        counts[position.draw(rng.random)] += 1
    box = np.bincount(TABLES["quarter"].box(), minlength=25) / 16
    expected = 2000 * box
    chi2 = sum((counts[k] - expected[k]) ** 2 / expected[k] for k in range(25) if expected[k])
    assert chi2 < 40  # 14 degrees of freedom (15 kinds): the 99.9th percentile is 36.1; measured 9.0


def replay(chance, history, altered=None):
    """``history`` played again with the forgetting node ``altered`` (a ``(turn, seat, position)``) given the
    other outcome. Seats act as they did and cards are decided as they were; a forgetting node the first game did
    not have (the altered seat's memory now differs) keeps its card. Returns the decisions, as :func:`play` does."""
    moves = iter(action for player, action in history if player != CHANCE)
    cards, forgetting, position = [], {}, chance.new_position()
    for player, action in history:  # the outcomes of the first game, by what they decided
        if player == CHANCE and position.flip is not None:
            cards.append(action)
        elif player == CHANCE:
            forgetting[(int(position.env.record['turn']), *position.fading[0])] = action
        position.apply(action)
    cards, position, decisions = iter(cards), chance.new_position(), []
    n = chance.num_players
    while position.player != TERMINAL:
        if position.player == CHANCE and position.flip is not None:
            action = next(cards)
        elif position.player == CHANCE:
            key = (int(position.env.record['turn']), *position.fading[0])
            action = forgetting.get(key, 0)
            action = 1 - action if key == altered else action
        else:
            decisions.append((position.player, position.legal_actions(), list(position.rewards),
                              [position.observation(s) for s in range(n)],
                              [position.knowledge_text(s) for s in range(n)], position.public_text()))
            action = next(moves)
        position.apply(action)
    return decisions


def knowledge(decisions, seat):
    return [(observations[seat].tolist(), texts[seat]) for _, _, _, observations, texts, _ in decisions]


def forgetting_nodes(chance, history, seat):
    """The forgetting nodes ``(turn, seat, position)`` of the seats other than ``seat``."""
    position, found = chance.new_position(), []
    for player, action in history:
        if player == CHANCE and position.flip is None and position.fading[0][0] != seat:
            found.append((int(position.env.record['turn']), *position.fading[0]))
        position.apply(action)
    return found


def noninterference_violations(chance, seeds=range(4), seat=0):
    """Replays where ``seat`` observed something different after only another seat's forgetting changed."""
    violations = tried = 0
    for seed in seeds:
        _, history, decisions = play(chance, seed)
        assert knowledge(replay(chance, history), seat) == knowledge(decisions, seat)
        for node in forgetting_nodes(chance, history, seat)[:6]:
            other = replay(chance, history, altered=node)
            tried += 1
            if knowledge(other, seat) != knowledge(decisions, seat) or [d[5] for d in other] != [d[5] for d in
                                                                                                  decisions]:
                violations += 1
    assert tried >= 10
    return violations


def test_another_seats_forgetting_changes_nothing_a_seat_observes():
    chance = GoldChance(players=3, table="quarter", memory="human", forget_prob=0.3)
    assert noninterference_violations(chance) == 0


def test_the_noninterference_check_catches_a_leak(monkeypatch):
    """The leak injected: a seat's text names what the next seat remembers."""
    chance = GoldChance(players=3, table="quarter", memory="human", forget_prob=0.3)
    honest = GoldPosition.knowledge_text
    monkeypatch.setattr(GoldPosition, "knowledge_text", lambda self, seat: honest(self, seat) + self.private_text(
        (seat + 1) % self.game.num_players))
    assert noninterference_violations(chance) > 0


@pytest.mark.parametrize("memory", ["perfect", "human"])
def test_the_cards_no_one_has_seen_change_nothing_anyone_observes_or_plays(memory):
    """Where the undecided cards lie in the environment's table is nobody's knowledge: exchange two of them at any
    node and every seat observes the same, and our players choose the same."""
    from goldrush_agents import make_agent

    chance = GoldChance(players=3, table="half", memory=memory)
    rng = np.random.default_rng(2)
    position = chance.new_position()
    players, twins = ([make_agent(name, seed=s) for s, name in enumerate(("greedy", "expert", "random"))]
                      for _ in range(2))
    exchanged = 0
    while position.player != TERMINAL:
        if position.player == CHANCE:
            position.apply(position.draw(rng.random))
            continue
        game = position.env.game
        undecided = [p for p in range(NUM_POSITIONS) if position.undecided[p] and p != position.flip]
        twin = position.copy()
        kinds = {game.table[p] for p in undecided}
        if len(kinds) > 1:
            a = undecided[0]
            b = next(p for p in undecided if game.table[p] != game.table[a])
            twin.env.exchange(a, b)
            exchanged += 1
        seat = position.player
        for s in range(chance.num_players):
            np.testing.assert_array_equal(position.observation(s), twin.observation(s))
            assert position.knowledge_text(s) == twin.knowledge_text(s)
        choices = [players[seat].act(position.env.view(seat)), twins[seat].act(twin.env.view(seat))]
        assert choices[0] == choices[1]
        position.apply(choices[0])
    assert exchanged > 5


def test_resampling_keeps_what_the_seat_knows_and_redraws_the_rest():
    chance = GoldChance(players=3, table="half", memory="human", forget_prob=0.3)
    rng = np.random.default_rng(7)
    position, changed, checked = chance.new_position(), 0, 0
    while position.player != TERMINAL:
        if position.player == CHANCE:
            position.apply(position.draw(rng.random))
            continue
        seat = position.player
        sample = position.resample(seat, rng.random)
        np.testing.assert_array_equal(sample.observation(seat), position.observation(seat))
        assert sample.knowledge_text(seat) == position.knowledge_text(seat)
        assert sample.legal_actions() == position.legal_actions()
        table, drawn = position.env.game.table, sample.env.game.table
        assert sorted(table) == sorted(drawn)  # the same cards
        changed += table != drawn
        assert np.array_equal(sample.env.record["memo"], position.env.record["memo"])  # who remembers where
        checked += 1
        if checked % 5 == 0:  # a sample plays on to the end
            while sample.player != TERMINAL:
                sample.apply(sample.draw(rng.random) if sample.player == CHANCE
                             else int(rng.choice(sample.legal_actions())))
        position.apply(int(rng.choice(position.legal_actions())))
    assert changed > checked // 2


def test_parameters_are_checked_and_the_facts_follow_them():
    assert GoldChance().params == GoldChance.PARAMETERS
    with pytest.raises(Exception, match="table='round' is not allowed"):
        GoldChance(table="round")
    with pytest.raises(Exception, match="forget_prob=1.5 is not allowed"):
        GoldChance(forget_prob=1.5)
    with pytest.raises(Exception, match="the parameter max_turns must be a int"):
        GoldChance(max_turns=None)
    two, five = GoldChance(players=2, reward="win"), GoldChance(players=5, reward="win")
    assert (two.utility_sum, five.utility_sum) == (0.0, None)
    score = GoldChance(players=3)
    assert (score.utility_sum, score.max_utility, score.min_utility) == (0.0, 6.0, -3.0)
    assert GoldChance(memory="human").perfect_information is False
    assert GoldChance().new_position().legal_actions() == list(range(64))
    assert EMPTY not in GoldChance(table="quarter").box


def test_the_openspiel_ladder_prints_a_win_share_with_its_interval():
    import re
    import subprocess
    import sys
    from pathlib import Path

    from goldrush_agents.tournament import wilson_interval

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "openspiel_ladder.py"
    out = subprocess.run([sys.executable, str(script), "--game", "gold", "--params", "players=2", "table=quarter",
                          "reward=win", "--alone", "mcts", "--field", "random", "--games", "4", "--simulations", "8",
                          "--workers", "1"], capture_output=True, text=True, check=True).stdout
    share, low, high = map(float, re.search(r"win share ([\d.]+) \[([\d.]+), ([\d.]+)\]", out).groups())
    assert (low, high) == pytest.approx(wilson_interval(share * 4, 4), abs=0.0006)
    assert "mcts alone vs random, 4 games, 8 simulations x 1 rollouts" in out
