"""What every game's web API shares, shown for every game the app serves: Gold and Gold Rush with web parts of their
own, and the test plug-ins Nim and Kuhn poker, which bring none and are served by the plain
:class:`~goldrush_agents.web.game.WebGame` from their rules alone.

Issue 34's guarantees (tests/gold/test_web_limits.py tries each request of that issue on Gold) hold here for each game
by construction: the same routes, the record of a played game only once it has ended, a seed the server chose
hidden until then, the caps on games per client and in all, JSON bodies only (415), within their size (413) and
depth (400), the security headers on every answer and no cache of a seat's state, no 500 for any JSON body, and
privacy by non-interference: two games that differ only in what the person's seat has not seen give that seat the
same answers. A game added to the registry is checked by every test here without a line added, except the last:
it must say what its seat cannot see.
"""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from goldrush_agents.web import create_app  # noqa: E402
from goldrush_agents.web.app import SECURITY_HEADERS  # noqa: E402
from goldrush_agents.web.game import PERSON, WebGame  # noqa: E402
from conftest import JSON, SHORT, fail_once, integers_in, refused, session_of  # noqa: E402

GAMES = list(create_app().state.games)
"""Every game the app serves: the registry's, the plug-ins of tests/plugins/ included."""
OK = (200, 400, 409, 413, 429, 503)
"""What a request may be answered: never a 500, and never a 404 for a game that is there."""


def make_client(**limits) -> TestClient:
    return TestClient(create_app(**limits), raise_server_exceptions=False)


def web_of(client: TestClient, name: str) -> WebGame:
    return client.app.state.games[name]


def legal_actions(state: dict) -> list[int]:
    """The actions a state offers: Gold lists positions, the other games ``{"action", "text"}`` objects."""
    return [choice["action"] if isinstance(choice, dict) else choice for choice in state["legal"]]


def choose(state: dict, rng: np.random.Generator) -> int:
    legal = legal_actions(state)
    assert legal, state
    return int(legal[rng.integers(len(legal))])


def watchers(web: WebGame) -> list[str]:
    """The smallest table of the game, all random players (every game has them)."""
    return ["random"] * web.spec.min_players


def same_for_the_seat(response: dict) -> dict:
    """A response without the game's id, the only thing two twin games may show differently."""
    return {**response, "id": None, "state": {**response["state"], "id": None}}


def play_to_the_end(client: TestClient, name: str, game_id: str, state: dict, rng: np.random.Generator) -> dict:
    while not state["finished"]:
        response = client.post(f"/api/{name}/games/{game_id}/act", json={"action": choose(state, rng)})
        assert response.status_code == 200, response.text
        state = response.json()["state"]
    return state


def watch_to_the_end(client: TestClient, name: str, seed: int = 1) -> str:
    web = web_of(client, name)
    game_id = client.post(f"/api/{name}/watch", json={"agents": watchers(web), "seed": seed}).json()["id"]
    while client.post(f"/api/{name}/watch/{game_id}/step", json={}).status_code == 200:
        pass
    return game_id


# --- whole games through the API -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_played_game_is_created_acted_on_read_recorded_and_deleted(name):
    client = make_client()
    info = client.get(f"/api/{name}/agents").json()
    assert info["game"] == name and "random" in info["agents"] and info["limits"]["max_games"] == 1000
    seat = web_of(client, name).spec.min_players - 1
    created = client.post(f"/api/{name}/games", json={"seed": 7, "seat": seat})
    assert created.status_code == 200, created.text
    data = created.json()
    game_id, state, rng = data["id"], data["state"], np.random.default_rng(7)
    assert (state["id"], state["mode"], state["game"], state["seat"], state["seed"]) == (game_id, "play", name, seat, 7)
    assert state["names"][seat] == PERSON
    refused_once = False
    while not state["finished"]:
        assert state["your_turn"] and legal_actions(state)
        assert client.get(f"/api/{name}/games/{game_id}").json() == {"id": game_id, "state": state}
        refused(client.get(f"/api/{name}/games/{game_id}/record"), 409, "once it has ended")
        illegal = sorted(set(range(web_of(client, name).num_actions)) - set(legal_actions(state)))
        if illegal and not refused_once:  # an action the rules refuse now changes nothing
            refused(client.post(f"/api/{name}/games/{game_id}/act", json={"action": illegal[0]}), 409)
            assert client.get(f"/api/{name}/games/{game_id}").json() == {"id": game_id, "state": state}
            refused_once = True
        response = client.post(f"/api/{name}/games/{game_id}/act", json={"action": choose(state, rng)})
        assert response.status_code == 200, response.text
        assert response.json()["id"] == game_id and isinstance(response.json()["events"], list)
        state = response.json()["state"]
    assert not legal_actions(state) and state["winners"]
    refused(client.post(f"/api/{name}/games/{game_id}/act", json={"action": 0}), 409, "the game is over")
    record = client.get(f"/api/{name}/games/{game_id}/record")
    assert record.status_code == 200, record.text
    record = record.json()
    assert record["seed"] == 7 and record[web_of(client, name).spec.record_names][seat] == PERSON
    replayed = client.post(f"/api/{name}/replay", json=record)
    assert replayed.status_code == 200, replayed.text
    assert replayed.json()["frames"][-1]["scores"] == state["scores"]
    assert client.delete(f"/api/{name}/games/{game_id}").json() == {"deleted": game_id}
    for response in (client.get(f"/api/{name}/games/{game_id}"), client.delete(f"/api/{name}/games/{game_id}"),
                     client.get(f"/api/{name}/games/{game_id}/record")):
        refused(response, 404, game_id)


