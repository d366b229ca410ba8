"""Every game of the registry in OpenSpiel (goldrush_env.openspiel): OpenSpiel's own checks, on combinations of
each game's few-valued options that hold every value of each, and what the bridge promises of the game types (on
combinations that hold every pair of values), the parameters and our bots."""

import itertools
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
bridge = pytest.importorskip("goldrush_env.openspiel")
api_test = pytest.importorskip("open_spiel.integration_tests.api_test")

from goldrush_env.chance import CHANCE, TERMINAL  # noqa: E402
from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from goldrush_env.games import specs  # noqa: E402

GAMES = [spec for spec in specs() if spec.chance]


def pairwise(spec):
    """Combinations of the game's few-valued options (its ChanceGame's CHOICES) in which every pair of values of
    two options appears at least once: most of what the whole product would find, in a fraction of its games."""
    choices = spec.load("chance").CHOICES
    everything = [dict(zip(choices, values)) for values in itertools.product(*choices.values())]

    def pairs(params):
        return {(a, params[a], b, params[b]) for a, b in itertools.combinations(sorted(params), 2)}

    wanted = set().union(*(pairs(params) for params in everything)) if choices else set()
    chosen = [] if choices else [{}]
    while wanted:
        best = max(everything, key=lambda params: len(pairs(params) & wanted))
        chosen.append(best)
        wanted -= pairs(best)
    return chosen


def covering(spec):
    """Fewer combinations in which every value of every option still appears."""
    choices = spec.load("chance").CHOICES
    longest = max((len(values) for values in choices.values()), default=1)
    return [{name: values[i % len(values)] for name, values in choices.items()} for i in range(longest)]


CASES = [(spec.name, params) for spec in GAMES for params in pairwise(spec)]
COVERING = [(spec.name, params) for spec in GAMES for params in covering(spec)]


def test_every_game_of_the_registry_with_explicit_chance_is_registered():
    assert GAMES and {spec.name for spec in GAMES} == set(bridge.GAMES)
    registered = set(pyspiel.registered_names())
    for spec in GAMES:
        assert bridge.PREFIX + spec.name in registered
        game = pyspiel.load_game(bridge.PREFIX + spec.name)
        assert game.num_players() == spec.default_players
        assert game.get_type().min_num_players == spec.min_players
        assert game.get_type().max_num_players == spec.max_players


