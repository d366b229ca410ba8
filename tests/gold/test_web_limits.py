"""``goldrush serve`` against a hostile or careless client: what a request may cost, what it may learn, what it
may send. Each test here names the item of issue 34 it guards; each failed on the server before that issue.

The load test at the end runs the app under uvicorn on a real socket. No test here asserts a timing: the bounds
checked are counts (games held, simulations run, bytes allocated), and a time limit only where a hang is the bug.
"""

from __future__ import annotations

import http.client
import io
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from goldrush_env.gold.aec import raw_env  # noqa: E402
from goldrush_env.gold.render import square_name  # noqa: E402

from goldrush_agents import cli  # noqa: E402
from goldrush_agents.gold.search import ISMCTSAgent  # noqa: E402
from goldrush_agents.web import Limits, create_app  # noqa: E402
from goldrush_agents.web.limits import MAX_SEED  # noqa: E402
from conftest import JSON, SHORT, fail_once, free_port, integers_in, refused, served, session_of  # noqa: E402
from test_web_api import check_private  # noqa: E402

def make_client(**options) -> TestClient:
    return TestClient(create_app(**options), raise_server_exceptions=False)


def finish(client: TestClient, data: dict, seed: int = 0) -> dict:
    """Play a created game to its end, the person flipping at random; the last response."""
    rng = np.random.default_rng(seed)
    while not data["state"]["finished"]:
        position = int(rng.choice(data["state"]["legal"]))
        data = client.post(f"/api/gold/games/{data['id']}/act", json={"action": position}).json()
    return data


# --- 1. the seed gives away the deal ----------------------------------------------------------------


class Deals:
    """What each integer, taken as a seed, deals: the check that no response lets a client rebuild the table."""

    def __init__(self, players: int, table: str) -> None:
        self.env = raw_env(num_players=players, table=table)
        self.seen: dict[int, list] = {}

    def __call__(self, seed: int) -> list:
        if seed not in self.seen:
            self.env.reset(seed=seed)
            self.seen[seed] = list(self.env.game.initial_layout)
        return self.seen[seed]


@pytest.mark.parametrize("memory", ["perfect", "real"])
def test_1_a_seed_the_server_chose_is_sent_only_once_the_game_has_ended(memory):
    client = make_client()
    body = {"players": 3, "opponents": "random,greedy", "seat": 1, "memory": memory, "table": "quarter"}
    data = client.post("/api/gold/games", json=body).json()
    game = session_of(client, data["id"]).game
    deals = Deals(3, "quarter")
    responses = 0
    while not data["state"]["finished"]:
        assert data["state"]["seed"] is None
        for value in integers_in(data) - set(range(-5, 0)):  # no number sent deals this table
            assert deals(value) != list(game.initial_layout), value
        again = client.get(f"/api/gold/games/{data['id']}").json()
        assert again["state"]["seed"] is None
        position = data["state"]["legal"][0]
        data = client.post(f"/api/gold/games/{data['id']}/act", json={"action": position}).json()
        responses += 1
    assert responses > 3
    seed = data["state"]["seed"]
    assert isinstance(seed, int) and deals(seed) == list(game.initial_layout)  # at the end it may be known
    record = client.get(f"/api/gold/games/{data['id']}/record").json()
    assert record["seed"] == seed
    again = client.post("/api/gold/games", json={**body, "seed": seed}).json()
    assert session_of(client, again["id"]).game.initial_layout == game.initial_layout


def test_1_a_seed_the_client_gave_is_echoed_from_the_start():
    client = make_client()
    data = client.post("/api/gold/games", json={"opponents": "greedy", "seed": 77}).json()
    assert data["state"]["seed"] == 77
    assert client.get(f"/api/gold/games/{data['id']}").json()["state"]["seed"] == 77


def test_1_server_seeds_are_drawn_from_a_range_too_large_to_try():
    client = make_client()
    seeds = {finish(client, client.post("/api/gold/games", json={"opponents": "random", "table": "quarter"}).json(),
                    seed)["state"]["seed"] for seed in range(6)}
    assert len(seeds) == 6 and max(seeds) > 2**40  # the old server drew them below 10**9


# --- 2. unbounded search ------------------------------------------------------------------------------


