"""The self-play learner (goldrush_train.gold.selfplay) and its player, selfplay."""

import json

import numpy as np
import pytest

from goldrush_env.gold import raw_env
from goldrush_env.errors import GoldRushError
from goldrush_agents import make_agent
from goldrush_env.gold.cards import TABLES
from goldrush_agents.gold.selfplay import SHIPPED, Network, SelfPlayAgent, TurnSearch

torch = pytest.importorskip("torch")

from goldrush_train.win_shares import evaluate  # noqa: E402
from goldrush_train.gold.selfplay import SelfPlay, export, main, make_net, play_game, train  # noqa: E402


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """400 self-play games on the quarter table, seed 0 (about 20 s), and the same network untrained."""
    folder = tmp_path_factory.mktemp("selfplay")
    summary = train(SelfPlay(table="quarter", seed=0, games=400, games_per_round=50, updates_per_round=50,
                             eval_every=400, eval_games=40, final_games=40, run_dir=str(folder / "run")))
    torch.manual_seed(0)
    untrained = folder / "untrained.npz"
    np.savez(untrained, **export(make_net(128), "quarter"))
    return folder / "run" / "model.npz", untrained, summary


def _value_error(path, games=100):
    """The mean squared error of the network's value against the results of held-out games it played itself."""
    network = Network(path)
    search = TurnSearch.of_network(network.value, TABLES["quarter"].rush_at)
    rng = np.random.default_rng(123)
    errors = []
    for game in range(games):
        decisions, result = play_game(search, "quarter", game % 2, rng, explore=0.0, temperature=0.05)
        values = network.value(np.stack([x for x, *_ in decisions]))
        outcomes = np.array([result if mover == 0 else 1 - result for *_, mover in decisions])
        errors.append(((values - outcomes) ** 2).mean())
    return float(np.mean(errors))


def test_a_tiny_run_learns_its_values_on_the_quarter_table(tiny_run):
    """After 400 of its own games the value head predicts the results of 100 new games far better than the same
    network untrained (measured: 0.110 against 0.235)."""
    model, untrained, _ = tiny_run
    assert _value_error(model) < _value_error(untrained) - 0.05


def test_a_tiny_run_learns_a_policy_on_the_quarter_table(tiny_run):
    """The network alone (no search) beats random by more than it did untrained (intervals apart; measured 0.66
    against 0.43), and beats its untrained self head to head (measured 0.655)."""
    model, untrained, _ = tiny_run
    trained, before = [evaluate(f"selfplay[path='{path}',depth=0]", ["random"], games=200, seed=5, table="quarter",
                                workers=1)[0] for path in (model, untrained)]
    assert trained.low > before.high, (trained, before)
    duel = evaluate(f"selfplay[path='{model}',depth=0]", [f"selfplay[path='{untrained}',depth=0]"], games=200, seed=5,
                    table="quarter", workers=1)[0]
    assert duel.low > 0.5, duel


def test_a_run_writes_its_curve_and_summary(tiny_run):
    model, _, summary = tiny_run
    assert model.is_file()
    progress = [json.loads(line) for line in (model.parent / "progress.jsonl").read_text().splitlines()]
    assert [point["games"] for point in progress] == [400]
    assert {(e["opponent"], e["depth"]) for e in progress[0]["evaluations"]} == {("greedy", 1), ("greedy", 0),
                                                                                 ("random", 1)}
    assert [e["depth"] for e in summary["final"]] == [1, 0]
    assert all(e["games"] == 40 for e in summary["final"])


def test_the_same_seed_trains_the_same_network(tiny_run, tmp_path):
    model, _, _ = tiny_run
    train(SelfPlay(table="quarter", seed=0, games=400, games_per_round=50, updates_per_round=50, eval_every=400,
                   eval_games=40, final_games=40, run_dir=str(tmp_path / "again")))
    with np.load(model) as first, np.load(tmp_path / "again" / "model.npz") as second:
        assert first.files == second.files
        for key in first.files:
            assert np.array_equal(first[key], second[key]), key


@pytest.mark.parametrize("argv, message", [
    (["--table", "tiny"], "--table must be one of"),
    (["--games", "0"], "--games"),
    (["--lam", "1.5"], "--lam must be a number from 0 to 1, got 1.5"),
    (["--temperature", "0"], "--temperature must be a finite number > 0"),
    (["--table", "half", "--ship"], "--ship: the package ships models for the tables"),
])
def test_the_command_refuses_bad_values_by_name(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--run-dir", str(tmp_path / "run")])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_player_refuses_what_it_cannot_do(tmp_path):
    with pytest.raises(GoldRushError, match="depth must be 0 .* or 1"):
        SelfPlayAgent(depth=2)
    with pytest.raises(GoldRushError, match="no selfplay model at"):
        SelfPlayAgent(path=tmp_path / "none.npz")
    env = raw_env(num_players=3)
    env.reset(seed=0)
    with pytest.raises(GoldRushError, match="2 players, got a view of 3"):
        make_agent("selfplay", seed=0).act(env.view(0))


@pytest.mark.parametrize("memory", ["perfect", "human"])
def test_selfplay_plays_legal_flips_and_replays_with_a_seed(memory):
    """Human memory too: a seat that forgot a card counts it among the unseen ones."""
    from goldrush_agents.arena import play_game
    from conftest import Checked

    for depth in (1, 0):
        games = [play_game([Checked(make_agent(f"selfplay[depth={depth}]", seed=4)), make_agent("greedy", seed=5)],
                           seed=8, memory=memory, memory_capacity=6) for _ in range(2)]
        assert games[0].record["flips"] == games[1].record["flips"]
        assert games[0].turns > 0


@pytest.mark.parametrize("table", sorted(SHIPPED))
def test_the_shipped_models_play_whole_games(table):
    """make_agent("selfplay") plays the shipped model of the table: legal moves to the end, both depths."""
    assert SHIPPED[table].is_file()
    for depth in (1, 0):
        row = evaluate(f"selfplay[depth={depth}]", ["random"], games=10, seed=0, table=table, workers=1)[0]
        assert row.games == 10
