"""What one seat remembers of the cards lying face down.

Every flip is public (D9): all seats see each revealed card. What they keep
of it once it is turned face down again is a memory model, one object per
seat, separate from how the memory is encoded for a network.

* :class:`PerfectMemory` (the default) keeps every card ever revealed that is
  still on the table: the ideal player of D9.
* :class:`HumanMemory` approximates a person at the table. People remember
  best what they saw last, their memory of a place fades as the game goes on
  (a constant chance per turn gives the exponential decay of the classic
  forgetting curve), and they can hold only a handful of places at once.
  So: after each completed turn, each remembered card *not seen during that
  turn* is forgotten with probability ``forget_prob``; and when a new card
  would exceed ``capacity`` remembered places, the one seen longest ago is
  forgotten. Its randomness comes from its own seeded generator, so two seats
  with the same history can remember differently, reproducibly.

A memory only changes through :meth:`see`, :meth:`remove` and
:meth:`end_turn`; the first and last return the positions forgotten, so the
environment can update each seat's observation incrementally.
"""

from __future__ import annotations

import numpy as np


class PerfectMemory:
    """Remembers every card it has seen for as long as the card is on the table."""

    def __init__(self) -> None:
        self.known: dict[int, int] = {}
        """Remembered face-down cards: position -> card id, oldest sighting first."""

    def reset(self) -> None:
        self.known.clear()

    def see(self, position: int, card: int) -> tuple[int, ...]:
        """The card at ``position`` was just seen going back face down."""
        self.known[position] = card
        return ()

    def remove(self, position: int) -> None:
        """The card at ``position`` left the table."""
        self.known.pop(position, None)

    def end_turn(self) -> tuple[int, ...]:
        """A turn was completed."""
        return ()


class HumanMemory(PerfectMemory):
    """Forgets each card with ``forget_prob`` per turn, and holds at most ``capacity`` places."""

    def __init__(self, forget_prob: float, capacity: int | None, rng: np.random.Generator) -> None:
        super().__init__()
        self.forget_prob = forget_prob
        self.capacity = capacity
        self.rng = rng
        self._seen_this_turn: set[int] = set()

    def reset(self) -> None:
        super().reset()
        self._seen_this_turn.clear()

    def see(self, position: int, card: int) -> tuple[int, ...]:
        self.known.pop(position, None)  # re-inserted as the newest sighting
        self.known[position] = card
        self._seen_this_turn.add(position)
        forgotten = []
        while self.capacity is not None and len(self.known) > self.capacity:
            oldest = next(iter(self.known))
            del self.known[oldest]
            forgotten.append(oldest)
        return tuple(forgotten)

    def end_turn(self) -> tuple[int, ...]:
        candidates = [position for position in self.known if position not in self._seen_this_turn]
        self._seen_this_turn.clear()
        if not candidates or self.forget_prob == 0.0:
            return ()
        draws = self.rng.random(len(candidates))
        forgotten = tuple(position for position, draw in zip(candidates, draws) if draw < self.forget_prob)
        for position in forgotten:
            del self.known[position]
        return forgotten
