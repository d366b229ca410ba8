"""``greedy``: plays the best sure thing it remembers, otherwise explores.

* First card: if two remembered cards make a gain (a strike for itself, a
  duel or dynamite that removes an opponent's miner, dynamite on gold an
  opponent could take), it flips the first of the best such pair; otherwise
  it turns up a card it does not know.
* Second card, once the first is face up: the remembered card that makes the
  best gain with it; failing that, an unknown card, unless the face-up card
  is an opponent's miner or dynamite, when it prefers a remembered card that
  costs nothing (so it never hands a known gold to an opponent, and never
  gambles one of its own miners, when it can avoid it).
* the rush: remembered gold first, then unknown cards.
"""

from __future__ import annotations

from goldrush_env.gold.cards import DYNAMITE, IS_MINER

from goldrush_agents.gold.base import ScriptedAgent
from goldrush_agents.gold.knowledge import Knowledge


class GreedyAgent(ScriptedAgent):
    name = "greedy"

    in_kernel = True  # goldrush_agents.gold.batched.compiled_greedy()

    def first_flip(self, knowledge: Knowledge) -> int:
        best, choice = 0.0, None
        known = list(knowledge.known.items())
        for i, (p, a) in enumerate(known):
            for q, b in known[i + 1:]:
                value = knowledge.pair_value(a, b, (p, q))
                if value > best:
                    best, choice = value, p
        if choice is not None:
            return choice
        if knowledge.unknown:
            return self.pick(knowledge.unknown)
        return self.pick(list(knowledge.known))

    def second_flip(self, knowledge: Knowledge, face_up: int) -> int:
        here = knowledge.view.face_up
        scored = [(knowledge.pair_value(face_up, card, (here, q)), q) for q, card in knowledge.known.items()]
        best = max((value for value, _ in scored), default=0.0)
        if best > 0:
            return self.pick([q for value, q in scored if value == best])
        risky = face_up == DYNAMITE or IS_MINER[face_up] and knowledge.beneficiary(face_up) != knowledge.me
        safe = [q for value, q in scored if value == 0]
        if knowledge.unknown and not (risky and safe):
            return self.pick(knowledge.unknown)
        if safe:
            return self.pick(safe)
        return max(scored)[1]
