"""Learning curves of several setups, several seeds each, in one picture.

    python -m goldrush_train.gold.curves docs/img/learning_curves.png \\
        "recipe=runs/scratch-s0,runs/scratch-s1,runs/scratch-s2" "SB3 MlpPolicy=runs/sb3-s0,runs/sb3-s1,runs/sb3-s2"

Each setup is ``label=run,run,...``: run folders written by ``goldrush_train.gold.scratch``
or ``examples/sb3_stock.py`` (their ``summary.json``). One panel per
evaluation opponent; a thin line per seed and a thick one for the mean of the
seeds at the steps they share.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence

from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import command


def read_setup(spec: str) -> tuple[str, list[list[dict[str, Any]]]]:
    """``label=run,run``: the label and each run's evaluations, refused by name if a run has none."""
    label, sep, runs = spec.partition("=")
    if not sep or not label or not runs:
        raise GoldrushEnvError(f"{spec!r} is not a setup: expected label=run_dir,run_dir,...")
    evaluations = []
    for run in runs.split(","):
        summary = Path(run) / "summary.json"
        if not summary.is_file():
            raise GoldrushEnvError(f"{run!r} has no summary.json: is it a finished run folder?")
        rows = json.loads(summary.read_text()).get("evaluations") or []
        if not rows:
            raise GoldrushEnvError(f"{run!r} recorded no evaluations")
        evaluations.append(rows)
    return label, evaluations


def plot_setups(setups: list[tuple[str, list[list[dict[str, Any]]]]], path: Path) -> None:
    """One panel per opponent, a colour per setup: each seed thin, the mean over seeds thick."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    opponents = list(dict.fromkeys(row["opponent"] for _, runs in setups for rows in runs for row in rows))
    fig, axes = plt.subplots(1, len(opponents), figsize=(5.5 * len(opponents), 4), squeeze=False)
    for ax, opponent in zip(axes[0], opponents):
        for index, (label, runs) in enumerate(setups):
            colour = f"C{index}"
            curves = [{row["step"]: row["win_share"] for row in rows if row["opponent"] == opponent} for rows in runs]
            for curve in curves:
                ax.plot(list(curve), list(curve.values()), color=colour, linewidth=0.8, alpha=0.45)
            shared = sorted(set.intersection(*(set(curve) for curve in curves)))
            seeds = f"{len(curves)} seed" + "s" * (len(curves) > 1)
            ax.plot(shared, [sum(curve[step] for curve in curves) / len(curves) for step in shared], color=colour,
                    linewidth=2.2, marker="o", markersize=3, label=f"{label} ({seeds})")
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        ax.set_ylim(0, 1)
        ax.set_title(f"against {opponent}")
        ax.set_xlabel("training steps (learner decisions)")
        ax.set_ylabel("win share")
        ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


@command("goldrush_train.gold.curves", needs=("matplotlib",))
def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m goldrush_train.gold.curves", description=__doc__.split("\n")[0])
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("setups", nargs="+", help="label=run_dir,run_dir,... (one per setup)")
    args = parser.parse_args(argv)
    setups = [read_setup(spec) for spec in args.setups]
    plot_setups(setups, Path(args.out))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
