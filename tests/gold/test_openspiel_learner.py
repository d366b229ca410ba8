"""OpenSpiel's own learners on Gold's quarter table (examples/openspiel_learner.py): a tiny run writes its model
and figures, a seed gives the same run twice, the saved network plays as a pyspiel bot, and the loop's environment
hands each seat the time steps OpenSpiel's own environment gives, its rewards summed since it last acted."""

import json
from operator import attrgetter

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("pyspiel")

from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from goldrush_env.gold.encoder import SLICES  # noqa: E402
from conftest import example  # noqa: E402

bot, environment, load_game, main, play_episode, table_inputs, win_share = attrgetter(
    "bot", "environment", "load_game", "main", "play_episode", "table_inputs", "win_share",
)(example("openspiel_learner"))

TINY = ["--episodes", "6", "--eval-games", "4", "--eval-fields", "greedy", "--eval-every", "3", "--curve-games", "2",
        "--hidden", "16", "--seed", "5"]
SMALL = {  # settings small enough that each learner learns within 6 games
    "nfsp": ["--batch-size", "8", "--min-buffer", "16", "--learn-every", "4"],
    "dqn": ["--batch-size", "8", "--min-buffer", "16", "--learn-every", "4"],
    "a2c": ["--batch-size", "16"],
}


def _run(folder, algorithm="nfsp"):
    return main([*TINY, "--algorithm", algorithm, *SMALL[algorithm], "--out", str(folder)])


@pytest.fixture(scope="module")
def nfsp_runs(tmp_path_factory):
    folders = [tmp_path_factory.mktemp("nfsp") for _ in range(2)]
    return folders, [_run(folder) for folder in folders]


def test_a_tiny_run_writes_its_model_and_figures(nfsp_runs):
    (folder, _), (summary, _) = nfsp_runs
    assert {path.name for path in folder.iterdir()} == {"model.npz", "summary.json", "curve.csv"}
    written = json.loads((folder / "summary.json").read_text())
    assert written == json.loads(json.dumps(summary))
    assert written["algorithm"] == "nfsp" and written["episodes"] == 6 and written["eval_games"] == 4
    assert written["params"] == {"players": 2, "table": "quarter", "memory": "perfect", "reward": "score"}
    assert written["train_max_turns"] == 30 and written["input_size"] == 565
    assert written["results"]["policy vs greedy"]["turn_limit_games"] == 0
    assert 0 <= written["low"] <= written["win_share"] <= written["high"] <= 1
    assert set(written["results"]) == {"policy vs greedy", "q vs greedy"}
    assert [point["episode"] for point in written["curve"]] == [3]
    # Seconds to a tenth: a tiny run may take less than 0.05 s (a timing, so no more than its presence is checked).
    assert written["seconds"]["train"] >= 0 and written["settings"]["hidden"] == "16"


def test_the_same_seed_gives_the_same_summary(nfsp_runs):
    _, (first, second) = nfsp_runs
    drop = ("seconds", "curve")
    assert {k: v for k, v in first.items() if k not in drop} == {k: v for k, v in second.items() if k not in drop}
    assert [{k: v for k, v in p.items() if k != "train_seconds"} for p in first["curve"]] == \
        [{k: v for k, v in p.items() if k != "train_seconds"} for p in second["curve"]]


@pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy.ndarrays")  # OpenSpiel's A2C batches
@pytest.mark.parametrize("algorithm", ["dqn", "a2c"])
def test_the_other_learners_run(tmp_path, algorithm):
    summary = _run(tmp_path, algorithm)
    assert summary["algorithm"] == algorithm and set(summary["results"]) == {"policy vs greedy"}
    assert (tmp_path / "model.npz").is_file()


def test_the_saved_network_plays_as_a_pyspiel_bot(nfsp_runs):
    (folder, _), (summary, _) = nfsp_runs
    game = load_game("score")
    figures = win_share(game, lambda g, seat: bot(g, seat, folder / "model.npz"), games=4, seed=summary["eval_seed"])
    assert figures == summary["results"]["policy vs greedy"]
    state = game.new_initial_state()
    assert bot(game, 0, folder / "model.npz", network="q").step(state) in state.legal_actions()
    with pytest.raises(GoldrushEnvError, match="no network"):
        bot(game, 0, folder / "model.npz", network="nothing")


def test_a_used_folder_or_another_algorithms_setting_is_refused(nfsp_runs, tmp_path):
    (folder, _), _ = nfsp_runs
    with pytest.raises(SystemExit):
        main([*TINY, "--out", str(folder)])
    with pytest.raises(SystemExit):
        main(["--algorithm", "a2c", "--anticipatory", "0.2", "--out", str(tmp_path / "new")])


def test_the_environment_is_openspiels_own_and_each_seat_gets_all_its_rewards():
    from open_spiel.python import rl_environment

    game = load_game("score")
    stock = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    ours = environment(game, 3)
    rng = np.random.default_rng(1)
    a, b = stock.reset(), ours.reset()
    while True:
        assert a.step_type == b.step_type and a.rewards == b.rewards and a.discounts == b.discounts
        assert a.observations["legal_actions"] == b.observations["legal_actions"]
        assert a.observations["current_player"] == b.observations["current_player"]
        assert np.array_equal(np.asarray(a.observations["info_state"], np.float32), b.observations["info_state"])
        if a.last():
            break
        seat = a.observations["current_player"]
        action = int(rng.choice(a.observations["legal_actions"][seat]))
        a, b = stock.step([action]), ours.step([action])

    class Recorder:
        """An agent playing at random that keeps the rewards it is handed."""

        def __init__(self, seat):
            self.seat, self.got = seat, 0.0

        def step(self, time_step, is_evaluation=False):
            if time_step.rewards is not None:
                self.got += time_step.rewards[self.seat]
            if time_step.last():
                return None
            legal = time_step.observations["legal_actions"][self.seat]

            class Output:
                action = legal[len(legal) // 2]
            return Output

    agents = [Recorder(0), Recorder(1)]
    totals = play_episode(ours, agents)
    assert [agent.got for agent in agents] == pytest.approx(list(totals))
    assert list(totals) == pytest.approx(ours.get_state.returns()) and totals[0] != 0


def test_the_inputs_left_out_never_change_on_the_quarter_table():
    game = load_game("score", max_turns=40)
    kept = table_inputs(game)
    assert len(kept) == 565 and len(set(kept)) == 565
    left_out = np.setdiff1d(np.arange(game.information_state_tensor_size()), kept)
    turn = SLICES["turn"].start  # completed turns over the turn limit
    assert turn in left_out
    first = np.asarray(game.new_initial_state().information_state_tensor(0))
    rng = np.random.default_rng(0)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
                continue
            for seat in range(2):
                changed = state.position.observation(seat)[left_out] != first[left_out]
                assert left_out[changed].tolist() in ([], [turn])
            state.apply_action(int(rng.choice(state.legal_actions())))
