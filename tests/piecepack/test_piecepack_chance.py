"""Gold Rush (piecepack) with explicit chance (goldrush_env.piecepack.chance): exact chance nodes, the same game as
our engine's, uniform draws, no leak of a private assay, resampling, and OpenSpiel's view of it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from goldrush_env.chance import CHANCE, TERMINAL
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.chance import PiecepackChance, PiecepackPosition
from goldrush_env.piecepack.components import BOX, COLUMNS, NUM_PIECES, NUM_PLOTS, RANKS, ROW_SUIT, code_of
from goldrush_env.piecepack.encoder import observation_vector
from goldrush_env.piecepack.engine import Game

CHI2_999 = {2: 13.82, 3: 16.27, 5: 20.52, 23: 49.73}
"""The chi-square value a uniform draw exceeds once in a thousand, by degrees of freedom."""


def _weight(action: int) -> float:
    """How much the test player favours an action: spending and trading over ending turns, so that games build,
    optimize and roll the Market."""
    if (A.OPTIMIZE_TILE <= action < A.END_DEVELOPMENT or A.TRADE_ROUTE <= action < A.END_FREE_TRADE
            or action in (A.ACCEPT, A.WAREHOUSE_PROTECT)):
        return 20.0
    if A.ASSAY_TILE <= action < A.OPTIMIZE_TILE:
        return 4.0
    return 1.0


def choose(rng: np.random.Generator, legal: list[int]) -> int:
    weights = np.array([_weight(action) for action in legal])
    return int(rng.choice(legal, p=weights / weights.sum()))


RICH = [10, 10, 10, 10]
"""Holdings handed to every seat once a game is dealt, in the games that should see every kind of chance (a plain
game starts with too little to build much, and rarely rolls a Market or optimizes)."""


def enrich(env) -> None:
    env.game.holdings = [list(RICH) for _ in range(env.game.num_players)]
    env.sync()


def play(players: int = 3, reward: str = "win", seed: int = 0, rich: bool = False, visit=None):
    """A game played through the position: chance drawn with its probabilities, seats by :func:`choose`, all from
    one seeded generator. ``visit(position)`` is called at every node before it acts. Returns the final position and
    the history of ``(player, action)``."""
    rng = np.random.default_rng(seed)
    position = PiecepackChance(players=players, reward=reward).new_position()
    history = []
    while not position.is_terminal:
        if visit is not None:
            visit(position)
        player = position.player
        action = position.draw(rng.random) if player == CHANCE else choose(rng, position.legal_actions())
        position.apply(action)
        history.append((player, action))
        if rich and len(history) == 5:  # the start player and the first roll are decided: the game is dealt
            enrich(position.env)
    if visit is not None:
        visit(position)
    return position, history


def replay(chance: PiecepackChance, history, rich: bool = False) -> PiecepackPosition:
    position = chance.new_position()
    for step, (_, action) in enumerate(history):
        position.apply(action)
        if rich and step == 4:
            enrich(position.env)
    return position


def identified(game, piece: int) -> bool:
    return bool(game.face_up[piece] or game.assayed[piece])


# --- exact chance ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,rich", [(3, False), (4, False), (3, True), (4, True)])
def test_every_chance_node_lists_exact_probabilities(players, rich):
    """At every chance node the probabilities sum to 1 and are uniform; a piece's outcomes are exactly the identities
    of its kind that nobody has identified; the counts of nodes stay within the game's bounds."""
    counts = {"chance": 0, "decisions": 0, "piece": 0}

    def visit(position):
        if position.env is not None:  # the environment's vectors follow the game, moved pieces included
            for seat in range(players):
                known = position.env.game.known_to(seat)
                assert np.array_equal(position.observation(seat), observation_vector(known))
        if position.player != CHANCE:
            if position.player != TERMINAL:
                counts["decisions"] += 1
            return
        counts["chance"] += 1
        outcomes = position.chance_outcomes()
        values = [outcome for outcome, _ in outcomes]
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        assert len({p for _, p in outcomes}) == 1
        assert values == sorted(set(values)) == position.legal_actions()
        kind, index = position.event
        if kind == "start":
            assert values == list(range(players))
        elif kind in ("roll", "market"):
            assert values == list(range(6))
        else:
            counts["piece"] += 1
            game = position.env.game
            assert not identified(game, index)
            if index < NUM_PLOTS:
                seen = {game.tile(q) for q in range(NUM_PLOTS) if identified(game, q)}
                assert values == [i for i, code in enumerate(BOX) if code not in seen]
            else:
                row = (index - NUM_PLOTS) // COLUMNS
                coins = range(NUM_PLOTS + row * COLUMNS, NUM_PLOTS + (row + 1) * COLUMNS)
                seen = {game.piece(q)[1] for q in coins if identified(game, q)}
                assert values == [rank for rank in RANKS if rank not in seen]
            assert all(0 <= value < position.game.max_chance_outcomes for value in values)

    for seed in range(3):
        position, _ = play(players, "win", seed, rich, visit)
        chance = position.game
        assert counts["chance"] <= chance.max_chance_nodes
        assert rich or counts["decisions"] <= chance.max_game_length
        counts.update(chance=0, decisions=0)
    assert counts["piece"] > (30 if rich else 5)


