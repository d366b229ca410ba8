"""Gold's JSON API on ``goldrush serve`` (``/api/gold/...``, goldrush_agents.gold.web), driven with Starlette's
TestClient. tests/test_web_games.py checks what every game's API shares.

The privacy checks do not trust the server's own filtering: what a seat may know is worked out here from
the public history of flips (every flip is public, D9), and every card anywhere in a response is checked
against it.
"""

from __future__ import annotations

import io
import json
import threading

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # what Starlette's TestClient asks for (it warns with httpx)

from starlette.testclient import TestClient  # noqa: E402

from goldrush_env.gold.cards import EMPTY, card_code  # noqa: E402
from goldrush_env.gold.engine import Game, Outcome  # noqa: E402
from goldrush_env.errors import GoldrushEnvError  # noqa: E402
from conftest import flippable, session_of  # noqa: E402
from goldrush_env.gold.render import square_name  # noqa: E402

from goldrush_agents import cli, make_agent  # noqa: E402
from goldrush_agents.arena import play_game  # noqa: E402
from goldrush_agents.web import Limits, create_app  # noqa: E402


def make_client(**options) -> TestClient:
    return TestClient(create_app(**options))


PLAY_STATE_KEYS = {
    "id", "mode", "game", "seed", "table", "max_turns", "num_players", "names", "owners", "scores", "gold_cards",
    "current_player", "face_up", "turn", "cards_left", "gold_rush", "rush_at", "finished", "over", "truncated",
    "winners", "seat", "memory", "cards", "legal", "your_turn", "events", "rows",
}


def may_know(game: Game, seat: int, memory: str) -> list[str]:
    """Per position, the card code the seat may see ("?" if it may not, "-" if empty), from the public history
    alone: perfect memory keeps every card flipped and still on the table; real memory keeps those flipped
    since the seat's last completed turn began, and the face-up card."""
    history = game.history
    window = history
    if memory == "real":
        ended = [e.turn for e in history if e.player == seat and e.outcome is not Outcome.FIRST]
        if ended:
            window = [e for e in history if e.turn >= ended[-1]]
    seen = {e.position for e in window}
    if game.face_up is not None:
        seen.add(game.face_up)
    return ["-" if card == EMPTY else card_code(card) if p in seen else "?" for p, card in enumerate(game.table)]


def keys_in(data) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(keys_in(value) for value in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_in(value) for value in data))
    return set()


def flips_in(data) -> list[dict]:
    """Every object in a response that names a position and a card: the events."""
    found = []
    if isinstance(data, dict):
        if "position" in data and "card" in data:
            found.append(data)
        for value in data.values():
            found += flips_in(value)
    elif isinstance(data, list):
        for value in data:
            found += flips_in(value)
    return found


def check_private(response: dict, game: Game, seat: int, memory: str) -> None:
    """The response tells the seat nothing it may not know."""
    allowed = may_know(game, seat, memory)
    state = response["state"]
    assert state["cards"] == allowed
    assert set(state) == PLAY_STATE_KEYS  # no other field can carry anything
    assert not keys_in(response) & {"layout", "flips", "table_cards", "memories", "known", "hidden", "initial"}
    for event in flips_in(response):
        position = event["position"]
        # a card flipped is public; a flip shown of a card still lying face down must be one the seat knows
        assert allowed[position] in ("-", event["card"]), (event, allowed[position])
    hidden = [p for p, code in enumerate(allowed) if code == "?"]
    shown = {e["position"] for e in flips_in(response)}
    assert not shown & set(hidden)
    assert state["scores"] == list(game.scores) and state["gold_cards"] == list(game.gold_cards)
    assert state["cards_left"] == game.cards_left and state["gold_rush"] == game.gold_rush
    if state["your_turn"]:
        assert state["legal"] == flippable(game)
    else:
        assert state["legal"] == [] and game.is_finished