@pytest.mark.parametrize("name", GAMES)
def test_a_watched_game_steps_to_its_end(name):
    client = make_client()
    agents = watchers(web_of(client, name))
    data = client.post(f"/api/{name}/watch", json={"agents": agents, "seed": 3}).json()
    game_id, state = data["id"], data["state"]
    assert (state["mode"], state["game"], state["seed"], state["names"]) == ("watch", name, 3, agents)
    refused(client.post(f"/api/{name}/games/{game_id}/act", json={"action": 0}), 404)  # not a played game
    refused(client.get(f"/api/{name}/games/{game_id}"), 404)
    steps = 0
    while not state["finished"]:
        response = client.post(f"/api/{name}/watch/{game_id}/step", json={})
        assert response.status_code == 200, response.text
        state, steps = response.json()["state"], steps + 1
    assert steps > 0 and state["winners"]
    refused(client.post(f"/api/{name}/watch/{game_id}/step", json={}), 409, "the game is over")
    assert client.get(f"/api/{name}/watch/{game_id}").json() == {"id": game_id, "state": state}
    record = client.get(f"/api/{name}/games/{game_id}/record").json()
    assert record[web_of(client, name).spec.record_names] == agents
    assert client.post(f"/api/{name}/replay", json=record).json()["frames"][-1]["scores"] == state["scores"]
    played = client.post(f"/api/{name}/games", json={"seed": 3}).json()["id"]
    refused(client.get(f"/api/{name}/watch/{played}"), 404)  # a played game is not watched
    refused(client.post(f"/api/{name}/watch/{played}/step", json={}), 404)
    assert client.delete(f"/api/{name}/games/{game_id}").status_code == 200


@pytest.mark.parametrize("name", GAMES)
def test_a_game_is_reached_only_under_its_own_game(name):
    client = make_client()
    game_id = client.post(f"/api/{name}/games", json={}).json()["id"]
    for other in GAMES:
        if other != name:
            refused(client.get(f"/api/{other}/games/{game_id}"), 404, game_id)
            refused(client.delete(f"/api/{other}/games/{game_id}"), 404, game_id)
    assert client.get(f"/api/{name}/games/{game_id}").status_code == 200


@pytest.mark.parametrize("name", GAMES)
def test_a_seed_the_server_chose_is_hidden_until_the_end_and_then_deals_the_game_again(name):
    client = make_client()
    data = client.post(f"/api/{name}/games", json={}).json()
    game_id, state, rng = data["id"], data["state"], np.random.default_rng(2)
    seed = session_of(client, game_id).seed
    actions = []
    while not state["finished"]:
        for response in (data, client.get(f"/api/{name}/games/{game_id}").json()):
            assert response["state"]["seed"] is None and seed not in integers_in(response)
        actions.append(choose(state, rng))
        data = client.post(f"/api/{name}/games/{game_id}/act", json={"action": actions[-1]}).json()
        state = data["state"]
    assert state["seed"] == seed and client.get(f"/api/{name}/games/{game_id}").json()["state"]["seed"] == seed
    record = client.get(f"/api/{name}/games/{game_id}/record").json()
    assert record["seed"] == seed
    again = client.post(f"/api/{name}/games", json={"seed": seed}).json()
    for action in actions:  # the same seed and the same moves of the person: the same game
        again = client.post(f"/api/{name}/games/{again['id']}/act", json={"action": action}).json()
    assert client.get(f"/api/{name}/games/{again['id']}/record").json() == record


# --- the caps --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_one_client_holds_its_share_of_the_games_and_the_server_its_cap(name):
    app = create_app(max_games=3, max_games_per_client=2)
    first, second = (TestClient(app, client=(address, 5000)) for address in ("10.0.0.1", "10.0.0.2"))
    agents = watchers(app.state.games[name])
    played = first.post(f"/api/{name}/games", json={}).json()["id"]
    assert first.post(f"/api/{name}/watch", json={"agents": agents}).status_code == 200
    for response in (first.post(f"/api/{name}/games", json={}), first.post(f"/api/{name}/watch", json={"agents": agents})):
        refused(response, 429, "you have 2 games in play")
        assert response.headers["retry-after"] == "60"
    mine = second.post(f"/api/{name}/games", json={"seed": 1}).json()
    response = second.post(f"/api/{name}/games", json={})
    refused(response, 503, "the server has 3 games in play, its limit")
    assert response.headers["retry-after"] == "60"
    store = app.state.store
    assert len(store.live) == 3 and not store.starting  # the refused games were never made
    assert first.delete(f"/api/{name}/games/{played}").status_code == 200
    assert first.post(f"/api/{name}/games", json={}).status_code == 200  # a deleted game leaves the count
    refused(second.post(f"/api/{name}/games", json={}), 503)
    play_to_the_end(second, name, mine["id"], mine["state"], np.random.default_rng(1))
    assert second.post(f"/api/{name}/games", json={}).status_code == 200  # and so does a game that has ended


