"""A second model of Gold's rules, written from ../shared/rules/RULES.md alone and sharing no code with the engine.

The engine works on card ids and precomputed tables, for speed; this model works on the rule sheet's card codes
(``"G3"``, ``"M25"``, ``"D"``) with plain comparisons, for clarity. It exists to produce rule vectors the engine
did not write (``tests/data/boundary_vectors.jsonl``, made by :func:`boundary_vectors`) and to play random games
in lockstep with the engine. ``tests/gold/test_gold_model.py`` first shows that it replays the shared vectors.
"""

import argparse
import json
from pathlib import Path

RUSH_AT = 10  # at the start of a turn with this many cards or fewer, the Gold Rush begins


def kind(code: str) -> str:
    return code[0]  # "G", "M" or "D"


def value(code: str) -> int:
    return int(code[-1])


class Model:
    """One game of Gold: ``flip(position)`` returns the vectors' outcome label."""

    def __init__(self, num_players: int, layout: list[str], first_player: int = 0):
        self.num_players = num_players
        self.table = list(layout)
        if num_players == 2:  # D1
            self.owners = {0: 0, 1: 0, 2: 1, 3: 1}
        else:
            self.owners = {colour: colour for colour in range(num_players)}
        self.player = first_player
        self.turns = 0
        self.rush_from = None
        self.face_up = None
        self.scores = [0] * num_players
        self.gold_cards = [0] * num_players
        self.begin_turn()

    def cards(self) -> list[str]:
        return [code for code in self.table if code != "-"]

    def stuck(self) -> bool:
        """D3: no pair of the cards left can remove a card."""
        cards = self.cards()
        if "D" in cards:
            return False
        miners = {value(code) for code in cards if kind(code) == "M"}
        golds = {value(code) for code in cards if kind(code) == "G"}
        return len(miners) <= 1 and all(miner < gold for miner in miners for gold in golds)

    def begin_turn(self) -> None:
        cards = self.cards()
        if self.rush_from is None and cards and (len(cards) <= RUSH_AT or self.stuck()):
            self.rush_from = self.turns

    def end_turn(self) -> None:
        self.turns += 1
        self.player = (self.player + 1) % self.num_players
        self.begin_turn()

    def take(self, seat: int, gold: str) -> None:
        self.scores[seat] += value(gold)
        self.gold_cards[seat] += 1

    def flip(self, position: int) -> str:
        code = self.table[position]
        if code == "-" or position == self.face_up:
            raise ValueError(f"position {position} cannot be flipped")
        if self.rush_from is not None:
            self.table[position] = "-"
            label = "rush_discard"
            if kind(code) == "G":
                self.take(self.player, code)
                label = f"rush_gold:{self.player}"
            self.end_turn()
            return label
        if self.face_up is None:
            self.face_up = position
            return "first"
        first_position, self.face_up = self.face_up, None
        first = self.table[first_position]
        kinds = {kind(first), kind(code)}
        gone = []
        if "D" in kinds:
            gone, label = [first_position, position], "dynamite"
        elif kinds == {"M"}:
            label = "nothing"
            if value(first) != value(code):
                gone, label = [first_position if value(first) < value(code) else position], "duel"
        elif kinds == {"M", "G"}:
            miner, gold = (first, code) if kind(first) == "M" else (code, first)
            label = "nothing"
            if value(miner) >= value(gold):
                seat = self.owners.get(int(miner[1]), self.player)
                self.take(seat, gold)
                gone, label = [first_position, position], f"strike:{seat}"
        else:
            label = "nothing"
        for spot in gone:
            self.table[spot] = "-"
        self.end_turn()
        return label

    @property
    def is_over(self) -> bool:
        return not self.cards()

    def winners(self) -> list[int]:
        best = max(zip(self.scores, self.gold_cards))
        return [seat for seat in range(self.num_players) if (self.scores[seat], self.gold_cards[seat]) == best]

    def expected(self) -> dict:
        return {"scores": self.scores, "gold_cards": self.gold_cards, "winners": self.winners(),
                "turns": self.turns, "gold_rush_from_turn": self.rush_from}