def test_what_chance_decides_is_what_the_game_gets():
    """Once the events a held action waits for are decided, the game holds them: the production roll die by die,
    the Market roll's faces (outcome + 1), the piece's identity."""
    seen = {"roll": 0, "market": 0, "piece": 0}
    for players, seed in ((3, 14), (4, 15), (3, 16), (4, 17), (3, 18), (4, 19)):
        rng = np.random.default_rng(seed)
        position = PiecepackChance(players=players).new_position()
        decided = []
        while not position.is_terminal:
            event = position.event
            if event is None:
                position.apply(choose(rng, position.legal_actions()))
                continue
            outcome = position.draw(rng.random)
            position.apply(outcome)
            decided.append((event, outcome))
            if position.event is not None:
                continue
            game = position.env.game
            kind = decided[0][0][0]
            if kind == "start":
                assert game.start == decided[0][1] and list(game.dice) == [face for _, face in decided[1:]]
                enrich(position.env)
            elif kind == "roll":
                assert list(game.dice) == [face for _, face in decided[-4:]]
            elif kind == "market":
                faces = [face + 1 for _, face in decided[-2:]]
                assert game.to_record()["market_rolls"][-1] == faces and game.market_sum == sum(faces)
            else:
                piece = event[1]
                code = BOX[outcome] if piece < NUM_PLOTS else code_of(ROW_SUIT[(piece - NUM_PLOTS) // 6], outcome)
                assert code_of(*game.piece(piece)) == code and identified(game, piece)
            seen[kind] = seen.get(kind, 0) + 1
            decided = []
    assert seen["roll"] == 6 * 8 and seen["market"] > 0 and seen["piece"] > 60


def test_the_bounds_follow_from_the_rules():
    for players in (3, 4):
        win, score = PiecepackChance(players=players), PiecepackChance(players=players, reward="score")
        assert win.num_players == players and win.num_actions == A.NUM_ACTIONS == 488
        assert win.max_chance_outcomes == 24
        assert win.max_chance_nodes == 1 + 36 + 18 * players + 48
        assert win.max_game_length == 9 * 12 * players + 4 * players + 9 * 48
        assert (win.min_utility, win.max_utility, win.utility_sum) == (-1.0, 1.0, None)
        assert win.terminal_rewards and not score.terminal_rewards
        assert not win.perfect_information
        assert score.utility_sum == 0.0 and score.max_utility == -score.min_utility
        assert score.max_utility == pytest.approx(0.1 * 3 * (4 * players + 9 * 48))
        assert win.observation_size == len(replay(win, play(players, seed=1)[1][:5]).observation(0))


def test_rewards_sum_to_zero_at_every_step_with_the_score_reward():
    def visit(position):
        assert abs(sum(position.rewards)) < 1e-9
        assert all(position.game.min_utility <= r <= position.game.max_utility for r in position.returns())

    position, _ = play(4, "score", 2, rich=True, visit=visit)
    assert any(position.returns())


# --- the same game as the engine's ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players,reward,seed,rich", [
    (3, "win", 0, False), (3, "score", 1, False), (4, "win", 2, False), (4, "score", 3, False),
    (3, "win", 4, True), (3, "score", 5, True), (4, "win", 6, True), (4, "score", 7, True),
])
def test_a_game_through_the_position_is_the_engines_game(players, reward, seed, rich):
    """Played through the position, a game's record replays in the engine and, step by step, in a fresh environment
    set up with the record's pieces and dice: the same legal actions and rewards at every decision, the same end."""
    from goldrush_env.piecepack.aec import raw_env

    rng = np.random.default_rng(seed)
    position = PiecepackChance(players=players, reward=reward).new_position()
    decisions, rewards = [], []
    while not position.is_terminal:
        dealt = position.env is not None
        steps = len(position.env.game.history) if dealt else 0
        if position.player == CHANCE:
            position.apply(position.draw(rng.random))
        else:
            legal = position.legal_actions()
            action = choose(rng, legal)
            decisions.append((position.player, legal, action))
            position.apply(action)
        if rich and not dealt and position.env is not None:
            enrich(position.env)
        if position.env is not None and len(position.env.game.history) > steps:
            rewards.append(position.rewards)  # the engine took a step: the environment's rewards for it
        else:
            assert position.rewards == [0.0] * players
    assert len(rewards) == len(decisions)
    record = position.env.game.to_record()
    assert record["actions"] == [action for _, _, action in decisions]
    assert len(record["dice"]) == 9
    if not rich:  # a rich game's holdings were set by hand, which a record does not hold
        assert Game.from_record(record).final() == position.env.game.final() == record["final"]

    env = raw_env(num_players=players, reward=reward)
    setup = {key: record[key] for key in ("players", "tiles", "coins", "start", "dice", "market_rolls")}
    env.reset(options={"record": setup})
    env.game._rng = None  # every die is in the record
    if rich:
        enrich(env)
    totals = [0.0] * players
    for (seat, legal, action), paid in zip(decisions, rewards):
        agent = env.agent_selection
        assert env.agent_name_mapping[agent] == seat
        assert np.flatnonzero(env.observe(agent)["action_mask"]).tolist() == legal
        env.step(action)
        assert [env.rewards[name] for name in env.possible_agents] == paid
        totals = [total + env.rewards[name] for total, name in zip(totals, env.possible_agents)]
    assert env.game.is_over and all(env.terminations.values())
    assert position.returns() == pytest.approx(totals)
    assert env.game.final() == position.env.game.final()
    assert env.infos["player_0"] == {"scores": env.game.scores(), "winners": env.game.winners()}
    if reward == "win":
        winners = env.game.winners()
        assert position.returns() == [(1.0 if len(winners) == 1 else 0.0) if s in winners else -1.0
                                      for s in range(players)]
    for seat in range(players):
        assert np.array_equal(position.observation(seat), env.observe(f"player_{seat}")["observation"])


