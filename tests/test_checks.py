"""goldrush_env.checks: what passes as an int or a number, and how a refusal is worded."""

import re

import numpy as np
import pytest

from goldrush_env.checks import check_int, check_number, is_int, is_number
from goldrush_env.errors import GoldrushEnvError


@pytest.mark.parametrize("value, expected", [(3, True), (np.int64(3), True), (np.uint8(3), True), (True, False),
                                             (3.0, False), ("3", False), (None, False), (10**100, True)])
def test_an_int_is_pythons_or_numpys_and_never_a_bool(value, expected):
    assert bool(is_int(value)) is expected


@pytest.mark.parametrize("value, expected", [(0.5, True), (np.float32(0.5), True), (1, True), (np.int8(1), True),
                                             (True, False), (float("inf"), False), (float("nan"), False),
                                             ("0.5", False), (10**400, False)])
def test_a_number_is_finite_and_never_a_bool(value, expected):
    assert bool(is_number(value, 0, 1)) is expected


def test_the_bounds_are_included_and_above_is_not():
    assert is_int(2, 2, 5) and is_int(5, 2, 5) and not is_int(6, 2, 5) and not is_int(1, 2)
    assert is_number(0, 0, 1) and is_number(1, 0, 1) and not is_number(0, above=0) and is_number(1e-9, above=0)


def test_a_value_that_passes_comes_back_as_pythons_own_type():
    assert type(check_int("n", np.int64(4), 1)) is int and check_int("n", np.int64(4), 1) == 4
    assert type(check_number("x", np.float32(0.5), 0, 1)) is float and check_number("x", 1, 0, 1) == 1.0
    assert check_int("limit", None, 1, none="no limit") is None and check_number("w", None, none="") is None


@pytest.mark.parametrize("call, message", [
    (lambda: check_int("num_players", 7, 2, 5), "num_players must be an int from 2 to 5, got 7"),
    (lambda: check_int("games", True, 1), "games must be an int >= 1, got True"),
    (lambda: check_int("max_turns", 0, 1, none="no limit"), "max_turns must be None (no limit) or an int >= 1, got 0"),
    (lambda: check_int("seat", 3, 0, 2, what="a seat"), "seat must be a seat from 0 to 2, got 3"),
    (lambda: check_int("turn", -1, 0, note="completed turns"), "turn must be an int >= 0 (completed turns), got -1"),
    (lambda: check_int("n", None, 1), "n must be an int >= 1, got None"),
    (lambda: check_number("p", 1.5, 0, 1), "p must be a number from 0 to 1, got 1.5"),
    (lambda: check_number("rate", float("inf"), 0), "rate must be a finite number >= 0, got inf"),
    (lambda: check_number("seconds", 0, above=0, none="no time budget"),
     "seconds must be None (no time budget) or a finite number > 0, got 0"),
])
def test_a_refusal_names_the_value_and_what_was_allowed(call, message):
    with pytest.raises(GoldrushEnvError, match="^" + re.escape(message) + "$"):
        call()


def test_a_refusal_raises_the_error_asked_for_and_cuts_a_long_value():
    class OwnError(GoldrushEnvError):
        pass

    with pytest.raises(OwnError, match=r"^n must be an int, got 'xxxx.*\(1,000 characters\)$"):
        check_int("n", "x" * 1000, error=OwnError)
