"""``goldrush serve`` loses no game (issue 69): every game in play, every finished record and the ratings of the
agents against people are kept in an SQLite store, written before each answer, and a restarted server goes on
from the last answer. The schema has a version and a path up from each older one. The store holds what no client
may see, and no route serves it.

A restart here is a new app on the same file, or, once, a real ``goldrush serve`` killed with SIGKILL.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import subprocess
import sys

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # what Starlette's TestClient asks for

from starlette.testclient import TestClient  # noqa: E402

from goldrush_env.errors import GoldrushEnvError  # noqa: E402

from goldrush_agents.web import create_app  # noqa: E402
from goldrush_agents.web import ratings  # noqa: E402
from goldrush_agents.web.database import SCHEMA_VERSION, Database, default_path, migrate, version_of  # noqa: E402
from conftest import free_port, integers_in, refused, session_of  # noqa: E402
from test_web_api import check_private  # noqa: E402
from test_web_limits import wait_for  # noqa: E402


def restarted(path, **options) -> TestClient:
    """A server on the store ``path``, as ``goldrush serve --store path`` starts."""
    return TestClient(create_app(store_path=path, **options), raise_server_exceptions=False)


def first(state: dict):
    """The first legal action of a state (Gold lists positions, the other games objects)."""
    legal = state["legal"][0]
    return legal if isinstance(legal, int) else legal["action"]


def play(client: TestClient, game: str, data: dict, moves: int | None = None) -> dict:
    """``moves`` moves of the person (all, to the end, if None), the first legal action each; the last answer."""
    while not data["state"]["finished"] and moves != 0:
        response = client.post(f"/api/{game}/games/{data['id']}/act", json={"action": first(data["state"])})
        assert response.status_code == 200, response.text
        data = response.json()
        moves = None if moves is None else moves - 1
    return data


# --- a restart loses no game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game, body", [
    ("gold", {"players": 3, "opponents": "greedy,random", "seat": 1, "memory": "real", "table": "quarter"}),
    ("gold", {"opponents": "ismcts[iterations=20]", "table": "half", "seed": 5}),
    ("piecepack", {"players": 3, "opponents": "economist,random"}),
])
def test_a_game_in_play_goes_on_after_a_restart_from_its_last_answer(tmp_path, game, body):
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    data = play(client, game, client.post(f"/api/{game}/games", json=body).json(), moves=4)
    assert not data["state"]["finished"]
    before = session_of(client, data["id"])
    kept = before.game.to_record()

    again = restarted(path)  # the first server is gone: a new one on the same file
    state = again.get(f"/api/{game}/games/{data['id']}").json()["state"]
    assert state == data["state"]
    after = session_of(again, data["id"])
    assert after.game.to_record() == kept and after.person == before.person and after.actions == before.actions
    if game == "gold":
        check_private({"state": state}, after.game, after.seat, after.person["memory"])
    if body.get("seed") is None:  # a seed the server chose is still not sent, nor anything it deals
        assert state["seed"] is None and after.seed not in integers_in(state)
    finished = play(again, game, {"id": data["id"], "state": state})
    assert finished["state"]["finished"]
    record = again.get(f"/api/{game}/games/{data['id']}/record").json()
    assert record["seed"] == after.seed


def test_a_watched_game_goes_on_after_a_restart(tmp_path):
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    game_id = client.post("/api/gold/watch", json={"agents": "greedy,random,expert", "table": "quarter"}).json()["id"]
    for _ in range(5):
        answer = client.post(f"/api/gold/watch/{game_id}/step", json={}).json()
    again = restarted(path)
    assert again.get(f"/api/gold/watch/{game_id}").json()["state"] == answer["state"]
    while again.post(f"/api/gold/watch/{game_id}/step", json={}).status_code == 200:
        pass
    assert again.get(f"/api/gold/games/{game_id}/record").json()["flips"]


def test_finished_records_survive_a_restart_and_stay_in_the_store(tmp_path):
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    data = play(client, "gold", client.post("/api/gold/games", json={"opponents": "greedy", "table": "quarter"}).json())
    record = client.get(f"/api/gold/games/{data['id']}/record").json()
    again = restarted(path)
    assert again.get(f"/api/gold/games/{data['id']}").json()["state"] == data["state"]
    assert again.get(f"/api/gold/games/{data['id']}/record").json() == record
    assert again.app.state.store.live == {} and list(again.app.state.store.ended) == [data["id"]]
    refused(again.post(f"/api/gold/games/{data['id']}/act", json={"action": 0}), 409, "the game is over")
    # Past its 5 minutes a finished game is no longer served, and its record stays in the store.
    later = restarted(path, ended_seconds=0.001)
    refused(later.get(f"/api/gold/games/{data['id']}/record"), 404)
    assert Database(path).counts() == {"ended": 1}


def test_deleted_and_idle_games_do_not_come_back(tmp_path):
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    deleted, idle, kept = (client.post("/api/gold/games", json={"opponents": "greedy"}).json()["id"] for _ in range(3))
    assert client.delete(f"/api/gold/games/{deleted}").status_code == 200
    with sqlite3.connect(path) as db:  # as if nobody had touched it for an hour
        db.execute("UPDATE games SET touched = touched - 3600 WHERE id = ?", (idle,))
    again = restarted(path)
    assert set(again.app.state.store.live) == {kept}
    for game_id in (deleted, idle):
        refused(again.get(f"/api/gold/games/{game_id}"), 404)
    assert Database(path).counts() == {"play": 1}


def test_a_game_that_cannot_be_rebuilt_is_named_and_kept(tmp_path):
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    game_id = client.post("/api/gold/games", json={"opponents": "greedy"}).json()["id"]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET game = 'chess' WHERE id = ?", (game_id,))
    again = restarted(path)
    assert again.app.state.store.live == {}
    [problem] = again.app.state.restored
    assert game_id in problem and "'chess'" in problem
    assert Database(path).counts() == {"play": 1}  # for a server that has the game


def test_the_store_is_written_before_the_answer(tmp_path, monkeypatch):
    """A move whose write fails is answered with an error, not with a state the store does not hold."""
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    data = client.post("/api/gold/games", json={"opponents": "greedy", "seed": 2}).json()
    database = client.app.state.store.database

    def broken(session):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(database, "save", broken)
    response = client.post(f"/api/gold/games/{data['id']}/act", json={"action": first(data["state"])})
    assert response.status_code == 500 and "I/O" not in response.text
    assert restarted(path).get(f"/api/gold/games/{data['id']}").json()["state"] == data["state"]


def test_serve_kept_games_survive_sigkill(tmp_path):
    """``goldrush serve --store FILE`` as a user runs it, killed with SIGKILL mid-game and started again: the game
    goes on from its last answer, and the finished game's record is still there."""
    path = tmp_path / "server.sqlite3"

    def start(port: int) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-m", "goldrush_agents.cli", "serve", "--store", str(path),
                                    "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(port, process)
        return process

    def call(port: int, method: str, route: str, body: dict | None = None) -> dict:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request(method, route, None if body is None else json.dumps(body),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            data = json.loads(response.read())
            assert response.status == 200, data
            return data
        finally:
            connection.close()

    port = free_port()
    process = start(port)
    try:
        done = call(port, "POST", "/api/gold/games", {"opponents": "random", "table": "quarter", "seed": 4})
        while not done["state"]["finished"]:
            done = call(port, "POST", f"/api/gold/games/{done['id']}/act", {"action": done["state"]["legal"][0]})
        record = call(port, "GET", f"/api/gold/games/{done['id']}/record")
        data = call(port, "POST", "/api/gold/games", {"players": 3, "opponents": "greedy", "memory": "real"})
        for _ in range(3):
            data = call(port, "POST", f"/api/gold/games/{data['id']}/act", {"action": data["state"]["legal"][0]})
    finally:
        process.kill()  # SIGKILL: nothing is flushed or closed
        process.communicate()
    port = free_port()
    process = start(port)
    try:
        assert call(port, "GET", f"/api/gold/games/{data['id']}")["state"] == data["state"]
        assert call(port, "GET", f"/api/gold/games/{done['id']}/record") == record
        call(port, "POST", f"/api/gold/games/{data['id']}/act", {"action": data["state"]["legal"][0]})
    finally:
        process.terminate()
        output, errors = process.communicate(timeout=60)
    assert f"games kept in {path}: 1 in play go on" in output, (output, errors)
    assert "Traceback" not in errors, errors


# --- what the store holds, and who may read it ---------------------------------------------------------------


def test_the_store_file_is_its_owner_s_and_no_route_serves_it(tmp_path):
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    data = client.post("/api/gold/games", json={"opponents": "greedy"}).json()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    routes = [f"/{path.name}", f"/static/{path.name}", f"/static/gold/{path.name}", f"/static/../{path.name}",
              f"/static/%2e%2e/{path.name}", f"/static/..%2f..%2f{path.name}", f"/api/gold/{path.name}",
              f"/api/gold/games/{path.name}", f"/api/gold/games/{data['id']}/{path.name}", str(path),
              f"/static/{str(path).lstrip('/')}", f"/static/..{path}", "/api/store", "/api/ratings"]
    for route in routes:
        response = client.get(route)
        assert b"SQLite format 3" not in response.content, route
        assert response.status_code in (200, 404), (route, response.status_code)
    session = session_of(client, data["id"])
    assert session.seed not in integers_in(client.get(f"/api/gold/games/{data['id']}").json())


def test_default_path_is_in_the_user_s_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "goldrush" / "server.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == tmp_path / ".local" / "share" / "goldrush" / "server.sqlite3"


def test_serve_keeps_its_games_in_the_data_folder_unless_told(monkeypatch, tmp_path):
    import io

    import goldrush_agents.web
    from goldrush_agents import cli

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    ran = {}
    monkeypatch.setattr(goldrush_agents.web, "serve", lambda app, host, port, out: ran.update(app=app))
    for argv, where in ((["serve"], tmp_path / "goldrush" / "server.sqlite3"),
                        (["serve", "--store", str(tmp_path / "mine.db")], tmp_path / "mine.db"),
                        (["serve", "--store", ":memory:"], None)):
        args = cli.build_parser().parse_args(argv)
        out = io.StringIO()
        assert args.run(args, out=out) == 0
        database = ran["app"].state.store.database
        assert database.path == (":memory:" if where is None else str(where))
        assert where is None or (where.exists() and f"games kept in {where}" in out.getvalue())


# --- the schema's version -------------------------------------------------------------------------------------


def test_a_new_store_has_the_current_schema_version(tmp_path):
    path = tmp_path / "server.sqlite3"
    assert Database(path).upgraded_from == 0
    with sqlite3.connect(path) as db:
        assert version_of(db) == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert Database(path).upgraded_from == SCHEMA_VERSION


def test_a_store_of_version_1_is_upgraded_and_its_games_go_on(tmp_path):
    """Version 1 kept the games only; version 2 added the person's name, the results and the ratings. A game kept
    by version 1 goes on under the current code, and its end is rated."""
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    data = play(client, "gold", client.post("/api/gold/games", json={"opponents": "greedy", "seed": 1,
                                                                       "table": "quarter"}).json(), moves=2)
    row = sqlite3.connect(path).execute("SELECT id, game, client, status, plan, seed, actions, person, created, "
                                        "touched FROM games").fetchone()
    old = tmp_path / "old.sqlite3"
    with sqlite3.connect(old, isolation_level=None) as db:
        assert migrate(db, str(old), to=1) == 0 and version_of(db) == 1
        db.execute("INSERT INTO games (id, game, client, status, plan, seed, actions, person, created, touched) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        assert "player" not in [c[1] for c in db.execute("PRAGMA table_info(games)")]
    upgraded = restarted(old)
    assert upgraded.app.state.store.database.upgraded_from == 1
    with sqlite3.connect(old) as db:
        assert version_of(db) == SCHEMA_VERSION
    assert upgraded.get(f"/api/gold/games/{data['id']}").json()["state"] == data["state"]
    play(upgraded, "gold", data)
    assert [row["games"] for row in upgraded.get("/api/ratings").json()["agents"]] == [1]


def test_a_store_newer_than_the_code_is_refused(tmp_path):
    path = tmp_path / "server.sqlite3"
    Database(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(GoldrushEnvError, match=f"schema version {SCHEMA_VERSION + 1}, newer than this goldrush-env "
                                               f"knows \\(up to {SCHEMA_VERSION}\\)"):
        create_app(store_path=path)


def test_a_file_that_is_not_a_store_is_refused(tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE mine (x)")
    with pytest.raises(GoldrushEnvError, match="not a store of goldrush serve"):
        Database(other)
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, " * 100)
    with pytest.raises(GoldrushEnvError, match=f"the store {text} cannot be used"):
        Database(text)


# --- names and ratings -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, words", [
    ("", "0 characters long"),
    ("x" * 33, "33 characters long"),
    ("<b>me</b>", "holds '<'"),
    ("tab\there", "holds '\\t'"),
    (" me", "must not begin or end with a space"),
    (7, "got 7"),
    (["me"], "got ['me']"),
])
def test_a_bad_name_is_refused_saying_what_a_name_may_be(name, words):
    client = TestClient(create_app(), raise_server_exceptions=False)
    error = refused(client.post("/api/gold/games", json={"opponents": "greedy", "name": name}), 400, words)
    assert "1 to 32 letters, digits, spaces and '-_.'" in error or "space" in error
    assert client.app.state.store.live == {}


@pytest.mark.parametrize("name", ["Ann", "ann-b_c.1", "José Ortega", "x" * 32, None])
def test_a_good_name_or_none_is_taken(name):
    client = TestClient(create_app())
    data = client.post("/api/gold/games", json={"opponents": "greedy", "name": name}).json()
    assert session_of(client, data["id"]).player == name


def test_the_elo_of_a_pair():
    assert ratings.K == 32 and ratings.START == 1500
    assert ratings.expected(1500, 1500) == 0.5
    assert ratings.expected(1700, 1500) == pytest.approx(0.7597, abs=1e-4)
    assert [ratings.pair_score(0, 1, w) for w in ([0], [1], [0, 1], [2])] == [1.0, 0.0, 0.5, 0.5]
    mine, theirs = ratings.game_changes(1500, {1: ("greedy", 1500), 2: ("greedy", 1500)}, 0, [2])
    assert mine == -16 and theirs == {"greedy": 16}  # a draw with seat 1 (neither won), a loss to seat 2


def test_a_person_who_loses_to_an_agent_raises_its_rating(tmp_path):
    """Seeds where the person, flipping the first card it may, loses: to greedy at two players, and at three to
    greedy's seat 2 (seat 1 did not win either: a draw). Ratings are per game and number of players, each with the
    games behind it; the store keeps them over a restart."""
    path = tmp_path / "server.sqlite3"
    client = restarted(path)
    assert client.get("/api/ratings").json()["agents"] == []
    for seed in (0, 1):
        data = play(client, "gold", client.post("/api/gold/games", json={"opponents": "greedy", "seed": seed,
                                                                           "table": "quarter", "name": "ann"}).json())
        assert data["state"]["winners"] == [1]
    data = play(client, "gold", client.post("/api/gold/games", json={"players": 3, "opponents": "greedy", "seed": 0,
                                                                       "table": "quarter"}).json())
    assert data["state"]["winners"] == [2]
    watched = client.post("/api/gold/watch", json={"agents": "greedy,random", "table": "quarter"}).json()["id"]
    while client.post(f"/api/gold/watch/{watched}/step", json={}).status_code == 200:
        pass  # a game without a person is not rated
    rated = restarted(path).get("/api/ratings").json()
    assert rated["elo"]["k"] == 32 and rated["elo"]["start"] == 1500
    first_game = 16.0  # 32 * (1 - 0.5)
    second = 32 * (1 - ratings.expected(1500 + first_game, 1500 - first_game))
    assert rated["agents"] == [
        {"game": "gold", "players": 2, "agent": "greedy", "rating": round(1500 + first_game + second, 1), "games": 2},
        {"game": "gold", "players": 3, "agent": "greedy", "rating": 1516.0, "games": 1},
    ]
    assert rated["people"] == [
        {"game": "gold", "players": 2, "name": "ann", "rating": round(1500 - first_game - second, 1), "games": 2},
        {"game": "gold", "players": 3, "name": None, "rating": 1484.0, "games": 1},
    ]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*), sum(score) FROM results").fetchone() == (4, 0.5)


def test_a_game_is_rated_once_and_a_deleted_one_not_at_all(tmp_path):
    client = restarted(tmp_path / "server.sqlite3")
    data = play(client, "gold", client.post("/api/gold/games", json={"opponents": "random", "table": "quarter",
                                                                       "seed": 3}).json())
    abandoned = play(client, "gold", client.post("/api/gold/games", json={"opponents": "random"}).json(), moves=2)
    client.delete(f"/api/gold/games/{abandoned['id']}")
    client.delete(f"/api/gold/games/{data['id']}")  # a finished game deleted: its result stays counted
    assert client.app.state.store.ended == {}
    assert [row["games"] for row in client.get("/api/ratings").json()["agents"]] == [1]


def test_the_index_page_shows_the_ratings_with_their_games():
    """In a real browser (skipped without Playwright and Chromium, as tests/gold/test_web_browser.py is)."""
    from conftest import BROWSER_PATIENCE_MS, chromium, require_browser, served

    require_browser()
    from playwright.sync_api import expect

    app = create_app()
    client = TestClient(app)
    for seed in (0, 1):
        play(client, "gold", client.post("/api/gold/games", json={"opponents": "greedy", "seed": seed,
                                                                   "table": "quarter", "name": "Ann"}).json())
    with served(app) as port, chromium() as browser:
        page = browser.new_page()
        page.set_default_timeout(BROWSER_PATIENCE_MS)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.get_by_test_id("game-gold")).to_be_visible()
        rows = page.get_by_test_id("ratings").get_by_test_id("rating")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("Gold")
        assert [cell.strip() for cell in rows.first.locator("td").all_inner_texts()][1:] == ["2", "greedy", "1531",
                                                                                             "2"]
        expect(page.get_by_test_id("people").get_by_test_id("rating")).to_contain_text("Ann")
        expect(page.get_by_test_id("elo")).to_contain_text("K = 32, starting at 1500")
        expect(page.get_by_test_id("no-ratings")).to_be_hidden()
        assert errors == []
