"""Where a player's flips part from the expert's, in the same positions.

Two experts play whole 2-player games (perfect memory, fixed seeds). At every
decision outside the Gold Rush the other player (``--agent``, any entrant
spec) is asked what it would flip, and its choice is sorted against the
expert's by what each would turn: an unknown card, or a remembered one (by
its code, e.g. ``M45`` for a miner of colour 4 and strength 5). The
expert's flip is the one played, so both players are asked in the same
positions.

    python experiments/2026-11-23-flip-choices/flip_choices.py --agent ismcts --games 8 --seed 100

It is how we saw the search turn a remembered card first where the expert
turns an unknown one (see ``agents/gold/search.py``).
"""

from __future__ import annotations

import argparse
import collections

from goldrush_env.gold.aec import raw_env
from goldrush_env.gold.cards import CODE

from goldrush_agents import make_agent


def what(view, position: int) -> str:
    """What a flip of ``position`` turns, as this seat knows it."""
    card = view.cards[position]
    return "unknown" if card < 0 else CODE[card]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", default="ismcts", help="the player compared with the expert (default: %(default)s)")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=100, help="the first game's seed; game i uses seed + i")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    expert, other = make_agent("expert", seed=1), make_agent(args.agent, seed=2)
    counts: collections.Counter = collections.Counter()
    for seed in range(args.seed, args.seed + args.games):
        env = raw_env(num_players=2)
        env.reset(seed=seed)
        expert.reset(seed=seed)
        game = env.game
        while not game.is_finished:
            view = env.view(game.current_player)
            chosen = expert.act(view)
            if len(view.legal_actions) > 1 and not view.gold_rush:
                phase = "first" if view.face_up is None else "second"
                counts[phase, what(view, chosen), what(view, other.act(view))] += 1
            env.step_from_view(chosen)

    for phase in ("first", "second"):
        total = sum(n for (p, _, _), n in counts.items() if p == phase)
        apart = sum(n for (p, a, b), n in counts.items() if p == phase and a != b)
        unknown_vs_known = sum(n for (p, a, b), n in counts.items()
                               if p == phase and a == "unknown" and b != "unknown")
        print(f"{phase} flips: {total}; {args.agent} differs from expert in {apart} ({apart / total:.1%}); "
              f"expert turns an unknown card and {args.agent} a remembered one in {unknown_vs_known} "
              f"({unknown_vs_known / total:.1%})")
    print("\nmost common differences (phase, expert, " + args.agent + "):")
    for (phase, a, b), n in sorted(counts.items(), key=lambda item: -item[1]):
        if a != b and n > 1:
            print(f"  {n:4d}  {phase:6s}  {a:8s} {b}")


if __name__ == "__main__":
    main()
