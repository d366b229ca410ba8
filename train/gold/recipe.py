"""The shipped 2-player model's recipe, from a seed in one command.

    python -m goldrush_train.gold.recipe --seed 0 --ship      # 23-26 min on 2 cores from nothing, ~5 with its data
    python -m goldrush_train.gold.recipe --help               # every argument

Each run writes into a new folder, ``runs/recipe-sSEED-YYYYmmdd-HHMMSS``
unless ``--run-dir`` names another (new or empty) one; the search data is
kept in ``--data-dir`` and reused by every run.

The recipe chains tools that also run alone:

1. **Search data.** For each of ``search_seeds``, ``search_games`` games of
   the search player against itself, saved as ``DATA_DIR/ismcts-SEED.npz``
   (what ``python -m goldrush_train.gold.imitation --teacher ismcts --games 100 --seed
   SEED --out ...`` writes). A file already there is used when its record
   says it holds exactly those games (teacher, games, players, seed, memory)
   and refused otherwise, so one collection, the slow part, serves every
   seed of the recipe.
2. **DAgger data**, with ``dagger_seeds``: a first fit (steps 3 and 4
   without DAgger, seed 0) plays one seat against ``dagger_opponents`` in
   ``dagger_games`` games per seed while the search labels its decisions
   (``python -m goldrush_train.gold.imitation --student``), saved as
   ``DATA_DIR/dagger-SEED.npz`` beside the student,
   ``DATA_DIR/dagger-student.npz`` (fitted in a new folder
   ``DATA_DIR/dagger-student-YYYYmmdd-HHMMSS``). Reused and checked as the search data
   is (the student by its SHA-256), so it too serves every seed.
3. **Warm start, no PPO** (``python -m goldrush_train.gold.ppo --total-timesteps 0 ...``, run as a process of
   its own; the recipe prints the whole command): the
   network copies the search player's share of visits per position (its
   move played, with ``--target move``) from the files above (and any
   ``extra_data``) for ``search_epochs`` passes; the model file says to
   play it by its most likely move (``play_by``, ``goldrush_agents.gold.trained``).
   With ``expert_games`` above 0 it first copies the expert's flips from
   that many games (the recipe of an earlier model; 48 passes over the
   search data made that phase unnecessary). DAgger data did not make the
   copy stronger (docs/experiments.md).
4. **Evaluation**: ``games`` games against each of ``agents``, seats and
   start player rotated, with 95% intervals (the run's ``summary.json``);
   ``--ship`` then copies ``model.npz`` over the shipped model
   (``goldrush_agents.gold.trained.SHIPPED_MODEL``, ``agents/gold/models/taught_2p.npz``
   in the repository).

There is no PPO step: PPO did not move a copy of the expert in 300k to
1.5M steps, and from a copy of the search it lost ground in 300k
(docs/experiments.md), while the search's moves lifted the copy above the expert.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Sequence

import numpy as np

from goldrush_agents import parse_spec, split_entrants
from goldrush_agents.gold.trained import SHIPPED_MODEL
from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import (TRAIN_EXTRA, check_agent, check_agents, check_counts, command, minutes, new_run_dir,
                                parse_args, refuse_used_folder, run_script, ship)

SHIP_PATH = SHIPPED_MODEL
"""Where ``--ship`` copies the model (the package's ``taught_2p.npz``)."""


@dataclass
class Recipe:
    """The shipped 2-player model's recipe, from a seed: the search player's games (collected once, then reused),
    a network fitted to copy its moves, an evaluation; the defaults are the recipe of agents/gold/models/taught_2p.npz
    (--ship copies the model over it). Since the network's faster formulation the fit writes slightly different
    weights from the same data (docs/training.md)."""

    seed: int = 0
    """Seeds the expert's games, the network's initial weights and the fit's batches (not the search data)."""
    run_dir: str = ""
    """Where the run writes its outputs (goldrush_train.gold.ppo's): a new or empty folder; empty: a new folder
    runs/recipe-sSEED-YYYYmmdd-HHMMSS."""
    data_dir: str = "runs"
    """Where the search data files are read from, or written to when missing."""
    teacher: str = "ismcts"
    """The search player whose moves are copied, as an agent spec (e.g. "ismcts[iterations=500]")."""
    search_seeds: tuple[int, ...] = (1, 2, 3, 4, 5, 9)
    """One data file of ``search_games`` games per seed (these six are the files the shipped model saw)."""
    search_games: int = 100
    """Games of the search player against itself per data file."""
    dagger_seeds: tuple[int, ...] = ()
    """DAgger (empty: none). One file of ``dagger_games`` games per seed, ``DATA_DIR/dagger-SEED.npz``, in which
    a first fit (this recipe without DAgger, seed 0, kept as ``DATA_DIR/dagger-student.npz``) plays one seat
    against ``dagger_opponents`` while the search labels its decisions; the network is then fitted to the
    search data and these together. Like the search data, collected once for every seed."""
    dagger_games: int = 100
    """Games per DAgger file."""
    dagger_opponents: str = "greedy,expert"
    """The fields the first fit plays in the DAgger games, in turn, comma-separated."""
    extra_data: tuple[str, ...] = ()
    """Further decision files (``python -m goldrush_train.gold.imitation``'s, e.g. DAgger files written with
    ``--student``), fitted together with the search data."""
    expert_games: int = 0
    """Games of the expert against itself copied first (0: none, the search data alone)."""
    expert_epochs: int = 16
    """Passes over the expert's decisions."""
    search_epochs: int = 48
    """Passes over the search data's decisions (after the expert's, if any)."""
    target: Literal["move", "visits"] = "visits"
    """What the network copies from the search data: its share of visits per position, or the move it played
    (the recipe of the models shipped before)."""
    play_by: Literal["move", "position"] = "move"
    """How the model plays (goldrush_train.gold.ppo's --play-by): its most likely move, or its most likely position (the
    way models fitted to moves were played before that option, as in the experiments log's earlier tables)."""
    lr: float = 2e-3
    """Adam's step size for the fit."""
    width: int = 64
    """The network's width (goldrush_train.gold.ppo's --width)."""
    context: int = 32
    """The size of the table summary fed back to each position (goldrush_train.gold.ppo's --context)."""
    games: int = 2000
    """Games against each of ``agents`` at the end."""
    agents: str = "random,greedy,expert"
    """The agents the model is evaluated against."""
    workers: int = 0
    """Processes collecting the search data; 0: every core."""
    torch_threads: int = 2
    """Torch threads of the fit (goldrush_train.gold.ppo's --torch-threads). The shipped model was fitted on two, every
    core of the machine that made it; a fit on another count rounds its sums differently and writes other
    weights (the main job's warm start fits on one)."""
    ship: bool = False
    """Copy the model over the model the package ships (goldrush_agents.gold.trained.SHIPPED_MODEL,
    agents/gold/models/taught_2p.npz in the repository)."""

    def check(self) -> None:
        """Refuse values that cannot work, naming them."""
        check_counts(self, "search_games", "dagger_games", "expert_epochs", "search_epochs", "width", "context",
                     "games")
        check_int("--expert-games", self.expert_games, 0, note="0: none")
        if not self.search_seeds:
            raise GoldrushEnvError("--search-seeds needs at least one seed")
        if len(set(self.search_seeds)) != len(self.search_seeds):
            raise GoldrushEnvError(f"--search-seeds repeats a seed: {list(self.search_seeds)}")
        if len(set(self.dagger_seeds)) != len(self.dagger_seeds):
            raise GoldrushEnvError(f"--dagger-seeds repeats a seed: {list(self.dagger_seeds)}")
        # A misspelt agent fails now, not after hours of collection.
        check_agent("--teacher", self.teacher)
        check_agents("--agents", self.agents)
        if self.dagger_seeds:
            check_agents("--dagger-opponents", self.dagger_opponents)
        for path in self.extra_data:
            if not Path(path).is_file():
                raise GoldrushEnvError(f"--extra-data {path!r} is not a file "
                                       "(write one with python -m goldrush_train.gold.imitation)")
        check_int("--torch-threads", self.torch_threads, 1)
        check_int("--workers", self.workers, 0, note="0: every core")

    def data_path(self, seed: int) -> Path:
        """The search data file of one seed."""
        return Path(self.data_dir) / f"{parse_spec(self.teacher)[0]}-{seed}.npz"

    @property
    def student_path(self) -> Path:
        """The model that plays the DAgger games."""
        return Path(self.data_dir) / "dagger-student.npz"

    def dagger_path(self, seed: int) -> Path:
        """The DAgger file of one seed."""
        return Path(self.data_dir) / f"dagger-{seed}.npz"

    def dagger_about(self, seed: int, student_sha256: str | None) -> dict[str, Any]:
        """What the DAgger file of ``seed`` must say it holds (as ``python -m goldrush_train.gold.imitation --student``
        records it, less the student's path: the student is known by its digest)."""
        return {**self.about(seed), "games": self.dagger_games, "opponents": split_entrants(self.dagger_opponents),
                "student_sha256": student_sha256}

    def about(self, seed: int) -> dict[str, Any]:
        """What the data file of ``seed`` must say it holds (as :func:`goldrush_train.gold.imitation.main` records
        it)."""
        return {"teacher": self.teacher, "games": self.search_games, "num_players": 2, "seed": seed,
                "memory": "perfect"}


def _reuse(path: Path, wanted: dict[str, Any], stage: str, ignore: tuple[str, ...] = ()) -> bool:
    """Whether the data file at ``path`` is there to be used: False if it is missing; True if its record
    (less the keys in ``ignore``) is ``wanted``; refused by name if it records other games."""
    if not path.exists():
        return False
    try:
        with np.load(path) as stored:
            found = json.loads(str(stored["about"])) if "about" in stored else None
    except (OSError, ValueError, zipfile.BadZipFile):
        raise GoldrushEnvError(f"{path} is not a readable data file: move it away, and the recipe collects it "
                               "again") from None
    if found is None or {key: value for key, value in found.items() if key not in ignore} != wanted:
        raise GoldrushEnvError(f"{path} holds other games than this recipe needs: it records {found}, the "
                               f"recipe wants {wanted}; move it away or choose another --data-dir")
    print(f"{stage}: {path} (already collected)", flush=True)
    return True


def _collected(recipe: Recipe, path: Path, wanted: dict[str, Any], stage: str, games: int, who: str, seed: int,
               ignore: tuple[str, ...] = (), **options: Any) -> str:
    """The data file at ``path``: reused if it holds ``wanted`` (see :func:`_reuse`), else collected (``games``
    games of ``who`` labelled by the teacher, ``options`` given to ``collect`` and recorded beside ``wanted``)."""
    from goldrush_train.gold.decisions import collect, save

    if not _reuse(path, wanted, stage, ignore):
        start = time.perf_counter()
        print(f"{stage}: {games} games of {who}, seed {seed}...", flush=True)
        data = collect(games, num_players=2, teacher=recipe.teacher, seed=seed, workers=recipe.workers or None,
                       memory="perfect", progress=f"{stage}, seed {seed}", **options)
        save(data, path, **{**wanted, **options})
        print(f"{stage}: {len(data['actions']):,} decisions in {time.perf_counter() - start:.0f} s: {path}",
              flush=True)
    return str(path)


def search_data(recipe: Recipe) -> list[str]:
    """The search data files, collected where missing; a file that holds other games is refused by name."""
    return [_collected(recipe, recipe.data_path(seed), recipe.about(seed), "search data", recipe.search_games,
                       recipe.teacher, seed) for seed in recipe.search_seeds]


def dagger_data(recipe: Recipe, search_paths: list[str]) -> list[str]:
    """The DAgger files, collected where missing (after fitting their student, if it is missing too); a file
    that holds other games, or was played by another student than ``DATA_DIR/dagger-student.npz``, is refused
    by name."""
    from goldrush_train.gold.decisions import file_digest

    student = recipe.student_path
    if not student.exists():
        if all(recipe.dagger_path(seed).exists() for seed in recipe.dagger_seeds):
            raise GoldrushEnvError(f"the DAgger files are there but not the model that played them, {student}: "
                                   "move them away or choose another --data-dir")
        fit = new_run_dir(student.with_suffix(""))  # the student's run folder, beside the data
        print(f"dagger: fitting the student (this recipe without DAgger, seed 0) in {fit}...", flush=True)
        _fit(dataclasses.replace(recipe, seed=0), fit, search_paths)
        shutil.copyfile(fit / "model.npz", student)
    digest = file_digest(student)
    return [_collected(recipe, recipe.dagger_path(seed), recipe.dagger_about(seed, digest), "dagger",
                       recipe.dagger_games, f"{student} labelled by {recipe.teacher}", seed,
                       ignore=("student",),  # the student is known by its digest
                       student=str(student), opponents=split_entrants(recipe.dagger_opponents))
            for seed in recipe.dagger_seeds]


def _fit(recipe: Recipe, run_dir: Path, paths: list[str]) -> dict[str, Any]:
    """Fit the network as ``python -m goldrush_train.gold.ppo`` does with no PPO steps (the environments only give the
    model its spaces), in a process of its own; returns that run's summary."""
    argv = ["--run-dir", str(run_dir), "--seed", str(recipe.seed), "--num-players", "2", "--total-timesteps", "0",
            "--imitation-games", str(recipe.expert_games), "--imitation-epochs", str(recipe.expert_epochs),
            "--imitation-data-epochs", str(recipe.search_epochs), "--imitation-target", recipe.target,
            "--imitation-lr", repr(recipe.lr), "--teacher", "expert", "--num-envs", "1", "--vec-env", "dummy",
            "--width", str(recipe.width), "--context", str(recipe.context), "--memory", "perfect",
            "--eval-agents", recipe.agents, "--final-games", str(recipe.games), "--play-by", recipe.play_by,
            "--torch-threads", str(recipe.torch_threads)]
    if paths:
        argv += ["--imitation-data", *paths]
    run_script("fit", "goldrush_train.gold.ppo", argv)
    return json.loads((run_dir / "summary.json").read_text())


def run(recipe: Recipe) -> dict[str, Any]:
    """Follow ``recipe``; returns the run's summary (goldrush_train.gold.ppo's, with the recipe added)."""
    start = time.perf_counter()
    recipe.check()
    run_dir = Path(recipe.run_dir) if recipe.run_dir else new_run_dir(f"runs/recipe-s{recipe.seed}")
    refuse_used_folder(run_dir)  # before hours of collection, not after
    print(f"recipe: the model will be in {run_dir}", flush=True)
    paths = search_data(recipe)
    if recipe.dagger_seeds:
        paths += dagger_data(recipe, list(paths))
    summary = _fit(recipe, run_dir, paths + list(recipe.extra_data))
    summary["recipe"] = dataclasses.asdict(recipe)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    if recipe.ship:
        ship(run_dir / "model.npz", SHIP_PATH, "recipe: shipped {model} as {to}")
    print(f"recipe: total wall time {minutes(time.perf_counter() - start)}, outputs in {run_dir}/", flush=True)
    return summary


@command("goldrush_train.gold.recipe", needs=TRAIN_EXTRA)
def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    return run(parse_args(Recipe, argv, "goldrush_train.gold.recipe"))


if __name__ == "__main__":
    main()
