"""The shipped models for 3, 4 and 5 players: the 2-player model, trained on at that number of players.

    python -m goldrush_train.gold.sizes --num-players 3 --seed 0 --ship   # agents/gold/models/taught_3p.npz
    python -m goldrush_train.gold.sizes --num-players 5 --total-timesteps 250000   # a short run

The 2-player model (``taught``, agents/gold/models/taught_2p.npz, a copy of the search) is where each of them
starts: its network reads any number of players (seats are relative, every opponent has its own planes), but it never
saw three or more players, and played as it is it falls behind ``greedy`` from four players on. PPO then
trains it at that number of players with :mod:`goldrush_train.gold.scratch`'s loop on the batched vector env, the
learner at a random seat against ``greedy`` in every other seat, and, once the first snapshot is taken, a
quarter of those seats played by frozen snapshots of itself. The reward is the score reward (after each
flip, the learner's gain less the others' mean, / 10), which at any number of players points where winning does.

Evaluations during the run (``eval_games``, 400 games against ``greedy``) and at the end (``final_games``)
report both directions: the model alone against the field, and one ``greedy`` alone against the model. ``--ship``
copies the model to :func:`goldrush_agents.gold.trained.shipped_model`, where the entrant ``taught`` finds it.
Like goldrush_train.gold.recipe, it runs the training script by its command line, printed first, so that the
step can be rerun alone.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from goldrush_agents.gold.trained import SHIPPED_MODEL, shipped_model
from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import (TRAIN_EXTRA, check_counts, command, minutes, new_run_dir, parse_args,
                                refuse_used_folder, run_script, ship)


STEPS = {3: 500_000, 4: 800_000, 5: 1_200_000}
"""PPO steps of the shipped model for each number of players (41, 65 and 84 minutes with the three runs side by
side on two cores; docs/training.md)."""


@dataclass
class Sizes:
    """Train the 2-player model on at 3, 4 or 5 players (the recipe of agents/gold/models/taught_Np.npz)."""

    num_players: int = 3
    """Players per game: 3, 4 or 5."""
    seed: int = 0
    """Seeds the deals, the opponents' choices, the PPO batches and the evaluation deals."""
    total_timesteps: int | None = None
    """Learner decisions of PPO; default: the shipped model's, by number of players (STEPS: 500k, 800k, 1.2M)."""
    start_from: str = str(SHIPPED_MODEL)
    """The GoldNet model (observation "plain") PPO starts from."""
    eval_every: int = 250_000
    """Steps between the evaluations against greedy."""
    eval_games: int = 400
    """Games of each evaluation during the run (each direction)."""
    num_envs: int = 128
    """Games played at once; a rollout is 64 steps of each (the shipped models': 128, rollouts of 8,192 steps)."""
    final_games: int = 2000
    """Games of the final evaluation against greedy (each direction)."""
    torch_threads: int = 1
    """Torch threads; one keeps a run the same from its seed on any machine, and lets the three runs train side
    by side on two cores."""
    run_dir: str = ""
    """A new or empty folder for the run; empty: runs/sizes-Np-sSEED-YYYYmmdd-HHMMSS."""
    ship: bool = False
    """Copy the final model to the package's model for this number of players (agents/gold/models/taught_Np.npz)."""

    def check(self) -> None:
        """Refuse values that cannot work, naming them."""
        check_int("--num-players", self.num_players, 3, 5, note="the 2-player model is goldrush_train.gold.recipe's")
        if self.total_timesteps is None:
            self.total_timesteps = STEPS[self.num_players]
        check_counts(self, "total_timesteps", "eval_every", "eval_games", "num_envs", "final_games",
                     "torch_threads")
        if not Path(self.start_from).is_file():
            raise GoldrushEnvError(f"--start-from {self.start_from!r} is not a file")

    def scratch_argv(self, run_dir: str) -> list[str]:
        """The command line of goldrush_train.gold.scratch that this recipe is."""
        return ["--run-dir", run_dir, "--seed", str(self.seed), "--num-players", str(self.num_players),
                "--init-from", self.start_from, "--network", "goldnet", "--action", "positions", "--observation",
                "plain", "--num-envs", str(self.num_envs), "--num-steps", "64", "--total-timesteps",
                str(self.total_timesteps), "--reward", "score", "--opponents", "greedy", "--self-play", "0.25",
                "--eval-every", str(self.eval_every), "--eval-games", str(self.eval_games), "--eval-agents", "greedy",
                "--final-games", str(self.final_games), "--torch-threads", str(self.torch_threads),
                "--play-by", "move"]


def run(sizes: Sizes) -> dict[str, Any]:
    """Follow the recipe: goldrush_train.gold.scratch in a process of its own (its command is printed, to rerun
    alone), then ``--ship``; returns that run's summary, with this recipe's arguments added."""
    started = time.perf_counter()
    sizes.check()
    run_dir = Path(sizes.run_dir) if sizes.run_dir else new_run_dir(f"runs/sizes-{sizes.num_players}p-s{sizes.seed}")
    refuse_used_folder(run_dir)
    run_script("training run", "goldrush_train.gold.scratch", sizes.scratch_argv(str(run_dir)))
    summary = {**json.loads((run_dir / "summary.json").read_text()), "sizes": dataclasses.asdict(sizes)}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    if sizes.ship:
        ship(run_dir / "model.npz", shipped_model(sizes.num_players), "sizes: shipped {model} as {to}")
    print(f"sizes: {sizes.num_players} players in {minutes(time.perf_counter() - started)}, outputs in {run_dir}/",
          flush=True)
    return summary


@command("goldrush_train.gold.sizes", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    return run(parse_args(Sizes, argv, "goldrush_train.gold.sizes"))


if __name__ == "__main__":
    main()
