"""The self-play learner (goldrush_train.gold.selfplay) and its player, selfplay."""

import json

import numpy as np
import pytest

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold import raw_env
from goldrush_env.gold.cards import TABLES
from goldrush_env.streams import seed_streams
from goldrush_agents import make_agent
from goldrush_agents.gold.selfplay import TABLE_MODELS, Network, SelfPlayAgent, shipped_model
from goldrush_agents.gold.turns import Search

torch = pytest.importorskip("torch")

from goldrush_train.gold.selfplay import NumpyValue, SelfPlay, export, main, make_net, play_batch, train  # noqa: E402
from goldrush_train.win_shares import evaluate  # noqa: E402

TINY = {"table": "quarter", "seed": 0, "games": 1024, "batch": 128, "replay": 4.0, "batch_size": 256,
        "eval_every": 1024, "eval_games": 40, "final_games": 40}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """1,024 self-play games on the quarter table, seed 0 (seconds), and the same network untrained."""
    folder = tmp_path_factory.mktemp("selfplay")
    summary = train(SelfPlay(**TINY, run_dir=str(folder / "run")))
    torch.manual_seed(0)
    untrained = folder / "untrained.npz"
    np.savez(untrained, **export(make_net(128, 2), "quarter", 2))
    return folder / "run" / "model.npz", untrained, summary


def _value_error(path, games=128):
    """The mean squared error of the network's value (the mover's share) against the results of new games it
    played itself."""
    network = Network(path)
    search = Search(2, TABLES["quarter"].rush_at, network.value)
    batch = play_batch(search, "quarter", np.arange(games) % 2, seed_streams(123, games), explore=0.0,
                       temperature=0.05, lam=0.7)
    values = network.value(batch.features)[:, 0]
    outcomes = batch.results[batch.games, batch.seats]
    return float(((values - outcomes) ** 2).mean())


def test_a_tiny_run_learns_its_values_on_the_quarter_table(tiny_run):
    """After 1,024 of its own games the value head predicts the results of 128 new games far better than the same
    network untrained (a squared error of 0.03 against 0.25 when written)."""
    model, untrained, _ = tiny_run
    assert _value_error(model) < _value_error(untrained) - 0.05


def test_a_tiny_run_learns_a_policy_on_the_quarter_table(tiny_run):
    """The network alone (no search) beats random by more than it did untrained (intervals apart), and beats its
    untrained self head to head. Over 100 games, when written: 0.71 [0.615, 0.79] against random, untrained 0.46
    [0.37, 0.557]; 0.715 [0.62, 0.79] against its untrained self."""
    model, untrained, _ = tiny_run
    trained, before = [evaluate(f"selfplay[path='{path}',depth=0]", ["random"], games=100, seed=5, table="quarter",
                                workers=1)[0] for path in (model, untrained)]
    assert trained.low > before.high, (trained, before)
    duel = evaluate(f"selfplay[path='{model}',depth=0]", [f"selfplay[path='{untrained}',depth=0]"], games=100, seed=5,
                    table="quarter", workers=1)[0]
    assert duel.low > 0.5, duel


def test_a_run_writes_its_curve_and_summary(tiny_run):
    model, _, summary = tiny_run
    assert model.is_file()
    progress = [json.loads(line) for line in (model.parent / "progress.jsonl").read_text().splitlines()]
    assert [point["games"] for point in progress] == [1024]
    assert [e["depth"] for e in progress[0]["evaluations"]] == [1, 0]
    assert progress[0]["games_per_second"] > 0
    assert [e["depth"] for e in summary["final"]] == [1, 0]
    assert all(e["games"] == 40 and e["opponent"] == "greedy" for e in summary["final"])


def test_the_same_seed_trains_the_same_network(tmp_path):
    # Two batches of games, the second played by the network the first trained; a small evaluation at the end.
    short = {**TINY, "games": 128, "batch": 64, "eval_every": 128, "eval_games": 4, "final_games": 4}
    for name in ("first", "again"):
        train(SelfPlay(**short, run_dir=str(tmp_path / name)))
    torch.manual_seed(0)  # as train() seeds its network
    start = export(make_net(128, 2), "quarter", 2)
    with np.load(tmp_path / "first" / "model.npz") as first, np.load(tmp_path / "again" / "model.npz") as second:
        assert first.files == second.files
        for key in first.files:
            assert np.array_equal(first[key], second[key]), key
        assert not np.array_equal(first["value.weight"], start["value.weight"])  # trained, not as it started


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_td_lambda_targets_are_win_shares_that_end_at_the_result(num_players):
    """Each target is a share per seat summing to 1; a game's last decision with lambda 1 gets its result (seen
    from its mover); with lambda 0, the search's own value."""
    torch.manual_seed(1)
    value = NumpyValue(make_net(16, num_players), num_players)
    search = Search(num_players, TABLES["quarter"].rush_at, value)
    for lam in (1.0, 0.0):
        batch = play_batch(search, "quarter", np.arange(8) % num_players, seed_streams(7, 8), explore=0.3,
                           temperature=0.05, lam=lam)
        np.testing.assert_allclose(batch.targets.sum(axis=1), 1, atol=1e-5)
        assert batch.results.sum(axis=1) == pytest.approx(np.ones(8))
        if lam == 1.0:
            mine = batch.targets[np.arange(len(batch.seats)), 0]
            np.testing.assert_allclose(mine, batch.results[batch.games, batch.seats], atol=1e-6)
        assert set(batch.games.tolist()) == set(range(8))
        assert (batch.turns > 0).all()


