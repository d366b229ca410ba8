"""What one seat knows of a game of Gold, in a form players can read.

Scripted players and renderers read the :class:`~goldrush_env.policy.SeatView` of a seat, every game's view,
whose ``knowledge`` is a :class:`CardKnowledge`: which card this seat sees or remembers where, who owns which miner,
the public standing and the face-up first card (its fields read on the view itself: ``view.cards``). It holds
nothing the seat may not know (the hidden table is not in it), except in the debugging view made with
``seat=None``, which shows every card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from goldrush_env.gold.cards import COLOUR, GOLD_RUSH_THRESHOLD, IS_MINER
from goldrush_env.policy import SeatView

UNKNOWN = -2
"""In :attr:`CardKnowledge.cards`: a face-down card this seat cannot place."""


@dataclass(frozen=True)
class CardKnowledge:
    """What ``seat`` knows of the cards and the standing at one moment of a game (a
    :class:`~goldrush_env.policy.SeatView`'s ``knowledge``)."""

    seat: int | None
    """The absolute seat viewing (``None``: the all-seeing debugging view)."""
    num_players: int
    cards: tuple[int, ...]
    """Per position: the card id seen or remembered there, :data:`UNKNOWN`
    for a face-down card not known, :data:`~goldrush_env.gold.cards.EMPTY` for none."""
    face_up: int | None
    """Position of the face-up first card of the current turn, if any."""
    owners: tuple[int, ...]
    """The absolute seat owning each colour, -1 if unowned (D1)."""
    scores: tuple[int, ...]
    """Points per absolute seat."""
    gold_cards: tuple[int, ...]
    current_player: int | None
    """The absolute seat to flip, ``None`` once the game has ended."""
    gold_rush: bool
    turn: int
    max_turns: int | None
    unseen: tuple[int, ...]
    """Per card id: how many such cards lie face down where this seat cannot place them."""
    rush_at: int = GOLD_RUSH_THRESHOLD
    """The rush begins at the start of a turn with this many cards or fewer (10 on the full table)."""

    @property
    def is_second_flip(self) -> bool:
        """True between the two flips of a normal turn."""
        return self.face_up is not None

    def relative(self, seat: int) -> int:
        """``seat`` counted from the viewer: 0 is the viewer, 1 plays next, ..."""
        return (seat - (self.seat or 0)) % self.num_players

    def owner(self, card: int) -> int | None:
        """The absolute seat a miner card works for; ``None`` for an unowned miner or a non-miner."""
        if not IS_MINER[card]:
            return None
        owner = self.owners[COLOUR[card]]
        return None if owner < 0 else owner

    def known_positions(self) -> dict[int, int]:
        """Face-down (or face-up) positions whose card this seat knows: position -> card."""
        return {position: card for position, card in enumerate(self.cards) if card >= 0}

    def unknown_positions(self) -> list[int]:
        return [position for position, card in enumerate(self.cards) if card == UNKNOWN]


def forget_all_but(view: SeatView, positions: set[int | None]) -> SeatView:
    """The view with only the cards at ``positions`` known: the 'real memory' of ``goldrush play`` and
    ``goldrush serve``, where a person sees only what was flipped since its last turn began."""
    cards = tuple(card if card < 0 or p in positions else UNKNOWN for p, card in enumerate(view.cards))
    return replace(view, knowledge=replace(view.knowledge, cards=cards))


def __getattr__(name: str) -> Any:
    if name == "PlayerView":  # an import of the old name says what to use, rather than only that it is missing
        raise ImportError("goldrush_env.gold.view.PlayerView is now SeatView (goldrush_env.policy), every game's "
                          "view, whose knowledge is a CardKnowledge: see the changelog")
    raise AttributeError(f"module 'goldrush_env.gold.view' has no attribute {name!r}")
