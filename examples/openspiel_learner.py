"""One of OpenSpiel's own learners, as its library ships it, trained on Gold's quarter table and measured against
``greedy``.

    python examples/openspiel_learner.py --algorithm nfsp --episodes 15000 --eval-every 2500 \\
        --out runs/openspiel-nfsp-0
    python examples/openspiel_learner.py --algorithm dqn --episodes 25000 --eval-every 5000 \\
        --out runs/openspiel-dqn-0
    python examples/openspiel_learner.py --algorithm a2c --episodes 40000 --eval-every 10000 \\
        --out runs/openspiel-a2c-0
    python examples/openspiel_learner.py --episodes 20 --eval-games 10 --out /tmp/os-look   # a quick look

The game is ``python_goldrush_gold`` of :mod:`goldrush_env.openspiel` (2 players, ``table="quarter"``,
``memory="perfect"``, ``reward="score"`` or ``"win"``), played through OpenSpiel's ``rl_environment.Environment``:
a seat sees its information-state tensor (Gold's ``"plain"`` observation; with ``--inputs table``, the default, only
the 565 of its 2,102 values that can change on the quarter table, the turn count aside) and acts on the 64
positions. Both seats learn, one agent each, in self-play: ``nfsp`` (``open_spiel.python.pytorch.nfsp.NFSP``: a DQN
best response and an average policy fitted to it), ``dqn`` (``open_spiel.python.pytorch.dqn.DQN``) or ``a2c``
(``open_spiel.python.pytorch.policy_gradient.PolicyGradient`` with its A2C loss). OpenSpiel's code is used as it
ships; the loop here adds one thing to its stock loop: a seat is handed every reward paid to it since its own last
decision. With ``reward="score"`` a strike pays at the turn's second flip, and OpenSpiel's environment reports that
reward at the next node, where the other seat is to act; an agent that steps only at its own nodes would never see
its own gold. Self-play soon learns to stall (two cards known to do nothing, turn after turn), which runs a game to
its turn limit, 400 decisions instead of about 25: training games stop after ``--max-turns`` (30; of 300 games on
this table, none of ``greedy`` against itself passed 16 turns, none of ``random`` 28); the evaluations play the
game's own limit, 200.

After training, the network that stands for the run (NFSP's average policy, DQN's Q-network, A2C's policy) plays
its most valued legal action, alone against ``greedy`` (:class:`goldrush_agents.openspiel.EntrantBot`), its seat
alternating, chance drawn from ``numpy.random.default_rng(eval_seed + i)`` in game ``i`` (as
``benchmarks/openspiel_ladder.py`` draws it). A shared win counts 1/k. NFSP's best-response Q-network is measured
too. Written to ``--out``: ``model.npz`` (each seat's networks as (weight, bias) layers, and the tensor's values
they read), ``summary.json`` (the settings, the figures, the seconds), ``curve.csv`` (with ``--eval-every``).
:func:`bot` seats a saved network as a ``pyspiel.Bot``, for the ladder or any OpenSpiel tool.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import command, minutes, new_run_dir, refuse_used_folder

ALGORITHMS = ("nfsp", "dqn", "a2c")

GAME_PARAMS = {"players": 2, "table": "quarter", "memory": "perfect"}
"""The table every run here learns and is measured on; ``reward`` is an option."""

DEFAULTS: dict[str, dict[str, Any]] = {
    # NFSP: OpenSpiel's Leduc example, with a larger network, Adam, and more frequent updates for a short budget.
    # A buffer holds a tensor a decision, a replay buffer two: 100,000 decisions of 565 floats are 0.45 GB.
    "nfsp": {"hidden": "256,256", "learning_rate": 1e-3, "sl_learning_rate": 1e-3, "batch_size": 128,
             "learn_every": 16, "anticipatory": 0.1, "epsilon_start": 0.06, "epsilon_end": 0.001,
             "epsilon_decay": 200_000, "replay_capacity": 100_000, "reservoir_capacity": 200_000,
             "min_buffer": 1000, "target_every": 1000, "optimizer": "adam", "discount": 1.0},
    # DQN: exploration falls linearly (OpenSpiel's exponential schedule stops at 1/e of the way down).
    "dqn": {"hidden": "256,256", "learning_rate": 1e-3, "batch_size": 128, "learn_every": 8,
            "epsilon_start": 1.0, "epsilon_end": 0.05, "epsilon_decay": 50_000, "replay_capacity": 100_000,
            "min_buffer": 1000, "target_every": 1000, "optimizer": "adam", "discount": 1.0},
    "a2c": {"hidden": "256,256", "learning_rate": 1e-3, "critic_learning_rate": 1e-3, "batch_size": 256,
            "entropy_cost": 0.01, "critic_before_pi": 1, "optimizer": "adam", "discount": 1.0},
}
"""Each algorithm's settings when no option names them."""

