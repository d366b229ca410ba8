"""The tournament harness: fair schedules, reproducible results, intervals, ratings, outputs."""

import collections
import json
import math
import random

import pytest

from goldrush_agents.arena import GameResult
from goldrush_agents.tournament import duel_ratings, duels, run_tournament, schedule, wilson_interval
from goldrush_env.errors import GoldrushEnvError


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_always_holds_the_observed_share():
    for trials in range(1, 300):
        for successes in (0, trials / 3, trials / 2, trials):
            low, high = wilson_interval(successes, trials)
            assert 0 <= low <= successes / trials <= high <= 1, (successes, trials)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_schedule_spreads_seats_and_start_players_evenly(num_players):
    fixtures = schedule(["a", "b", "c"], num_players, games=num_players * num_players * 2, seed=0)
    directions = 3 * (2 if num_players > 2 else 1)
    assert len(fixtures) == directions * num_players * num_players * 2
    per_pairing = collections.defaultdict(collections.Counter)
    for fixture in fixtures:
        alone, field = fixture.pairing
        assert fixture.names.count(alone) == 1 and fixture.names.count(field) == num_players - 1
        per_pairing[fixture.pairing][(fixture.names.index(alone), fixture.first_player)] += 1
    for counts in per_pairing.values():  # every (seat, start player) equally often
        assert set(counts.values()) == {2} and len(counts) == num_players * num_players
    assert len({fixture.seed for fixture in fixtures}) == len(fixtures)


def test_schedule_refuses_bad_input():
    with pytest.raises(GoldrushEnvError, match="at least two different entrants"):
        schedule(["greedy", "greedy"], 2, 10, 0)
    with pytest.raises(GoldrushEnvError, match="games must be an int >= 1, got 0"):
        schedule(["greedy", "random"], 2, 0, 0)
    with pytest.raises(GoldrushEnvError, match="unknown agent 'nobody'"):
        run_tournament(["greedy", "nobody"], games=2)
    with pytest.raises(GoldrushEnvError, match="workers must be None \\(all cores\\) or an int >= 1, got 0"):
        run_tournament(["greedy", "random"], games=2, workers=0)


def test_tournament_is_reproducible_and_independent_of_the_worker_count():
    one = run_tournament(["random", "greedy"], num_players=3, games=9, seed=4, workers=1)
    two = run_tournament(["random", "greedy"], num_players=3, games=9, seed=4, workers=2)
    assert [r.record for r in one.results] == [r.record for r in two.results]
    assert one.to_json() == two.to_json()
    other = run_tournament(["random", "greedy"], num_players=3, games=9, seed=5, workers=1)
    assert [r.record for r in other.results] != [r.record for r in one.results]


def test_standings_ratings_and_match_mode():
    result = run_tournament(["random", "greedy"], games=40, seed=1, workers=1, match_mode=True)
    greedy, random_ = result.standings["greedy"], result.standings["random"]
    assert greedy.games == random_.games == 40
    assert greedy.wins + random_.wins == pytest.approx(40)
    assert greedy.rating > random_.rating
    assert greedy.matches == random_.matches == 20
    assert greedy.match_wins + random_.match_wins == pytest.approx(20)
    text = result.table()
    assert text.splitlines()[1].startswith("greedy") and "match wins" in text


def test_save_writes_json_csv_and_a_chart(tmp_path):
    result = run_tournament(["random", "greedy"], games=6, seed=2, workers=1)
    paths = result.save(tmp_path / "out")
    assert sorted(p.name for p in paths) == ["chart.png", "games.csv", "results.json", "standings.csv"]
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert {s["name"] for s in data["standings"]} == {"random", "greedy"}
    assert len((tmp_path / "out" / "games.csv").read_text().splitlines()) == 7
    assert (tmp_path / "out" / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "out" / "games").exists()