def play_through(client: TestClient, body: dict, rng: np.random.Generator) -> tuple[str, dict]:
    """A whole game through the API, the person flipping at random (by position or square name), every
    response checked."""
    created = client.post("/api/gold/games", json=body)
    assert created.status_code == 200, created.text
    data = created.json()
    game_id, seat, memory = data["id"], body.get("seat", 0), body.get("memory", "perfect")
    game = session_of(client, game_id).game
    check_private(data, game, seat, memory)
    state = data["state"]
    while not state["finished"]:
        position = int(rng.choice(state["legal"]))
        sent = square_name(position) if rng.random() < 0.5 else position
        response = client.post(f"/api/gold/games/{game_id}/act", json={"action": sent})
        assert response.status_code == 200, response.text
        data = response.json()
        check_private(data, game, seat, memory)
        assert data["events"][0]["position"] == position and data["events"][0]["player"] == seat
        assert all(e["player"] != seat for e in data["events"][1:])
        state = data["state"]
        again = client.get(f"/api/gold/games/{game_id}").json()
        check_private(again, game, seat, memory)
        assert again["state"] == state
    assert state["winners"] == list(game.winners) and state["current_player"] is None
    return game_id, state


@pytest.mark.parametrize("body", [
    {"players": 2, "opponents": "random", "memory": "perfect"},
    {"players": 3, "opponents": "greedy", "memory": "real", "seat": 1},
    {"players": 2, "opponents": "expert", "memory": "real", "seat": 1, "table": "half"},
    {"players": 2, "opponents": "taught", "memory": "perfect", "table": "half"},
    {"players": 2, "opponents": ["ismcts[iterations=50]"], "memory": "real", "table": "quarter"},
    {"players": 4, "opponents": "greedy,random,expert", "seat": 3, "table": "half"},
    {"players": 3, "opponents": "selfplay,selfplay[depth=0]", "memory": "perfect", "seat": 2},
], ids=["random", "greedy-3p-real", "expert-real", "taught", "ismcts", "mixed-4p", "selfplay-3p"])
def test_a_whole_game_shows_the_person_only_what_its_seat_may_know(body):
    client = make_client()
    game_id, state = play_through(client, {**body, "seed": 5}, np.random.default_rng(1))
    record = client.get(f"/api/gold/games/{game_id}/record").json()
    assert Game.from_record(record).scores == tuple(state["scores"])
    assert record["players"][body.get("seat", 0)] == "you" and record["seed"] == 5
    replayed = client.post("/api/gold/replay", json=record)
    assert replayed.status_code == 200, replayed.text
    frames = replayed.json()["frames"]
    assert len(frames) == len(record["flips"]) + 1
    assert frames[-1]["scores"] == state["scores"] and frames[-1]["winners"] == state["winners"]


