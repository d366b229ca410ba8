"""Ray RLlib: the MultiAgentEnv adapter, PPO on two env runners, the export to numpy, the script and its resume."""

import json

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

import ray  # noqa: E402

from goldrush_agents import make_agent  # noqa: E402
from goldrush_agents.tournament import run_tournament, wilson_interval  # noqa: E402
from goldrush_agents.gold.trained import MlpNumpy, TrainedPolicy  # noqa: E402
from goldrush_agents.weights import load_weights  # noqa: E402
from goldrush_env.gold import raw_env  # noqa: E402
from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from goldrush_env.policy import Policy  # noqa: E402
from goldrush_env.gold.rllib import POLICY, GoldMultiAgentEnv, ppo_config  # noqa: E402
from goldrush_train.win_shares import evaluate  # noqa: E402
from conftest import POSITIONS, VERSION_0, example  # noqa: E402

rllib_ppo = example("rllib_ppo")

TINY = ["--train-batch-size", "200", "--minibatch-size", "100", "--num-epochs", "1", "--hidden", "16",
        "--num-envs-per-env-runner", "2", "--eval-games", "2", "--eval-workers", "1", "--eval-agents", "random"]


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module: starting it is the slow part."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)  # not a cluster running here
    yield
    ray.shutdown()


def play(env, seed, check=None):
    """A whole random game through the adapter, with an AEC env beside it playing the same flips; returns the
    rewards each agent received, the rewards the AEC env paid, and the last step's flags and observations."""
    twin = raw_env(**{key: getattr(env.config, key)
                      for key in ("num_players", "table", "reward", "max_turns", "observation", "action")})
    twin.reset(seed=seed)
    observations, _ = env.reset(seed=seed)
    received, paid = dict.fromkeys(env.possible_agents, 0.0), dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    while True:
        assert list(observations) == [twin.agent_selection]  # only the agent to play sees
        (agent, seen), = observations.items()
        assert env.observation_spaces[agent].contains(seen)
        np.testing.assert_array_equal(seen["observations"], twin.observe(agent)["observation"])
        np.testing.assert_array_equal(seen["action_mask"], twin.action_mask(agent))
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        twin.step(action)
        for name, reward in twin.rewards.items():
            paid[name] += reward
        observations, rewards, terminateds, truncateds, infos = env.step({agent: action})
        assert set(rewards) == set(observations)  # a reward comes with an observation
        for name, reward in rewards.items():
            received[name] += reward
        if terminateds["__all__"] or truncateds["__all__"]:
            return received, paid, terminateds, truncateds, observations


@pytest.mark.parametrize("options", [VERSION_0, {**POSITIONS, "reward": "score", "num_players": 3},
                                     {**POSITIONS, "table": "quarter", "num_players": 5, "reward": "score"},
                                     {"action": "kinds", "observation": "kinds"}])
def test_the_adapter_plays_whole_games_and_pays_every_reward(options):
    env = GoldMultiAgentEnv(options)
    for seed in range(3):
        received, paid, terminateds, truncateds, last = play(env, seed)
        assert received == pytest.approx(paid)  # nothing lost, nothing twice
        assert terminateds == {**dict.fromkeys(env.possible_agents, True), "__all__": True}
        assert not any(truncateds.values())
        assert set(last) == set(env.possible_agents)  # everyone's last observation
        for agent, seen in last.items():
            assert env.observation_spaces[agent].contains(seen) and not seen["action_mask"].any()
        game = env.env.game
        if env.config.reward == "win":
            assert sorted(received.values()) in ([-1.0, 1.0], [0.0, 0.0])
        else:  # the score difference, even where gold reached a seat on another's flip
            n = env.config.num_players
            expected = [(s - (sum(game.scores) - s) / (n - 1)) / 10 for s in game.scores]
            assert list(received.values()) == pytest.approx(expected)


def test_the_adapter_truncates_at_the_turn_limit_with_everyone_s_last_observation():
    env = GoldMultiAgentEnv({"max_turns": 3, "reward": "score"})
    received, paid, terminateds, truncateds, last = play(env, seed=1)
    assert truncateds["__all__"] and not terminateds["__all__"] and set(last) == set(env.possible_agents)
    assert received == pytest.approx(paid)


