"""Figures of a training run: win shares over training steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot(evaluations: list[dict[str, Any]], promotions: list[dict[str, Any]], path: Path, title: str) -> None:
    """Win share (with its 95% interval) against each evaluation agent over training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent in dict.fromkeys(e["opponent"] for e in evaluations):
        rows = [e for e in evaluations if e["opponent"] == opponent]
        steps = [e["step"] for e in rows]
        ax.plot(steps, [e["win_share"] for e in rows], marker="o", markersize=3, label=f"vs {opponent}")
        ax.fill_between(steps, [e["low"] for e in rows], [e["high"] for e in rows], alpha=0.2)
    if evaluations:
        ax.axhline(evaluations[0]["fair_share"], color="grey", linestyle="--", linewidth=1, label="fair share")
    for promotion in promotions:
        ax.axvline(promotion["step"], color="black", linestyle=":", linewidth=1)
        ax.text(promotion["step"], 0.02, f" {promotion['agent']}", fontsize=8, rotation=90, va="bottom")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win share (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