Layers = list[tuple[np.ndarray, np.ndarray]]
"""A ReLU network as (weight ``[out, in]``, bias) of each linear layer, the last one without ReLU."""


# --- the game and the loop ------------------------------------------------------------------------------------------


def load_game(reward: str = "score", max_turns: int | None = None) -> Any:
    """Gold for 2 on the quarter table with perfect memory, loaded in OpenSpiel, with ``reward`` and the turn
    limit ``max_turns`` (None: the game's default, 200)."""
    import pyspiel

    import goldrush_env.openspiel  # noqa: F401  (registers python_goldrush_gold)

    limit = {} if max_turns is None else {"max_turns": max_turns}
    return pyspiel.load_game("python_goldrush_gold", {**GAME_PARAMS, "reward": reward, **limit})


def table_inputs(game: Any) -> np.ndarray:
    """The indices of the observation that can change on ``game``'s table: every value of the planes at the
    positions dealt a card, and the standing but the turn count. The planes at the positions no card is ever dealt
    to (48 of 64 on the quarter table) are the same in every game, so dropping them loses nothing; the turn count
    (the completed turns over the turn limit) only says how near the limit is, which only stalling play ever comes
    near, and leaving it out lets a network trained under a short limit play the standard game as it learned."""
    from goldrush_env.gold.cards import NUM_POSITIONS
    from goldrush_env.gold.encoder import SLICES

    size = game.information_state_tensor_size()
    board = SLICES["cards"].stop  # the planes, plane by plane, a value per position
    first = np.asarray(game.new_initial_state().information_state_tensor(0))
    dealt = first[SLICES["empty"]] == 0
    index = np.arange(size)
    keep = ((index >= board) | dealt[index % NUM_POSITIONS]) & (index != SLICES["turn"].start)
    return index[keep]


def environment(game: Any, seed: int, inputs: np.ndarray | None = None) -> Any:
    """OpenSpiel's ``rl_environment.Environment`` over ``game``, its chance drawn from ``seed``, whose time steps
    read each seat's tensor from the node itself (:meth:`goldrush_env.chance.Position.observation`, the vector
    ``information_state_tensor`` returns): pyspiel makes a new initial state, a whole new game, for every tensor it
    is asked for, which here would cost two thirds of the time. With ``inputs``, a seat's tensor is those of its
    values (:func:`table_inputs`). The time steps are otherwise the stock ones."""
    from open_spiel.python import rl_environment

    class Environment(rl_environment.Environment):
        def observation_spec(self) -> dict[str, Any]:
            spec = super().observation_spec()
            return spec if inputs is None else {**spec, "info_state": (len(inputs),)}

        def _time_step(self, step_type: Any, rewards: Any, discounts: Any) -> Any:
            position = self._state.position
            tensors = [position.observation(seat) for seat in range(self.num_players)]
            observations = {"info_state": tensors if inputs is None else [tensor[inputs] for tensor in tensors],
                            "legal_actions": [self._state.legal_actions(seat) for seat in range(self.num_players)],
                            "current_player": self._state.current_player(), "serialized_state": []}
            return rl_environment.TimeStep(observations=observations, rewards=rewards, discounts=discounts,
                                           step_type=step_type)

        def get_time_step(self) -> Any:
            last = self._state.is_terminal()
            self._should_reset = last
            step_type = rl_environment.StepType.LAST if last else rl_environment.StepType.MID
            discounts = [0.0] * self.num_players if last else list(self._discounts)
            return self._time_step(step_type, list(self._state.rewards()), discounts)

        def reset(self) -> Any:
            self._should_reset = False
            self._state = self._game.new_initial_state()
            self._sample_external_events()
            return self._time_step(rl_environment.StepType.FIRST, None, None)

    return Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))


