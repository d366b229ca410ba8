"""Gold Rush's JSON API on ``goldrush serve`` (``/api/piecepack/...``): whole games through it, what a seat is
told (its knowledge and nothing else, by non-interference), the refusals, and the replay of records."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from goldrush_agents.arena import play_game  # noqa: E402
from goldrush_agents import make_agent  # noqa: E402
from goldrush_agents.web import create_app  # noqa: E402
from goldrush_agents.piecepack.web import MAX_ACTIONS, knowledge_json  # noqa: E402
from goldrush_env.piecepack.components import NUM_PIECES, NUM_PLOTS  # noqa: E402
from goldrush_env.piecepack.engine import Game  # noqa: E402
from goldrush_env.piecepack.words import action_words, event_words  # noqa: E402


@pytest.fixture
def app():
    return create_app()


@pytest.fixture
def client(app):
    return TestClient(app)


def live_game(app, game_id):
    return app.state.store.live[game_id].env.game


def hidden_from(game, seat):
    """The face-down tiles ``seat`` has not assayed."""
    return [p for p in range(NUM_PLOTS) if not game.face_up[p] and not game.assayed[p] >> seat & 1]


def test_a_whole_game_tells_the_seat_its_knowledge_and_nothing_the_other_pieces_would_change(app, client):
    """At every turn of the person, the state is the seat's ``known_to`` and the public standing, its choices and log
    in the rule sheet's words; swapping two face-down tiles the seat has not seen (only the server would know)
    leaves every byte of it the same, the words included."""
    seat = 2
    data = client.post("/api/piecepack/games", json={"players": 4, "opponents": "economist,random,taught",
                                                     "seat": seat}).json()
    game_id, swaps = data["id"], 0
    while True:
        state = data["state"]
        if state["over"]:
            break
        game = live_game(app, game_id)
        assert state["seed"] is None  # a seed the server chose deals the pieces: not before the end
        assert state["knowledge"] == json.loads(json.dumps(knowledge_json(game.known_to(seat))))
        assert state["your_turn"] and [c["action"] for c in state["legal"]] == game.legal_actions()
        known = game.known_to(seat)
        assert [c["text"] for c in state["legal"]] == [action_words(a, known) for a in game.legal_actions()]
        names = ["economist", "random", "you", "taught"]
        assert [e["text"] for e in state["events"]] == [event_words(e, names) for e in game.events]
        hidden = hidden_from(game, seat)
        others = [p for p in hidden[1:] if game._tiles[p] != game._tiles[hidden[0]]]
        if others:
            a, b = hidden[0], others[0]
            before = client.get(f"/api/piecepack/games/{game_id}").content
            game._tiles[a], game._tiles[b] = game._tiles[b], game._tiles[a]
            assert client.get(f"/api/piecepack/games/{game_id}").content == before
            game._tiles[a], game._tiles[b] = game._tiles[b], game._tiles[a]
            swaps += 1
        data = client.post(f"/api/piecepack/games/{game_id}/act", json={"action": state["legal"][-1]["action"]}).json()
    assert swaps > 10
    assert state["seed"] is not None and state["winners"] and len(state["scores"]) == 4
    record = client.get(f"/api/piecepack/games/{game_id}/record").json()
    assert record["names"][seat] == "you" and record["final"]["scores"] == state["scores"]


def test_the_record_waits_for_the_end_and_a_seed_given_is_echoed(client):
    data = client.post("/api/piecepack/games", json={"seed": 9, "opponents": "random"}).json()
    assert data["state"]["seed"] == 9
    response = client.get(f"/api/piecepack/games/{data['id']}/record")
    assert response.status_code == 409 and "once it has ended" in response.json()["error"]


@pytest.mark.parametrize(("body", "status", "message"), [
    ({"players": 5}, 400, "players must be an int from 3 to 4, got 5"),
    ({"opponents": "greedy"}, 400, "unknown agent 'greedy' in opponents: the players of Gold Rush"),
    ({"opponents": "random,random,random"}, 400, "opponents needs one agent for all 2 opponents"),
    ({"seat": 3}, 400, "seat must be an int from 0 to 2, got 3"),
    ({"table": "full"}, 400, "unknown field 'table'"),
    ({"seed": -1}, 400, "seed must be an int from 0"),
])
def test_a_bad_new_game_is_refused_by_name(client, body, status, message):
    response = client.post("/api/piecepack/games", json=body)
    assert response.status_code == status and message in response.json()["error"]
    assert not client.app.state.store.live  # nothing was made


def test_an_action_the_rules_refuse_changes_nothing(app, client):
    data = client.post("/api/piecepack/games", json={"seed": 3, "opponents": "random"}).json()
    game_id = data["id"]
    legal = {c["action"] for c in data["state"]["legal"]}
    illegal = next(a for a in range(488) if a not in legal)
    before = client.get(f"/api/piecepack/games/{game_id}").json()
    response = client.post(f"/api/piecepack/games/{game_id}/act", json={"action": illegal})
    assert response.status_code == 409 and f"action {illegal} (" in response.json()["error"]
    for bad, message in ((488, "action must be an int from 0 to 487, got 488"), ("3", "got '3'"),
                         (None, "action is missing")):
        response = client.post(f"/api/piecepack/games/{game_id}/act", json={"action": bad})
        assert response.status_code == 400 and message in response.json()["error"]
    assert client.get(f"/api/piecepack/games/{game_id}").json() == before


def test_each_game_answers_on_its_own_routes_only(client):
    piecepack = client.post("/api/piecepack/games", json={"opponents": "random"}).json()["id"]
    gold = client.post("/api/gold/games", json={"opponents": "random"}).json()["id"]
    assert client.get(f"/api/gold/games/{piecepack}").status_code == 404
    assert client.post(f"/api/gold/games/{piecepack}/act", json={"action": 0}).status_code == 404
    assert client.get(f"/api/piecepack/games/{gold}").status_code == 404
    assert client.post(f"/api/piecepack/games/{gold}/act", json={"action": 0}).status_code == 404
    assert client.delete(f"/api/piecepack/games/{piecepack}").status_code == 200
    assert client.get("/api/piecepack/agents").json()["agents"] == ["idle", "random", "economist", "search", "taught"]


def test_a_watched_game_shows_every_piece_and_steps_to_its_end(client):
    data = client.post("/api/piecepack/watch", json={"agents": "economist,taught,random", "seed": 4}).json()
    assert data["state"]["seed"] == 4 and len(data["state"]["knowledge"]["face_up"]) + \
        len(data["state"]["knowledge"]["identities"]) == NUM_PIECES
    steps = 0
    while not data["state"]["over"]:
        game = client.app.state.store.live[data["id"]].env.game
        known = game.known_to(game.current_player)  # the choices are said to the seat about to act
        assert [c["text"] for c in data["state"]["legal"]] == [action_words(a, known) for a in game.legal_actions()]
        data = client.post(f"/api/piecepack/watch/{data['id']}/step", json={}).json()
        steps += 1
    # The same seed gives the same game as goldrush watch (arena.play_game).
    players = [make_agent(name, game="piecepack") for name in ("economist", "taught", "random")]
    result = play_game(players, 4, game="piecepack")
    assert data["state"]["scores"] == list(result.scores) and steps == len(result.record["actions"])
    assert client.post("/api/piecepack/watch", json={"agents": "economist,taught"}).json()["error"] == \
        "agents needs 3 or 4 agents (one per seat), got 2: ['economist', 'taught']"


def test_a_game_against_the_search_runs_on_the_search_workers_to_its_end(app, client):
    """``search`` is offered: its games go to the search workers, and a whole game against two of them plays."""
    data = client.post("/api/piecepack/games", json={"seed": 5, "opponents": "search,economist"}).json()
    session = app.state.store.live[data["id"]]
    assert session.searches and session.names == ["you", "search", "economist"]
    model_game = client.post("/api/piecepack/games", json={"opponents": "taught"}).json()["id"]
    assert not app.state.store.live[model_game].searches
    while not data["state"]["over"]:
        data = client.post(f"/api/piecepack/games/{session.id}/act",
                           json={"action": data["state"]["legal"][0]["action"]}).json()
    record = client.get(f"/api/piecepack/games/{session.id}/record").json()
    assert data["state"]["winners"] and record["names"][1] == "search" and len(record["actions"]) > 100


def test_a_record_replays_frame_by_frame_and_a_wrong_one_is_refused(client):
    players = [make_agent("economist", game="piecepack") for _ in range(3)]
    record = play_game(players, 8, game="piecepack", names=["a", "b", "c"]).record
    data = client.post("/api/piecepack/replay", json=record).json()
    assert len(data["frames"]) == len(record["actions"]) + 1 and data["names"] == ["a", "b", "c"]
    game = Game.from_record({**record, "actions": [], "rounds": [], "final": None}, check=False)
    lengths = [len(game.events)]
    for action in record["actions"]:
        game.step(action)
        lengths.append(len(game.events))
    assert [frame["log_length"] for frame in data["frames"]] == lengths  # the log up to each frame
    assert [e["text"] for e in data["events"]] == [event_words(e, ["a", "b", "c"]) for e in game.events]
    assert data["frames"][-1]["scores"] == record["final"]["scores"] and data["frames"][-1]["over"]
    wrong = {**record, "final": {**record["final"], "scores": [99, 0, 0]}}
    for body, message in ((wrong, "does not match the replay"),
                          ({**record, "actions": record["actions"] + [0]}, "the record cannot be replayed"),
                          ({**record, "actions": [0] * (MAX_ACTIONS + 1)}, f"a replay holds at most {MAX_ACTIONS:,}"),
                          ({**record, "names": ["a"]}, "the record's names must be 3 names"),
                          ({"flips": []}, "not a record of Gold Rush (piecepack)")):
        response = client.post("/api/piecepack/replay", json=body)
        assert response.status_code == 400 and message in response.json()["error"], response.json()