@pytest.mark.parametrize("opponents, words", [
    ("ismcts[iterations=100000000]", "iterations=100000000 is over this server's limit of 10000 a move"),
    ("ismcts[iterations=10001,horizon=None]", "iterations=10001 is over"),
    ("ismcts[seconds=60]", "seconds=60 is over this server's time budget of 1 seconds a move"),
    ("ismcts[seconds=None]", "seconds=None is over this server's time budget"),
    ("greedy,ismcts[iterations=1e9]", "iterations=1000000000.0 is over"),
])
def test_2_a_search_beyond_the_limits_is_refused_by_name_before_any_move(opponents, words):
    client = make_client()
    refused(client.post("/api/gold/games", json={"players": 3, "opponents": opponents, "seat": 2}), 400, words)
    refused(client.post("/api/gold/watch", json={"agents": f"{opponents},{opponents}"}), 400, words)
    assert client.app.state.store.live == {}


def test_2_every_search_on_the_server_has_a_time_budget_a_move():
    client = make_client(move_seconds=0.5)
    data = client.post("/api/gold/games", json={"players": 3, "opponents": "ismcts[iterations=50],ismcts[seconds=0.2]",
                                           "table": "quarter"}).json()
    agents = session_of(client, data["id"]).agents
    assert [agents[s].seconds for s in (1, 2)] == [0.5, 0.2]
    assert agents[1].iterations == 50
    assert data["state"]["names"] == ["you", "ismcts[iterations=50]", "ismcts[seconds=0.2]"]


def test_2_the_time_budget_ends_a_move_that_would_search_for_hours():
    """A search of a billion simulations a move, played to its first flips: the budget ends each move."""
    client = make_client(move_seconds=0.05, max_iterations=10**9)
    data = client.post("/api/gold/games", json={"opponents": "ismcts[iterations=1000000000,horizon=None]", "seat": 1,
                                           "seed": 3}).json()
    agent = session_of(client, data["id"]).agents[0]
    for _ in range(3):
        data = client.post(f"/api/gold/games/{data['id']}/act", json={"action": data["state"]["legal"][0]}).json()
    assert 0 < agent.simulations < 10**9


