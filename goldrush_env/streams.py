"""SplitMix64 streams: the generator of the compiled kernels (:mod:`goldrush_env.gold.kernel`,
:mod:`goldrush_env.piecepack.kernel`), and the notice of their first compilation.

A stream is one ``uint64`` in an array; :func:`uniform` advances entry ``g`` and returns a float in [0, 1), so
each game of a batch draws from its own stream and the same seed gives the same games however many threads run
them. :class:`Stream` is the same generator in Python, step for step, so that a reference player or engine handed
one makes the draws the compiled code makes from the same state.

Compiled functions are cached on disk (next to their source, or where ``NUMBA_CACHE_DIR`` says). A process that
finds no cached code for one of this project's functions compiles it, which can take minutes, and says so once,
on standard error; a process that loads everything from the cache says nothing.
"""

from __future__ import annotations

import sys

import numba
import numba.core.event
import numpy as np


class _FirstCompilation(numba.core.event.Listener):
    """Says once per process, when numba starts compiling one of this project's functions, that it does."""

    def __init__(self) -> None:
        self.said = False

    def on_start(self, event) -> None:
        dispatcher = event.data["dispatcher"]
        module = getattr(dispatcher.py_func, "__module__", "") or ""
        if self.said or not module.startswith(("goldrush_env.", "goldrush_agents.")):
            return
        self.said = True
        where = getattr(dispatcher._cache, "cache_path", "numba's cache directory")
        print("goldrush_env: compiling the kernels for this machine, once (up to a few minutes on a busy machine); "
              f"they are cached in {where}", file=sys.stderr, flush=True)

    def on_end(self, event) -> None:
        pass


numba.core.event.register("numba:compile", _FirstCompilation())

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK64 = (1 << 64) - 1


@numba.njit(cache=True, inline="always")
def uniform(rng, g):
    """The next uniform float in [0, 1) of stream ``rng[g]`` (SplitMix64)."""
    z = rng[g] + _GOLDEN
    rng[g] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True, inline="always")
def below(rng, g, n):
    """A uniform int in [0, n) (n > 0) from stream ``rng[g]``."""
    return int(uniform(rng, g) * n)


class Stream:
    """One stream in Python: the compiled :func:`uniform` step for step. ``random()`` and ``integers(n)`` draw as
    the kernels do, so it can stand in for a player's ``numpy`` generator."""

    def __init__(self, state: int) -> None:
        self.state = int(state) & _MASK64

    def random(self, size: int | None = None):
        if size is not None:
            return np.array([self.random() for _ in range(size)])
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        return (z >> 11) * (1.0 / 9007199254740992.0)

    def integers(self, n: int) -> int:
        return int(self.random() * n)


def seed_streams(seed: int | None, count: int) -> np.ndarray:
    """``count`` independent stream states from one seed (``None``: fresh entropy)."""
    return np.random.default_rng(seed).integers(0, 2**64, size=count, dtype=np.uint64)