@pytest.mark.parametrize("argv, message", [
    (["--table", "tiny"], "--table must be one of"),
    (["--games", "0"], "--games"),
    (["--lam", "1.5"], "--lam must be a number from 0 to 1, got 1.5"),
    (["--temperature", "0"], "--temperature must be a finite number > 0"),
    (["--table", "half", "--ship"], "--ship: at 2 players the package ships models for the tables"),
    (["--num-players", "6"], "--num-players"),
    (["--replay", "0"], "--replay must be a finite number > 0"),
])
def test_the_command_refuses_bad_values_by_name(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--run-dir", str(tmp_path / "run")])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_player_refuses_what_it_cannot_do(tmp_path):
    with pytest.raises(GoldrushEnvError, match=r"depth must be 0 \(the network alone\), 1 or 2 .*, got 3"):
        SelfPlayAgent(depth=3)
    with pytest.raises(GoldrushEnvError, match="no selfplay model at"):
        SelfPlayAgent(path=tmp_path / "none.npz")
    with pytest.raises(GoldrushEnvError, match=r"selfplay ships models for \[2, 3, 4, 5\] players, not 6"):
        shipped_model(6)
    env = raw_env(num_players=3)
    env.reset(seed=0)
    with pytest.raises(GoldrushEnvError, match="selfplay_2p_full.npz plays 2-player games, got a view of 3"):
        SelfPlayAgent(path=shipped_model(2), seed=0).act(env.view(0))


@pytest.mark.parametrize("num_players", [2, 3])
@pytest.mark.parametrize("memory", ["perfect", "human"])
def test_selfplay_plays_legal_flips_and_replays_with_a_seed(memory, num_players):
    """Human memory too: a seat that forgot a card counts it among the unseen ones."""
    from goldrush_agents.arena import play_game
    from conftest import Checked

    for depth in (1, 0):
        players = [Checked(make_agent(f"selfplay[depth={depth}]", seed=4))]
        players += [make_agent("greedy", seed=5 + seat) for seat in range(1, num_players)]
        games = [play_game(players, seed=8, memory=memory, memory_capacity=6) for _ in range(2)]
        assert games[0].record["flips"] == games[1].record["flips"]
        assert games[0].turns > 0


@pytest.mark.parametrize("num_players, table", [(n, t) for n, tables in TABLE_MODELS.items() for t in tables])
def test_the_shipped_models_play_whole_games(num_players, table):
    """make_agent("selfplay") plays the shipped model of the table size: legal moves to the end, both depths; the
    model says its size."""
    assert Network(shipped_model(num_players, table)).num_players == num_players
    for depth in (1, 0):
        row = evaluate(f"selfplay[depth={depth}]", ["random"], num_players=num_players, games=10, seed=0,
                       table=table, workers=1)[0]
        assert row.games == 10


@pytest.mark.parametrize("depth", [0, 1])
def test_many_views_at_once_get_the_flips_one_at_a_time_gets(depth, tmp_path):
    """act_many (one search over all the views, as the batched tournament plays) flips where act, view after view,
    flips from the same seed; and a batched tournament plays selfplay through it (a 3-player network of 16 units,
    untrained)."""
    from goldrush_agents.gold.batched import BatchedSelfPlay, batched_policy
    from goldrush_agents.tournament import run_tournament

    torch.manual_seed(0)
    model = tmp_path / "model.npz"
    np.savez(model, **export(make_net(16, 3), "full", 3))
    views, rng = [], np.random.default_rng(0)
    for seed in range(6):
        env = raw_env(num_players=3)
        env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 60))):
            if env.game.is_finished:
                break
            env.step_from_view(int(rng.choice(env.view(env.game.current_player).legal_actions)))
        if not env.game.is_finished:
            views.append(env.view(env.game.current_player))
    together = SelfPlayAgent(seed=3, depth=depth, path=model).act_many(views)
    one_by_one = SelfPlayAgent(seed=3, depth=depth, path=model)
    assert together == [one_by_one.act(view) for view in views]
    entrant = f"selfplay[path='{model}',depth={depth}]"
    assert isinstance(batched_policy(entrant), BatchedSelfPlay)
    result = run_tournament([entrant, "greedy"], num_players=3, games=6, seed=0, batched=True)
    assert sum(p.games for p in result.pairings) == 12
