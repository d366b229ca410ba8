"""Match play (D6): n games, seat k starts game k, totals, then the last game's score."""

import random

import pytest

from goldrush_env.errors import GoldrushEnvError
from goldrush_env.gold.match import match_winners, play_match
from conftest import flippable


def test_highest_total_wins():
    assert match_winners([(10, 20), (25, 5)]) == (0,)


def test_tied_totals_go_to_the_higher_score_in_the_last_game():
    assert match_winners([(20, 10), (10, 20)]) == (1,)
    assert match_winners([(10, 20, 5), (20, 10, 3)]) == (0,)


def test_still_tied_the_match_is_shared():
    assert match_winners([(10, 10), (15, 15)]) == (0, 1)
    assert match_winners([(12, 8, 4), (10, 14, 3), (9, 9, 5)]) == (0, 1)


def test_a_seat_ahead_on_the_last_game_but_behind_on_total_loses():
    assert match_winners([(30, 0, 0), (0, 14, 15)]) == (0,)


@pytest.mark.parametrize("scores,text", [([], "at least one game"), ([(1, 2), (1, 2, 3)], "needs 2 scores")])
def test_bad_score_tables(scores, text):
    with pytest.raises(GoldrushEnvError, match=text):
        match_winners(scores)


def random_chooser(seed):
    rng = random.Random(seed)
    return lambda game: rng.choice(flippable(game))


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_seat_k_starts_game_k(num_players):
    result = play_match(num_players, [random_chooser(s) for s in range(num_players)], seed=3)
    assert len(result.games) == num_players
    for k, game in enumerate(result.games):
        assert game.first_player == k and game.is_over
        assert game.history[0].player == k
    assert result.totals == tuple(sum(game.scores[s] for game in result.games) for s in range(num_players))
    assert result.winners == match_winners(result.game_scores)
    assert result.winners and set(result.winners) <= set(range(num_players))


def test_a_match_is_reproducible_from_its_seed():
    def run():
        return play_match(3, [random_chooser(s) for s in range(3)], seed=11, num_games=6)

    first, second = run(), run()
    assert first.game_scores == second.game_scores
    assert [game.first_player for game in first.games] == [0, 1, 2, 0, 1, 2]
    assert [game.initial_layout for game in first.games] == [game.initial_layout for game in second.games]


def test_turn_limited_games_count_with_their_scores_so_far():
    result = play_match(2, [random_chooser(0), random_chooser(1)], seed=5, max_turns=3)
    assert all(game.is_truncated and game.turn == 3 for game in result.games)


@pytest.mark.parametrize("players,num_games,text", [(1, None, "needs 2 players"), (2, 0, "num_games must be")])
def test_bad_match_arguments(players, num_games, text):
    with pytest.raises(GoldrushEnvError, match=text):
        play_match(2, [random_chooser(s) for s in range(players)], seed=0, num_games=num_games)