@pytest.mark.parametrize("name, params", COVERING, ids=[f"{name}-{params}" for name, params in COVERING])
def test_random_games_pass_openspiel_checks_with_serialization(name, params):
    """On combinations that hold every value of every option: the check clones and serializes the state at every
    step, slow on the big tables; every pair of values plays in test_the_game_type_says_what_the_game_is."""
    game = bridge.load(name, **params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def curious_states(game, games=2, keep=60, seed=0):
    """Decision nodes of a few random games in which a seat, when it can, takes an action after which it knows
    something the others do not (tried on up to 8 of its actions); ``keep`` of them, those where a seat knows
    something of its own first. OpenSpiel samples states by expanding a random node of a growing tree, which stays
    near the root, and private information can come late (in Gold Rush, with a seat's first assay)."""
    rng, private, public = np.random.default_rng(seed), [], []
    n = game.num_players()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
                continue
            secret = any(state.position.private_text(s) for s in range(n))
            (private if secret else public).append(state.clone())
            seat, actions = state.current_player(), state.legal_actions()
            telling = []
            for action in rng.permutation(actions)[:8] if not secret else ():
                child = state.child(int(action))
                while child.is_chance_node():
                    child.apply_action(child.chance_outcomes()[0][0])
                if not child.is_terminal() and child.position.private_text(seat):
                    telling.append(int(action))
            state.apply_action(int(rng.choice(telling or actions)))
    rng.shuffle(private)
    rng.shuffle(public)
    return (private + public)[:keep]


def _api_case(name, params):
    game = bridge.load(name, **params)

    def set_up_class(cls):
        # OpenSpiel samples its states with the global `random`, unseeded: seeded here, every run checks the same
        # states, and a failure repeats.
        before = random.getstate()
        random.seed(0)
        try:
            api_test.EnforceAPIOnPartialTreeBase.setUpClass.__func__(cls)
        finally:
            random.setstate(before)
        cls.some_states = cls.some_states + curious_states(cls.game)

    return type("EnforceAPI", (api_test.EnforceAPIOnPartialTreeBase,), {
        "game_name": bridge.PREFIX + name, "game": game, "setUpClass": classmethod(set_up_class)})


for _spec in GAMES:
    for _i, _params in enumerate(covering(_spec)):
        # OpenSpiel's API tests of its Python games, unchanged, on its sample of states and on curious_states.
        globals()[f"TestOpenSpielAPI_{_spec.name}_{_i}"] = _api_case(_spec.name, _params)


@pytest.mark.parametrize("name, params", CASES, ids=[f"{name}-{params}" for name, params in CASES])
def test_the_game_type_says_what_the_game_is(name, params):
    game = bridge.load(name, **params)
    kind, chance = game.get_type(), game.chance
    assert kind.short_name == bridge.PREFIX + name
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.num_players() == params.get("players", game.num_players())
    rng = np.random.default_rng(0)
    state, sums, private = game.new_initial_state(), set(), False
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                assert abs(sum(probabilities) - 1) < 1e-9 and all(p > 0 for p in probabilities)
                assert max(outcomes) < game.max_chance_outcomes()
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
                continue
            rewards = state.rewards()
            if kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL:
                assert rewards == [0.0] * game.num_players()
            private |= any(state.position.private_text(seat) for seat in range(game.num_players()))
            state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert all(game.min_utility() - 1e-9 <= r <= game.max_utility() + 1e-9 for r in returns)
        sums.add(round(sum(returns), 9))
    if kind.utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sums == {0.0}
    # Perfect information: no seat ever knows what another does not.
    if kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        assert not private
    assert chance.max_game_length == game.max_game_length()


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_bad_parameters_are_refused_naming_them(spec):
    chance_class = spec.load("chance")
    with pytest.raises(GoldrushEnvError, match="unknown parameters \\['colour'\\]"):
        chance_class(colour="red")
    with pytest.raises(GoldrushEnvError, match="players"):
        chance_class(players=spec.max_players + 1)
    with pytest.raises(GoldrushEnvError, match="players"):
        chance_class(players="3")
    with pytest.raises(Exception, match="players"):  # through OpenSpiel, which passes our error on
        pyspiel.load_game(bridge.PREFIX + spec.name, {"players": spec.max_players + 1})


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_a_node_refuses_an_illegal_action_and_changes_nothing(spec):
    position = spec.load("chance")().new_position()
    while position.player == CHANCE:
        position.apply(position.chance_outcomes()[0][0])
    before = position.legal_actions()
    illegal = next((a for a in range(position.game.num_actions) if a not in before), position.game.num_actions)
    with pytest.raises(GoldrushEnvError, match=f"action {illegal} is not legal"):
        position.apply(illegal)
    with pytest.raises(GoldrushEnvError, match="not legal"):
        position.apply(True)
    assert position.legal_actions() == before


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_copies_and_pickles_play_on_as_the_original(spec):
    """A copy (OpenSpiel's clone) and a pickle (its serialization) are the same node, and independent of it."""
    import pickle

    game = bridge.load(spec.name)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    copies = [state.clone(), pickle.loads(pickle.dumps(state.position))]
    tail = np.random.default_rng(4)
    played = []
    for node in [state.position, copies[0].position, copies[1]]:
        tail = np.random.default_rng(4)
        seen = []
        while node.player != TERMINAL and len(seen) < 60:
            if node.player == CHANCE:
                action = node.draw(tail.random)
            else:
                action = int(tail.choice(node.legal_actions()))
                seen.append([node.observation(s).tolist() for s in range(node.game.num_players)])
            node.apply(action)
        played.append((seen, node.returns()))
    assert played[0] == played[1] == played[2]


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_any_entrant_plays_as_an_openspiel_bot(spec):
    from goldrush_agents.openspiel import EntrantBot

    game = bridge.load(spec.name)
    bots = [EntrantBot(game, seat, "random", seed=seat) for seat in range(game.num_players())]
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    with pytest.raises(GoldrushEnvError, match="plays seat"):  # the game has ended: no seat is to act
        bots[0].step(state)
    with pytest.raises(GoldrushEnvError, match="player_id"):
        EntrantBot(game, game.num_players(), "random")
