"""Is the warm start short of data or short of fitting? Score the copy on games it never saw, epoch by epoch.

The network is fitted (:func:`goldrush_train.gold.decisions.pretrain`, as ``goldrush_train.gold.ppo``'s
warm start does, from fresh weights) to the decisions of the ``--fit`` files
and, every ``--every`` epochs, scored (:func:`goldrush_train.gold.decisions.score`) on the
``--holdout`` files, whose games it never fits::

    python -m goldrush_train.gold.holdout --fit runs/ismcts-{1,2,3,4,5}.npz --holdout runs/ismcts-9.npz --epochs 48

``--target`` says what is fitted and scored, as ``goldrush_train.gold.ppo --imitation-target``
does: the search's visit shares (default) or its moves. If the held-out
figures keep improving with the epochs, the fit stops too early; if they
stall while the fitted games' loss keeps falling, more games are what helps.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence

from goldrush_env.checks import check_int
from goldrush_env.errors import GoldrushEnvError
from goldrush_train.cli import command


def curve(fit: Sequence[str], holdout: Sequence[str], epochs: int = 48, every: int = 4, width: int = 64,
          context: int = 32, lr: float = 2e-3, seed: int = 0, num_players: int = 2,
          target: str = "visits") -> list[dict[str, Any]]:
    """One row per scored epoch: the fit's own figures (``loss``, ``matches``) and the held-out ones
    (:func:`goldrush_train.gold.decisions.score`'s, prefixed ``holdout_``), fitting ``target`` (``"visits"`` or
    ``"move"``)."""
    import torch

    from goldrush_train.gold.decisions import load, pretrain, score
    from goldrush_train.gold.network import GoldNet

    for name, value in (("epochs", epochs), ("every", every), ("width", width), ("context", context)):
        check_int(f"--{name}", value, 1)
    overlap = sorted(set(fit) & set(holdout))
    if overlap:
        raise GoldrushEnvError(f"a file cannot be both fitted and held out: {overlap}")
    data = {}
    for option, paths in (("--fit", fit), ("--holdout", holdout)):
        try:
            data[option] = load(*paths, num_players=num_players, target=target)
        except GoldrushEnvError as error:
            raise GoldrushEnvError(f"{option}: {error}") from None
    fitted, kept = data["--fit"], data["--holdout"]
    torch.manual_seed(seed)
    net = GoldNet(width=width, context=context)
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()

    def after_epoch(epoch: int, stats: dict[str, float]) -> None:
        if epoch % every and epoch != epochs:
            return
        row = {"epoch": epoch, "loss": stats["loss"], "matches": stats["matches"],
               **{f"holdout_{key}": value for key, value in score(net, kept).items()},
               "seconds": round(time.perf_counter() - start, 1)}
        rows.append(row)
        print(f"{epoch:5d}  {row['loss']:.4f}  {row['matches']:.3f}  {row['holdout_cross_entropy']:.4f}  "
              f"{row['holdout_excess']:.4f}  {row['holdout_matches']:.3f}  {row['holdout_move_matches']:.3f}   "
              f"{row['holdout_value_error']:.4f}  {row['seconds']:7.0f}", flush=True)

    print(f"fit: {len(fitted['actions']):,} decisions, held out: {len(kept['actions']):,}")
    print("epoch  loss    match  h.xent  h.exc   h.match h.move  h.value seconds")
    pretrain(net, fitted, epochs=epochs, lr=lr, seed=seed, after_epoch=after_epoch)
    return rows


@command("goldrush_train.gold.holdout", needs=("torch", "stable_baselines3", "sb3_contrib"))
def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m goldrush_train.gold.holdout",
                                     description="Fit the network to some decision files, score it on others.")
    parser.add_argument("--fit", nargs="+", required=True,
                        help="the .npz files fitted (python -m goldrush_train.gold.imitation)")
    parser.add_argument("--holdout", nargs="+", required=True, help="the .npz files scored, never fitted")
    parser.add_argument("--epochs", type=int, default=48, help="passes over the fitted decisions (default: 48)")
    parser.add_argument("--every", type=int, default=4, help="score every this many epochs (default: 4)")
    parser.add_argument("--width", type=int, default=64, help="the network's width (default: 64)")
    parser.add_argument("--context", type=int, default=32, help="the network's table summary (default: 32)")
    parser.add_argument("--lr", type=float, default=2e-3, help="Adam's step size (default: 2e-3)")
    parser.add_argument("--seed", type=int, default=0, help="the initial weights and batch order (default: 0)")
    parser.add_argument("--target", default="visits", choices=["visits", "move"],
                        help="fit the search's visit shares or its moves (default: visits)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (default: 0, torch's choice)")
    args = parser.parse_args(argv)
    check_int("--threads", args.threads, 0, note="0: torch's choice")
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    return curve(args.fit, args.holdout, epochs=args.epochs, every=args.every, width=args.width,
                 context=args.context, lr=args.lr, seed=args.seed, target=args.target)


if __name__ == "__main__":
    main()