def test_save_with_records_writes_one_replayable_record_per_game(tmp_path, capsys):
    import io

    from goldrush_agents.cli import build_parser, main

    from goldrush_env.gold.engine import Game

    result = run_tournament(["random", "greedy"], games=4, seed=3, workers=1)
    paths = result.save(tmp_path / "out", records=True)
    files = sorted((tmp_path / "out" / "games").iterdir())
    assert paths[-1] == tmp_path / "out" / "games" and [f.name for f in files] == [
        f"game-{i:05d}.json" for i in range(1, len(result.results) + 1)]
    for path, game in zip(files, result.results):
        record = json.loads(path.read_text())
        assert record == json.loads(json.dumps(game.record))
        assert Game.from_record(record).scores == game.scores
    args = build_parser().parse_args(["replay", str(files[-1])])
    out = io.StringIO()
    assert args.run(args, out=out) == 0 and "game over" in out.getvalue()
    assert main(["tournament", "--agents", "random,greedy", "--games", "2", "--records"]) == 2
    assert "--records writes into the --out folder" in capsys.readouterr().err


@pytest.mark.parametrize("num_players", [2, 3])
def test_batched_tournament_plays_the_same_deals_reproducibly(num_players):
    from goldrush_env.gold.engine import Game

    entrants = ["random", "greedy", "expert"]
    single = run_tournament(entrants, num_players=num_players, games=3, seed=4, workers=1)  # the expert is slow
    batched = run_tournament(entrants, num_players=num_players, games=3, seed=4, batched=True)
    again = run_tournament(entrants, num_players=num_players, games=3, seed=4, batched=True)
    assert [r.record for r in batched.results] == [r.record for r in again.results]
    for one, other in zip(single.results, batched.results):
        assert one.names == other.names
        for key in ("layout", "first_player", "seed", "num_players", "max_turns"):
            assert one.record[key] == other.record[key], key
    for result in batched.results:  # every record replays to its result
        game = Game.from_record(result.record)
        assert game.is_finished and game.scores == result.scores and game.winners == result.winners
    assert sum(s.games for s in batched.standings.values()) == sum(s.games for s in single.standings.values())


def test_batched_tournament_refuses_the_forgetting_memory():
    with pytest.raises(GoldrushEnvError, match="perfect memory"):
        run_tournament(["random", "greedy"], games=2, batched=True, memory="human")


def test_batched_greedy_beats_random_in_a_batched_tournament():
    result = run_tournament(["random", "greedy"], games=200, seed=1, batched=True)
    (pairing,) = result.pairings
    assert pairing.alone == "random" and pairing.interval[1] < 0.1


def test_a_piecepack_tournament_rotates_starts_and_is_reproducible():
    from goldrush_env.piecepack.engine import Game

    one = run_tournament(["economist", "random"], num_players=3, games=3, seed=4, workers=1, game="piecepack")
    two = run_tournament(["economist", "random"], num_players=3, games=3, seed=4, workers=2, game="piecepack")
    assert [r.record for r in one.results] == [r.record for r in two.results]
    assert one.game == "piecepack" and one.to_json()["game"] == "piecepack"
    fixtures = schedule(["economist", "random"], 3, 3, 4)
    for fixture, result in zip(fixtures, one.results):
        game = Game.from_record(result.record)  # the record replays, its stored final result checked
        assert game.first_start == fixture.first_player == result.record["first_player"] == result.record["start"]
        assert list(result.names) == result.record["names"] == list(fixture.names)
        assert tuple(game.winners()) == result.winners and tuple(game.scores()) == result.scores
    dealt = Game.new(3, fixtures[0].seed).to_record()  # the start the schedule sets changes nothing else
    played = one.results[0].record
    assert (dealt["tiles"], dealt["coins"], dealt["dice"][0]) == (played["tiles"], played["coins"], played["dice"][0])
    # The ratings follow the seats' results, counted here from the games themselves.
    won = {"economist": 0.0, "random": 0.0}
    for result in one.results:
        for seat in result.winners:
            won[result.names[seat]] += 1 / len(result.winners)
    assert won == {name: one.standings[name].wins for name in won} and won["economist"] > won["random"]
    assert one.standings["economist"].rating > one.standings["random"].rating


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_players": 2}, r"num_players must be 3 or 4 for Gold Rush \(piecepack\), got 2"),
    ({"memory": "human"}, r"unknown option\(s\) \['memory'\]"),
    ({"match_mode": True}, r"Gold Rush \(piecepack\) has no rule for matches"),
    ({"batched": True}, r"the players of Gold Rush \(piecepack\) cannot play many games at once"),
    ({"game": "chess"}, r"unknown game 'chess': the games are \['gold', .*'piecepack'\]"),
])
def test_a_piecepack_tournament_refuses_what_belongs_to_gold(kwargs, message):
    kwargs = {"num_players": 3, "game": "piecepack", **kwargs}
    with pytest.raises(GoldrushEnvError, match=message):
        run_tournament(["economist", "random"], games=1, workers=1, **kwargs)
    with pytest.raises(GoldrushEnvError, match=r"unknown agent 'greedy'.*the players of Gold Rush \(piecepack\)"):
        run_tournament(["economist", "greedy"], num_players=3, games=1, workers=1, game="piecepack")