def wait_for(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, process.communicate()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


def test_2_the_server_stops_on_sigterm_while_agents_search():
    """``goldrush serve``, the README's command, as a user runs it: a server on a free port that says where it is
    and answers the page and the API. Then SIGTERM during the heaviest games a request may ask for: the server
    stops as it should (it once needed SIGKILL), saying what it dropped, and passes the signal on (uvicorn's way:
    the exit status says SIGTERM). The minute allowed is for a loaded machine: the shutdown waits a few seconds at
    most."""
    import urllib.request

    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "goldrush_agents.cli", "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(port, process)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            page = response.read().decode()
        assert "<html" in page.lower() and "data-testid" in page
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/gold/agents", timeout=60) as response:
            assert "taught" in json.loads(response.read())["agents"]
        body = json.dumps({"players": 5, "seat": 4, "opponents": "ismcts[iterations=10000,horizon=None]"})

        def heavy():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            try:
                connection.request("POST", "/api/gold/games", body, {"Content-Type": "application/json"})
                connection.getresponse().read()
            except OSError:
                pass  # the server went away, as asked
            finally:
                connection.close()

        threads = [threading.Thread(target=heavy, daemon=True) for _ in range(3)]
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # the searches are under way
        process.send_signal(signal.SIGTERM)
        output, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode in (0, -signal.SIGTERM), errors
    assert f"at http://127.0.0.1:{port}/" in output, (output, errors)
    assert "stopped: " in output and "games in play" in output, (output, errors)
    assert "Traceback" not in errors, errors


# --- 3. the cap is checked after the work -------------------------------------------------------


def test_3_the_cap_is_checked_before_any_agent_moves(monkeypatch):
    moves = []
    search = ISMCTSAgent.act
    monkeypatch.setattr(ISMCTSAgent, "act", lambda self, view: moves.append(1) or search(self, view))
    client = make_client(max_games=1)
    assert client.post("/api/gold/games", json={"opponents": "random"}).status_code == 200
    error = refused(client.post("/api/gold/games", json={"players": 5, "seat": 4, "opponents": "ismcts"}), 503,
                    "1 games in play, its limit")
    assert "when it ends, is deleted, or has no request for 1800 seconds" in error
    assert moves == []


def test_3_a_finished_game_leaves_the_count_and_is_kept_a_while_for_its_record():
    now = [0.0]
    client = make_client(max_games=1, ended_seconds=60, clock=lambda: now[0])
    data = finish(client, client.post("/api/gold/games", json={"opponents": "random", "table": "quarter"}).json())
    store = client.app.state.store
    assert store.live == {} and list(store.ended) == [data["id"]]
    assert session_of(client, data["id"]).env is None  # the environment and the agents are let go
    second = client.post("/api/gold/games", json={"opponents": "random"})
    assert second.status_code == 200  # the finished game no longer holds the only place
    now[0] = 59.0
    assert client.get(f"/api/gold/games/{data['id']}").json()["state"] == data["state"]
    record = client.get(f"/api/gold/games/{data['id']}/record").json()
    assert record["flips"] and record["seed"] == data["state"]["seed"]
    refused(client.post(f"/api/gold/games/{data['id']}/act", json={"action": 0}), 409, "the game is over")
    now[0] = 120.0  # a minute after its last request, past its 60 seconds
    refused(client.get(f"/api/gold/games/{data['id']}"), 404, "a finished one 60 seconds after its end")


def watch_to_the_end(client: TestClient, body: dict) -> str:
    game_id = client.post("/api/gold/watch", json=body).json()["id"]
    while client.post(f"/api/gold/watch/{game_id}/step", json={}).status_code == 200:
        pass
    return game_id


def test_3_at_most_max_games_finished_games_are_kept_the_oldest_dropped_first():
    client = make_client(max_games=2)
    ids = [watch_to_the_end(client, {"agents": "random,random", "table": "quarter"}) for _ in range(3)]
    assert list(client.app.state.store.ended) == ids[1:]
    refused(client.get(f"/api/gold/watch/{ids[0]}"), 404)


def test_3_one_client_may_hold_only_its_share_of_the_games():
    app = create_app(max_games_per_client=2)
    first, second = (TestClient(app, client=(address, 5000)) for address in ("10.0.0.1", "10.0.0.2"))
    for _ in range(2):
        assert first.post("/api/gold/games", json={"opponents": "random"}).status_code == 200
    response = first.post("/api/gold/games", json={"opponents": "random"})
    refused(response, 429, "you have 2 games in play", "DELETE /api/GAME/games/ID")
    assert response.headers["retry-after"] == "60"
    assert second.post("/api/gold/games", json={"opponents": "random"}).status_code == 200  # another client is not held
    game_id = next(iter(app.state.store.live))
    assert first.delete(f"/api/gold/games/{game_id}").status_code == 200
    assert first.post("/api/gold/games", json={"opponents": "random"}).status_code == 200


def test_3_a_refused_game_leaves_nothing_counted():
    client = make_client(max_games=1)
    refused(client.post("/api/gold/games", json={"opponents": "ismcts[speed=3]"}), 400, "unknown option 'speed'")
    store = client.app.state.store
    assert store.live == {} and not store.starting
    assert client.post("/api/gold/games", json={"opponents": "random"}).status_code == 200


def test_a_game_left_between_the_agents_moves_goes_on_at_the_next_flip():
    """A request cut off while the agents moved (a failing agent, a server stopping) leaves the game mid-way: the
    next flip lets the agents finish first (and sends their flips), and never flips for an agent's seat."""
    client = make_client()
    data = client.post("/api/gold/games", json={"players": 3, "opponents": "greedy", "seed": 8}).json()
    session = session_of(client, data["id"])
    game = session.game
    fail_once(session.agents[2])
    for _ in range(2):  # the person's turn: two flips, then the agents move and seat 2 fails
        response = client.post(f"/api/gold/games/{data['id']}/act", json={"action": data["state"]["legal"][0]})
        if response.status_code == 200:
            data = response.json()
    assert response.status_code == 500 and game.current_player == 2
    cards = client.get(f"/api/gold/games/{data['id']}").json()["state"]["cards"]
    position = next(p for p, card in enumerate(cards) if card != "-")  # the seed's agents leave it on the table
    data = client.post(f"/api/gold/games/{data['id']}/act", json={"action": position}).json()
    players = [event["player"] for event in data["events"]]
    assert players[0] == 2 and 0 in players and players.index(0) > players.index(2)
    assert [event.player for event in game.history].count(0) >= 3


def test_4_every_answer_carries_the_security_headers_and_a_seat_s_state_is_not_cached():
    client = make_client()
    page, state = client.get("/gold"), client.post("/api/gold/games", json={"opponents": "greedy"})
    for response in (page, state):
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
    assert state.headers["cache-control"] == "no-store" and "cache-control" not in page.headers


# --- 5. 500s ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/gold/games", "/api/gold/watch", "/api/gold/replay"])
def test_5_deeply_nested_json_is_a_400_not_a_500(path):
    client = make_client()
    for depth in (9, 2_000, 30_000):
        body = b"[" * depth + b"]" * depth
        refused(client.post(path, content=body, headers={"content-type": "application/json"}), 400,
                "nests deeper than 8 levels")
    refused(client.post(path, content=b'{"a": ' * 5000, headers={"content-type": "application/json"}), 400)
    refused(client.post(path, content=b'{"seed": NaN}', headers={"content-type": "application/json"}), 400,
            "NaN is not a JSON value")


# --- 6. agent lists parsed loosely --------------------------------------------------------------------


@pytest.mark.parametrize("path, body, words", [
    ("/api/gold/games", {"players": 3, "opponents": "greedy,ismcts[iterations=5"},
     "the bracket of 'ismcts[iterations=5' is never closed"),
    ("/api/gold/watch", {"agents": "greedy,random,taught[deterministic=False"},
     "the bracket of 'taught[deterministic=False' is never closed"),
    ("/api/gold/games", {"opponents": "ismcts[iterations=5"}, "'ismcts[iterations=5'"),
    ("/api/gold/games", {"opponents": "greedy]"}, "closes no bracket"),
    ("/api/gold/games", {"opponents": ["ismcts[iterations=5"]}, "cannot read agent 'ismcts[iterations=5'"),
    ("/api/gold/games", {"opponents": ["greedy", " "], "players": 3}, "empty name"),
])
def test_6_an_unbalanced_agent_list_is_refused_naming_the_bad_part(path, body, words):
    client = make_client()
    refused(client.post(path, json=body), 400, words)


# --- 7. size limits -------------------------------------------------------------------------------


def test_7_a_body_over_the_limit_is_refused_unread_and_not_echoed():
    client = make_client()
    huge = json.dumps({"opponents": "x" * 20_000_000})
    refused(client.post("/api/gold/games", content=huge, headers={"content-type": "application/json"}), 413,
            "at most 65,536 are read")

    def chunks():  # no Content-Length: the body is cut off as it streams in
        for _ in range(100):
            yield b" " * 10_000

    refused(client.post("/api/gold/replay", content=chunks(), headers={"content-type": "application/json"}), 413,
            "over 65,536 bytes")


@pytest.mark.parametrize("body, words", [
    ({"opponents": "greedy," * 100}, "over the 400 allowed"),
    ({"opponents": ["g" * 1000]}, "1,000 characters long"),
    ({"seed": 10**400}, "seed must be an int from 0 to 9223372036854775807"),
    ({"seed": 2**63}, "got 9223372036854775808"),
    ({"seed": 1.5}, "got 1.5"),
    ({"max_turns": 10**400}, "max_turns must be an int from 1 to 1000"),
    ({"max_turns": 1001}, "got 1001"),
    ({"x" * 5000: 1}, "unknown field 'xxxx"),
    ({"memory": "m" * 5000}, "memory must be one of"),
    ({"opponents": "q" * 300}, "unknown agent 'qqqq"),
])
def test_7_out_of_bounds_values_are_refused_with_a_short_excerpt(body, words):
    client = make_client()
    refused(client.post("/api/gold/games", json=body), 400, words)
    assert client.app.state.store.live == {}


def test_7_the_largest_seed_is_accepted():
    client = make_client()
    data = client.post("/api/gold/games", json={"opponents": "greedy", "seed": MAX_SEED, "table": "quarter"}).json()
    assert data["state"]["seed"] == MAX_SEED


def test_7_long_ids_paths_and_squares_are_quoted_short():
    client = make_client()
    refused(client.get("/api/gold/games/" + "i" * 5000), 404, "no game 'iiii")
    refused(client.get("/api/" + "p" * 5000), 404, "no such page or API route")
    refused(client.get("/api/" + "p" * 5000 + "/agents"), 404, "no game 'pppp")
    refused(client.get("/" + "p" * 5000), 404, "no game 'pppp")
    game_id = client.post("/api/gold/games", json={"opponents": "greedy"}).json()["id"]
    refused(client.post(f"/api/gold/games/{game_id}/act", json={"action": "c" * 5000}), 400, "is not a square")


@pytest.mark.parametrize("change, words", [
    ({"seed": "<img src=x onerror=alert(1)>"}, "the record's seed must be an int"),
    ({"seed": 10**30}, "the record's seed must be an int"),
    ({"players": ["<b>x</b>" * 100, "greedy"]}, "the record's players must be 2 names"),
    ({"players": ["a\u0000b", "greedy"]}, "the record's players must be 2 names"),
    ({"players": ["greedy"]}, "the record's players must be 2 names"),
    ({"events": "strike"}, "the record's events must be a list"),
    ({"max_turns": 10**9}, "the record's max_turns must be an int from 1 to 1000"),
    ({"layout": "G1" * 5000}, "the record's deal cannot be played"),
    ({"num_players": "2"}, "the record's deal cannot be played"),
])
def test_7_a_replayed_record_is_checked_before_it_is_shown(change, words):
    record = finish_record()
    client = make_client()
    assert client.post("/api/gold/replay", json=record).status_code == 200
    refused(client.post("/api/gold/replay", json={**record, **change}), 400, words)


def finish_record() -> dict:
    client = make_client()
    game_id = watch_to_the_end(client, {"agents": "greedy,random", "seed": 4, "table": "quarter"})
    return client.get(f"/api/gold/games/{game_id}/record").json()


# --- 9. small things -----------------------------------------------------------------------------


@pytest.mark.parametrize("body, words", [
    ({"opponents": "greedy,expert"}, "opponents needs one agent for the opponent of a 2-player game, got 2"),
    ({"players": 3, "opponents": "greedy,expert,random"}, "one agent for all 2 opponents of a 3-player game, or 2 "
                                                          "(one per opponent), got 3"),
])
def test_9_the_count_of_opponents_is_told_in_words(body, words):
    refused(make_client().post("/api/gold/games", json=body), 400, words)


# --- any body at all: never a 500 -----------------------------------------------------------------

FIELDS = {"players": st.integers(-3, 8), "opponents": st.sampled_from(["greedy", "random,expert", "ismcts[", "]",
                                                                      "taught[choose=move]", "ismcts[iterations=0]"]),
          "seat": st.integers(-1, 5), "memory": st.sampled_from(["perfect", "real", "?"]),
          "seed": st.integers(-2, 2**64), "table": st.sampled_from(["full", "half", "quarter", "x"]),
          "max_turns": st.integers(-1, 2000)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON | st.fixed_dictionaries({}, optional={**FIELDS, "agents": FIELDS["opponents"]}) | JSON)
def test_any_json_body_is_answered_without_a_500(body):
    client = FUZZED
    for path in ("/api/gold/games", "/api/gold/watch", "/api/gold/replay"):
        # as text: httpx sends no body at all for json=None, where this test means the JSON null
        response = client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
        assert response.status_code in (200, 400, 409, 413, 429, 503), (path, body, response.text)
        assert response.status_code == 200 or len(response.content) < 2 * SHORT
    store = client.app.state.store
    for game_id in list(store.live):
        client.delete(f"/api/gold/games/{game_id}")


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["format", "num_players", "first_player", "max_turns", "rush_at", "layout", "flips",
                            "start", "players", "seed", "events", "config"]), value=JSON)