def _handed(time_step: Any, seat: int, owed: np.ndarray) -> Any:
    """``time_step`` as ``seat`` receives it: its reward is everything paid to it since it last acted."""
    rewards = list(time_step.rewards) if time_step.rewards is not None else [0.0] * len(owed)
    rewards[seat] = float(owed[seat])
    owed[seat] = 0.0
    return time_step._replace(rewards=rewards)


def play_episode(env: Any, agents: Sequence[Any], is_evaluation: bool = False) -> np.ndarray:
    """One game of OpenSpiel's turn-based loop, every seat an OpenSpiel agent (learning unless ``is_evaluation``);
    each seat's return."""
    time_step = env.reset()
    owed = np.zeros(len(agents))
    total = np.zeros(len(agents))
    while not time_step.last():
        seat = time_step.observations["current_player"]
        output = agents[seat].step(_handed(time_step, seat, owed), is_evaluation=is_evaluation)
        time_step = env.step([output.action])
        owed += time_step.rewards
        total += time_step.rewards
    for seat, agent in enumerate(agents):
        agent.step(_handed(time_step, seat, owed), is_evaluation=is_evaluation)
    return total


def make_agents(algorithm: str, settings: dict[str, Any], size: int, num_actions: int, seed: int) -> list[Any]:
    """One OpenSpiel agent a seat, built from ``settings`` (:data:`DEFAULTS` and the options)."""
    hidden = [int(width) for width in str(settings["hidden"]).split(",")]
    s = settings
    agents = []
    for seat in range(GAME_PARAMS["players"]):
        agent_seed = seed * 10 + seat
        if algorithm == "nfsp":
            from open_spiel.python.pytorch import nfsp

            agents.append(nfsp.NFSP(
                seat, size, num_actions, hidden, reservoir_buffer_capacity=s["reservoir_capacity"],
                anticipatory_param=s["anticipatory"], batch_size=s["batch_size"], rl_learning_rate=s["learning_rate"],
                sl_learning_rate=s["sl_learning_rate"], min_buffer_size_to_learn=s["min_buffer"],
                learn_every=s["learn_every"], optimizer_str=s["optimizer"], seed=agent_seed,
                replay_buffer_capacity=s["replay_capacity"], update_target_network_every=s["target_every"],
                discount_factor=float(s["discount"]), epsilon_start=s["epsilon_start"], epsilon_end=s["epsilon_end"],
                epsilon_decay_duration=s["epsilon_decay"], epsilon_decay_schedule_str="linear"))
        elif algorithm == "dqn":
            from open_spiel.python.pytorch import dqn

            agents.append(dqn.DQN(
                seat, size, num_actions, hidden, batch_size=s["batch_size"],
                replay_buffer_capacity=s["replay_capacity"], learning_rate=s["learning_rate"],
                update_target_network_every=s["target_every"], learn_every=s["learn_every"],
                discount_factor=float(s["discount"]),
                min_buffer_size_to_learn=s["min_buffer"], epsilon_start=s["epsilon_start"],
                epsilon_end=s["epsilon_end"], epsilon_decay_duration=s["epsilon_decay"],
                epsilon_decay_schedule_str="linear", optimizer_str=s["optimizer"], seed=agent_seed))
        else:
            from open_spiel.python.pytorch import policy_gradient

            agents.append(policy_gradient.PolicyGradient(
                seat, size, num_actions, loss_str="a2c", hidden_layers_sizes=hidden, batch_size=s["batch_size"],
                critic_learning_rate=s["critic_learning_rate"], pi_learning_rate=s["learning_rate"],
                entropy_cost=s["entropy_cost"], num_critic_before_pi=s["critic_before_pi"],
                additional_discount_factor=float(s["discount"]),
                optimizer_str=s["optimizer"]))
    return agents


def _layers(module: Any) -> Layers:
    """A torch ReLU network's linear layers, in order."""
    import torch

    return [(layer.weight.detach().numpy().copy(), layer.bias.detach().numpy().copy())
            for layer in module.modules() if isinstance(layer, torch.nn.Linear)]