def test_the_adapter_refuses_what_it_cannot_play():
    with pytest.raises(GoldrushEnvError, match=r"unknown option\(s\) \['tabel'\]"):
        GoldMultiAgentEnv({"tabel": "half"})
    with pytest.raises(GoldrushEnvError, match="unknown option"):
        ppo_config({"players": 3})  # refused when the config is made, before any env runner starts
    env = GoldMultiAgentEnv()
    env.reset(seed=0)
    with pytest.raises(GoldrushEnvError, match="player_0's turn"):
        env.step({"player_1": 0})


def test_two_env_runners_train_the_shared_policy_that_then_plays_tournaments(local_ray, tmp_path):
    config = (ppo_config({"reward": "score", **POSITIONS}, model_config={"fcnet_hiddens": [32, 32]})
              .env_runners(num_env_runners=2, num_envs_per_env_runner=2)
              .training(train_batch_size_per_learner=300, minibatch_size=100, num_epochs=1)
              .debugging(seed=0, log_level="ERROR"))
    algo = config.build_algo()
    try:
        result = algo.train()
        checkpoint = algo.save_to_path(str(tmp_path / "checkpoint"))
    finally:
        algo.stop()
    assert result["fault_tolerance"]["num_healthy_workers"] == 2
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 300
    assert set(result["env_runners"]["num_agent_steps_sampled"]) == {"player_0", "player_1"}
    assert np.isfinite(result["learners"][POLICY]["total_loss"])

    model = rllib_ppo.export_model(checkpoint, tmp_path / "model.npz", play_by="position")
    from ray.rllib.core.rl_module.rl_module import RLModule

    module = RLModule.from_checkpoint(tmp_path / "checkpoint" / rllib_ppo.MODULE_STATE.parent)
    env = GoldMultiAgentEnv(POSITIONS)
    seen = [env.reset(seed=seed)[0]["player_0"] for seed in range(4)]
    arrays = {key: np.stack([s[key] for s in seen]) for key in ("observations", "action_mask")}
    with torch.no_grad():  # the module takes the observations out of the batch it is given: give it a copy
        batch = {key: torch.as_tensor(value) for key, value in arrays.items()}
        logits = module.forward_inference({"obs": batch})["action_dist_inputs"].numpy()
    numpy_logits, _ = MlpNumpy(load_weights(model)).forward(arrays["observations"])
    np.testing.assert_allclose(numpy_logits, logits, atol=1e-4)  # every position is legal at the start

    result = run_tournament([str(model), "random"], games=2, seed=0, workers=1)
    assert result.standings[str(model)].games == 2 and all(game.turns > 0 for game in result.results)
    (row,) = evaluate(str(model), ["greedy"], games=2, seed=0, workers=1)
    assert (row.opponent, row.games) == ("greedy", 2)
    assert (row.low, row.high) == wilson_interval(row.win_share * 2, 2)
    assert row.model_points + row.opponent_points > 0  # the games were played: gold was won
    assert isinstance(make_agent(str(model), seed=0), Policy)  # an entrant like any other


def test_the_default_kinds_of_card_train_though_a_random_kind_is_mostly_illegal(local_ray):
    """RLlib checks a new environment by stepping an action drawn with no regard to the mask: with kinds of card,
    the default, most are illegal at the first flip and the environment refuses them, so ppo_config skips it."""
    config = (ppo_config(model_config={"fcnet_hiddens": [16]})
              .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
              .training(train_batch_size_per_learner=100, minibatch_size=50, num_epochs=1)
              .debugging(seed=0, log_level="ERROR"))
    assert config.disable_env_checking
    algo = config.build_algo()
    try:
        result = algo.train()
        [space] = {space.n for space in algo.env_runner.env.envs[0].unwrapped.action_spaces.values()}
    finally:
        algo.stop()
    assert space == 30 and result["env_runners"]["num_env_steps_sampled_lifetime"] >= 100
    assert np.isfinite(result["learners"][POLICY]["total_loss"])


