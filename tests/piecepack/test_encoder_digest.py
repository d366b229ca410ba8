"""benchmarks/encoder_digest.py, run as the script it is: the fingerprint that shows an encoder change left the
vectors as they were."""

import importlib.util
import re
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = str(ROOT / "benchmarks" / "encoder_digest.py")
LINE = re.compile(r"(\d+) games: ([\d,]+) observations and ([\d,]+) states, sha256 ([0-9a-f]{64}); "
                  r"[\d.]+ us per observation")


def parse(out: str, games: int) -> tuple[int, int, str]:
    found = LINE.fullmatch(out.strip())
    assert found and int(found.group(1)) == games, out
    return int(found.group(2).replace(",", "")), int(found.group(3).replace(",", "")), found.group(4)


def script():
    """The script as a module, to run it again in this process: a Python start each time costs more than the run."""
    spec = importlib.util.spec_from_file_location("encoder_digest", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_digest_repeats_and_differs_with_the_games_encoded(capsys):
    out = subprocess.run([sys.executable, SCRIPT, "--games", "2"], capture_output=True, text=True, check=True).stdout
    first = parse(out, 2)
    main = script().main
    main(["--games", "2"])  # again, in this process: the same vectors
    assert parse(capsys.readouterr().out, 2) == first
    observations, states, _ = first
    # 3 and then 4 players, every seat's observation at every decision and the state beside them.
    assert observations > 2 * 3 * 20 and states > 2 * 20 and observations > 3 * states
    main(["--games", "3"])
    more = parse(capsys.readouterr().out, 3)
    assert more[0] > observations and more[1] > states and more[2] != first[2]


def test_the_script_refuses_no_games(capsys):
    with pytest.raises(SystemExit) as refused:
        script().main(["--games", "0"])
    assert refused.value.code == 2 and "--games must be >= 1, got 0" in capsys.readouterr().err