def layout_of(cards: dict[int, str]) -> list[str]:
    return [cards.get(position, "-") for position in range(64)]


def vector(name: str, about: str, num_players: int, cards: dict[int, str], script: list[int],
           first_player: int = 0) -> dict:
    """A vector: ``script`` is flipped first; the Gold Rush must have begun by its end, and the rest of the
    table is then flipped in increasing position order."""
    layout = layout_of(cards)
    model = Model(num_players, layout, first_player)
    flips, outcomes = [], []
    for position in script:
        flips.append(position)
        outcomes.append(model.flip(position))
    if model.rush_from is None:
        raise ValueError(f"{name}: the script ends before the Gold Rush")
    while not model.is_over:
        position = next(p for p, code in enumerate(model.table) if code != "-")
        flips.append(position)
        outcomes.append(model.flip(position))
    return {"name": name, "about": about, "num_players": num_players, "first_player": first_player,
            "layout": layout, "flips": flips, "outcomes": outcomes, "expected": model.expected()}


def boundary_vectors() -> list[dict]:
    """Games at the edges of D3 (stalemate) and of the Gold Rush threshold."""
    def cards(codes: str) -> dict[int, str]:
        return dict(enumerate(codes.split()))

    return [
        vector("d3_miner_equal_to_lowest_gold_plays_on",
               "one miner value (2) equal to the lowest gold (G2): a 2 can strike a G2, so no stalemate; once the "
               "last G2 is struck, the 2s are weaker than every gold and the rush begins with 11 cards",
               3, cards("M02 G3 M12 G2 M22 G2 M32 G3 G3 G3 G4 G4 G4 G4 G4"), [0, 1, 2, 3, 4, 5]),
        vector("d3_duel_leaves_a_miner_equal_to_the_lowest_gold",
               "miners of values 2 and 3: no stalemate; the duel removes the only 2, leaving 3s with a G3 as the "
               "lowest gold, still no stalemate; play goes on until ten cards or fewer remain",
               2, cards("M02 M13 G3 M23 G4 G4 G4 G4 G4 G3 G3 G3 G3 M33"), [0, 1, 1, 2, 3, 4, 13, 9]),
        vector("d3_a_g1_keeps_miners_of_two_in_play",
               "one miner value (2), golds from G1 up, eleven cards: a 2 can strike the G1, so play goes on; "
               "once it is struck, nine cards are left and the rush begins",
               4, cards("G3 M02 G1 M12 G3 G4 G4 M22 G3 G4 G4"), [0, 1, 1, 2]),
        vector("d3_miner_one_below_the_lowest_gold_rushes_at_once",
               "eleven cards, one miner value (3), the lowest gold a G4: no pair can act, the rush begins at turn 0",
               4, cards("M03 M13 M23 M33 M43 G4 G4 G4 G4 G4 M03"), []),
        vector("d3_eleven_golds_rush_at_once",
               "eleven cards, all gold: the rush begins at turn 0 (D3), not at ten cards",
               5, cards("G1 G2 G3 G4 G1 G2 G3 G4 G1 G2 G3"), [], first_player=3),
        vector("d3_a_dynamite_keeps_eleven_golds_in_play",
               "ten golds and a dynamite: the dynamite can remove cards, so play is normal until ten cards remain",
               2, cards("G1 G2 G3 G4 G1 G2 G3 G4 G1 G2 D"), [0, 1, 2, 10]),
        vector("ten_cards_rush_with_a_dynamite",
               "ten cards, a dynamite among them: the Gold Rush begins at turn 0 whatever the cards could do",
               3, cards("M05 G1 G2 G3 G4 D M12 G2 G3 G4"), [], first_player=2),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the boundary vectors, one JSON game per line.")
    parser.add_argument("out", type=Path, help="where, e.g. tests/data/boundary_vectors.jsonl")
    args = parser.parse_args(argv)
    with open(args.out, "w") as handle:
        handle.writelines(json.dumps(item, separators=(",", ":")) + "\n" for item in boundary_vectors())


if __name__ == "__main__":
    main()
