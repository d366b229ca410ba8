"""Rendering: text and pictures show what the viewer knows, nothing more."""

import sys

import gymnasium as gym
import numpy as np
import pytest

import goldrush_env
import goldrush_env.gold
from goldrush_env.gold.engine import colour_owners
from goldrush_env.gold.render import FELT, HIGHLIGHT, legend, ownership, parse_square, square_name, to_rgb, to_text
from goldrush_env.window import Window
from conftest import POSITIONS, VERSION_0, layout_of, unpaced

TABLE = layout_of({0: "G3", 9: "M25", 20: "D", 63: "G1", **dict(zip(range(40, 52), ["G2"] * 7 + ["G4"] * 5))})


def started(**config):
    env = goldrush_env.gold.raw_env(num_players=2, **{**POSITIONS, **config})
    env.reset(options={"layout": TABLE})
    return env


def test_squares_are_named_column_then_row():
    assert [square_name(p) for p in (0, 7, 8, 63)] == ["a1", "h1", "a2", "h8"]
    assert all(parse_square(square_name(p)) == p for p in range(64))
    assert parse_square(" C4 ") == 26
    for bad in ("i1", "a9", "c", "c44", ""):
        with pytest.raises(ValueError, match=repr(bad)):
            parse_square(bad)


def test_an_event_line_names_its_square_as_the_board_does():
    from goldrush_env.gold.engine import Game

    game = Game.new(2, seed=1)
    game.step(26)
    line = game.history[-1].describe()
    assert line.startswith("turn 0, seat 0 flips ") and " at c4: first" in line


def test_text_shows_remembered_and_face_up_cards_only():
    env = started(render_mode="ansi", render_view=1)
    env.step(0)  # G3 face up
    text = env.render()
    assert "seat 1's memory" in text and "[G3]" in text
    assert "M25" not in text and "??" in text
    assert "seat 0 to play (second card)" in text
    env.step(9)  # G3 with seat 1's M25: struck for seat 1
    text = env.render()
    assert "seat 1: 3 (1 cards)" in text and "[G3]" not in text
    assert "turn 1/200" in text


def test_text_table_view_shows_every_card():
    env = started(render_mode="ansi", render_view="all")
    text = env.render()
    assert "every card shown" in text
    assert all(code in text for code in ("G3", "M25", "D", "G1"))


def test_human_mode_draws_the_picture_in_a_window_as_the_game_is_played(monkeypatch):
    """After reset() and every step(), the window shows what rgb_array returns; close() closes it."""
    import pygame

    frames = []
    show = Window.show
    monkeypatch.setattr(Window, "show", lambda self, frame: (frames.append(frame), show(self, frame)))
    env = unpaced(goldrush_env.gold.env(render_mode="human", **POSITIONS))
    env.reset(seed=3)
    assert len(frames) == 1 and env.unwrapped._window.is_open
    env.step(0)
    env.step(1)
    assert len(frames) == 3
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    assert np.array_equal(shown, frames[-1])
    assert np.array_equal(frames[-1], to_rgb(env.unwrapped.view(env.unwrapped.game.current_player)))
    assert env.render() is None and len(frames) == 4
    env.close()
    assert env.unwrapped._window is None and pygame.display.get_surface() is None


def test_human_mode_in_the_gymnasium_env_shows_the_opponents_flips_too(monkeypatch):
    frames = []
    monkeypatch.setattr(Window, "show", lambda self, frame: frames.append(frame))
    env = unpaced(gym.make("goldrush_env:Gold-v1", render_mode="human", seat=0, **VERSION_0))
    observation, info = env.reset(seed=0)
    flips = env.unwrapped.game_env.game.turn  # the opponent may have played first
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    game = env.unwrapped.game_env.game
    assert len(frames) == 1 + 2 * (game.turn - flips) + (game.face_up is not None)  # one frame a flip
    env.close()


def test_the_window_is_paced_at_render_fps():
    assert goldrush_env.gold.raw_env.metadata["render_fps"] == gym.make("goldrush_env:Gold-v1").metadata["render_fps"]
    env = goldrush_env.gold.raw_env(render_mode="human")
    env.reset(seed=0)
    assert env._window.fps == env.metadata["render_fps"] == 2
    env.close()


def test_human_mode_without_pygame_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)
    env = goldrush_env.gold.raw_env(render_mode="human")
    with pytest.raises(goldrush_env.GoldrushEnvError, match=r'pip install -e "\.\[render\]"'):
        env.reset(seed=0)


def test_render_without_mode_warns():
    env = started()
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


def test_picture_is_uint8_rgb_and_draws_what_is_known():
    env = started(render_mode="rgb_array")
    blank = env.render()
    assert blank.dtype == np.uint8 and blank.ndim == 3 and blank.shape[2] == 3
    env.step(0)
    face_up = env.render()
    assert blank.shape == face_up.shape
    assert not np.array_equal(blank, face_up)
    assert (face_up == HIGHLIGHT).all(axis=2).any() and not (blank == HIGHLIGHT).all(axis=2).any()
    assert (blank == FELT).all(axis=2).any()


def test_picture_of_the_table_view_differs_from_a_seat_view():
    view_env = started(render_mode="rgb_array", render_view="all")
    seat_env = started(render_mode="rgb_array", render_view=0)
    assert not np.array_equal(view_env.render(), seat_env.render())
    assert np.array_equal(to_rgb(seat_env.view(0)), seat_env.render())
    assert to_text(seat_env.view(0)).startswith("Gold, seat 0's memory")


@pytest.mark.parametrize("players, line", [
    (2, "seat 0: colours 0+1; seat 1: colours 2+3; unowned: 4"),
    (3, "seat 0: colour 0; seat 1: colour 1; seat 2: colour 2; unowned: 3+4"),
    (5, "seat 0: colour 0; seat 1: colour 1; seat 2: colour 2; seat 3: colour 3; seat 4: colour 4"),
])
def test_ownership_names_each_seats_colours(players, line):
    assert ownership(colour_owners(players)) == line
    assert legend(players).count(line) == 1


def test_legend_explains_what_the_board_draws():
    env = started(render_mode="ansi", render_view=0)
    env.step(0)  # G3 face up: the board shows ??, [G3], . and the miners line
    board, text = env.render(), legend(2)
    assert all(symbol in board for symbol in ("??", "[G3]", " . ", "miners  " + ownership(colour_owners(2))))
    for entry in ("  ??  ", "  G3  ", "  [G3]  ", "  .  ", "  G1..G4  ", "  M<c><s>  ", "  D  ", "  a1..h8  "):
        assert any(line.startswith(entry.rstrip()) for line in text.splitlines()), entry
    for word in ("strike", "duel", "dynamite", "nothing", "Gold Rush", "rush_gold", "rush_discard"):
        assert word in text
    assert "10 or fewer cards" in text
