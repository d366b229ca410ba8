"""docs/agents.md's order of the players, "from weakest to strongest", agrees with its ladder table.

The rule, read off the table's 2-player rows (the list is the 2-player order; beyond two players the table says
the players bunch up):

* every player of the list has a 2-player row and every player of a 2-player row is in the list;
* every 2-player row's win share lies above its fair share, and its stronger player comes after its weaker one;
* a *common opponent* is a listed player that every other listed player has a 2-player row with (today
  `greedy`). Along the list, each player's win share against every common opponent rises strictly, the common
  opponent's own being the fair share. A row where the common opponent is the stronger gives the other player
  one less its win share: with two players, victories shared or not, the two shares add up to one.

So the list is the table's order by win share against a player all of them met, and no head-to-head row
contradicts it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

AGENTS_PAGE = Path(__file__).parent.parent / "docs" / "agents.md"
ORDER_INTRO = "from weakest to strongest"
TABLE_HEADER = "| players | stronger | weaker |"


@dataclass(frozen=True)
class Row:
    players: int
    stronger: str
    weaker: str
    games: int
    win_share: float
    fair_share: float


def ladder_rows(text: str) -> list[Row]:
    """The rows of the page's ladder table."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(TABLE_HEADER))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cell = dict(zip(header, (c.strip() for c in line.strip("|").split("|"))))
        rows.append(Row(int(cell["players"]), cell["stronger"], cell["weaker"], int(cell["games"]),
                        float(cell["win share"]), float(cell["fair share"])))
    return rows


def listed_order(text: str) -> list[str]:
    """The players of the list that follows the paragraph saying "from weakest to strongest", in order."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if ORDER_INTRO in line.lower())
    while lines[start].strip():  # the rest of the introducing paragraph
        start += 1
    names = []
    for line in lines[start + 1:]:
        if not line.strip() or not line.startswith(("- ", "  ")):
            break
        if found := re.match(r"- \*\*`([^`]+)`\*\*", line):
            names.append(found.group(1))
    return names


def disagreements(order: list[str], rows: list[Row]) -> list[str]:
    """Where ``order`` (weakest first) and the table's 2-player ``rows`` disagree, by the module's rule; [] if
    nowhere."""
    two = [row for row in rows if row.players == 2]
    place = {name: i for i, name in enumerate(order)}
    found = []
    in_rows = {row.stronger for row in two} | {row.weaker for row in two}
    found += [f"{name} is listed but has no 2-player row" for name in order if name not in in_rows]
    found += [f"{name} has a 2-player row but is not listed" for name in sorted(in_rows - set(place))]
    for row in two:
        if row.win_share <= row.fair_share:
            found.append(f"the row {row.stronger}/{row.weaker} has a win share {row.win_share} not above "
                         f"its fair share {row.fair_share}")
        if row.stronger in place and row.weaker in place and place[row.stronger] < place[row.weaker]:
            found.append(f"{row.stronger} beats {row.weaker} ({row.win_share}) but is listed below it")
    met = {}  # (player, opponent): the player's win share against the opponent, from the row of most games
    for row in sorted(two, key=lambda row: row.games):
        met[row.stronger, row.weaker] = row.win_share
        met[row.weaker, row.stronger] = 1 - row.win_share
    common = [c for c in order if all((name, c) in met for name in order if name != c)]
    if not common:
        found.append("no listed player has a 2-player row against every other, so nothing orders them all")
    fair = 0.5  # two players
    for c in common:
        shares = [(name, met.get((name, c), fair)) for name in order]
        for (lower, low), (higher, high) in itertools.pairwise(shares):
            if not low < high:
                found.append(f"against {c}, {higher} ({high:.3f}) is listed above {lower} ({low:.3f}) but does "
                             f"not win more")
    return found


def test_the_order_of_the_players_agrees_with_the_ladder():
    text = AGENTS_PAGE.read_text()
    order, rows = listed_order(text), ladder_rows(text)
    assert len(order) >= 7 and len([row for row in rows if row.players == 2]) >= 10
    assert disagreements(order, rows) == []


MADE_UP = [
    Row(2, "b", "a", 100, 0.9, 0.5),
    Row(2, "c", "b", 100, 0.6, 0.5),
    Row(2, "d", "b", 100, 0.7, 0.5),
    Row(2, "d", "c", 100, 0.55, 0.5),
    Row(2, "b", "e", 100, 0.8, 0.5),
    Row(2, "e", "a", 100, 0.85, 0.5),
    Row(3, "a", "d", 100, 0.9, 0.333),  # beyond two players: not the list's business
]
"""A made-up ladder: b meets everyone, and against b the order is a, e, b, c, d."""


def test_the_checker_accepts_the_made_up_ladders_order():
    assert disagreements(["a", "e", "b", "c", "d"], MADE_UP) == []


def test_the_checker_catches_a_swapped_order():
    """Two neighbours swapped (as agents.md once put taught above ismcts): the head-to-head row and the common
    opponent both say so."""
    found = disagreements(["a", "e", "b", "d", "c"], MADE_UP)
    assert "d beats c (0.55) but is listed below it" in found
    assert "against b, c (0.600) is listed above d (0.700) but does not win more" in found


def test_the_pages_old_order_fails_against_its_table():
    """The order agents.md gave before this test: `taught` above `ismcts`, `scratch` above both."""
    old = ["random", "greedy", "expert", "ismcts", "taught", "scratch", "selfplay"]
    found = disagreements(old, ladder_rows(AGENTS_PAGE.read_text()))
    assert "against greedy, scratch (0.562) is listed above taught (0.565) but does not win more" in found
    assert "against greedy, taught (0.565) is listed above ismcts (0.600) but does not win more" in found


def test_the_checker_catches_an_order_only_the_common_opponent_decides():
    """e and a never meet b's rivals head to head: only their shares against b order them (once listed above
    the player it lost to, as agents.md listed scratch above taught and ismcts)."""
    found = disagreements(["a", "b", "e", "c", "d"], MADE_UP)
    assert found == ["b beats e (0.8) but is listed below it",
                     "against b, e (0.200) is listed above b (0.500) but does not win more"]


def test_the_checker_catches_a_player_missing_and_a_row_below_its_fair_share():
    rows = [*MADE_UP[:-1], Row(2, "f", "b", 50, 0.45, 0.5)]
    found = disagreements(["a", "e", "b", "c", "d", "g"], rows)
    assert "g is listed but has no 2-player row" in found
    assert "f has a 2-player row but is not listed" in found
    assert "the row f/b has a win share 0.45 not above its fair share 0.5" in found
    assert "no listed player has a 2-player row against every other, so nothing orders them all" in found


def test_the_page_is_read_as_written():
    """The parsers find what the page holds: the list's first and last players, a row of the table."""
    text = AGENTS_PAGE.read_text()
    order = listed_order(text)
    assert order[0] == "random" and "optimal" not in order
    assert Row(2, "greedy", "random", 2000, 0.994, 0.5) in ladder_rows(text)
