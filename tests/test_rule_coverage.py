"""The rule vectors alone reach every rule of both engines.

Each engine's rule functions are run under branch coverage while only the vectors are replayed (the shared ones
and our boundary ones); every line and every branch of them must be reached. Lines that refuse bad input are not
rules and are left out, as are the two lines the piecepack engine marks as unreachable. Gold's engine looks its pair rules
up in a table built at import, so coverage cannot see which rows the vectors use: a second test classifies every
pair the vectors flip and requires each case of the rules' table.
"""

import ast
import inspect
import json
from pathlib import Path

import pytest
from conftest import DATA, load_vectors
from gold_model import Model, kind, value

from goldrush_env.gold import engine as gold_engine
from goldrush_env.piecepack import engine as piecepack_engine

coverage = pytest.importorskip("coverage")

GOLD_RULES = ["Game.step", "Game._remove", "Game._end_turn", "Game._start_turn", "Game._is_stalemate",
              "Game.leaders", "Game.winners"]
PIECEPACK_RULES = ["Game.step", "Game._apply", "Game._develop", "Game._begin_round", "Game._ask_warehouse",
                   "Game._spoil_and_produce", "Game._ask", "Game._ask_free_trade", "Game._ask_claim",
                   "Game._ask_development", "Game.legal_mask", "Game._development_actions", "Game._trade_actions",
                   "Game._illegal", "Game.owns", "Game.scores", "Game.winners", "Game.value", "piece_value",
                   "_short", "_affords", "_pay"]


def exempt_lines(source: str) -> set[int]:
    """Lines that are not rules: the body of an ``if`` that refuses bad input (it raises, or calls the engine's
    refusal helpers; the vectors play only legal moves), and a statement marked "cannot happen" with the rest of
    its block."""
    exempt = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and any(
                isinstance(inner, ast.Raise) or (isinstance(inner, ast.Attribute)
                                                 and inner.attr in ("_refuse", "_check_position"))
                for statement in node.body for inner in ast.walk(statement)):
            exempt.update(range(node.body[0].lineno, node.body[-1].end_lineno + 1))
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            lines = source.splitlines()
            marked = [i for i, statement in enumerate(block) if "cannot happen" in lines[statement.lineno - 1]]
            if marked:
                exempt.update(range(block[marked[0]].lineno, block[-1].end_lineno + 1))
    return exempt


def gold_replay() -> None:
    for vector in load_vectors() + load_vectors("boundary_vectors.jsonl"):
        game = gold_engine.Game(num_players=vector["num_players"], layout=vector["layout"],
                                first_player=vector["first_player"])
        for position in vector["flips"]:
            game.step(position)
        game.winners  # noqa: B018 (the winners are rules too)


def piecepack_replay() -> None:
    with open(DATA / "piecepack_vectors.jsonl") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    for record in records:
        game = piecepack_engine.Game(record["players"], record["tiles"], record["coins"], record["start"],
                                     record["dice"], record["market_rolls"])
        for action in record["actions"]:
            game.legal_mask()
            game.step(action)
        game.winners()


def unreached(module, functions: list[str], replay, tmp_path: Path) -> dict[str, list[str]]:
    """For each of ``functions`` in ``module``, the source lines (or branches, "a->b") the replay did not reach."""
    filename = inspect.getsourcefile(module)
    measure = coverage.Coverage(data_file=None, branch=True, include=[filename], config_file=False)
    measure.start()
    try:
        replay()
    finally:
        measure.stop()
    report = tmp_path / "coverage.json"
    measure.json_report(outfile=str(report))
    (entry,) = json.loads(report.read_text())["files"].values()
    source = Path(filename).read_text()
    lines, exempt = source.splitlines(), exempt_lines(source)

    def is_rule(number: int) -> bool:
        return number not in exempt

    found = {}
    for name in functions:
        region = entry["functions"][name]
        missing = [f"{n}: {lines[n - 1].strip()}" for n in region["missing_lines"] if is_rule(n)]
        missing += [f"{a}->{b}: {lines[a - 1].strip()}" for a, b in region["missing_branches"] if b < 0 or is_rule(b)]
        if missing:
            found[name] = missing
    return found


@pytest.fixture(autouse=True)
def no_other_measurement():
    if coverage.Coverage.current() is not None:
        pytest.skip("the suite already runs under coverage, which this test cannot nest in")


def test_the_gold_vectors_reach_every_rule_line_and_branch(tmp_path):
    assert unreached(gold_engine, GOLD_RULES, gold_replay, tmp_path) == {}


def test_the_piecepack_vectors_reach_every_rule_line_and_branch(tmp_path):
    assert unreached(piecepack_engine, PIECEPACK_RULES, piecepack_replay, tmp_path) == {}


def test_the_check_sees_an_unreached_branch(tmp_path):
    """Replaying only the shared Gold vectors that begin in the normal phase never starts a rush at turn 0."""
    def some_vectors():
        for vector in load_vectors()[:3]:
            game = gold_engine.Game(num_players=vector["num_players"], layout=vector["layout"])
            game.step(vector["flips"][0])

    found = unreached(gold_engine, GOLD_RULES, some_vectors, tmp_path)
    assert "Game.winners" in found and "Game._is_stalemate" in found


def pair_case(first: str, second: str, owners: dict[int, int]) -> tuple:
    """Which row of the pair rules a normal turn turning ``first`` then ``second`` uses."""
    if "D" in (first, second):
        return ("dynamite", "first" if first == "D" else "second", "both" if first == second else "one")
    if kind(first) == kind(second):
        order = (value(first) > value(second)) - (value(first) < value(second))
        return (kind(first) * 2, ("weaker first", "equal", "stronger first")[order + 1] if kind(first) == "M"
                else "any")
    miner, gold = (first, second) if kind(first) == "M" else (second, first)
    reach = (value(miner) > value(gold)) - (value(miner) < value(gold))
    case = ("miner weaker", "equal", "miner stronger")[reach + 1]
    owner = "owned" if int(miner[1]) in owners else "unowned"
    return ("MG" if kind(first) == "M" else "GM", case, owner if reach >= 0 else "any")


def test_the_gold_vectors_reach_every_case_of_the_pair_rules():
    reached = set()
    for vector in load_vectors() + load_vectors("boundary_vectors.jsonl"):
        model = Model(vector["num_players"], vector["layout"], vector["first_player"])
        for position in vector["flips"]:
            if model.rush_from is None and model.face_up is not None:
                reached.add(pair_case(model.table[model.face_up], model.table[position], model.owners))
            elif model.rush_from is not None:
                reached.add(("rush", kind(model.table[position])))
            model.flip(position)
    every = {("dynamite", side, both) for side in ("first", "second") for both in ("one", "both")} - {
        ("dynamite", "second", "both")}
    every |= {("MM", case) for case in ("weaker first", "equal", "stronger first")} | {("GG", "any")}
    every |= {(order, case, owner) for order in ("MG", "GM") for case in ("equal", "miner stronger")
              for owner in ("owned", "unowned")}
    every |= {(order, "miner weaker", "any") for order in ("MG", "GM")}
    every |= {("rush", k) for k in "GMD"}
    assert every - reached == set()
