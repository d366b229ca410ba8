"""*Gold Rush* in the words of its rule sheet (docs/piecepack-rules.md), for people: choices, log lines, production.

:func:`action_words` says an action as a choice for the seat about to take it ("Offer the player on your left
(seat 1) 1 Food for 1 Energy", "Build a Farm on plot 14 (row 2, col 2) for 1 Food"), reading only what that seat
knows, ``Game.known_to(seat)``. :func:`event_words` says an :class:`~goldrush_env.piecepack.engine.Event` as a log
line ("The production dice show Moon 4, Sun 2, Arms 2, Crown 5"); events are public, and so are their words.
:func:`production` gives, plot by plot, what this round's production yielded, for a board to draw.

:func:`goldrush_env.piecepack.actions.describe` and ``Event.describe`` stay the engine's compact names, for tests
and logs of programs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from goldrush_env.checks import is_int
from goldrush_env.piecepack import actions as A
from goldrush_env.piecepack.components import (
    ASSAY_COST,
    BUILD_COST,
    BUILDINGS,
    COLUMNS,
    ENERGY,
    FOOD,
    MARKET_COST,
    NUM_PLOTS,
    NUM_ROUNDS,
    OPTIMIZE_COST,
    PRODUCTION,
    RESOURCES,
    ROW_SUIT,
    SUITS,
    TRADE_ROUTE_RATE,
    UPGRADE_COST,
    parse_code,
)
from goldrush_env.piecepack.engine import Event, Phase

RANK_NAMES = ("Null", "Ace", "2", "3", "4", "5")
"""The ranks of the pieces as the sheet names them (§0): the Null, the Ace, then 2 to 5."""
DIE_NAMES = ("Moon", "Sun", "Arms", "Crown")
"""The production dice, in resource order (the Moon die is the Food die, ...); their faces are Null and 1 to 5."""

PHASE_WORDS = {
    Phase.WAREHOUSE_FOOD.value: "Production, the Warehouse question for Food",
    Phase.WAREHOUSE_ENERGY.value: "Production, the Warehouse question for Energy",
    Phase.FREE_TRADE_TURN.value: "Free Trade",
    Phase.OFFER_RESPONSE.value: "Free Trade, an offer to answer",
    Phase.MARKET_SELL.value: "Free Trade, a Market sale",
    Phase.CLAIM.value: "Stake Claim",
    Phase.DEVELOPMENT_TURN.value: "Development",
    Phase.GAME_OVER.value: "the game is over",
}
"""Each decision point (``known["phase"]``) as the sheet's phase of the round."""


def plot_words(plot: int) -> str:
    """``"plot 14 (row 2, col 2)"``: the sheet's plot number, and where the text board draws it."""
    if not 0 <= plot < NUM_PLOTS:
        raise ValueError(f"a plot is from 0 to {NUM_PLOTS - 1}, got {plot!r}")
    row, col = divmod(plot, COLUMNS)
    return f"plot {plot} (row {row}, col {col})"


def piece_words(code: str) -> str:
    """``"Suns 2"`` for the piece code ``"S2"``, ``"Arms Null"`` for ``"A0"``."""
    suit, rank = parse_code(code)
    return f"{SUITS[suit]} {RANK_NAMES[rank]}"


def cost_words(cost: Sequence[int]) -> str:
    """``"2 Food, 1 Energy and 1 Ore"`` for the cost ``(2, 1, 1, 0)``; ``"nothing"`` for no cost."""
    parts = [f"{units} {RESOURCES[r]}" for r, units in enumerate(cost) if units]
    return _listed(parts) if parts else "nothing"


def relative_names(viewer: int, num_players: int) -> list[str]:
    """Every seat named from ``viewer``'s chair: ``"you"``, ``"the player on your left (seat 1)"``, the player
    across the table (4 players) and the one on your right. Seats go clockwise, so seat ``viewer + 1`` sits on the
    left (§0)."""
    names = []
    for seat in range(num_players):
        offset = (seat - viewer) % num_players
        if offset == 0:
            names.append("you")
        elif offset == 1:
            names.append(f"the player on your left (seat {seat})")
        elif offset == num_players - 1:
            names.append(f"the player on your right (seat {seat})")
        else:
            names.append(f"the player across the table (seat {seat})")
    return names


def _names(names: Sequence[str] | None, num_players: int | None, viewer: int | None) -> list[str]:
    if names is None:
        if viewer is None:
            return [f"seat {seat}" for seat in range(num_players or 4)]
        return relative_names(viewer, num_players)
    names = list(names)
    if num_players is not None and len(names) != num_players:
        raise ValueError(f"names must name each of the {num_players} seats, got {names!r}")
    if not all(isinstance(name, str) and name for name in names):
        raise ValueError(f"names must be non-empty strings, got {names!r}")
    return names


