"""The requests issue 34 found the browser server failing on, and what the server answers to each now.

    python benchmarks/web_abuse.py

Runs ``goldrush_agents.web.create_app`` in-process (Starlette's TestClient) and prints, per request, the status,
the size of the answer and its first words. Run with ``PYTHONPATH`` pointing at an older checkout's packages to
see what that version answered (the script reads the store of either version).
"""

from __future__ import annotations

from starlette.testclient import TestClient

from goldrush_agents.web import create_app


def show(label: str, response) -> None:
    print(f"{label:50s} {response.status_code} {len(response.content):>10,} bytes  {response.text[:90]!r}")


def main() -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    data = client.post("/api/games", json={"opponents": "random", "table": "quarter"}).json()
    print(f"{'1 the seed sent before the game has ended':50s} {data['state']['seed']}")
    show("2 ismcts[iterations=100000000]", client.post("/api/games", json={"opponents": "ismcts[iterations=100000000]"}))
    full = TestClient(create_app(max_games=1), raise_server_exceptions=False)
    full.post("/api/games", json={"opponents": "random"})
    show("3 a full server, a 5-player ismcts game", full.post("/api/games", json={"players": 5, "seat": 4,
                                                                                  "opponents": "ismcts"}))
    record = {"format": "goldrush-game/1", "num_players": 2, "first_player": 0, "max_turns": 200,
              "layout": ["G1", "G2"] + ["-"] * 62, "flips": [], "seed": "<img src=x onerror=alert(1)>"}
    show("4 a replay whose seed is HTML", client.post("/api/replay", json=record))
    nested = b"[" * 2000 + b"]" * 2000
    for path in ("/api/games", "/api/replay"):
        show(f"5 2,000 nested brackets to {path}", client.post(path, content=nested,
                                                                headers={"content-type": "application/json"}))
    show("6 greedy,ismcts[iterations=5 (3 players)", client.post("/api/games", json={
        "players": 3, "opponents": "greedy,ismcts[iterations=5"}))
    show("6 watch greedy,random,ppo[deterministic=False", client.post("/api/watch", json={
        "agents": "greedy,random,ppo[deterministic=False"}))
    show("7 a 20 MB opponents string", client.post("/api/games", json={"opponents": "x" * 20_000_000}))
    show("7 seed 10**400", client.post("/api/games", json={"opponents": "random", "seed": 10**400}))
    show("7 max_turns 10**400", client.post("/api/games", json={"opponents": "random", "max_turns": 10**400}))
    show("9 two opponents for 2 players", client.post("/api/games", json={"opponents": "greedy,expert"}))


if __name__ == "__main__":
    main()