def test_records_of_unfinished_games_replay_with_their_dice():
    position, history = play(3, seed=3)
    half = replay(position.game, history[: len(history) // 2])
    while half.player == CHANCE:
        half.apply(half.legal_actions()[0])
    record = half.env.game.to_record()
    again = Game.from_record(record, rng=np.random.default_rng(0))
    assert again.public_state() == half.env.game.public_state()
    assert [again.piece(q) for q in range(NUM_PIECES)] == [half.env.game.piece(q) for q in range(NUM_PIECES)]


def test_the_engine_never_rolls_a_die_of_its_own():
    """An action that needs a roll no chance node decided fails loudly instead of drawing one."""
    def at_round_end(position):
        game = position.env.game if position.env else None
        return (game is not None and position.player == game.current_player and game.phase.value == "development_turn"
                and game.current_player == game.seat_order()[-1])

    rng = np.random.default_rng(0)
    position = PiecepackChance().new_position()
    while not at_round_end(position):
        legal = position.legal_actions()
        position.apply(position.draw(rng.random) if position.player == CHANCE else choose(rng, legal))
    before = position.env.one.state.copy()
    with pytest.raises(GoldrushEnvError, match="Market roll"):  # refused before anything changes
        position.env.one.play(A.MARKET_ROLL)
    assert np.array_equal(position.env.one.state, before)
    with pytest.raises(GoldrushEnvError, match="needed a roll"):  # the position's step, skipping its chance nodes
        position._step(A.END_DEVELOPMENT)


def test_the_engine_exchanges_only_pieces_that_could_trade_places():
    game = Game.new(3, seed=0)
    tiles = [game.tile(p) for p in range(NUM_PLOTS)]
    game.exchange(0, 5)
    assert (game.tile(0), game.tile(5)) == (tiles[5], tiles[0])
    game.exchange(NUM_PLOTS + 7, NUM_PLOTS + 11)  # two coins of row 1
    with pytest.raises(GoldrushEnvError, match="cannot change places"):
        game.exchange(0, NUM_PLOTS)
    with pytest.raises(GoldrushEnvError, match="cannot change places"):
        game.exchange(NUM_PLOTS + 5, NUM_PLOTS + 6)
    with pytest.raises(GoldrushEnvError, match="piece"):
        game.exchange(0, NUM_PIECES)
    game.face_up[3] = True
    with pytest.raises(GoldrushEnvError, match="face up"):
        game.exchange(3, 4)
    with pytest.raises(GoldrushEnvError, match="face up"):
        game.exchange(4, 3)


def test_the_engine_queues_rolls_as_its_constructor_checks_them():
    game = Game(3, list(BOX), [code_of(ROW_SUIT[r], k) for r in range(4) for k in RANKS], 0, [[1, 2, 3, 4]],
                rng=np.random.default_rng(0))
    with pytest.raises(GoldrushEnvError, match="dice"):
        game.queue_rolls(dice=[[6, 0, 0, 0]])
    with pytest.raises(GoldrushEnvError, match="market_rolls"):
        game.queue_rolls(market_rolls=[[0, 3]])
    with pytest.raises(GoldrushEnvError, match="9 production rolls"):
        game.queue_rolls(dice=[[0, 0, 0, 0]] * 9)
    game.queue_rolls(dice=[[0, 1, 2, 3]] * 8, market_rolls=[[1, 6]])
    record = game.to_record()
    assert record["dice"] == [[1, 2, 3, 4]] + [[0, 1, 2, 3]] * 8 and record["market_rolls"] == [[1, 6]]


# --- the draws are uniform -----------------------------------------------------------------------------------------


def chi_square(counts) -> float:
    counts = np.asarray(counts, dtype=float)
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("players", [3, 4])
def test_the_start_player_and_a_die_are_uniform(players):
    chance = PiecepackChance(players=players)
    rng = np.random.default_rng(players)
    starts, faces = np.zeros(players), np.zeros(6)
    for _ in range(3000):
        position = chance.new_position()
        start = position.draw(rng.random)
        position.apply(start)
        face = position.draw(rng.random)
        position.apply(face)
        starts[start] += 1
        faces[face] += 1
    assert chi_square(starts) < CHI2_999[players - 1]
    assert chi_square(faces) < CHI2_999[5]


def test_the_first_tile_assayed_is_uniform_over_the_box():
    """Drawn as chance draws it, the tile a game first assays is each of the 24 about equally often, in the game
    itself after the assay (not only in the outcome's number)."""
    chance = PiecepackChance()
    rng = np.random.default_rng(5)
    counts = np.zeros(len(BOX))
    for _ in range(600):
        position = chance.new_position()
        while position.event is None or position.event[0] != "piece":
            if position.player == CHANCE:
                position.apply(position.draw(rng.random))
                continue
            legal = position.legal_actions()
            assays = [a for a in legal if A.ASSAY_TILE <= a < A.ASSAY_COIN]
            position.apply(int(rng.choice(assays)) if assays else
                           A.END_FREE_TRADE if A.END_FREE_TRADE in legal else int(rng.choice(legal)))
        piece, seat = position.event[1], position.env.game.current_player  # the assayer, whose action waits
        assert [o for o, _ in position.chance_outcomes()] == list(range(24))
        for _ in range(2):
            twin = position.copy()
            outcome = twin.draw(rng.random)
            twin.apply(outcome)
            assert twin.env.game.tile(piece) == BOX[outcome]
            assert twin.env.game.known_to(seat)["identities"] == {piece: BOX[outcome]}
            counts[outcome] += 1
    assert chi_square(counts) < CHI2_999[23]  # 1,200 draws, 50 of each expected: measured 32.3


# --- privacy -------------------------------------------------------------------------------------------------------


def private_assays(history, chance: PiecepackChance, rich: bool):
    """The chance nodes of ``history`` that decide a piece a seat assays: ``(node, piece, assayer, outcomes)``."""
    found = []
    position = chance.new_position()
    for step, (player, action) in enumerate(history):
        if position.event is not None and position.event[0] == "piece":
            seat, held = history[step - 1]  # the action that waits for the piece's identity
            if A.ASSAY_TILE <= held < A.OPTIMIZE_TILE:
                found.append((step, position.event[1], seat, position.legal_actions()))
        position.apply(action)
        if rich and step == 4:
            enrich(position.env)
    return found


def divergences(chance: PiecepackChance, history, node: int, outcome: int, observer: int, rich: bool) -> dict:
    """Replay ``history`` twice, the second time with ``outcome`` at chance node ``node`` (a piece's identity) and
    the two identities it swapped exchanged in the later draws of that kind, so that both go on alike. Count, at
    every later node where nothing ``observer`` can name differs between the two games, the nodes where its
    observation or knowledge text differ, and, where nothing public differs, the nodes where the public text does."""
    first, second = chance.new_position(), chance.new_position()
    piece = None
    swap = {}
    found = {"compared": 0, "observation": 0, "knowledge": 0, "public": 0}
    for step, (player, action) in enumerate(history):
        other = action
        if step == node:
            piece = first.event[1]
            swap = {action: outcome, outcome: action}
            other = outcome
        elif step > node and player == CHANCE and first.event[0] == "piece":
            same_kind = (first.event[1] < NUM_PLOTS) == (piece < NUM_PLOTS) and (
                piece < NUM_PLOTS or (first.event[1] - NUM_PLOTS) // COLUMNS == (piece - NUM_PLOTS) // COLUMNS)
            other = swap.get(action, action) if same_kind else action
        if other not in second.legal_actions():
            break
        first.apply(action)
        second.apply(other)
        if rich and step == 4:
            enrich(first.env)
            enrich(second.env)
        if step < node:
            continue
        a, b = first.env.game, second.env.game
        differing = [q for q in range(NUM_PIECES) if a.piece(q) != b.piece(q)]
        if any(a.face_up[q] for q in differing):
            break  # the difference is public now
        found["public"] += first.public_text() != second.public_text()
        if any(a.assayed[q] >> observer & 1 for q in differing):
            continue  # the observer has seen a piece that differs
        found["compared"] += 1
        found["observation"] += not np.array_equal(first.observation(observer), second.observation(observer))
        found["knowledge"] += first.knowledge_text(observer) != second.knowledge_text(observer)
    return found


def private_cases(players: int, seed: int, rich: bool, limit: int = 3):
    """Games with private assays, each with an assay node, another outcome there and every seat but the assayer."""
    chance = PiecepackChance(players=players)
    _, history = play(players, seed=seed, rich=rich)
    cases = []
    for node, piece, assayer, outcomes in private_assays(history, chance, rich)[:limit]:
        other = next(o for o in outcomes if o != history[node][1])
        cases += [(chance, history, node, other, observer) for observer in range(players) if observer != assayer]
    return cases


@pytest.mark.parametrize("players,seed,rich", [(3, 0, True), (4, 1, True), (3, 2, False)])
def test_a_private_assay_changes_nothing_another_seat_knows(players, seed, rich):
    """A different identity drawn for a piece another seat assays leaves a seat's observation and knowledge text as
    they were at every later node (until it sees a piece that differs), and the public text as it was."""
    compared = 0
    cases = private_cases(players, seed, rich)
    assert cases
    for chance, history, node, other, observer in cases:
        found = divergences(chance, history, node, other, observer, rich)
        assert found["observation"] == found["knowledge"] == found["public"] == 0, (node, observer, found)
        compared += found["compared"]
    assert compared > 50


def test_the_privacy_check_finds_a_leak(monkeypatch):
    """Knowledge text that told every piece would be caught by the check above."""
    truthful = PiecepackPosition.knowledge_text

    def leaky(self, seat):
        text = truthful(self, seat)
        if self.env is None:
            return text
        return text + " " + ",".join(code_of(*self.env.game.piece(q)) for q in range(NUM_PIECES))

    cases = private_cases(3, 0, True, limit=1)
    assert all(divergences(*case, rich=True)["knowledge"] == 0 for case in cases)
    monkeypatch.setattr(PiecepackPosition, "knowledge_text", leaky)
    assert all(divergences(*case, rich=True)["knowledge"] > 0 for case in cases)


def test_knowledge_text_tells_apart_what_the_observation_tells_apart():
    """Two nodes a seat observes differently always have different knowledge texts for it (the text holds at least
    what the vector does), and the text follows from what the seat knows."""
    texts = {}

    def visit(position):
        if position.env is None or position.player == CHANCE:
            return
        for seat in range(position.game.num_players):
            text = position.knowledge_text(seat)
            vector = position.observation(seat).tobytes()
            assert texts.setdefault((seat, text), vector) == vector
            assert text == position.knowledge_text(seat)

    play(3, seed=12, rich=True, visit=visit)
    play(4, seed=13, rich=True, visit=visit)
    assert len(texts) > 500


CHANGES = {
    "assayed": lambda game: game.assayed.__setitem__(30, 0b10),
    "market_used": lambda game: game.market_used.__setitem__(2, True),
    "offers_made": lambda game: game.offers_made.__setitem__(1, 2),
    "powered": lambda game: game.powered.add(7),
    "warehouse": lambda game: game.warehouse[1].__setitem__(0, False),
    "offer_log": lambda game: game.offer_log.append((1, 2, 0, 1, 3, 2, False)),
    "holdings": lambda game: game.holdings[2].__setitem__(3, 4),
}
"""Changes to a game, by hand, of what a seat's observation vector holds and the board text does not all show."""


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_knowledge_text_holds_what_the_observation_holds(change):
    position = PiecepackChance().new_position()
    while position.player == CHANCE:
        position.apply(position.legal_actions()[0])
    twin = position.copy()
    CHANGES[change](twin.env.game)
    twin.env.sync()
    assert not np.array_equal(twin.observation(0), position.observation(0))
    assert twin.knowledge_text(0) != position.knowledge_text(0)


def test_knowledge_text_tells_apart_offers_declined():
    """Two different offers, each declined, leave the same holdings but a different log of answered offers."""
    position = PiecepackChance().new_position()
    while position.player == CHANCE:
        position.apply(position.legal_actions()[0])
    offers = [a for a in position.legal_actions() if A.OFFER <= a < A.ACCEPT]
    texts, vectors = [], []
    for offer in offers[:2]:
        twin = position.copy()
        twin.apply(offer)
        twin.apply(A.DECLINE)
        texts.append(twin.knowledge_text(position.player))
        vectors.append(twin.observation(position.player))
    assert not np.array_equal(*vectors) and texts[0] != texts[1]


def test_private_text_names_only_the_seats_own_assays():
    position, _ = play(3, seed=4, rich=True)
    game = position.env.game
    for seat in range(3):
        mine = {q for q in range(NUM_PIECES) if not game.face_up[q] and game.assayed[q] >> seat & 1}
        text = position.private_text(seat)
        assert (text == "") == (not mine)
        assert text.count(",") == max(len(mine) - 1, 0)
        for q in mine:
            assert code_of(*game.piece(q)) in text
    assert "assayed" not in position.public_text().split("\n")[0]


# --- resampling ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,seed", [(3, 0), (4, 1)])
def test_resample_keeps_what_the_seat_knows_and_redraws_the_rest(players, seed):
    rng = np.random.default_rng(seed)
    draws = {"nodes": 0, "changed": 0}
    seen = []

    def visit(position):
        if position.player == CHANCE:
            with pytest.raises(GoldrushEnvError, match="chance node"):
                position.resample(0, rng.random)
            return
        if position.player == TERMINAL or rng.random() > 0.2:
            return
        seen.append(position.copy())
        game = position.env.game
        before = [game.piece(q) for q in range(NUM_PIECES)]
        for seat in range(players):
            new = position.resample(seat, rng.random)
            assert [game.piece(q) for q in range(NUM_PIECES)] == before  # the node itself is untouched
            other = new.env.game
            assert np.array_equal(new.observation(seat), position.observation(seat))
            for anyone in range(players):
                assert np.array_equal(new.observation(anyone), observation_vector(other.known_to(anyone)))
            assert new.knowledge_text(seat) == position.knowledge_text(seat)
            assert new.public_text() == position.public_text()
            assert new.legal_actions() == position.legal_actions() and new.player == position.player
            assert other.assayed == game.assayed and other.face_up == game.face_up
            assert new.returns() == position.returns()
            hidden = [q for q in range(NUM_PIECES) if not game.face_up[q] and not game.assayed[q] >> seat & 1]
            assert all(other.piece(q) == game.piece(q) for q in range(NUM_PIECES) if q not in hidden)
            assert sorted(other.piece(q) for q in hidden) == sorted(game.piece(q) for q in hidden)
            draws["nodes"] += 1
            draws["changed"] += any(other.piece(q) != game.piece(q) for q in hidden)

    play(players, seed=seed, rich=True, visit=visit)
    assert draws["nodes"] > 20 and draws["changed"] > draws["nodes"] // 2
    for position in seen[::max(len(seen) // 4, 1)]:  # a resampled node plays on to the end
        new = position.resample(position.player, rng.random)
        while not new.is_terminal:
            new.apply(new.draw(rng.random) if new.player == CHANCE else choose(rng, new.legal_actions()))
        assert new.env.game.is_over and len(new.returns()) == players


def test_a_resampled_game_still_replays_from_its_record():
    position, history = play(3, seed=11)
    middle = replay(position.game, history[: len(history) // 2])
    while middle.player == CHANCE:
        middle.apply(middle.legal_actions()[0])
    rng = np.random.default_rng(1)
    new = middle.resample(middle.player, rng.random)
    while not new.is_terminal:
        new.apply(new.draw(rng.random) if new.player == CHANCE else choose(rng, new.legal_actions()))
    assert Game.from_record(new.env.game.to_record()).final() == new.env.game.final()


def test_resample_draws_a_hidden_tile_uniformly():
    position, history = play(3, seed=6, rich=True)
    position = replay(position.game, history[: len(history) // 3], rich=True)
    while position.player == CHANCE:
        position.apply(position.legal_actions()[0])
    seat = position.player
    game = position.env.game
    hidden = [q for q in range(NUM_PLOTS) if not game.face_up[q] and not game.assayed[q] >> seat & 1]
    assert len(hidden) > 10
    counts = {code: 0 for code in (game.tile(q) for q in hidden)}
    rng = np.random.default_rng(0)
    for _ in range(60 * len(hidden)):
        counts[position.resample(seat, rng.random).env.game.tile(hidden[0])] += 1
    assert chi_square(list(counts.values())) < 2 * len(hidden) + 30


# --- copies, words, parameters -------------------------------------------------------------------------------------


def test_a_copy_is_independent():
    position, history = play(4, seed=8)
    middle = replay(position.game, history[: len(history) // 2])
    while middle.player == CHANCE:
        middle.apply(middle.legal_actions()[0])
    snapshot = (middle.knowledge_text(0), middle.observation(1).copy(), middle.legal_actions(), middle.returns())
    twin = middle.copy()
    assert twin.env is not middle.env and twin.env.game is not middle.env.game
    rng = np.random.default_rng(0)
    while not twin.is_terminal:
        twin.apply(twin.draw(rng.random) if twin.player == CHANCE else choose(rng, twin.legal_actions()))
    assert (middle.knowledge_text(0), middle.legal_actions(), middle.returns()) == (snapshot[0], *snapshot[2:])
    assert np.array_equal(middle.observation(1), snapshot[1])
    assert not middle.is_terminal


def test_a_position_pickles_at_every_stage():
    """OpenSpiel serializes a state by pickling its node: the first nodes (no environment yet), a held action's
    chance node and a seat's decision come back alike and play on."""
    import pickle

    position, history = play(3, seed=16)
    stops = [2, next(i for i, (player, _) in enumerate(history) if i > 5 and player == CHANCE), len(history) // 2]
    for stop in stops:
        node = replay(position.game, history[:stop])
        back = pickle.loads(pickle.dumps(node))
        assert (back.player, back.legal_actions(), back.event, back.returns()) == (
            node.player, node.legal_actions(), node.event, node.returns())
        assert back.knowledge_text(1) == node.knowledge_text(1)
        assert np.array_equal(back.observation(2), node.observation(2))
        for _, action in history[stop:]:
            back.apply(action)
        assert back.is_terminal and back.returns() == position.returns()


def test_the_first_nodes_and_their_words():
    position = PiecepackChance(players=4).new_position()
    assert position.player == CHANCE and position.event == ("start", 0) and position.env is None
    assert not position.observation(2).any() and position.private_text(1) == ""
    assert position.action_text(CHANCE, 2) == "start player: seat 2"
    position.apply(2)
    assert position.action_text(CHANCE, 4) == "Moon die: 4"
    for face in (4, 0, 5, 1):
        assert position.knowledge_text(0) == position.public_text()
        assert "start seat 2" in position.public_text()
        position.apply(face)
    game = position.env.game
    assert (game.start, game.dice, position.player) == (2, (4, 0, 5, 1), 2)
    assert position.rewards == [0.0] * 4 and position.returns() == [0.0] * 4
    assert position.action_text(2, A.END_FREE_TRADE).startswith("End")
    assert "seat 2" in position.knowledge_text(2) and "viewer: seat 2" in position.knowledge_text(2)
    with pytest.raises(GoldrushEnvError, match="seat"):
        position.observation(4)
    with pytest.raises(GoldrushEnvError, match="not legal"):
        position.apply(A.END_DEVELOPMENT)


def test_chance_words_name_only_what_was_decided():
    texts = {}

    def visit(position):
        if position.player == CHANCE and position.event[0] in ("market", "piece"):
            outcome = position.legal_actions()[-1]
            texts.setdefault(position.event[0] + str(position.event[1] < NUM_PLOTS),
                             (position.action_text(CHANCE, outcome), position.event[1], outcome))

    play(3, seed=9, rich=True, visit=visit)
    play(4, seed=10, rich=True, visit=visit)
    for key, (text, index, outcome) in texts.items():
        if key.startswith("market"):
            assert text == f"Market die {index + 1}: {outcome + 1}"
        elif index < NUM_PLOTS:
            assert text == f"tile of plot {index}: {BOX[outcome]}"
        else:
            plot = index - NUM_PLOTS
            assert text == f"coin of plot {plot}: {code_of(ROW_SUIT[plot // COLUMNS], outcome)}"
    assert len(texts) >= 2


@pytest.mark.parametrize("params,named,allowed", [
    ({"players": 5}, "players=5", "3 or 4"), ({"players": 2}, "players=2", "3 or 4"),
    ({"reward": "money"}, "reward='money'", "'win', 'score'"), ({"players": "3"}, "'3'", "int"),
    ({"players": True}, "True", "int"), ({"seats": 3}, "seats", "players"),
])
def test_bad_parameters_are_refused_by_name(params, named, allowed):
    with pytest.raises(GoldrushEnvError) as error:
        PiecepackChance(**params)
    assert named in str(error.value) and allowed in str(error.value)


# --- OpenSpiel -----------------------------------------------------------------------------------------------------


def test_openspiel_plays_and_searches_the_game():
    pyspiel = pytest.importorskip("pyspiel")
    import goldrush_env.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_goldrush_piecepack", {"players": 4, "reward": "score"})
    info = game.get_type()
    assert info.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert info.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == 4 and game.num_distinct_actions() == 488 and game.max_chance_outcomes() == 24
    assert game.max_game_length() == PiecepackChance(players=4).max_game_length
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        player = state.current_player()
        if decisions % 25 == 0:
            before = (state.information_state_string(player), state.legal_actions(), state.history())
            clone = state.clone()
            clone.apply_action(clone.legal_actions()[-1])
            assert (state.information_state_string(player), state.legal_actions(), state.history()) == before
            twin = state.resample_from_infostate(player, sampler)
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.information_state_tensor(player) == state.information_state_tensor(player)
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions += 1
    assert len(state.returns()) == 4 and abs(sum(state.returns())) < 1e-9