def networks(algorithm: str, agents: Sequence[Any]) -> dict[str, list[Layers]]:
    """Each seat's networks that can play, by name: ``policy`` the one that stands for the run (NFSP's average
    policy, DQN's Q-network, A2C's policy logits), and NFSP's best response as ``q``."""
    if algorithm == "nfsp":
        return {"policy": [_layers(agent._avg_network) for agent in agents],
                "q": [_layers(agent._rl_agent._q_network) for agent in agents]}
    if algorithm == "dqn":
        return {"policy": [_layers(agent._q_network) for agent in agents]}
    return {"policy": [_layers(agent.policy_logits_network) for agent in agents]}


# --- the trained network as a player --------------------------------------------------------------------------------


def forward(layers: Layers, x: np.ndarray) -> np.ndarray:
    """The network's outputs for one input vector."""
    for k, (weight, bias) in enumerate(layers):
        x = weight @ x + bias
        if k < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


def _bot_class() -> type:
    import pyspiel

    class NetworkBot(pyspiel.Bot):
        """A saved network at one seat: its most valued legal action, from the seat's information-state tensor
        (those of its values at ``inputs``, if given)."""

        def __init__(self, seat: int, layers: Layers, inputs: np.ndarray | None = None, name: str = "network") -> None:
            pyspiel.Bot.__init__(self)
            self.seat, self.layers, self.inputs, self.name = seat, layers, inputs, name

        def step(self, state: Any) -> int:
            if state.current_player() != self.seat:
                raise GoldrushEnvError(f"{self.name} plays seat {self.seat}, but the state's player is "
                                       f"{state.current_player()}")
            x = np.asarray(state.information_state_tensor(self.seat), dtype=np.float32)
            if self.inputs is not None:
                x = x[self.inputs]
            legal = state.legal_actions()
            values = forward(self.layers, x)
            return int(legal[int(np.argmax(values[legal]))])

        def restart_at(self, state: Any) -> None:
            """Nothing to forget: the network reads each state whole."""

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            """Nothing to learn."""

        def provides_policy(self) -> bool:
            return False

    return NetworkBot


def network_bot(seat: int, layers: Layers, inputs: np.ndarray | None = None, name: str = "network") -> Any:
    """A ``pyspiel.Bot`` playing ``layers`` at ``seat`` (argmax over the legal actions), reading the values
    ``inputs`` of the seat's tensor (all of them if None)."""
    return _bot_class()(seat, layers, inputs, name)


def save(path: Path, nets: dict[str, list[Layers]], inputs: np.ndarray | None, about: dict[str, Any]) -> None:
    """``nets`` as ``NAME.seatS.wK`` / ``NAME.seatS.bK`` arrays, the indices the networks read as ``inputs`` (if
    not all), ``about`` as JSON under ``about``."""
    arrays: dict[str, Any] = {"about": np.array(json.dumps(about))}
    if inputs is not None:
        arrays["inputs"] = inputs
    for name, seats in nets.items():
        for seat, layers in enumerate(seats):
            for k, (weight, bias) in enumerate(layers):
                arrays[f"{name}.seat{seat}.w{k}"], arrays[f"{name}.seat{seat}.b{k}"] = weight, bias
    np.savez(path, **arrays)


def load_layers(path: str | Path, seat: int, network: str = "policy") -> tuple[Layers, np.ndarray | None]:
    """The layers of ``network`` for ``seat`` from a ``model.npz`` of this script, and the indices of the tensor
    they read (None: all of it)."""
    with np.load(path) as data:
        layers, k = [], 0
        while f"{network}.seat{seat}.w{k}" in data:
            layers.append((data[f"{network}.seat{seat}.w{k}"], data[f"{network}.seat{seat}.b{k}"]))
            k += 1
        inputs = data["inputs"] if "inputs" in data else None
    if not layers:
        raise GoldrushEnvError(f"{path} holds no network {network!r} for seat {seat}")
    return layers, inputs


def bot(game: Any, seat: int, path: str | Path, network: str = "policy") -> Any:
    """The network saved at ``path`` (a run's ``model.npz``) playing ``seat`` of ``game`` as a ``pyspiel.Bot``;
    ``network="q"`` plays NFSP's best response instead of its average policy."""
    layers, inputs = load_layers(path, seat, network)
    size = game.information_state_tensor_size()
    reads = size if inputs is None else len(inputs)
    if (layers[0][0].shape[1] != reads or layers[-1][0].shape[0] != game.num_distinct_actions()
            or inputs is not None and int(inputs.max()) >= size):
        raise GoldrushEnvError(f"{path} was trained on another game: its network reads {layers[0][0].shape[1]} values "
                               f"and gives {layers[-1][0].shape[0]}, the game has {size} and "
                               f"{game.num_distinct_actions()}")
    return network_bot(seat, layers, inputs, f"{Path(path).name}:{network}")