def _seat_of(known: dict[str, Any]) -> int | None:
    """The seat the choices are for: the knowledge's own, or the seat to act for a table's or the public's view."""
    seat = known.get("seat")
    return seat if is_int(seat) else known.get("current_player")


def _units(units: int, resource: int | str) -> str:
    return f"{units} {resource if isinstance(resource, str) else RESOURCES[resource]}"


def _known_piece(known: dict[str, Any], piece: int) -> tuple[str, str] | None:
    """The piece's name and how the viewer knows it: face up (everybody does) or assayed by the viewer
    (``identities``); ``None`` if the viewer cannot name it."""
    if piece in known["face_up"]:
        return piece_words(known["face_up"][piece]), "face up"
    if piece in known.get("identities", {}):
        return piece_words(known["identities"][piece]), "you assayed it"
    return None


def _piece_place(piece: int) -> str:
    if piece < NUM_PLOTS:
        return f"the tile of {plot_words(piece)}"
    plot = piece - NUM_PLOTS
    return f"the {SUITS[ROW_SUIT[plot // COLUMNS]]} coin of {plot_words(plot)}"  # a coin's row tells its suit (P6)


def action_words(action: int, known: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """``action`` as a choice in the rule sheet's words, for the seat about to take it (``known["seat"]``, or the
    seat to act in a view of the table), from what that seat knows: ``Game.known_to(seat)``. Paid choices say what
    they cost. Other seats are named by ``names`` (one per seat) or, without it, from the seat's chair
    (:func:`relative_names`). Only ``known`` is read, so the words never tell more than the seat knows.

    >>> from goldrush_env.piecepack.engine import Game
    >>> game = Game.new(3, seed=1)
    >>> action_words(A.offer(1, 0, 1, 1, 1), game.known_to(game.current_player))  # doctest: +ELLIPSIS
    'Offer the player on your left (seat ...) 1 Food for 1 Energy'
    """
    kind, args = A.decode(action)
    seat, n = _seat_of(known), known["players"]
    who = _names(names, n, seat)
    if kind == "CLAIM":
        plot = args[0]
        pieces = (("tile", plot), ("coin", NUM_PLOTS + plot))
        seen = [f"its {part} is the {named[0]} ({named[1]})"
                for part, piece in pieces if (named := _known_piece(known, piece))]
        return f"Claim {plot_words(plot)}" + (f": {', '.join(seen)}" if seen else "")
    if kind in ("ASSAY_TILE", "ASSAY_COIN"):
        plot = args[0]
        price = cost_words(ASSAY_COST)
        if kind == "ASSAY_TILE":
            return f"Assay the tile of {plot_words(plot)} for {price}: you alone see its suit and rank"
        suit = SUITS[known["coin_suits"][plot]]
        return f"Assay the {suit} coin of {plot_words(plot)} for {price}: you alone see its rank"
    if kind in ("OPTIMIZE_TILE", "OPTIMIZE_COIN"):
        plot = args[0]
        piece = plot if kind == "OPTIMIZE_TILE" else NUM_PLOTS + plot
        part = "tile" if kind == "OPTIMIZE_TILE" else f"{SUITS[known['coin_suits'][plot]]} coin"
        named = _known_piece(known, piece)
        return (f"Optimize the {part} of {plot_words(plot)}, turning it face up for good, for "
                f"{cost_words(OPTIMIZE_COST)}" + (f": {named[1]}, the {named[0]}" if named else ""))
    if kind == "BUILD":
        building, plot = args
        standing = known["buildings"][plot]
        if 0 <= standing != building:
            level = known["levels"][plot]
            old = f"level-{level} {BUILDINGS[standing]}" if standing in PRODUCTION and level else BUILDINGS[standing]
            instead = f" in place of its {old}"
        else:
            instead = ""
        return f"Build a {BUILDINGS[building]} on {plot_words(plot)}{instead} for {cost_words(BUILD_COST[building])}"
    if kind == "UPGRADE":
        plot = args[0]
        building, level = known["buildings"][plot], known["levels"][plot]
        what = BUILDINGS[building] if building >= 0 else "building"
        return (f"Upgrade the {what} on {plot_words(plot)} from level {level} to {level + 1} for "
                f"{cost_words(UPGRADE_COST)}")
    if kind == "END_DEVELOPMENT":
        return "End your Development turn"
    if kind == "OFFER":
        d, give, a, take, b = args
        if d >= n:
            return (f"Offer the player {d} seats to your left {_units(a, give)} for {_units(b, take)} (there is no "
                    f"such player with {n})")
        target = who[(seat + d) % n] if seat is not None else f"the player {d} seats to the left"
        return f"Offer {target} {_units(a, give)} for {_units(b, take)}"
    if kind in ("ACCEPT", "DECLINE"):
        pending = known.get("pending_offer")
        if pending is None:
            return "Accept the offer" if kind == "ACCEPT" else "Decline the offer"
        offerer, _, give, a, take, b = pending
        if kind == "ACCEPT":
            return f"Accept the offer of {who[offerer]}: you get {_units(a, give)} and give {_units(b, take)}"
        return f"Decline the offer of {who[offerer]} ({_units(a, give)} for your {_units(b, take)})"
    if kind == "TRADE_ROUTE":
        give, take = args
        return f"Use your Trade Route: {_units(TRADE_ROUTE_RATE, give)} to the bank for {_units(1, take)}"
    if kind == "MARKET_ROLL":
        return (f"Use your Market: pay {cost_words(MARKET_COST)}, roll two dice, then sell up to their sum of Food "
                "for Gold")
    if kind == "MARKET_SELL":
        k = args[0]
        rolled = "" if known.get("market_sum") is None else f" (the Market dice add up to {known['market_sum']})"
        if k == 0:
            return f"Sell no Food at the Market{rolled}"
        return f"Sell {_units(k, FOOD)} to the bank for {_units(k, 'Gold')}{rolled}"
    if kind == "END_FREE_TRADE":
        return "End your Free Trade turn"
    # the Warehouse: the decision point says which resource spoils
    phase = known.get("phase")
    resource = {Phase.WAREHOUSE_FOOD.value: FOOD, Phase.WAREHOUSE_ENERGY.value: ENERGY}.get(phase)
    stock = "Food or Energy" if resource is None else RESOURCES[resource]
    if kind == "WAREHOUSE_PROTECT":
        return f"Shelter your {stock} from spoilage in your Warehouse for {_units(1, ENERGY)}"
    have = None if resource is None or seat is None else known["holdings"][seat][resource]
    if have is None:
        return f"Leave your {stock} unsheltered: it spoils down to 1"
    if have > 1:
        return f"Leave your {stock} unsheltered: it spoils from {have} to 1"
    return f"Leave your {stock} unsheltered (you hold {have}, which does not spoil)"


EVENT_KINDS = frozenset({"round", "roll", "power", "warehouse", "spoil", "produce", "claim", "claim_skipped", "assay",
                         "optimize", "build", "upgrade", "end_development", "end_free_trade", "offer", "accept",
                         "decline", "trade_route", "market_roll", "market_sell", "game_over"})
"""The kinds of event the engine makes, each with its words."""


def _says(name: str, third: str, second: str, first: bool = True) -> str:
    """``name`` and the verb that agrees with it (a seat named ``"you"`` is spoken to), capitalised to open a
    sentence if ``first``."""
    if name.casefold() == "you":
        return f"{'You' if first else 'you'} {second}"
    if first and name.startswith("the "):
        name = "The" + name[3:]
    return f"{name} {third}"


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def event_words(event: Event, names: Sequence[str] | None = None) -> str:
    """One log line in the rule sheet's words for an engine :class:`Event`, seats named by ``names`` (one per seat;
    a seat named ``"you"`` is spoken to; without ``names``, ``"seat 0"`` ...). Events hold only public facts
    (P41), and the words are made from the event alone.

    >>> event_words(Event("roll", None, {"dice": (4, 2, 2, 5)}))
    'The production dice show Moon 4, Sun 2, Arms 2, Crown 5'
    """
    kind, seat, data = event.kind, event.seat, event.data
    if names is None:
        names = [f"seat {s}" for s in range(4)]
    for s in (seat, data.get("offerer"), data.get("target"), data.get("start")):
        if s is not None and not 0 <= s < len(names):
            raise ValueError(f"the event {event!r} names seat {s}, and names has {len(names)}: {list(names)!r}")
    if kind == "game_over" and len(data["scores"]) > len(names):
        raise ValueError(f"the event {event!r} scores {len(data['scores'])} seats, and names has {len(names)}")
    name = None if seat is None else names[seat]
    if kind == "round":
        return f"Round {data['round']} of {NUM_ROUNDS} begins; start player: {names[data['start']]}"
    if kind == "roll":
        dice = data["dice"]
        shown = ", ".join(f"{die} {face or 'Null'}" for die, face in zip(DIE_NAMES, dice))
        spoils = [RESOURCES[r] for r in (FOOD, ENERGY) if dice[r] == 0]
        if not spoils:
            return f"The production dice show {shown}"
        return f"The production dice show {shown}: {' and '.join(spoils)} spoil{'s' if len(spoils) == 1 else ''}"
    if kind == "power":
        if data["powered"]:
            return _says(name, "pays", "pay") + f" 1 Energy to power the mine on {plot_words(data['plot'])}"
        return (_says(name, "has", "have") + f" no Energy for the mine on {plot_words(data['plot'])}: it yields "
                "nothing this round")
    if kind == "warehouse":
        if data["protect"]:
            return _says(name, "pays", "pay") + f" 1 Energy to shelter {data['resource']} in a Warehouse"
        return _says(name, "leaves", "leave") + f" {data['resource']} unsheltered"
    if kind == "spoil":
        return f"{data['resource']} spoils for {name}: {data['before']} down to {data['after']}"
    if kind == "produce":
        plot = plot_words(data["plot"])
        return f"{plot[0].upper()}{plot[1:]} yields {_units(data['units'], data['resource'])} for {name}"
    if kind == "claim":
        return _says(name, "claims", "claim") + f" {plot_words(data['plot'])}"
    if kind == "claim_skipped":
        return _says(name, "has", "have") + " no marker or no free plot left, and claims nothing"
    if kind == "assay":
        return _says(name, "assays", "assay") + f" {_piece_place(data['piece'])}"
    if kind == "optimize":
        return (_says(name, "optimizes", "optimize") + f" {_piece_place(data['piece'])}: face up for good, it is "
                f"the {piece_words(data['code'])}")
    if kind == "build":
        cost = cost_words(BUILD_COST[BUILDINGS.index(data["building"])])
        replaced = f", replacing a {data['replaced']}" if data.get("replaced") else ""
        return (_says(name, "builds", "build") + f" a {data['building']} on {plot_words(data['plot'])} for "
                f"{cost}{replaced}")
    if kind == "upgrade":
        return (_says(name, "upgrades", "upgrade") + f" the building on {plot_words(data['plot'])} to level "
                f"{data['level']} for {cost_words(UPGRADE_COST)}")
    if kind == "end_development":
        return _says(name, "ends", "end") + " the Development turn"
    if kind == "end_free_trade":
        return _says(name, "ends", "end") + " the Free Trade turn"
    if kind == "offer":
        return (_says(name, "offers", "offer") + f" {names[data['target']]} "
                f"{_units(data['give_units'], data['give'])} for {_units(data['take_units'], data['take'])}")
    if kind in ("accept", "decline"):
        offerer = names[data["offerer"]]
        whose = "your offer" if offerer.casefold() == "you" else f"the offer of {offerer}"
        return _says(name, kind + "s", kind) + f" {whose}"
    if kind == "trade_route":
        return (_says(name, "trades", "trade") + f" {_units(TRADE_ROUTE_RATE, data['give'])} for "
                f"{_units(1, data['take'])} at a Trade Route")
    if kind == "market_roll":
        a, b = data["dice"]
        return (_says(name, "pays", "pay") + f" {cost_words(MARKET_COST)} at a Market and rolls {a} and {b}: up to "
                f"{data['sum']} Food may be sold for Gold")
    if kind == "market_sell":
        k = data["units"]
        if k == 0:
            return _says(name, "sells", "sell") + " no Food at the Market"
        return _says(name, "sells", "sell") + f" {_units(k, 'Food')} for {_units(k, 'Gold')} at the Market"
    if kind == "game_over":
        scores = ", ".join(f"{names[s]} {points}" for s, points in enumerate(data["scores"]))
        winners = [names[s] for s in data["winners"]]
        if len(winners) > 1:
            result = f"{_listed(winners)} share the victory"
            result = "You" + result[3:] if winners[0].casefold() == "you" else result
        else:
            result = _says(winners[0], "wins", "win")
        return f"The game is over. Scores: {scores}. {result}"
    raise ValueError(f"unknown event kind {kind!r}: expected one of {sorted(EVENT_KINDS)}")


def production(known: dict[str, Any]) -> list[tuple[int, int] | None]:
    """Plot by plot, what this round's production yielded: ``(resource, units)`` for each production building that
    stood when the dice were read (0 units when its die was too high, its pieces did not match, a mine went
    unpowered or a Null spoiled), ``None`` elsewhere, and everywhere before the round's production (the Warehouse
    questions come first). Public, from ``known["produced"]``: a building put up later this round shows nothing."""
    yields: list[tuple[int, int] | None] = [None] * NUM_PLOTS
    for plot, resource, units in known["produced"]:
        yields[plot] = (resource, units)
    return yields


__all__ = ["DIE_NAMES", "EVENT_KINDS", "PHASE_WORDS", "RANK_NAMES", "action_words", "cost_words", "event_words",
           "piece_words", "plot_words", "production", "relative_names"]
