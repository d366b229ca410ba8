"""Mutation testing: how many small bugs planted in the code the suite catches. A tool run, not part of the suite.

    pip install mutmut
    python tests/mutation.py            # every target below: hours on 2 cores (docs/testing.md)
    python tests/mutation.py web        # one target: the web server's privacy boundary
    python tests/mutation.py gold-kernel --functions _flip,_play   # the mutants of some functions only
    python tests/mutation.py gold-kernel --mutants survivors.txt --tests gold/test_kernel_edges   # a second pass

A second pass runs named mutants (say the survivors of a first) against some of the target's tests (say those
written since): a mutant it kills is one the whole selection kills, so the two passes' reports add up.

The working tree is copied to a temporary folder (the agents package under its installed name,
``goldrush_agents``, so that mutmut's mutated copy is the one imported) and mutmut 3 plants its mutants in the
target files, running for each the target's tests that reach the mutated function. mutmut switches mutants in a
process that has already imported the code, so a function run at import (Gold's pair table) is not switched: its
mutants are run again here, each in a process of its own. The report gives, per target, the mutants killed, those
that survived, those no test reaches and those that timed out, then every survivor's change.

Not every survivor is a missed bug: many are equivalent to the code (``-1`` and ``-2`` both mean "none" where only
``>= 0`` is tested) or change only a message. docs/testing.md records the last run and what was done about it.
"""

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TARGETS = {  # name: (files to mutate, test modules run on them, in tests/; tests left out: a pytest -k expression)
    "gold-engine": (["goldrush_env/gold/engine.py"],
                    ["gold/test_vectors", "gold/test_rules", "gold/test_gold_model", "gold/test_properties",
                     "gold/test_errors", "gold/test_positions", "gold/test_tables", "gold/test_state",
                     "gold/test_match", "gold/test_batched", "gold/test_aec", "gold/test_engine_text"], ""),
    # Gold's compiled kernel, run as Python (see as_python): the lockstep tests compare it with the reference engine
    # and players. The statistical test of human memory is left out for time, and the announcement of a first
    # compilation means nothing without numba.
    "gold-kernel": (["goldrush_env/gold/kernel.py"],
                    ["gold/test_kernel", "gold/test_kernel_edges", "gold/test_batched_agents", "gold/test_gym_kernel",
                     "gold/test_batched", "gold/test_vector"], "not first_numba_compilation_is_announced"),
    # The search's tests reach Game.sample; its two slow tests (a win rate, the clairvoyant ceiling) are left out.
    "piecepack-engine": (["goldrush_env/piecepack/engine.py"],
                         ["piecepack/test_piecepack_vectors", "piecepack/test_piecepack_rules",
                          "piecepack/test_piecepack_engine_edges", "piecepack/test_piecepack_properties",
                          "piecepack/test_piecepack_events", "piecepack/test_piecepack_encoder",
                          "piecepack/test_piecepack_noninterference", "piecepack/test_piecepack_search",
                          "piecepack/test_piecepack_kernel"],
                         "not wins_alone_more_often and not clairvoyant_ceiling"),
    # Gold Rush's compiled step, run as Python likewise: the lockstep tests compare it with the engine and the encoder.
    "piecepack-kernel": (["goldrush_env/piecepack/kernel.py"],
                         ["piecepack/test_piecepack_kernel", "piecepack/test_piecepack_encoder",
                          "piecepack/test_piecepack_noninterference"], ""),
    "gold-encoder": (["goldrush_env/gold/encoder.py"],
                     ["gold/test_encoder", "gold/test_noninterference", "gold/test_memory"], ""),
    # PyTorch in a process mutmut forks can hang: the test that trains is left out.
    "piecepack-encoder": (["goldrush_env/piecepack/encoder.py"],
                          ["piecepack/test_piecepack_encoder", "piecepack/test_piecepack_kernel",
                           "piecepack/test_piecepack_noninterference", "piecepack/test_piecepack_env"],
                          "not maskable_ppo_trains"),
    # The web server's privacy boundary: what each game's state for a seat contains (the plain part's and each game's
    # own seat_state and what they send of the game), run by the tests of every game's API. The replay test prints
    # through the command line's stdout, which mutmut closes while it collects; the fuzz looks for 500s, not leaks.
    "web": (["goldrush_agents/web/game.py", "goldrush_agents/gold/web.py", "goldrush_agents/piecepack/web.py"],
            ["test_web_games", "gold/test_web_api", "piecepack/test_web_piecepack_api"],
            "not replay_steps_through_a_saved_record and not any_json_body"),
}
BOUNDARY = {
    "web": ["goldrush_agents.web.game.xǁSessionǁstate__mutmut_*", "goldrush_agents.web.game.xǁSessionǁact__mutmut_*",
            "goldrush_agents.web.game.xǁWebGameǁseat_state__mutmut_*",
            "goldrush_agents.web.game.xǁWebGameǁ_legal__mutmut_*",
            "goldrush_agents.web.game.xǁWebGameǁ_standing__mutmut_*",
            "goldrush_agents.gold.web.xǁGoldWebǁseat_state__mutmut_*",
            "goldrush_agents.gold.web.xǁGoldWebǁafter_person__mutmut_*",
            "goldrush_agents.gold.web.x_event_json__mutmut_*", "goldrush_agents.gold.web.x_events_json__mutmut_*",
            "goldrush_agents.gold.web.x__standing__mutmut_*", "goldrush_agents.gold.web.x__card_words__mutmut_*",
            "goldrush_agents.piecepack.web.xǁPiecepackWebǁseat_state__mutmut_*",
            "goldrush_agents.piecepack.web.x_knowledge_json__mutmut_*",
            "goldrush_agents.piecepack.web.x_legal_json__mutmut_*", "goldrush_agents.piecepack.web.x__result__mutmut_*",
            "goldrush_agents.piecepack.web.x_events_json__mutmut_*"],
}
"""Targets run on some of their mutants only, by mutmut's names of them (the functions they are in)."""
AS_PYTHON = {"gold-kernel", "piecepack-kernel"}
"""Targets whose numba functions are run as Python: decorators dropped, NUMBA_DISABLE_JIT=1."""
TIMEOUT_MULTIPLIER = 15.0
"""mutmut's default: a mutant's run may take ``2 * multiplier * (its tests' time + 1 s)`` of CPU, then it is
stopped and counted as timed out."""
OUTCOMES = {1: "killed", 0: "survived", 33: "no test", -15: "timed out", -9: "timed out", -24: "timed out"}
"""mutmut's exit codes of a mutant's run: a timeout is signalled (SIGTERM, SIGKILL, or SIGXCPU at its CPU limit)."""


