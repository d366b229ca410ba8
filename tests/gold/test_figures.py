"""The README's results stay true: their commands, at 20 games a line, still give what they gave when the
figures were measured (2026-11-26, commit 457af68, whose 2,000-game runs matched the README's table).

A change of the engine, the players, the shipped models or the evaluation that moves any game of these
evaluations fails here; then rerun the README's Results commands, and put their figures in the README and the
experiments log with the commit."""

import pytest

pytest.importorskip("tyro")

from goldrush_agents.tournament import run_tournament  # noqa: E402
from goldrush_train.win_shares import evaluate  # noqa: E402

MEASURED = [  # (entrant, opponents, the command's --seed): [(opponent, win share, points model, points opponent)]
    ("taught", ["random", "greedy", "expert"], 1_000_000,
     [("random", 1.0, 39.0, 15.7), ("greedy", 0.6, 29.4, 26.95), ("expert", 0.225, 26.6, 28.95)]),
    ("taught", ["greedy", "expert"], 5_000_000, [("greedy", 0.3, 26.65, 28.1), ("expert", 0.5, 27.65, 28.65)]),
    ("scratch", ["random", "greedy"], 1_000_000,  # the model over kinds of card, measured 2026-11-27
     [("random", 1.0, 40.4, 15.15), ("greedy", 0.7, 29.75, 26.15)]),
    ("selfplay", ["greedy"], 5_000_000, {"Haswell": [("greedy", 0.65, 29.6, 25.75)]}),  # every table size, 2026-11-27
    ("selfplay[depth=0]", ["greedy"], 5_000_000, [("greedy", 0.75, 28.5, 25.2)]),
]


def blas_kernels() -> str:
    """The kernels of the BLAS numpy uses (OpenBLAS picks them by processor: SkylakeX with AVX-512 on Intel,
    Haswell on AMD's EPYC). The search of ``selfplay`` compares values that sums of float32 products give, and two
    kernels sum in two orders: a near-tie may fall the other way, and a game with it. Its figures are given for
    each kernel they were measured with."""
    from threadpoolctl import threadpool_info

    return next((lib.get("architecture", "") for lib in threadpool_info() if lib.get("internal_api") == "openblas"),
                "")


@pytest.mark.parametrize("entrant, opponents, seed, figures", MEASURED, ids=lambda value: str(value)[:20])
def test_the_readmes_evaluations_give_what_they_gave(entrant, opponents, seed, figures):
    if isinstance(figures, dict):
        kernels = blas_kernels()
        if kernels not in figures:
            pytest.skip(f"{entrant}'s figures were measured with the BLAS kernels {sorted(figures)}, not {kernels!r}")
        figures = figures[kernels]
    rows = evaluate(entrant, opponents, games=20, seed=seed, workers=1)
    assert [(r.opponent, r.win_share, r.model_points, r.opponent_points) for r in rows] == figures


SIZES = [  # (entrant, players, it alone against greedy, greedy alone against it): docs/agents.md's ladder, by
    # benchmarks/ladder.py --pairs X/greedy
    # --batched --games 20, measured 2026-11-27:
    ("taught", 3, 0.4, 0.5), ("taught", 4, 0.25, 0.25), ("taught", 5, 0.25, 0.1),
    ("scratch", 3, 0.375, 0.25), ("scratch", 4, 0.275, 0.2), ("scratch", 5, 0.25, 0.175),  # (greedy compiled)
]


@pytest.mark.parametrize("entrant, num_players, alone, field", SIZES)
def test_the_readmes_table_sizes_give_what_they_gave(entrant, num_players, alone, field):
    result = run_tournament([entrant, "greedy"], num_players=num_players, games=20, seed=0, batched=True)
    shares = {p.alone: (p.games, p.win_share) for p in result.pairings}
    assert shares == {entrant: (20, alone), "greedy": (20, field)}