def test_the_script_trains_checkpoints_evaluates_and_resumes(local_ray, tmp_path, capsys):
    run = tmp_path / "run"
    summary = rllib_ppo.main(["--run-dir", str(run), "--iterations", "1", "--num-env-runners", "0", *TINY])
    assert summary["iterations"] == 1 and summary["env_steps"] >= 200
    assert [row["opponent"] for row in summary["evaluation"]] == ["random"]
    for name in ("args.json", "state.json", "progress.csv", "summary.json", "model.npz"):
        assert (run / name).is_file(), name
    assert TrainedPolicy(run / "model.npz").choose == "move"
    out = capsys.readouterr().out
    assert "steps/s" in out and "| random | 2 |" in out

    saved = json.loads((run / "args.json").read_text())
    (run / "args.json").write_text(json.dumps({**saved, "iterations": 2}))  # as if stopped after its checkpoint
    with (run / "progress.csv").open("a") as handle:  # ... and after an iteration it did not save
        handle.write("2,999,1.0,999.0,90.0,3.0,0.1\n")
    summary = rllib_ppo.main(["--resume", str(run)])
    assert summary["iterations"] == 2 and "resuming" in capsys.readouterr().out
    lines = (run / "progress.csv").read_text().splitlines()
    assert lines[0].startswith("iteration,env_steps,seconds,steps_per_s")
    assert [line.split(",")[0] for line in lines[1:]] == ["1", "2"]
    assert json.loads((run / "state.json").read_text())["checkpoint"] == "checkpoints/iteration_00002"


@pytest.mark.parametrize(("argv", "message"), [
    (["--num-players", "7"], "num_players=7 is not allowed"),
    (["--minibatch-size", "9000"], "--minibatch-size 9000 is larger than --train-batch-size 4000"),
    (["--eval-agents", "gredy"], "unknown agent 'gredy'"),
    (["--address", "nowhere"], "is not a Ray address"),
    (["--address", "127.0.0.1:1"], "no Ray cluster answers there"),
    (["--resume", "no/such/run"], "cannot resume 'no/such/run': there is no such folder"),
    (["--resume", "no/such/run", "--iterations", "3"], "leave out --iterations"),
])
def test_a_mistake_is_one_line_before_ray_starts(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(rllib_ppo, "start_ray", lambda args: pytest.fail("Ray was started"))
    with pytest.raises(SystemExit) as stop:
        rllib_ppo.main(argv)
    error = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and message in error and "\n" not in error
    assert not (tmp_path / "runs").exists()


def test_the_export_refuses_what_is_not_its_module(tmp_path):
    assert rllib_ppo.MODULE_STATE.parent.name == POLICY
    with pytest.raises(GoldrushEnvError, match="not an RLlib checkpoint"):
        rllib_ppo.export_model(tmp_path, tmp_path / "model.npz")
    with pytest.raises(GoldrushEnvError, match="one linear head"):
        rllib_ppo.policy_weights({"encoder.encoder.net.mlp.0.weight": np.zeros((2, 2))})


def test_rllibs_notices_about_its_own_code_are_dropped_and_other_warnings_kept():
    import logging

    import goldrush_env.gold.rllib  # noqa: F401  (installs the filter)

    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    for name in ("ray._common.deprecation", "ray.rllib.algorithms.algorithm_config"):
        logger = logging.getLogger(name)
        level = logger.level  # a run with log_level="ERROR" (as rllib_ppo's) raises RLlib's; warnings here
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
        try:
            logger.warning("DeprecationWarning: `RLModule(config=[RLModuleConfig object])` has been deprecated.")
            logger.warning("You are running PPO on the new API stack! This is the new default behavior for this ...")
            logger.warning(f"DeprecationWarning: `something_else` has been deprecated ({name})")
        finally:
            logger.removeHandler(handler)
            logger.setLevel(level)
    assert seen == [f"DeprecationWarning: `something_else` has been deprecated ({name})"
                    for name in ("ray._common.deprecation", "ray.rllib.algorithms.algorithm_config")]
