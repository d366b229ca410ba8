"""``python -m goldrush_env [--game NAME] [options]``: a game played by random moves, printed move by move.

Each game has its own demo (``python -m goldrush_env.<game>``, with its own options); ``--game`` picks it, the
first game of the registry (:data:`goldrush_env.games.GAMES`) by default.
"""

from __future__ import annotations

import sys
from importlib import import_module

from goldrush_env.games import DEFAULT_GAME, GAMES


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    game = DEFAULT_GAME
    if "--game" in argv:
        at = argv.index("--game")
        if at + 1 >= len(argv) or argv[at + 1] not in GAMES:
            given = argv[at + 1] if at + 1 < len(argv) else "nothing"
            print(f"python -m goldrush_env: --game must be one of {list(GAMES)}, got {given!r}", file=sys.stderr)
            return 2
        game = argv[at + 1]
        del argv[at:at + 2]
    return import_module(f"{GAMES[game]}.__main__").main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