def test_any_change_to_a_record_is_answered_without_a_500(key, value):
    response = FUZZED.post("/api/gold/replay", json={**RECORD, key: value})
    assert response.status_code in (200, 400), (key, value, response.text)


FUZZED = make_client()
RECORD = finish_record()


# --- the load test ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server():
    """The app under uvicorn on a free local port (in a thread of this process, so that tests see its store)."""
    app = create_app(max_games=40, max_games_per_client=40)
    with served(app) as port:
        yield app, port


class Http:
    """A keep-alive connection to the server, JSON in and out."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def __call__(self, method: str, path: str, body=None, raw: bytes | None = None) -> tuple[int, dict]:
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        self.connection.request(method, path, data, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")


def test_5_a_bad_body_leaves_the_connection_usable(server):
    app, port = server
    call = Http(port)
    status, answer = call("POST", "/api/gold/replay", raw=b"[" * 5000 + b"]" * 5000)
    assert status == 400 and "nests deeper" in answer["error"]
    status, answer = call("GET", "/api/gold/agents")  # the same connection, not reset
    assert status == 200 and "ismcts" in answer["agents"]


HOSTILE = [
    ("POST", "/api/gold/games", None, b"[" * 3000 + b"]" * 3000, 400),
    ("POST", "/api/gold/games", {"opponents": "greedy,ismcts[iterations=5", "players": 3}, None, 400),
    ("POST", "/api/gold/games", {"opponents": "ismcts[iterations=100000000]"}, None, 400),
    ("POST", "/api/gold/games", {"seed": 10**400}, None, 400),
    ("POST", "/api/gold/games", None, json.dumps({"opponents": "x" * 200_000}).encode(), 413),
    ("POST", "/api/gold/replay", {"format": "goldrush-game/1", "flips": [], "seed": "<script>"}, None, 400),
    ("GET", "/api/gold/games/nope", None, None, 404),
    ("GET", "/api/gold/games/nope/record", None, None, 404),
]


def test_concurrent_games_stay_correct_while_hostile_requests_are_refused(server):
    """Twelve whole games at once over real connections, every response checked against what the seat may know,
    while another client sends the requests of issue 34 over and over."""
    app, port = server
    failures: list[str] = []
    finished: list[int] = []
    bodies = [{"opponents": "greedy", "table": "quarter"}, {"opponents": "ismcts[iterations=30]", "table": "quarter"},
              {"players": 3, "opponents": "random,expert", "seat": 1, "memory": "real", "table": "quarter"},
              {"opponents": "taught", "table": "half"}] * 3
    done = threading.Event()

    def player(index: int) -> None:
        try:
            call, rng = Http(port), np.random.default_rng(index)
            status, data = call("POST", "/api/gold/games", bodies[index])
            assert status == 200, data
            session = app.state.store.live[data["id"]]
            game, seat, memory = session.game, session.seat, session.person["memory"]
            check_private(data, game, seat, memory)
            while not data["state"]["finished"]:
                position = int(rng.choice(data["state"]["legal"]))
                status, data = call("POST", f"/api/gold/games/{data['id']}/act", {"action": square_name(position)})
                assert status == 200, data
                check_private(data, game, seat, memory)
            assert data["state"]["winners"] == list(game.winners)
            finished.append(index)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(f"game {index}: {error!r}")

    def hostile() -> None:
        call = Http(port)
        while not done.is_set():
            for method, path, body, raw, status in HOSTILE:
                got, answer = call(method, path, body, raw)
                if got != status or "error" not in answer:
                    failures.append(f"{method} {path}: {got} {answer}")
                if status == 413:
                    call = Http(port)  # the server closes a connection whose body it would not read

    threads = [threading.Thread(target=player, args=(i,)) for i in range(len(bodies))]
    attacker = threading.Thread(target=hostile)
    attacker.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    done.set()
    attacker.join(60)
    assert failures == []
    assert sorted(finished) == list(range(len(bodies)))


def test_memory_stays_bounded_past_the_cap():
    """The server full, then hundreds more games asked for and finished ones beyond what is kept: the games held
    stay within the caps, and what the requests leave allocated stays small."""
    client = make_client(max_games=10, ended_seconds=3600)
    for _ in range(10):
        assert client.post("/api/gold/games", json={"opponents": "taught"}).status_code == 200
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(300):
            refused(client.post("/api/gold/games", json={"opponents": "taught"}), 503)
        refused_bytes = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))
    finally:
        tracemalloc.stop()
    assert refused_bytes < 1_000_000, refused_bytes
    for game_id in list(client.app.state.store.live)[:5]:
        client.delete(f"/api/gold/games/{game_id}")
    for _ in range(30):  # watched games to their end (the turn limit's, at once): only the newest 10 are kept
        watch_to_the_end(client, {"agents": "random,random", "table": "quarter", "max_turns": 1})
    store = client.app.state.store
    assert len(store.live) == 5 and len(store.ended) == 10


def test_serve_passes_its_limits_to_the_app(monkeypatch):
    import goldrush_agents.web

    ran = {}
    monkeypatch.setattr(goldrush_agents.web, "serve", lambda app, host, port, out: ran.update(app=app))
    args = cli.build_parser().parse_args(["serve", "--max-games", "7", "--max-games-per-client", "3",
                                          "--move-seconds", "0.5"])
    assert args.run(args, out=io.StringIO()) == 0
    assert ran["app"].state.limits == Limits(max_games=7, max_games_per_client=3, move_seconds=0.5)
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["serve", "--move-seconds", "0"])