def _results(rows):
    """Game results from ``(names, scores, tie-breaks)`` rows, the winners by score then tie-break."""
    out = []
    for names, scores, tiebreak in rows:
        best = max(zip(scores, tiebreak))
        winners = tuple(s for s, key in enumerate(zip(scores, tiebreak)) if key == best)
        out.append(GameResult(tuple(names), tuple(scores), tuple(tiebreak), winners, 10, False, {}))
    return out


def _lone_entrant_games(games, finish):
    """4-player games of A and B on the tournament's schedule; ``finish(alone, field)`` gives the four seats'
    scores with the lone entrant's first."""
    rows = []
    for fixture in schedule(["A", "B"], 4, games, 0):
        alone = fixture.names.index(fixture.pairing[0])
        others = [s for s in range(4) if s != alone]
        scores = [0] * 4
        for seat, score in zip([alone, *others], finish(*fixture.pairing)):
            scores[seat] = score
        rows.append((fixture.names, scores, [0] * 4))
    return _results(rows)


def test_ratings_are_the_duels_between_different_entrants_fitted_at_once():
    """Issue 39: an entrant's seats are never rated against each other, and the order of the games does not matter.
    With openskill's online updates and every seat rated, an entrant holding three seats of four was rated on how
    its copies finished among themselves, and the entrant whose lone games came first ended far from the other."""
    # Each entrant alone finishes last behind the three copies of the other: as strong as each other.
    even = _lone_entrant_games(20, lambda alone, field: (0, 3, 2, 1))
    ratings = duel_ratings(even, ["A", "B"])
    assert ratings["A"] == pytest.approx(0.0, abs=1e-6) and ratings["B"] == pytest.approx(0.0, abs=1e-6)
    # How B's copies finished among themselves (in order, tied, swapped) changes nothing; A beats one of them.
    variants = [(3, 1, 0), (3, 1, 1), (1, 3, 0)]
    rated = [duel_ratings(_lone_entrant_games(20, lambda alone, field, b=b: (2, *b) if alone == "A" else (3, 2, 2, 2)),
                          ["A", "B"]) for b in variants]
    assert rated[0] == rated[1] == rated[2]
    # A alone wins 2 of its 3 duels (20 games), and none of the 3 with B alone (20 games): 40 of 120 duels, plus
    # half of the prior's one draw each. Two entrants' Bradley-Terry fit is exact: the odds are the wins' ratio.
    expected = 400 * math.log10(40.5 / 80.5)
    assert rated[0]["A"] - rated[0]["B"] == pytest.approx(expected, abs=1e-6)
    shuffled = list(_lone_entrant_games(20, lambda alone, field: (2, 3, 1, 0) if alone == "A" else (3, 2, 2, 2)))
    random.Random(0).shuffle(shuffled)
    assert duel_ratings(shuffled, ["A", "B"]) == pytest.approx(rated[0])


def test_duels_compare_only_seats_of_different_entrants():
    (result,) = _results([(("A", "B", "B", "A"), (2, 3, 1, 2), (0, 0, 0, 1))])
    assert duels(result) == [("A", "B", 0.0), ("A", "B", 1.0), ("B", "A", 1.0), ("B", "A", 0.0)]
    (tied,) = _results([(("A", "B", "B"), (0, 0, 0), (1, 1, 0))])  # A and the first B share the win
    assert tied.winners == (0, 1) and duels(tied) == [("A", "B", 0.5), ("A", "B", 1.0)]