# --- the measurement ------------------------------------------------------------------------------------------------


def win_share(game: Any, learner: Callable[[Any, int], Any], field: str = "greedy", games: int = 400,
              seed: int = 0) -> dict[str, float]:
    """``learner(game, seat)`` (a ``pyspiel.Bot``) alone against ``field`` (one of our entrants) for ``games``
    games: seat ``i % n`` in game ``i``, chance drawn from ``default_rng(seed + i)``, the field's bots seeded as
    ``benchmarks/openspiel_ladder.py`` seeds them. Its win share (a shared win counts 1/k) with a 95% Wilson
    interval, its mean return, and how many games the turn limit ended."""
    from goldrush_agents.openspiel import EntrantBot, play_out
    from goldrush_agents.tournament import wilson_interval

    n = game.num_players()
    shares, returns, stopped = [], [], 0
    for i in range(games):
        seat = i % n
        bots = [learner(game, s) if s == seat else EntrantBot(game, s, field, seed=seed + 1000 * i + s)
                for s in range(n)]
        state = play_out(game.new_initial_state(), bots, np.random.default_rng(seed + i))
        engine = state.position.env.game
        winners = engine.result().winners
        shares.append(1.0 / len(winners) if seat in winners else 0.0)
        returns.append(state.returns()[seat])
        stopped += bool(engine.is_truncated)
    low, high = wilson_interval(sum(shares), len(shares))
    return {"win_share": float(np.mean(shares)), "low": low, "high": high, "games": games,
            "mean_return": float(np.mean(returns)), "turn_limit_games": stopped}


def _measure(game: Any, nets: list[Layers], inputs: np.ndarray | None, field: str, games: int,
             seed: int) -> dict[str, float]:
    return win_share(game, lambda g, seat: network_bot(seat, nets[seat], inputs), field, games, seed)


# --- the command ----------------------------------------------------------------------------------------------------


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python examples/openspiel_learner.py",
        description="Train one of OpenSpiel's learners (NFSP, DQN or A2C, self-play) on Gold's quarter table and "
                    "measure it against greedy.")
    parser.add_argument("--algorithm", default="nfsp", choices=ALGORITHMS, help="the learner (default: nfsp)")
    parser.add_argument("--episodes", type=int, default=20_000, help="training games, the budget (default: 20000)")
    parser.add_argument("--reward", default="score", choices=["score", "win"],
                        help="the game's reward: points at each flip, or +1/0/-1 at the end (default: score)")
    parser.add_argument("--max-turns", type=int, default=30,
                        help="the turn limit of the training games (default: 30; the evaluations play the game's "
                             "own, 200). Self-play learns to stall, flipping cards known to do nothing, and a game "
                             "then runs to the limit; greedy's games on this table end within 16 turns")
    parser.add_argument("--inputs", default="table", choices=["table", "all"],
                        help="the networks read the values of the tensor that can change on the quarter table but the "
                             "turn count (565), or all 2,102, the turn count scaled to the training limit "
                             "(default: table)")
    parser.add_argument("--eval-games", type=int, default=400, help="final games against each field (default: 400)")
    parser.add_argument("--eval-fields", default="greedy,random",
                        help="the entrants measured against, the first one the headline (default: greedy,random)")
    parser.add_argument("--eval-seed", type=int, default=1_000_000,
                        help="game i of an evaluation draws its chance from this + i (default: 1000000)")
    parser.add_argument("--eval-every", type=int, default=0,
                        help="episodes between evaluations during training, 0 for none (default: 0)")
    parser.add_argument("--curve-games", type=int, default=100,
                        help="games against the first field at each of those (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="seeds torch, numpy, random and the training games")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default: 1)")
    parser.add_argument("--out", default=None, help="the run folder, new or empty "
                                                    "(default: runs/openspiel-ALGORITHM-YYYYmmdd-HHMMSS)")
    settings = parser.add_argument_group("the learner's settings (default: the algorithm's, in DEFAULTS)")
    for name, kind, text in [
            ("hidden", str, "hidden layer widths, comma-separated"),
            ("learning-rate", float, "the RL learning rate (DQN, NFSP's best response, A2C's policy)"),
            ("sl-learning-rate", float, "NFSP's average-policy learning rate"),
            ("critic-learning-rate", float, "A2C's critic learning rate"),
            ("batch-size", int, "transitions a learning step (A2C: transitions gathered before one)"),
            ("learn-every", int, "decisions between learning steps (NFSP, DQN)"),
            ("anticipatory", float, "NFSP: the share of games played by the best response"),
            ("epsilon-start", float, "exploration at the start (NFSP, DQN)"),
            ("epsilon-end", float, "exploration at the end"),
            ("epsilon-decay", int, "a seat's learning decisions over which exploration falls (linearly)"),
            ("replay-capacity", int, "the Q-learning replay buffer"),
            ("reservoir-capacity", int, "NFSP's reservoir of best-response decisions"),
            ("min-buffer", int, "transitions before learning starts"),
            ("target-every", int, "decisions between target-network updates"),
            ("entropy-cost", float, "A2C's entropy bonus"),
            ("critic-before-pi", int, "A2C: critic steps before each policy step"),
            ("optimizer", str, "sgd or adam"),
            ("discount", float, "the discount from one of a seat's decisions to its next")]:
        settings.add_argument(f"--{name}", type=kind, default=None, help=text)
    return parser.parse_args(argv)


