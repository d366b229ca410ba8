"""benchmarks/encoder_digest.py, run as the script it is: the fingerprint that shows an encoder change left the
vectors as they were."""

import re
import subprocess
import sys

from conftest import ROOT

SCRIPT = str(ROOT / "benchmarks" / "encoder_digest.py")
LINE = re.compile(r"(\d+) games: ([\d,]+) observations and ([\d,]+) states, sha256 ([0-9a-f]{64}); "
                  r"[\d.]+ us per observation")


def digest(games: int) -> tuple[int, int, str]:
    out = subprocess.run([sys.executable, SCRIPT, "--games", str(games)], capture_output=True, text=True,
                         check=True).stdout
    found = LINE.fullmatch(out.strip())
    assert found and int(found.group(1)) == games, out
    return int(found.group(2).replace(",", "")), int(found.group(3).replace(",", "")), found.group(4)


def test_the_digest_repeats_and_differs_with_the_games_encoded():
    first = digest(2)
    assert digest(2) == first
    observations, states, _ = first
    # 3 and then 4 players, every seat's observation at every decision and the state beside them.
    assert observations > 2 * 3 * 20 and states > 2 * 20 and observations > 3 * states
    more = digest(3)
    assert more[0] > observations and more[1] > states and more[2] != first[2]


def test_the_script_refuses_no_games():
    bad = subprocess.run([sys.executable, SCRIPT, "--games", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--games must be >= 1, got 0" in bad.stderr
