"""The checks of an argument's type and range, worded once: a refused value is named with what was allowed.

``check_int("num_players", value, 2, 5)`` returns the value as a Python int or raises
``GoldrushEnvError("num_players must be an int from 2 to 5, got 7")``; :func:`is_int` and :func:`is_number` are the
tests alone, for a check that words its refusal in its own way (an option's ``is not allowed: expected``, or a
list of values). An int is Python's or numpy's, never a bool; a number is also a float (Python's or numpy's), and
finite. The rules engines check their arguments here too, so this module imports no RL library.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from goldrush_env.errors import GoldrushEnvError, excerpt


def is_int(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """Whether ``value`` is an int (not a bool) from ``low`` to ``high``, each bound included where given."""
    return (isinstance(value, (int, np.integer)) and not isinstance(value, bool)
            and (low is None or value >= low) and (high is None or value <= high))


def is_number(value: Any, low: float | None = None, high: float | None = None, *, above: float | None = None) -> bool:
    """Whether ``value`` is a finite number (an int or a float, not a bool) from ``low`` to ``high`` (included) and
    greater than ``above``, where each is given."""
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            return False
    elif not is_int(value):
        return False
    return (low is None or value >= low) and (high is None or value <= high) and (above is None or value > above)


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None, *, what: str = "an int",
              none: str | None = None, note: str = "", error: type[Exception] = GoldrushEnvError) -> int | None:
    """``value`` as a Python int if it is an int from ``low`` to ``high``, else ``error`` saying
    ``"{name} must be {what} from {low} to {high} ({note}), got {value}"``. ``none`` says what ``None`` stands
    for where it is allowed (``"no limit"``: ``"None (no limit) or an int >= 1"``), and it is then returned."""
    if value is None and none is not None:
        return None
    if not is_int(value, low, high):
        raise error(f"{name} must be {_allowed(what, low, high, None, none, note)}, got {excerpt(value)}")
    return int(value)


def check_number(name: str, value: Any, low: float | None = None, high: float | None = None, *,
                 above: float | None = None, what: str = "", none: str | None = None, note: str = "",
                 error: type[Exception] = GoldrushEnvError) -> float | None:
    """``value`` as a float if it is a finite number from ``low`` to ``high`` and greater than ``above``, else
    ``error`` as :func:`check_int` words it (``what`` is ``"a number"`` between two bounds, ``"a finite number"``
    otherwise)."""
    if value is None and none is not None:
        return None
    if not is_number(value, low, high, above=above):
        what = what or ("a number" if low is not None and high is not None else "a finite number")
        raise error(f"{name} must be {_allowed(what, low, high, above, none, note)}, got {excerpt(value)}")
    return float(value)


def _allowed(what: str, low: Any, high: Any, above: Any, none: str | None, note: str) -> str:
    """What a check allows, in words: ``"None (no limit) or an int >= 1"``, ``"a seat from 0 to 2"``."""
    if low is not None and high is not None:
        text = f"{what} from {low} to {high}"
    elif low is not None:
        text = f"{what} >= {low}"
    elif high is not None:
        text = f"{what} <= {high}"
    else:
        text = what
    if above is not None:
        text += f" > {above}"
    if note:
        text += f" ({note})"
    if none is not None:
        text = ("None" + (f" ({none})" if none else "") + " or " + text)
    return text


__all__ = ["is_int", "is_number", "check_int", "check_number"]
