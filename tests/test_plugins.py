"""A third game in an afternoon: games published as packages of their own plug into everything, with no line of
ours changed.

tests/plugins/ holds two such packages, each with its own pyproject.toml, which tests/conftest.py puts on the path
as an installed plug-in would be (its folder, and the entry points its pyproject.toml declares): Nim (every move
public, a players package with a perfect player) and Kuhn poker (hidden cards and chance, its rules alone). Every
test that loops over the registry plays them too (tests/test_games.py, tests/test_web_games.py); this module plays
each through what a user of a new game reaches for first.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from goldrush_agents import make_agent, players_of
from goldrush_agents.cli import build_parser
from goldrush_agents.tournament import run_tournament
from goldrush_env.conformance import check_game
from goldrush_env.errors import GoldrushEnvError
from goldrush_env.games import spec
from goldrush_env.policy import RandomPolicy
from conftest import PLUGINS, typist

PLUGGED = {"nim": "Nim-v0", "kuhn": "KuhnPoker-v0"}
"""Each plug-in game and its Gymnasium id."""


def test_the_plug_ins_live_outside_our_packages():
    for name in PLUGGED:
        rules = spec(name).load("rules")
        assert PLUGINS in Path(sys.modules[rules.__module__].__file__).parents
        assert not rules.__module__.startswith(("goldrush_env", "goldrush_agents", "goldrush_train"))


@pytest.mark.parametrize("name", PLUGGED)
def test_the_checks_a_plug_in_author_runs_pass(name):
    """goldrush_env.conformance: the protocol, determinism, the observation, PettingZoo's and Gymnasium's checks at
    every table size; and PettingZoo's api_test with the text rendering."""
    check_game(name)
    api_test(spec(name).env(render_mode="ansi"), num_cycles=200)


@pytest.mark.parametrize("name, gym_id", PLUGGED.items())
def test_the_gymnasium_id_makes_a_checked_environment(name, gym_id):
    env = gymnasium.make(gym_id, opponents=make_agent("random", game=name))
    check_env(env.unwrapped, skip_render_check=True)
    observation, info = env.reset(seed=3)
    assert env.observation_space.contains(observation) and info["action_mask"].any()
    rewards = 0.0
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, terminated, truncated, info = env.step(action)
        rewards += reward
        if terminated or truncated:
            break
    assert rewards in (-1.0, 0.0, 1.0) and info["winners"]


def test_a_game_without_players_still_has_random_and_one_with_them_has_its_own():
    assert set(players_of("kuhn").agents) == {"random"} and players_of("kuhn").opponents == ("random",)
    assert isinstance(make_agent("random", game="kuhn", seed=0), RandomPolicy)
    assert set(players_of("nim").agents) == {"random", "perfect"}
    with pytest.raises(GoldrushEnvError, match=r"unknown agent 'greedy': expected one of \['perfect', 'random'\]"):
        make_agent("greedy", game="nim")


def test_a_tournament_with_ratings():
    result = run_tournament(["random", "perfect"], num_players=2, games=40, seed=1, workers=1, game="nim")
    standings = result.standings
    assert standings["perfect"].win_rate > standings["random"].win_rate  # the nim-sum wins
    assert standings["perfect"].rating > standings["random"].rating
    assert "tiebreak" in result.table()
    kuhn = run_tournament(["random", "goldrush_env.policy:RandomPolicy"], num_players=2, games=20, seed=1, workers=1,
                          game="kuhn")
    assert sum(s.games for s in kuhn.standings.values()) == 40


def goldrush(*argv: str, read=None) -> str:
    """What ``goldrush ARGV`` prints (it must succeed)."""
    args = build_parser().parse_args(argv)
    out = io.StringIO()
    assert (args.run(args, out=out) if read is None else args.run(args, out=out, read=read)) == 0
    return out.getvalue()


def test_the_goldrush_command_plays_watches_replays_and_ranks(tmp_path, monkeypatch):
    ranked = goldrush("tournament", "--game", "nim", "--agents", "random,perfect", "--games", "6", "--workers", "1",
                      "--no-progress")
    assert ranked.splitlines()[1].startswith("perfect")  # first in the standings
    saved = tmp_path / "kuhn.json"
    watched = goldrush("watch", "--game", "kuhn", "--agents", "random", "--players", "2", "--seed", "4",
                       "--save", str(saved))
    assert watched.startswith("Kuhn poker, 2 players") and "winner" in watched
    said = [line.split(": ")[-1] for line in watched.splitlines() if "(seat " in line]
    assert said and set(said) <= {"check", "bet", "call", "fold"}  # each move in the game's words
    assert json.loads(saved.read_text())["game"] == "kuhn"
    assert goldrush("replay", str(saved)).splitlines()[-1] == watched.splitlines()[-2]  # the same result line
    moves = [str(heap * 5 + stones - 1) for heap in range(3) for stones in (1, 2, 3)]  # some are legal at each turn
    kept = tmp_path / "nim.json"
    rules = spec("nim").load("rules")
    bare = rules.to_record
    monkeypatch.setattr(rules, "to_record", lambda game: {k: v for k, v in bare(game).items() if k != "game"})
    played = goldrush("play", "--game", "nim", "--seed", "2", "--opponents", "random", "--save", str(kept),
                      read=typist(moves * 9))
    assert played.startswith("Nim: you are seat 0") and "take 1 from heap A" in played and "winner" in played
    assert json.loads(kept.read_text())["game"] == "nim"  # a played game's record names its game, and replays
    assert goldrush("replay", str(kept)).splitlines()[-1] == next(line for line in played.splitlines()
                                                                  if "winner" in line)


def test_the_training_library_evaluates_against_the_game_s_own_opponents(capsys):
    from goldrush_train import evaluate

    rows = evaluate.main(["perfect", "--game", "nim", "--games", "8", "--workers", "1"])
    assert [row.opponent for row in rows] == ["random"]  # the game's opponents, the model itself left out
    assert "(Nim, 2 players, seed 0" in capsys.readouterr().out


def test_importing_a_game_before_goldrush_env_registers_it():
    code = ("import nim_game, kuhn_poker\n"
            "import gymnasium, goldrush_env\n"
            "print(gymnasium.make('Nim-v0').reset(seed=0)[0].shape, gymnasium.make('KuhnPoker-v0').reset(seed=0)[0].shape)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "(21,) (13,)"


def test_kuhn_s_observation_depends_only_on_what_the_seat_has_seen():
    """Non-interference: the same deal with the other player's card swapped for the undealt one gives a seat the
    same observations at every step until the showdown shows that card."""
    game = spec("kuhn")
    for seed in range(12):
        envs = [game.raw_env() for _ in range(2)]
        for env in envs:
            env.reset(seed=seed)
        watcher = envs[0].game.current_player
        other = 1 - watcher
        undealt = ({0, 1, 2} - set(envs[0].game.cards)).pop()
        cards = list(envs[1].game.cards)
        cards[other] = undealt
        envs[1].game.cards = tuple(cards)
        rng = np.random.default_rng(seed)
        while not envs[0].game.is_finished:
            seen = [env.observe(env.possible_agents[watcher]) for env in envs]
            assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
            assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])
            action = int(rng.integers(2))
            for env in envs:
                env.step(action)
        if not envs[0].game.shown_down:  # a fold: nobody saw the other card, even at the end
            assert np.array_equal(*(env.observe(env.possible_agents[watcher])["observation"] for env in envs))
