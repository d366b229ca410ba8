"""Draw the documentation's pictures with the package's own renderer (``goldrush_env.gold.render.to_rgb``).

    python docs/make_pictures.py             # (re)writes docs/img/*.png
    python docs/make_pictures.py --check     # exit 1 if a picture differs from what the code draws now

Every picture is a seeded game or a fixed layout, so the same code draws the
same pixels; ``tests/test_docs.py`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from goldrush_agents import make_agent
from goldrush_env.gold import raw_env
from goldrush_env.gold.render import CARD_H, CARD_W, GAP, MARGIN, to_rgb

OUT = Path(__file__).parent / "img"
SCALE = 2
"""Pixels per pixel of the renderer: its cards are 44 x 60, small on a page."""


def _layout(cards: list[str]) -> list[str]:
    """A layout with ``cards`` from position 0 on, and sixteen more in the last rows so that the rush
    (ten cards or fewer) has not begun."""
    table = ["-"] * 64
    table[:len(cards)] = cards
    table[48:64] = "G1 G1 G2 G2 G3 G3 G4 G4 D D M42 M43 M44 M32 M33 M34".split()
    return table


def _strip(image: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` cards of the top row, with a border of felt."""
    pad = GAP // 2 + 1
    return image[MARGIN - pad: MARGIN + CARD_H + pad, MARGIN - pad: MARGIN + count * CARD_W + (count - 1) * GAP + pad]


def _cards(codes: list[str], flip_first: bool = False) -> np.ndarray:
    """The cards ``codes`` face up in a row; with ``flip_first`` the first is the turn's face-up card (framed)."""
    env = raw_env(num_players=2)
    env.reset(options={"layout": _layout(codes)})
    if flip_first:
        env.step_from_view(0)  # a position, whatever the action option
    return _strip(to_rgb(env.view(None)), len(codes))


def table_picture() -> np.ndarray:
    """Seat 0's memory in a game of greedy (seat 0) against expert, at turn 6, its first card face up."""
    env = raw_env(num_players=2)
    env.reset(seed=13)
    players = [make_agent("greedy", seed=13), make_agent("expert", seed=14)]
    game = env.game
    while not (game.turn >= 6 and game.current_player == 0 and game.face_up is not None):
        env.step_from_view(players[game.current_player].act(env.view(game.current_player)))
    return to_rgb(env.view(0))


PICTURES = {
    "table.png": table_picture,
    "gold.png": lambda: _cards("G1 G2 G3 G4 D".split()),
    "miners.png": lambda: _cards("M02 M13 M24 M35 M45".split()),
    "strike.png": lambda: _cards(["M14", "G3"], flip_first=True),
    "duel.png": lambda: _cards(["M25", "M03"], flip_first=True),
    "dynamite.png": lambda: _cards(["G4", "D"], flip_first=True),
    "nothing.png": lambda: _cards(["M02", "G4"], flip_first=True),
}


def draw(name: str) -> np.ndarray:
    image = PICTURES[name]()
    return image.repeat(SCALE, axis=0).repeat(SCALE, axis=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the pictures on disk, write nothing")
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    stale = []
    for name in PICTURES:
        image, path = draw(name), OUT / name
        if args.check:
            if not path.is_file() or not np.array_equal(np.asarray(Image.open(path).convert("RGB")), image):
                stale.append(name)
        else:
            Image.fromarray(image).save(path, optimize=True)
            print(f"wrote {path}")
    if stale:
        print(f"pictures that differ from what the code draws: {stale}; run python docs/make_pictures.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