def test_real_memory_forgets_what_was_flipped_before_the_last_turn():
    client = make_client()
    data = client.post("/api/gold/games", json={"opponents": "random", "memory": "real", "seed": 3}).json()
    game_id, game = data["id"], session_of(client, data["id"]).game
    for _ in range(6):
        legal = data["state"]["legal"]
        data = client.post(f"/api/gold/games/{game_id}/act", json={"action": legal[len(legal) // 2]}).json()
    perfect = may_know(game, 0, "perfect")
    real = data["state"]["cards"]
    assert real == may_know(game, 0, "real")
    assert sum(c not in "?-" for c in real) < sum(c not in "?-" for c in perfect)
    assert data["state"]["events"][0]["index"] > 0  # the older flips are not sent again


def test_the_same_seed_deals_the_same_game_and_agents_play_it_the_same():
    client = make_client()
    body = {"players": 3, "opponents": "expert", "seat": 2, "seed": 11, "table": "half"}
    first, second = (client.post("/api/gold/games", json=body).json() for _ in range(2))
    ids = first["id"], second["id"]
    assert ids[0] != ids[1]
    assert first["events"] == second["events"] and first["state"]["cards"] == second["state"]["cards"]
    for _ in range(5):
        position = first["state"]["legal"][0]
        first = client.post(f"/api/gold/games/{ids[0]}/act", json={"action": position}).json()
        second = client.post(f"/api/gold/games/{ids[1]}/act", json={"action": position}).json()
        assert first["events"] == second["events"]
        assert {**first["state"], "id": None} == {**second["state"], "id": None}
    other = client.post("/api/gold/games", json={**body, "seed": 12}).json()["id"]
    tables = [session_of(client, game_id).game.initial_layout for game_id in (ids[0], other)]
    assert tables[0] != tables[1]


def test_bad_flips_are_refused_with_a_message_and_change_nothing():
    client = make_client()
    data = client.post("/api/gold/games", json={"opponents": "greedy", "seed": 1, "table": "quarter"}).json()
    game_id = data["id"]
    first = client.post(f"/api/gold/games/{game_id}/act", json={"action": "a1"}).json()
    before = client.get(f"/api/gold/games/{game_id}").json()
    empty = next(p for p, code in enumerate(before["state"]["cards"]) if code == "-")
    cases = [
        ({"action": "a1"}, 409, "a1 is already face up"),
        ({"action": empty}, 409, f"{square_name(empty)} is empty"),
        ({"action": "z9"}, 400, "action 'z9' is not a square"),
        ({"action": 64}, 400, "action must be an int from 0 to 63, got 64"),
        ({"action": -1}, 400, "got -1"),
        ({"action": True}, 400, "got True"),
        ({"action": 2.0}, 400, "got 2.0"),
        ({}, 400, "action is missing"),
        ({"position": 3}, 400, "unknown field 'position'"),  # the field of the old /flip route
        ({"action": 3, "extra": 1}, 400, "unknown field 'extra'"),
        ([3], 400, "must be a JSON object"),
    ]
    for body, status, words in cases:
        response = client.post(f"/api/gold/games/{game_id}/act", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["error"], (body, response.json())
    response = client.post(f"/api/gold/games/{game_id}/act", content=b'{"action": ',
                           headers={"content-type": "application/json"})
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]
    assert client.get(f"/api/gold/games/{game_id}").json() == before
    assert first["state"]["face_up"] == 0 == before["state"]["face_up"]


def test_unknown_and_stale_games_are_404():
    client = make_client()
    for method, path in [("get", "/api/gold/games/nope"), ("post", "/api/gold/games/nope/act"),
                         ("delete", "/api/gold/games/nope"), ("post", "/api/gold/watch/nope/step"),
                         ("get", "/api/gold/watch/nope"), ("get", "/api/gold/games/nope/record")]:
        response = getattr(client, method)(path, **({"json": {"action": 0}} if path.endswith("act") else
                                                     {"json": {}} if method == "post" else {}))
        assert response.status_code == 404 and "no " in response.json()["error"], (path, response.text)
    data = client.post("/api/gold/games", json={"opponents": "random", "seed": 2}).json()
    assert client.delete(f"/api/gold/games/{data['id']}").json() == {"deleted": data["id"]}
    stale = client.post(f"/api/gold/games/{data['id']}/act", json={"action": 0})
    assert stale.status_code == 404 and data["id"] in stale.json()["error"]
    assert client.get("/api/nowhere").status_code == 404
    assert client.put("/api/gold/games").status_code == 405 and "PUT" in client.put("/api/gold/games").json()["error"]


@pytest.mark.parametrize("body, words", [
    ({"players": 6}, "players must be an int from 2 to 5, got 6"),
    ({"players": 1}, "got 1"),
    ({"players": "2"}, "got '2'"),
    ({"opponents": "grandmaster"}, "unknown agent 'grandmaster'"),
    ({"opponents": "os:system"}, "unknown agent 'os:system'"),
    ({"opponents": "/etc/passwd.npz"}, "unknown agent"),
    ({"opponents": "optimal"}, "unknown agent 'optimal'"),  # it would solve its table: minutes and gigabytes
    ({"opponents": "selfplay[path='/etc/passwd']"}, "may give selfplay the options ['depth'] only, got ['path']"),
    ({"players": 5, "opponents": "selfplay[depth=2]"}, "this server plays selfplay at depth 0 or 1, got 2"),
    ({"opponents": "ismcts[speed=9]"}, "unknown option 'speed'"),
    ({"opponents": "taught[path='/etc/passwd.npz']"}, "unknown option 'path'"),  # no file through an option either
    ({"opponents": 3}, "opponents must be a string"),
    ({"players": 4, "opponents": "greedy,expert"}, "or 3 (one per opponent), got 2"),
    ({"seat": 2}, "seat must be an int from 0 to 1, got 2"),
    ({"memory": "human"}, "memory must be one of ['perfect', 'real'], got 'human'"),
    ({"seed": -4}, "seed must be an int from 0 to 9223372036854775807, got -4"),
    ({"table": "huge"}, "table must be one of ['full', 'half', 'quarter']"),
    ({"max_turns": 0}, "max_turns must be an int from 1 to 1000, got 0"),
    ({"colour": "red"}, "unknown field 'colour'"),
])
def test_a_bad_new_game_is_refused_by_name(body, words):
    client = make_client()
    response = client.post("/api/gold/games", json=body)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]
    assert client.app.state.store.live == {}


def test_two_games_at_once_are_independent():
    client = make_client()
    bodies = [{"opponents": "greedy", "seed": 21, "table": "half"},
              {"opponents": "expert", "seed": 22, "table": "half"}]
    alone = [play_through(client, body, np.random.default_rng(7))[1] for body in bodies]
    results = [None, None]

    def play(index):
        results[index] = play_through(client, bodies[index], np.random.default_rng(7))[1]

    threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for together, by_itself in zip(results, alone):
        assert {**together, "id": None} == {**by_itself, "id": None}


def test_a_flip_in_one_game_leaves_another_unchanged():
    client = make_client()
    a, b = (client.post("/api/gold/games", json={"opponents": "greedy", "seed": 4}).json() for _ in range(2))
    client.post(f"/api/gold/games/{a['id']}/act", json={"action": "c4"})
    assert client.get(f"/api/gold/games/{b['id']}").json() == {"id": b["id"], "state": b["state"]}


def test_an_idle_game_is_dropped():
    now = [0.0]
    client = make_client(idle_seconds=10, clock=lambda: now[0])
    game_id = client.post("/api/gold/games", json={"opponents": "random", "seed": 1}).json()["id"]
    now[0] = 9.0
    assert client.get(f"/api/gold/games/{game_id}").status_code == 200  # a request keeps it alive
    now[0] = 18.0
    assert client.post(f"/api/gold/games/{game_id}/act", json={"action": 0}).status_code == 200
    now[0] = 28.5
    response = client.get(f"/api/gold/games/{game_id}")
    assert response.status_code == 404
    assert "a game in play after 10 seconds without a request" in response.json()["error"]
    assert client.app.state.store.live == {}
    assert Limits().idle_seconds == 1800


def test_the_server_refuses_new_games_beyond_its_limit():
    client = make_client(max_games=2)
    for _ in range(2):
        assert client.post("/api/gold/games", json={"opponents": "random"}).status_code == 200
    response = client.post("/api/gold/games", json={"opponents": "random"})
    assert response.status_code == 503 and "2 games" in response.json()["error"]


def test_the_record_of_a_game_in_play_is_refused():
    client = make_client()
    game_id = client.post("/api/gold/games", json={"opponents": "random", "seed": 1}).json()["id"]
    response = client.get(f"/api/gold/games/{game_id}/record")
    assert response.status_code == 409 and "once it has ended" in response.json()["error"]


@pytest.mark.parametrize("table, rows", [("full", 8), ("half", 4), ("quarter", 2)])
def test_a_state_says_how_many_rows_of_the_grid_its_table_covers(table, rows):
    client = make_client()
    played = client.post("/api/gold/games", json={"opponents": "random", "seed": 3, "table": table}).json()
    watched = client.post("/api/gold/watch", json={"agents": "random,random", "seed": 3, "table": table}).json()
    assert played["state"]["rows"] == watched["state"]["rows"] == rows
    game_id = watched["id"]
    while not client.get(f"/api/gold/watch/{game_id}").json()["state"]["finished"]:
        client.post(f"/api/gold/watch/{game_id}/step", json={})
    replayed = client.post("/api/gold/replay", json=client.get(f"/api/gold/games/{game_id}/record").json()).json()
    assert {frame["rows"] for frame in replayed["frames"]} == {rows}  # the deal's rows, however many cards have left


def test_the_record_of_a_watched_game_in_play_is_refused_until_it_ends():
    client = make_client()
    watch_id = client.post("/api/gold/watch", json={"agents": "greedy,random", "seed": 1, "table": "quarter"}).json()["id"]
    state = client.post(f"/api/gold/watch/{watch_id}/step", json={}).json()["state"]
    while True:
        response = client.get(f"/api/gold/games/{watch_id}/record")
        if state["finished"]:
            break
        assert response.status_code == 409 and "once it has ended" in response.json()["error"], response.text
        state = client.post(f"/api/gold/watch/{watch_id}/step", json={}).json()["state"]
    assert response.status_code == 200 and len(response.json()["flips"]) == len(state["events"])


def test_watch_a_game_flip_by_flip_to_the_end():
    client = make_client()
    data = client.post("/api/gold/watch", json={"agents": "greedy,expert", "seed": 9, "table": "half"}).json()
    watch_id, state = data["id"], data["state"]
    game = session_of(client, watch_id).game
    assert state["mode"] == "watch" and state["cards"] == [card_code(c) for c in game.table]
    assert client.post(f"/api/gold/games/{watch_id}/act", json={"action": 0}).status_code == 404  # not a played game
    steps = 0
    while not state["finished"]:
        data = client.post(f"/api/gold/watch/{watch_id}/step", json={}).json()
        assert len(data["events"]) == 1 and data["events"][0]["index"] == steps
        state, steps = data["state"], steps + 1
    assert steps == len(game.history) and state["winners"] == list(game.winners)
    over = client.post(f"/api/gold/watch/{watch_id}/step", json={})
    assert over.status_code == 409 and "over" in over.json()["error"]
    record = client.get(f"/api/gold/games/{watch_id}/record").json()
    assert record["players"] == ["greedy", "expert"]
    assert client.get(f"/api/gold/watch/{watch_id}").json()["state"]["scores"] == list(game.scores)
    # the same seed, the same game as goldrush watch plays it
    played = play_game([make_agent("greedy"), make_agent("expert")], 9, names=["greedy", "expert"], table="half")
    assert record["flips"] == played.record["flips"] and record["layout"] == played.record["layout"]


@pytest.mark.parametrize("body, words", [
    ({}, "agents is missing"),
    ({"agents": "greedy"}, "needs 2 to 5 agents"),
    ({"agents": ["greedy"] * 6}, "lists 6 agents: a table of Gold has at most 5 seats"),
    ({"agents": "greedy,chess"}, "unknown agent 'chess'"),
    ({"agents": "greedy,,expert"}, "empty name"),
])
def test_a_bad_watch_is_refused(body, words):
    response = make_client().post("/api/gold/watch", json=body)
    assert response.status_code == 400 and words in response.json()["error"], response.text


def test_replay_steps_through_a_saved_record_and_checks_it(tmp_path):
    path = tmp_path / "game.json"
    assert cli.main(["watch", "--agents", "greedy,random,expert", "--seed", "4", "--save", str(path)]) == 0
    record = json.loads(path.read_text())
    client = make_client()
    data = client.post("/api/gold/replay", json=record).json()
    game = Game.from_record(record)
    assert data["names"] == ["greedy", "random", "expert"]
    assert len(data["frames"]) == len(record["flips"]) + 1 == len(data["events"]) + 1
    assert data["frames"][-1]["scores"] == list(game.scores)
    assert [e["label"] for e in data["events"]] == record["events"]
    assert data["frames"][0]["cards"] == record["layout"]
    tampered = dict(record, events=["dynamite"] + record["events"][1:])
    refused = client.post("/api/gold/replay", json=tampered)
    assert refused.status_code == 400 and "flip #0 replays as 'first'" in refused.json()["error"]
    for bad, words in [({"format": "piecepack"}, "not a record of a game of Gold"), ([1], "a record is a JSON object"),
                       (dict(record, flips=[0, 0]), "flip #1"), (dict(record, flips="0"), "flips must be a list")]:
        response = client.post("/api/gold/replay", json=bad)
        assert response.status_code == 400 and words in response.json()["error"], response.text


def test_the_page_is_served_and_fetches_nothing_from_elsewhere():
    client = make_client()
    page = client.get("/gold")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for testid in ("board", "play-setup", "tab-watch", "tab-replay", "end-screen", "speed", "square-input"):
        assert f'data-testid="{testid}"' in page.text
    assert "http://" not in page.text and "https://" not in page.text and "//cdn" not in page.text
    assert '<script src="/static/gold/gold.js">' in page.text and client.get("/static/gold/gold.js").status_code == 200
    index = client.get("/")  # the index of the games, which links to this page
    assert index.status_code == 200 and 'data-testid="games"' in index.text
    assert {"game": "gold", "title": "Gold", "page": "/gold", "players": "2 to 5"} in client.get("/api/games").json()["games"]
    assert client.get("/api/gold/agents").json()["agents"] == [
        "random", "greedy", "expert", "ismcts", "selfplay", "taught", "scratch"]


def test_serve_runs_the_app_on_the_host_and_port(monkeypatch):
    import goldrush_agents.web

    ran = {}
    monkeypatch.setattr(goldrush_agents.web, "serve",
                        lambda app, host, port, out: ran.update(app=app, host=host, port=port))
    args = cli.build_parser().parse_args(["serve", "--port", "8123", "--host", "0.0.0.0"])
    out = io.StringIO()
    assert args.run(args, out=out) == 0
    assert ran["host"] == "0.0.0.0" and ran["port"] == 8123 and callable(ran["app"])
    assert "http://0.0.0.0:8123/" in out.getvalue()


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)
    assert cli.main(["serve"]) == 2
    error = capsys.readouterr().err.strip()
    assert 'pip install -e ".[web]"' in error and len(error.splitlines()) == 1
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert "--port must be an int from 0 to 65535, got 70000" in capsys.readouterr().err


def test_an_agent_that_fails_gives_a_json_error_that_tells_nothing(monkeypatch):
    """A failure's message may hold what the server knows and the client must not: it stays in the server's log."""
    from goldrush_agents.gold.greedy import GreedyAgent

    def broken(self, view):
        raise RuntimeError(f"a bug in the agent, holding {view.cards}")

    monkeypatch.setattr(GreedyAgent, "act", broken)
    client = TestClient(create_app(), raise_server_exceptions=False)
    response = client.post("/api/gold/games", json={"opponents": "greedy", "seat": 1})
    assert response.status_code == 500
    assert response.json() == {"error": "the server failed on this request: its log has the details"}


def test_goldrush_serve_refuses_a_bad_port(capsys):
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert "--port must be an int from 0 to 65535, got 70000" in capsys.readouterr().err


def test_a_model_file_plays_only_when_the_server_offers_it(tmp_path):
    import shutil
    from pathlib import Path

    import goldrush_agents.piecepack
    from goldrush_agents.gold.trained import SHIPPED_MODEL

    model = str(tmp_path / "mine.npz")
    shutil.copyfile(SHIPPED_MODEL, model)
    refused = make_client().post("/api/gold/games", json={"opponents": model, "seed": 1})
    assert refused.status_code == 400 and "unknown agent" in refused.json()["error"]
    client = make_client(models=[model])
    assert model in client.get("/api/gold/agents").json()["agents"]
    game = client.post("/api/gold/games", json={"opponents": model, "seed": 1, "seat": 1}).json()
    assert game["state"]["names"] == [model, "you"] and game["events"]  # the model, seat 0, flipped first
    other = str(tmp_path / "other.npz")
    shutil.copyfile(SHIPPED_MODEL, other)  # a file the server does not offer stays refused
    assert client.post("/api/gold/games", json={"opponents": other}).status_code == 400
    # each file is offered to the games whose trained player reads it, and only to them
    piecepack = str(tmp_path / "gold-rush.npz")
    shutil.copyfile(Path(goldrush_agents.piecepack.__file__).with_name("models") / "piecepack_3p.npz", piecepack)
    both = make_client(models=[model, piecepack])
    offered = {game: both.get(f"/api/{game}/agents").json()["agents"] for game in both.app.state.games}
    assert [game for game, agents in offered.items() if model in agents] == ["gold"]
    assert [game for game, agents in offered.items() if piecepack in agents] == ["piecepack"]
    refused = both.post("/api/piecepack/games", json={"opponents": model})
    assert refused.status_code == 400 and "unknown agent" in refused.json()["error"]
    with pytest.raises(GoldrushEnvError, match="no model file at"):
        create_app(models=[str(tmp_path / "missing.npz")])
    with pytest.raises(GoldrushEnvError, match=r"no game can play the model 'greedy' \(model files: .npz, .zip\)"):
        create_app(models=["greedy"])
    assert cli.main(["serve", "--model", str(tmp_path / "missing.npz")]) == 2


def test_a_tournament_record_replays_in_the_replay_tab(tmp_path):
    from goldrush_agents.tournament import run_tournament

    result = run_tournament(["greedy", "random"], num_players=3, games=1, seed=5, workers=1)
    result.save(tmp_path, records=True)
    record = json.loads((tmp_path / "games" / "game-00001.json").read_text())
    replayed = make_client().post("/api/gold/replay", json=record)
    assert replayed.status_code == 200, replayed.text
    frames = replayed.json()["frames"]
    assert len(frames) == len(record["flips"]) + 1 and frames[-1]["scores"] == list(result.results[0].scores)
    assert replayed.json()["names"] == list(result.results[0].names)


def test_the_event_log_says_what_each_flip_did_in_words():
    """Every outcome's line, with its gains, as the page prints it: the person is "you" and takes no "s"."""
    from conftest import BACKGROUND, layout_of

    from goldrush_agents.gold.web import events_json

    cards = {0: "M04", 1: "G3", 2: "M22", 3: "M13", 4: "G2", 5: "D", 6: "G1", 7: "G4", 8: "M12", 9: "G1",
             10: "M43", 11: "G2", 12: "M32", **BACKGROUND}
    game = Game(2, layout_of(cards))
    for position in (0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 8, 9, 52, 62, 53, 63, 12, 6, 3, 7, 54):
        game.step(position)
    events = events_json(game, ["you", "greedy"])
    at = square_name
    lines = {event["index"]: (event["text"], event["receiver"], event["gained"]) for event in events}
    assert lines == {
        0: (f"you flip a red miner 4 at {at(0)}", None, 0),
        1: (f"you flip gold 3 at {at(1)}: strike! you gain 3 gold", 0, 3),
        2: (f"greedy flips a purple miner 2 at {at(2)}", None, 0),
        3: (f"greedy flips a blue miner 3 at {at(3)}: duel, the weaker miner (a purple miner 2) leaves the game",
            None, 0),
        4: (f"you flip gold 2 at {at(4)}", None, 0),
        5: (f"you flip dynamite at {at(5)}: dynamite! both cards leave the game", None, 0),
        6: (f"greedy flips gold 1 at {at(6)}", None, 0),
        7: (f"greedy flips gold 4 at {at(7)}: nothing happens, both cards go back face down", None, 0),
        8: (f"you flip a grey miner 3 at {at(10)}", None, 0),
        9: (f"you flip gold 2 at {at(11)}: strike! you gain 2 gold", 0, 2),  # an unowned miner pays the flipper
        10: (f"greedy flips a blue miner 2 at {at(8)}", None, 0),
        11: (f"greedy flips gold 1 at {at(9)}: strike! you gain 1 gold", 0, 1),  # your miner pays you
        12: (f"you flip gold 1 at {at(52)}", None, 0),
        13: (f"you flip dynamite at {at(62)}: dynamite! both cards leave the game", None, 0),
        14: (f"greedy flips gold 1 at {at(53)}", None, 0),
        15: (f"greedy flips dynamite at {at(63)}: dynamite! both cards leave the game", None, 0),
        16: (f"you flip an orange miner 2 at {at(12)}", None, 0),
        17: (f"you flip gold 1 at {at(6)}: strike! greedy gains 1 gold. The Gold Rush begins!", 1, 1),
        18: (f"greedy flips a blue miner 3 at {at(3)}: it leaves the game", None, 0),
        19: (f"you flip gold 4 at {at(7)}: you take 4 gold", 0, 4),
        20: (f"greedy flips gold 2 at {at(54)}: greedy takes 2 gold", 1, 2),
    }
    assert [(e["name"], e["player"], e["position"], e["card"], e["label"]) for e in events[:2]] == [
        ("you", 0, 0, "M04", "first"), ("you", 0, 1, "G3", "strike:0")]
    assert events[17]["rush_begins"] and not any(e["rush_begins"] for e in events[:17])
    assert events_json(game, ["you", "greedy"], start=19) == events[19:]