def learner_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The algorithm's :data:`DEFAULTS`, with those the options name; an option of another algorithm is refused."""
    chosen = dict(DEFAULTS[args.algorithm])
    known = {key for defaults in DEFAULTS.values() for key in defaults}
    for key in sorted(known):
        value = getattr(args, key)
        if value is None:
            continue
        if key not in chosen:
            raise GoldrushEnvError(f"--{key.replace('_', '-')} is not a setting of {args.algorithm}: its settings are "
                                   f"{', '.join('--' + k.replace('_', '-') for k in chosen)}")
        chosen[key] = value
    if not 0 <= chosen["discount"] <= 1:
        raise GoldrushEnvError(f"--discount must be from 0 to 1, got {chosen['discount']}")
    if chosen["optimizer"] not in ("sgd", "adam"):
        raise GoldrushEnvError(f"--optimizer must be sgd or adam, got {chosen['optimizer']!r}")
    try:
        widths = [int(width) for width in str(chosen["hidden"]).split(",")]
    except ValueError:
        widths = []
    if not widths or min(widths) < 1:
        raise GoldrushEnvError(f"--hidden takes positive widths separated by commas, got {chosen['hidden']!r}")
    return chosen


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Train, save and measure; the summary."""
    import torch

    from goldrush_agents import split_entrants

    check_int("--episodes", args.episodes, 1)
    check_int("--eval-games", args.eval_games, 1)
    check_int("--eval-every", args.eval_every, 0)
    check_int("--curve-games", args.curve_games, 1)
    check_int("--threads", args.threads, 1)
    check_int("--max-turns", args.max_turns, 1)
    fields = split_entrants(args.eval_fields)
    if not fields:
        raise GoldrushEnvError("--eval-fields names no entrant")
    settings = learner_settings(args)
    out = Path(args.out) if args.out else new_run_dir(f"runs/openspiel-{args.algorithm}")
    refuse_used_folder(out, "--out")
    out.mkdir(parents=True, exist_ok=True)
    print(f"run folder: {out}", flush=True)

    torch.set_num_threads(args.threads)
    game = load_game(args.reward)  # the evaluations' game
    training_game = load_game(args.reward, args.max_turns)
    inputs = table_inputs(game) if args.inputs == "table" else None
    env = environment(training_game, args.seed, inputs)
    size = env.observation_spec()["info_state"][0]
    num_actions = env.action_spec()["num_actions"]
    agents = make_agents(args.algorithm, settings, size, num_actions, args.seed)
    # The agents' constructors reseed numpy and torch with their own seeds; the run's seed has the last word.
    random.seed(args.seed)
    np.random.seed(args.seed % 2**32)
    torch.manual_seed(args.seed)

    curve: list[dict[str, Any]] = []
    window: list[tuple[float, int, bool]] = []  # seat 0's return, the turns, whether the limit ended it
    stalled = 0
    train_seconds = eval_seconds = 0.0
    started = time.perf_counter()
    report_every = max(1, min(1000, args.episodes // 20))
    for episode in range(1, args.episodes + 1):
        first = float(play_episode(env, agents)[0])
        engine = env.get_state.position.env.game
        window.append((first, engine.turn, bool(engine.is_truncated)))
        stalled += bool(engine.is_truncated)
        if episode % report_every == 0 or episode == args.episodes:
            elapsed = train_seconds + time.perf_counter() - started
            returns, turns, limited = zip(*window)
            print(f"episode {episode:,}/{args.episodes:,}: {episode / elapsed:.1f} games/s, seat 0's mean return "
                  f"{np.mean(returns):+.3f}, {np.mean(turns):.1f} turns a game, {sum(limited)} of {len(window)} "
                  f"ended by the turn limit, {minutes(elapsed)}", flush=True)
            window = []
        if args.eval_every and episode % args.eval_every == 0 and episode < args.episodes:
            train_seconds += time.perf_counter() - started
            tick = time.perf_counter()
            figures = _measure(game, networks(args.algorithm, agents)["policy"], inputs, fields[0], args.curve_games,
                               args.eval_seed + 500_000)
            eval_seconds += time.perf_counter() - tick
            curve.append({"episode": episode, "train_seconds": round(train_seconds, 1), **figures})
            print(f"  against {fields[0]}: {figures['win_share']:.3f} [{figures['low']:.3f}, {figures['high']:.3f}] "
                  f"of {args.curve_games}", flush=True)
            started = time.perf_counter()
    train_seconds += time.perf_counter() - started

    nets = networks(args.algorithm, agents)
    about = {"algorithm": args.algorithm, "game": "python_goldrush_gold",
             "params": {**GAME_PARAMS, "reward": args.reward}, "train_max_turns": args.max_turns,
             "networks": sorted(nets), "seed": args.seed, "inputs": args.inputs}
    save(out / "model.npz", nets, inputs, about)
    tick = time.perf_counter()
    results: dict[str, Any] = {}
    for network, seats in nets.items():
        for field in fields:
            figures = _measure(game, seats, inputs, field, args.eval_games, args.eval_seed)
            results[f"{network} vs {field}"] = figures
            print(f"{args.algorithm} {network} network alone vs {field}: win share {figures['win_share']:.3f} "
                  f"[{figures['low']:.3f}, {figures['high']:.3f}] (95% Wilson) of {args.eval_games} games, "
                  f"mean return {figures['mean_return']:+.3f}", flush=True)
    eval_seconds += time.perf_counter() - tick
    if curve:
        with open(out / "curve.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(curve[0]))
            writer.writeheader()
            writer.writerows(curve)
    headline = results[f"policy vs {fields[0]}"]
    summary = {"algorithm": args.algorithm, "game": about["game"], "params": about["params"],
               "episodes": args.episodes, "train_max_turns": args.max_turns,
               "train_games_ended_by_the_limit": stalled, "inputs": args.inputs, "input_size": size, "seed": args.seed,
               "eval_seed": args.eval_seed, "eval_games": args.eval_games, "settings": settings,
               "library": "open_spiel " + _version(),
               "win_share": headline["win_share"], "low": headline["low"], "high": headline["high"],
               "against": fields[0], "results": results, "curve": curve,
               "seconds": {"train": round(train_seconds, 1), "eval": round(eval_seconds, 1)}}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"{args.algorithm}, {args.episodes:,} episodes in {minutes(train_seconds)} of training "
          f"({args.threads} thread{'s' if args.threads > 1 else ''}): against {fields[0]} "
          f"{headline['win_share']:.3f} [{headline['low']:.3f}, {headline['high']:.3f}] of {args.eval_games} games; "
          f"outputs in {out}/", flush=True)
    return summary


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:  # pragma: no cover - a source build
        return "?"


@command("examples/openspiel_learner.py", needs=("torch", "pyspiel"), extra="train,openspiel")
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    return run(parse(argv))


if __name__ == "__main__":
    main()