def test_the_games_of_every_kind_count_against_the_same_caps():
    app = create_app(max_games=len(GAMES), max_games_per_client=len(GAMES) - 1)
    first, second = (TestClient(app, client=(address, 5000)) for address in ("10.0.0.1", "10.0.0.2"))
    for name in GAMES[:-1]:
        assert first.post(f"/api/{name}/games", json={}).status_code == 200
    refused(first.post(f"/api/{GAMES[-1]}/games", json={}), 429)
    assert second.post(f"/api/{GAMES[-1]}/games", json={}).status_code == 200
    for name in GAMES:
        refused(second.post(f"/api/{name}/games", json={}), 503)


# --- what a request may send -------------------------------------------------------------------------------


def post_routes(client: TestClient, name: str) -> list[tuple[str, bytes]]:
    """Every POST route of a game, each with a JSON body it takes (a game in play, a watched game and a record made
    for the purpose)."""
    web = web_of(client, name)
    record = client.get(f"/api/{name}/games/{watch_to_the_end(client, name)}/record").content
    played = client.post(f"/api/{name}/games", json={"seed": 4}).json()
    watched = client.post(f"/api/{name}/watch", json={"agents": watchers(web), "seed": 4}).json()["id"]
    action = legal_actions(played["state"])[0]
    return [(f"/api/{name}/games", b"{}"), (f"/api/{name}/games/{played['id']}/act", b'{"action": %d}' % action),
            (f"/api/{name}/watch", b'{"agents": "%s"}' % ",".join(watchers(web)).encode()),
            (f"/api/{name}/watch/{watched}/step", b"{}"), (f"/api/{name}/replay", record)]


NOT_JSON = [None, "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=goldrush", "application/javascript", "application/json-patch+json"]
"""Content types a POST is refused with: none, the three a page of another site may send without asking the server
first (a "simple" request), and others that are not JSON."""


def held(client: TestClient, name: str) -> dict[str, dict]:
    """Every game the server holds in play, as a GET tells it."""
    return {game_id: client.get(f"/api/{name}/{'games' if session.kind == 'play' else 'watch'}/{game_id}").json()
            for game_id, session in client.app.state.store.live.items()}


@pytest.mark.parametrize("name", GAMES)
def test_a_post_that_is_not_json_is_refused_unread_on_every_route(name):
    """415 for a body not sent as JSON, on every POST route, with nothing done; the same bytes sent as JSON are
    taken (the refusal was the content type's alone)."""
    client = make_client()
    for path, body in post_routes(client, name):
        before = held(client, name)
        for kind in NOT_JSON:
            response = client.post(path, content=body, headers={} if kind is None else {"content-type": kind})
            error = refused(response, 415, "sent with Content-Type: application/json")
            assert ("no Content-Type" if kind is None else kind.partition(";")[0]) in error
        assert held(client, name) == before
        response = client.post(path, content=body, headers={"content-type": "application/json; charset=utf-8"})
        assert response.status_code == 200, (path, response.text)


@pytest.mark.parametrize("name", GAMES)
def test_a_body_too_large_or_too_deep_is_refused_on_every_route(name):
    client = make_client(max_body_bytes=2_000, max_depth=4)
    as_json = {"content-type": "application/json"}
    for path, _ in post_routes(client, name):
        before = held(client, name)
        refused(client.post(path, content=b'{"pad": "%s"}' % (b"x" * 2_000), headers=as_json), 413,
                "at most 2,000 are read")
        refused(client.post(path, content=(b" " * 500 for _ in range(5)), headers=as_json), 413,
                "over 2,000 bytes")  # no Content-Length: cut off as it streams in
        refused(client.post(path, content=b"[" * 5 + b"]" * 5, headers=as_json), 400, "deeper than 4 levels")
        refused(client.post(path, content=b"[" * 1_000 + b"]" * 1_000, headers=as_json), 400, "deeper than 4")
        assert held(client, name) == before


# --- what every answer carries ------------------------------------------------------------------------------


def check_headers(response, path: str) -> None:
    for header, value in SECURITY_HEADERS:
        assert response.headers[header.decode()] == value.decode(), (path, header)
    if path.startswith("/api/"):  # a seat's knowledge: kept in no cache
        assert response.headers["cache-control"] == "no-store", path
    else:
        assert "no-store" not in response.headers.get("cache-control", ""), path