def copy_tree(into: Path) -> None:
    """The files git tracks or would track, with ``agents/`` renamed to the package's installed name."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if not source.is_file():
            continue
        target = into / ("goldrush_agents" + name[len("agents"):] if name.startswith("agents/") else name)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def as_python(path: Path) -> None:
    """Make a numba module of the copy run as Python, as numba runs it: its ``@numba.njit(...)`` lines dropped, so
    that mutmut mutates its functions (it leaves decorated ones alone; under ``NUMBA_DISABLE_JIT=1`` the decorators
    change nothing anyway), and its arrays of narrow integers widened to int64. numba computes on int64 whatever
    an array stores, where numpy's scalars keep the array's type and overflow: ``_P_FACE_UP + face_up`` with an
    int8 ``face_up`` fails in Python and not in numba."""
    lines = path.read_text().splitlines(keepends=True)
    text = "".join(line for line in lines if not line.startswith("@numba.njit"))
    path.write_text(text.replace("np.int8", "np.int64").replace("np.int32", "np.int64"))


def configure(folder: Path, files: list[str], tests: list[str], leave_out: str, timeout_multiplier: float) -> None:
    selection = [f"tests/{name}.py" for name in tests]
    arguments = ["-p", "no:cacheprovider", "-x", "-q"] + (["-k", leave_out] if leave_out else [])
    with open(folder / "pyproject.toml", "a") as handle:
        handle.write(f"""
[tool.mutmut]
source_paths = ["goldrush_env", "goldrush_agents"]
only_mutate = {json.dumps(files)}
pytest_add_cli_args_test_selection = {json.dumps(selection)}
pytest_add_cli_args = {json.dumps(arguments)}
timeout_multiplier = {timeout_multiplier}
""")


def run_at_import(source: str) -> set[str]:
    """Names of the module's own functions that its top-level statements call."""
    tree = ast.parse(source)
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    called = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            continue
        called |= {inner.func.id for inner in ast.walk(node)
                   if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in defined}
    return called


def rerun_fresh(folder: Path, mutant: str, tests: list[str], environment: dict[str, str]) -> int:
    """Run ``tests`` (the target's first test file of the mutated file's game, its most direct) in a new process
    that imports the code with ``mutant`` switched on; 1 if they fail (killed), 0 if they pass."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               *[f"tests/{name}.py" for name in tests]]
    done = subprocess.run(command, cwd=folder / "mutants", env={**environment, "MUTANT_UNDER_TEST": mutant},
                          capture_output=True, check=False)
    return 1 if done.returncode else 0


def show(folder: Path, mutant: str) -> str:
    text = subprocess.run([sys.executable, "-m", "mutmut", "show", mutant], cwd=folder, capture_output=True,
                          text=True, check=False).stdout
    return "\n".join(line for line in text.splitlines() if line.startswith(("+ ", "- ")))


def run(name: str, workers: int, only: list[str] | None = None, functions: list[str] | None = None,
        mutants: list[str] | None = None, timeout_multiplier: float = TIMEOUT_MULTIPLIER) -> dict:
    files, tests, leave_out = TARGETS[name]
    tests = only or tests
    with tempfile.TemporaryDirectory(prefix=f"goldrush-mutation-{name}-") as folder:
        folder = Path(folder)
        copy_tree(folder)
        configure(folder, files, tests, leave_out, timeout_multiplier)
        # mutmut's children leave without running exit handlers, so the temporary folders the tests make would
        # outlive them: they are made in here and go with it.
        (folder / "tmp").mkdir()
        environment = {**os.environ, "TMPDIR": str(folder / "tmp")}
        if name in AS_PYTHON:
            environment["NUMBA_DISABLE_JIT"] = "1"
            for file in files:
                as_python(folder / file)
        log = folder / "mutmut.log"
        patterns = BOUNDARY.get(name, [])
        if functions:
            patterns = [f"{file.removesuffix('.py').replace('/', '.')}.x_{function}__mutmut_*"
                        for file in files for function in functions]
        if mutants:
            patterns = mutants
        with open(log, "w") as handle:
            subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(workers), *patterns],
                           cwd=folder, stdout=handle, stderr=subprocess.STDOUT, check=False,
                           env=environment)  # results read below
        report = {}
        for file in files:
            meta = folder / "mutants" / (file + ".meta")
            if not meta.exists():
                raise SystemExit(f"mutmut wrote no results for {file}; its log ends:\n{log.read_text()[-3000:]}")
            codes = json.loads(meta.read_text())["exit_code_by_key"]
            if patterns:
                codes = {mutant: code for mutant, code in codes.items() if any(fnmatch(mutant, p) for p in patterns)}
            if None in codes.values():
                raise SystemExit(f"mutmut ran none of the mutants of {file}; its log ends:\n{log.read_text()[-3000:]}")
            at_import = run_at_import((folder / file).read_text())
            module = file.removesuffix(".py").replace("/", ".")
            again = [mutant for mutant, code in codes.items()
                     if code != 1 and mutant.removeprefix(module + ".x_").split("__mutmut_")[0] in at_import]
            game = "piecepack" if "piecepack" in file else "gold"
            fresh = [name for name in tests if ("piecepack" in name) == (game == "piecepack")][:1]
            with ThreadPoolExecutor(workers) as pool:
                codes.update(zip(again, pool.map(lambda mutant: rerun_fresh(folder, mutant, fresh, environment),
                                                 again)))
            counts = Counter(OUTCOMES.get(code, f"exit {code}") for code in codes.values())
            survivors = {mutant: show(folder, mutant) for mutant, code in sorted(codes.items()) if code == 0}
            unreached = Counter(mutant.split("__mutmut_")[0].removeprefix(module + ".")
                                for mutant, code in codes.items() if code == 33)
            report[file] = {"mutants": len(codes), **counts, "survivors": survivors,
                            "not reached, by function": dict(unreached.most_common())}
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"what to mutate, of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="mutants run at once")
    parser.add_argument("--json", type=Path, help="also write the whole report, survivors' changes too, here")
    parser.add_argument("--tests", help="test modules to run instead of the targets' own, under tests/, "
                                        "comma-separated (e.g. gold/test_web_api)")
    some = parser.add_mutually_exclusive_group()
    some.add_argument("--functions", help="mutate these module-level functions only, comma-separated (e.g. "
                                          "_flip,_play), to split a long target into runs")
    some.add_argument("--mutants", type=Path, help="a file of mutmut's mutant names, one a line: run these only")
    parser.add_argument("--timeout-multiplier", type=float, default=TIMEOUT_MULTIPLIER,
                        help="a mutant's run may take 2 x this x (its tests' time + 1 s) of CPU before it is counted "
                             f"as timed out (default: mutmut's {TIMEOUT_MULTIPLIER:g})")
    args = parser.parse_args(argv)
    if not args.timeout_multiplier > 0:
        parser.error(f"--timeout-multiplier must be above 0, got {args.timeout_multiplier}")
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"unknown target {unknown[0]!r}: the targets are {', '.join(TARGETS)}")
    full = {}
    only = args.tests.split(",") if args.tests else None
    functions = args.functions.split(",") if args.functions else None
    mutants = args.mutants.read_text().split() if args.mutants else None
    for name in args.targets or TARGETS:
        full.update(run(name, args.workers, only, functions, mutants, args.timeout_multiplier))
    print(f"{'file':40} {'mutants':>8} {'killed':>7} {'survived':>9} {'no test':>8} {'timed out':>10}")
    for file, entry in full.items():
        print(f"{file:40} {entry['mutants']:8} {entry.get('killed', 0):7} {entry.get('survived', 0):9} "
              f"{entry.get('no test', 0):8} {entry.get('timed out', 0):10}")
    for file, entry in full.items():
        for mutant, change in entry["survivors"].items():
            print(f"\n{mutant}\n{change}")
    for file, entry in full.items():
        if entry["not reached, by function"]:
            print(f"\n{file}: mutants no test reached, by function: {entry['not reached, by function']}")
    if args.json:
        args.json.write_text(json.dumps(full, indent=1))


if __name__ == "__main__":
    main()