@pytest.mark.parametrize("name", GAMES)
def test_every_answer_carries_the_security_headers_and_no_api_answer_is_cached(name):
    client = make_client()
    web = web_of(client, name)
    page = client.get(f"/{name}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    files = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert files and not re.search(r'(?:src|href)="(?:https?:)?//', page.text)  # nothing fetched from elsewhere
    played = client.post(f"/api/{name}/games", json={"seed": 5})
    game_id = played.json()["id"]
    watched = client.post(f"/api/{name}/watch", json={"agents": watchers(web)})
    answers = [("/", client.get("/")), (f"/{name}", page), ("/api/games", client.get("/api/games")),
               *((path, client.get(path)) for path in files),
               (f"/api/{name}/agents", client.get(f"/api/{name}/agents")),
               (f"/api/{name}/games", played), (f"/api/{name}/watch", watched),
               (f"/api/{name}/games/ID", client.get(f"/api/{name}/games/{game_id}")),
               (f"/api/{name}/games/ID/act", client.post(f"/api/{name}/games/{game_id}/act",
                                                         json={"action": legal_actions(played.json()["state"])[0]})),
               (f"/api/{name}/games/ID/record", client.get(f"/api/{name}/games/{game_id}/record")),  # 409
               (f"/api/{name}/watch/ID/step", client.post(f"/api/{name}/watch/{watched.json()['id']}/step", json={})),
               (f"/api/{name}/watch/ID", client.get(f"/api/{name}/watch/{watched.json()['id']}")),
               (f"/api/{name}/replay", client.post(f"/api/{name}/replay", json={})),  # 400
               (f"/api/{name}/games", client.post(f"/api/{name}/games", content=b"{}")),  # 415
               (f"/api/{name}/games", client.put(f"/api/{name}/games")),  # 405
               (f"/api/{name}/games/nope", client.get(f"/api/{name}/games/nope")),  # 404
               (f"/{name}/nowhere", client.get(f"/{name}/nowhere")),  # 404
               (f"/api/{name}/games/ID", client.delete(f"/api/{name}/games/{game_id}"))]
    assert {response.status_code for _, response in answers} >= {200, 400, 404, 405, 415}
    for path, response in answers:
        check_headers(response, path)
    assert web.name in [game["game"] for game in client.get("/api/games").json()["games"]]


# --- any body at all: never a 500 --------------------------------------------------------------------------


class Fuzzed:
    """A server under fuzzing for one game: a played game and a watched one to send moves to (made again once
    ended), and a record whose fields the fuzz changes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.client = make_client()
        self.web = web_of(self.client, name)
        self.record = self.client.get(f"/api/{name}/games/{watch_to_the_end(self.client, name)}/record").json()
        self.played = self.watched = None

    def targets(self) -> tuple[str, str]:
        """The ids of a game in play and a watched game, made now if the fuzz has ended them."""
        store, name = self.client.app.state.store, self.name
        if self.played not in store.live:
            self.played = self.client.post(f"/api/{name}/games", json={"seed": 1}).json()["id"]
        if self.watched not in store.live:
            self.watched = self.client.post(f"/api/{name}/watch", json={"agents": watchers(self.web)}).json()["id"]
        return self.played, self.watched

    def tidy(self) -> None:
        """Drop every game the fuzz made, so that the caps never refuse the next example's."""
        store = self.client.app.state.store
        for game_id in [game_id for game_id in store.live if game_id not in (self.played, self.watched)]:
            self.client.delete(f"/api/{self.name}/games/{game_id}")

    @functools.cached_property
    def bodies(self) -> dict[str, st.SearchStrategy]:
        """By route: any JSON, or the route's own fields with values near and beyond what is allowed."""
        web = self.web
        names = st.sampled_from([*web.agents, "random[", "random]", "nobody", "random[depth=2]", ",".join(
            ["random"] * (web.spec.max_players + 1))])
        agents = names | st.lists(names, max_size=web.spec.max_players + 1)
        own = {key: st.just(default) | JSON for key, default in {**web.option_fields(), **web.person_fields()}.items()}
        new = st.fixed_dictionaries({}, optional={
            "players": st.integers(-1, web.spec.max_players + 1), "opponents": agents, "agents": agents,
            "seat": st.integers(-1, web.spec.max_players), "seed": st.integers(-2, 2**64), **own})
        move = st.fixed_dictionaries({}, optional={"action": st.integers(-2, web.num_actions + 1) | JSON})
        near = st.integers(-2, 70) | st.lists(st.integers(-2, 70), max_size=4)  # a deal's or a move's numbers
        record = st.builds(lambda key, value: {**self.record, key: value}, st.sampled_from(sorted(self.record)),
                           near | JSON)
        return {"games": JSON | new, "act": JSON | move, "watch": JSON | new, "step": JSON | st.just({}),
                "replay": JSON | record}


@pytest.mark.parametrize("change", [{"cards": [5, 7]}, {"cards": ["J", "Q"]}, {"cards": []}, {"cards": None}])
def test_a_record_the_rules_take_but_cannot_show_is_refused_not_failed(change):
    """Found by the fuzz below: Kuhn poker's rules take a deal of cards that are no cards, and the plain part's
    replay failed showing it (500)."""
    client = make_client()
    record = client.get(f"/api/kuhn/games/{watch_to_the_end(client, 'kuhn')}/record").json()
    refused(client.post("/api/kuhn/replay", json={**record, **change}), 400, "the record cannot be")


@functools.cache
def fuzzed(name: str) -> Fuzzed:
    return Fuzzed(name)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_json_body_to_any_post_route_is_answered_without_a_500(name, data):
    server = fuzzed(name)
    played, watched = server.targets()
    routes = {"games": f"/api/{name}/games", "act": f"/api/{name}/games/{played}/act", "watch": f"/api/{name}/watch",
              "step": f"/api/{name}/watch/{watched}/step", "replay": f"/api/{name}/replay"}
    for route, path in routes.items():
        body = data.draw(server.bodies[route], label=route)
        # as text: httpx sends no body at all for json=None, where this test means the JSON null
        response = server.client.post(path, content=json.dumps(body),
                                      headers={"content-type": "application/json"})
        assert response.status_code in OK, (path, body, response.text[:SHORT])
        assert response.status_code == 200 or len(response.content) < 2 * SHORT, response.text[:SHORT]
    server.tidy()


# --- privacy by non-interference --------------------------------------------------------------------------


def swap_unseen_cards(session, seat: int):
    """Gold: two face-down cards of different kinds that no flip has shown (so no seat, agent or person, has seen
    them) change places. They stay unseen until one of them is flipped."""
    game = session.game
    flipped = {event.position for event in game.history}
    unseen = [p for p in game.on_table() if p not in flipped]
    first = unseen[-1]
    second = next(p for p in reversed(unseen) if game.table[p] != game.table[first])
    session.env.one.exchange(first, second)  # in the compiled game, which the readable one follows
    return lambda original, changed: not {first, second} & {event.position for event in changed.history}


def deal_the_undealt_card(session, seat: int):
    """Kuhn poker: the other player holds the card nobody was dealt. Unseen by the seat until a showdown (the other
    player's random choices do not read its card)."""
    from kuhn_poker.rules import CARDS

    game = session.game
    cards = list(game.cards)
    cards[1 - seat] = next(card for card in range(len(CARDS)) if card not in game.cards)
    game.cards = tuple(cards)
    return lambda original, changed: not changed.shown_down


def swap_unseen_tiles(session, seat: int):
    """Gold Rush: two face-down tiles of different pieces that no seat has assayed change places. Unseen by the seat
    while it knows the same of both games and the public table is the same (a tile that produces in public, or that
    an agent who assayed it acts on, tells everybody something, which is no leak)."""
    from goldrush_env.piecepack.components import NUM_PLOTS

    game = session.game
    unseen = [p for p in range(NUM_PLOTS) if not game.face_up[p] and not game.assayed[p]]
    first = unseen[-1]
    second = next(p for p in reversed(unseen) if game._tiles[p] != game._tiles[first])
    game._tiles[first], game._tiles[second] = game._tiles[second], game._tiles[first]
    session.env.sync()  # the compiled copy the environment reads its masks and observations from follows
    return lambda original, changed: (original.public_state() == changed.public_state()
                                      and original.known_to(seat) == changed.known_to(seat))


HIDDEN = {
    "gold": ({"players": 3, "seat": 1, "opponents": "greedy,expert", "memory": "real"}, 3, swap_unseen_cards, 40),
    "kuhn": ({"seat": 0}, 12, deal_the_undealt_card, 16),
    "piecepack": ({"players": 4, "seat": 2, "opponents": "economist,random,taught"}, 2, swap_unseen_tiles, 40),
}
"""The games with something hidden from a seat: a new game's body (the person's seat and its opponents), how many
games to play, how to change what the seat has not seen, and how many answers at least must be compared."""


def reorder_the_moves(game, rng: np.random.Generator) -> None:
    """Nim: the moves so far in another order, which the heaps, all that any seat is told, do not keep."""
    game.actions[:] = rng.permutation(game.actions).tolist()


OPEN = {"nim": reorder_the_moves}
"""The games where every seat knows everything, each with a change to a game in play that leaves what every seat
knows as it was."""


def test_every_game_says_what_its_seats_cannot_see():
    assert sorted([*HIDDEN, *OPEN]) == sorted(GAMES) and not set(HIDDEN) & set(OPEN), (
        "a new game needs its entry in HIDDEN (how to change what a seat has not seen) or OPEN")


def compare_twins(client: TestClient, name: str, body: dict, games: int, change) -> int:
    """Play pairs of games of one seed, one of each pair changed by ``change`` right after the deal, the person
    making the same moves in both: while the change is unseen, every answer to the person's seat is the same in
    both, byte for byte but the id. Returns how many answers were compared."""
    compared = 0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        ids = [client.post(f"/api/{name}/games", json={**body, "seed": seed}).json()["id"] for _ in range(2)]
        original, changed = (session_of(client, game_id) for game_id in ids)
        unseen = change(changed, body.get("seat", 0))
        original, changed = original.game, changed.game
        answers = [client.get(f"/api/{name}/games/{game_id}").json() for game_id in ids]
        while unseen(original, changed):
            assert same_for_the_seat(answers[0]) == same_for_the_seat(answers[1]), (seed, compared)
            compared += 1
            if answers[0]["state"]["finished"]:
                break
            action = choose(answers[0]["state"], rng)
            answers = [client.post(f"/api/{name}/games/{game_id}/act", json={"action": action}).json()
                       for game_id in ids]
    return compared


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_what_the_seat_has_not_seen_changes_nothing_it_is_told(name):
    body, games, change, least = HIDDEN[name]
    assert compare_twins(make_client(), name, body, games, change) >= least


def test_the_twins_catch_a_state_that_tells_the_seat_what_it_has_not_seen(monkeypatch):
    """The check's own power: a plain seat state that also told the other seat's knowledge differs between twins."""
    told = WebGame.seat_state

    def leaky(self, session):
        return {**told(self, session), "other": repr(session.game.known_to(1 - session.seat))}

    monkeypatch.setattr(WebGame, "seat_state", leaky)
    with pytest.raises(AssertionError):
        compare_twins(make_client(), "kuhn", *HIDDEN["kuhn"][:3])


@pytest.mark.parametrize("name", sorted(OPEN))
def test_in_a_game_with_nothing_hidden_the_seat_is_told_what_every_seat_knows_and_no_more(name):
    client, change = make_client(), OPEN[name]
    web = web_of(client, name)
    players, seat = web.spec.max_players, web.spec.max_players - 1
    compared = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        body = {"players": players, "seat": seat, "opponents": "random", "seed": seed}
        ids = [client.post(f"/api/{name}/games", json=body).json()["id"] for _ in range(2)]
        original, changed = (session_of(client, game_id).game for game_id in ids)
        while True:
            knowledge = [{**original.known_to(s), "seat": None} for s in range(players)]
            assert all(known == knowledge[0] for known in knowledge)  # nothing hidden from anyone
            change(changed, rng)
            answers = [client.get(f"/api/{name}/games/{game_id}").json() for game_id in ids]
            assert same_for_the_seat(answers[0]) == same_for_the_seat(answers[1]), (seed, compared)
            compared += 1
            if answers[0]["state"]["finished"]:
                break
            action = choose(answers[0]["state"], rng)
            moved = [client.post(f"/api/{name}/games/{game_id}/act", json={"action": action}).json()
                     for game_id in ids]
            assert same_for_the_seat(moved[0]) == same_for_the_seat(moved[1]), (seed, compared)
    assert compared >= 8


# --- what a state holds, key by key ------------------------------------------------------------------------------

HEADER = {"id", "mode", "game", "seed"}
STANDING = {"current_player", "finished", "over", "winners", "scores", "names", "num_players", "legal", "events"}
STATE_KEYS = {
    "gold": HEADER | STANDING | {"table", "max_turns", "cards", "cards_left", "face_up", "gold_cards", "gold_rush",
                                 "owners", "rows", "rush_at", "truncated", "turn"},
    "piecepack": HEADER | STANDING | {"knowledge", "phase_words"},
    "plain": HEADER | STANDING | {"truncated", "turn"},
}
"""The fields of a state that every seat of the game sees alike; a played game's adds the person's own."""
PLAYED_KEYS = {"gold": {"seat", "your_turn", "memory"}, "piecepack": {"seat", "your_turn"},
               "plain": {"seat", "your_turn", "text"}}
WATCHED_KEYS = {"gold": set(), "piecepack": set(), "plain": {"texts"}}
EVENT_KEYS = {"gold": {"index", "turn", "player", "name", "position", "square", "card", "outcome", "label",
                       "receiver", "gained", "removed", "partner", "rush_begins", "text"},
              "piecepack": {"index", "kind", "seat", "text"}, "plain": {"index", "seat", "action", "text"}}
LEGAL_KEYS = {"piecepack": {"action", "text", "plot"}, "plain": {"action", "text"}}
KNOWLEDGE_KEYS = {"assayed_by", "buildings", "claims_this_round", "coin_suits", "current_player", "dice", "face_up",
                  "holdings", "identities", "levels", "markers", "market_sum", "market_used", "offer_log",
                  "offers_made", "owners", "pending_offer", "phase", "players", "powered", "produced", "round",
                  "seat", "start", "warehouse"}


def kind_of(name: str) -> str:
    return name if name in ("gold", "piecepack") else "plain"


def check_state(name: str, state: dict, seat: int | None) -> None:
    """Every field a page reads is there under its name, and nothing else; what is whose turn, and what is
    offered to whom, agree with the game."""
    kind = kind_of(name)
    extra = WATCHED_KEYS[kind] if seat is None else PLAYED_KEYS[kind]
    assert set(state) == STATE_KEYS[kind] | extra, set(state) ^ (STATE_KEYS[kind] | extra)
    for event in state["events"]:
        assert set(event) == EVENT_KEYS[kind], event
    for choice in state["legal"]:
        assert isinstance(choice, int) if kind == "gold" else set(choice) == LEGAL_KEYS[kind], choice
    if kind == "piecepack":
        assert set(state["knowledge"]) == KNOWLEDGE_KEYS
        assert state["phase_words"] and state["knowledge"]["current_player"] == state["current_player"]
    if state["finished"]:
        assert state["current_player"] is None and state["winners"] and len(state["scores"]) == len(state["names"])
        assert state["legal"] == [] and state.get("your_turn", False) is False
        return
    assert state["winners"] == [] and state["current_player"] in range(len(state["names"]))
    if kind == "plain":
        assert state["scores"] is None  # a score may be private: the plain part sends one only at the end
    if seat is not None:
        assert state["your_turn"] is (state["current_player"] == seat) and bool(state["legal"]) is state["your_turn"]


@pytest.mark.parametrize("name", GAMES)
def test_a_state_holds_what_the_page_reads_and_no_more(name):
    client, rng = make_client(), np.random.default_rng(5)
    web = web_of(client, name)
    seat = web.spec.min_players - 1
    data = client.post(f"/api/{name}/games", json={"seed": 5, "seat": seat, "opponents": "random"}).json()
    states = [data["state"]]
    while not data["state"]["finished"]:
        before = len(data["state"]["events"])
        data = client.post(f"/api/{name}/games/{data['id']}/act", json={"action": choose(data["state"], rng)}).json()
        states.append(data["state"])
        if data["events"] and (kind_of(name) != "gold" or data["state"]["memory"] == "perfect"):
            assert data["events"][0]["index"] == before  # the events of an answer go on from the last state's
            assert data["state"]["events"][before:] == data["events"]
    for state in states:
        check_state(name, state, seat)
    game_id = client.post(f"/api/{name}/watch", json={"agents": watchers(web), "seed": 5}).json()["id"]
    moves = 0
    while True:
        state = client.get(f"/api/{name}/watch/{game_id}").json()["state"]
        check_state(name, state, None)
        assert [event["index"] for event in state["events"]] == list(range(len(state["events"])))
        if state["finished"]:
            break
        moves += client.post(f"/api/{name}/watch/{game_id}/step", json={}).status_code == 200
    assert moves > 0


def test_gold_s_memory_decides_which_flips_a_state_lists():
    """Perfect memory lists every flip of the game; real memory those since the start of the person's last turn:
    its own flips first, two in a normal turn and one in the Gold Rush."""
    client, rng = make_client(), np.random.default_rng(2)
    turns_seen = set()
    for memory in ("perfect", "real"):
        data = client.post("/api/gold/games", json={"seed": 2, "memory": memory, "opponents": "random"}).json()
        session = session_of(client, data["id"])
        while not data["state"]["finished"]:
            data = client.post(f"/api/gold/games/{data['id']}/act", json={"action": choose(data["state"], rng)}).json()
            if session.env is None or session.game.face_up is not None:
                continue
            history, shown = session.game.history, data["state"]["events"]
            if memory == "perfect":
                assert [e["index"] for e in shown] == list(range(len(history)))
                continue
            last = max(event.turn for event in history if event.player == 0)
            mine = [index for index, event in enumerate(history) if event.player == 0 and event.turn == last]
            assert [e["index"] for e in shown] == list(range(mine[0], len(history)))
            turns_seen.add(len(mine))
    assert turns_seen == {1, 2}  # a normal turn and a turn of the Gold Rush


def test_the_plain_part_tells_each_move_in_the_game_s_words():
    """A game without a page of its own: its events are its moves in its words, said from what the seat knew before
    each (Kuhn: "bet", "fold"...), in a played game of public actions, a watched game and a replay of its record;
    a played game of a game that does not declare its actions public lists none (Nim tells the heaps only)."""
    client, rng = make_client(), np.random.default_rng(0)
    for seed in range(8):
        data = client.post("/api/kuhn/games", json={"seed": seed, "seat": 0, "opponents": "random"}).json()
        while not data["state"]["finished"]:
            data = client.post(f"/api/kuhn/games/{data['id']}/act", json={"action": choose(data["state"], rng)}).json()
        events = data["state"]["events"]
        record = client.get(f"/api/kuhn/games/{data['id']}/record").json()
        assert [event["action"] for event in events] == record["actions"] and len(events) >= 2
        assert all(re.fullmatch(r"(you|random): (check|bet|call|fold)", event["text"]) for event in events), events
        replayed = client.post("/api/kuhn/replay", json=record).json()
        assert [event["action"] for event in replayed["events"]] == record["actions"]
    data = client.post("/api/nim/games", json={"seed": 2, "seat": 0, "opponents": "random"}).json()
    data = client.post(f"/api/nim/games/{data['id']}/act", json={"action": choose(data["state"], rng)}).json()
    assert data["events"] == data["state"]["events"] == []
    watched = client.get(f"/api/nim/watch/{watch_to_the_end(client, 'nim')}").json()["state"]["events"]
    assert watched and all(re.fullmatch(r".+: take [1-5] from heap [ABC]", event["text"]) for event in watched)


def test_kuhn_s_words_for_a_choice_read_the_seat_s_own_bets():
    """Facing a bet, the plain page's choices are fold and call; opening, check and bet (words from what the seat
    knows, not from nothing)."""
    client = make_client()
    for seed in range(20):
        data = client.post("/api/kuhn/games", json={"seed": seed, "seat": 1, "opponents": "random"}).json()
        state = data["state"]
        if state["finished"]:
            continue
        words = {choice["text"] for choice in state["legal"]}
        opened = session_of(client, data["id"]).game.bets.endswith("b")
        assert words == ({"fold", "call"} if opened else {"check", "bet"}), (seed, words)


def test_gold_s_event_log_says_who_gained_what_by_which_card():
    """A strike pays the gold's value, whichever of the pair was flipped first; a duel names the weaker miner."""
    client = make_client()
    seen = set()
    for seed in range(8):
        game_id = client.post("/api/gold/watch", json={"agents": ["greedy", "random"], "seed": seed,
                                                        "table": "quarter"}).json()["id"]
        while client.post(f"/api/gold/watch/{game_id}/step", json={}).status_code == 200:
            pass
        events = client.get(f"/api/gold/watch/{game_id}").json()["state"]["events"]
        for first, second in zip(events, events[1:]):
            if second["outcome"] == "strike":
                gold = first if first["card"].startswith("G") else second
                assert second["gained"] == int(gold["card"][1]), (first, second)
                seen.add("strike, gold first" if gold is first else "strike, miner first")
            if second["outcome"] == "duel" and first["card"][2] != second["card"][2]:
                weaker = min(first, second, key=lambda event: int(event["card"][2]))
                colour = ("red", "blue", "purple", "orange", "grey")[int(weaker["card"][1])]
                assert f"the weaker miner (a{'n' if colour == 'orange' else ''} {colour} miner {weaker['card'][2]})" \
                    in second["text"], second["text"]
                seen.add("duel")
    assert seen >= {"strike, gold first", "strike, miner first"}, seen


@pytest.mark.parametrize("name", GAMES)
def test_a_game_cut_off_while_its_agents_moved_goes_on_at_the_next_move(name):
    """A request cut off while the agents moved (a failing agent, a server stopping) leaves the game mid-way: the
    next move lets the agents finish first, then plays the person's; or, if their moves ended the game, says so. A
    twin game of the same seed, never cut off, shows where the agents' moves lead."""
    client = make_client()
    web = web_of(client, name)
    for seed in range(30):
        body = {"seed": seed, "players": web.spec.min_players, "opponents": "random"}
        data, twin = (client.post(f"/api/{name}/games", json=body).json() for _ in range(2))
        session = session_of(client, data["id"])
        fail_once(session.agents[1])
        rng, response = np.random.default_rng(seed), None
        while not data["state"]["finished"]:  # the person moves until the agent's turn comes, and it fails
            action = choose(data["state"], rng)
            twin = client.post(f"/api/{name}/games/{twin['id']}/act", json={"action": action}).json()
            response = client.post(f"/api/{name}/games/{data['id']}/act", json={"action": action})
            if response.status_code != 200:
                break
            data = response.json()
        if response is None or response.status_code != 500:  # the game ended first: another seed
            continue
        assert session.game.current_player == 1
        if twin["state"]["finished"]:  # the agents' moves end the game
            answer = client.post(f"/api/{name}/games/{data['id']}/act", json={"action": 0})
            assert refused(answer, 409) == "the game is over: start a new one"
            return
        action = choose(twin["state"], rng)
        twin = client.post(f"/api/{name}/games/{twin['id']}/act", json={"action": action}).json()
        data = client.post(f"/api/{name}/games/{data['id']}/act", json={"action": action}).json()
        assert {**data["state"], "id": None} == {**twin["state"], "id": None}
        if data["events"]:  # the agents' moves come first, then the person's
            seats = [event.get("player", event.get("seat")) for event in data["events"]]
            assert seats[0] == 1 and 0 in seats[1:]
        return
    pytest.fail("no seed cut the agents off")


def test_gold_rush_s_state_carries_the_seat_s_knowledge_exactly():
    """The knowledge a Gold Rush state carries is ``known_to(seat)`` as JSON, no more and no less, at every step."""
    client, rng = make_client(), np.random.default_rng(4)
    data = client.post("/api/piecepack/games", json={"seed": 4, "seat": 1, "opponents": "economist"}).json()
    session = session_of(client, data["id"])
    seen = set()
    while not data["state"]["finished"]:
        known = json.loads(json.dumps(session.game.known_to(1)))  # int keys as text, tuples as lists
        assert data["state"]["knowledge"] == known
        seen |= {key for key in ("dice", "offer_log", "identities", "pending_offer") if known[key]}
        data = client.post(f"/api/piecepack/games/{data['id']}/act", json={"action": choose(data["state"], rng)}).json()
    assert seen == {"dice", "offer_log", "identities", "pending_offer"}  # each compared when it held some
    from goldrush_agents.piecepack.web import knowledge_json
    from goldrush_env.piecepack.engine import Game

    known = {**Game.new(3, 4).known_to(1), "face_up": {5: "M3", 30: "S0"}}  # pieces turned up (rare in play)
    assert knowledge_json(known) == json.loads(json.dumps(known))
