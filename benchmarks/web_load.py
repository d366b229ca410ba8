"""Many whole games at once against ``goldrush serve``: requests a second and how long they take.

    python benchmarks/web_load.py                      # 50 clients, one full-table game each against greedy
    python benchmarks/web_load.py --clients 20 --opponents "ismcts[iterations=200]"
    python benchmarks/web_load.py --store memory       # the server keeps nothing (as before it had a store)

Starts ``goldrush serve`` on a free local port (a process of its own, as users run it), keeping its games in a
store file in a temporary folder (``--store file``, the default) or in memory only, then each client thread plays
one whole game over a keep-alive connection, flipping the first legal square, and reads its state after every
flip, as the page does. Prints the requests made, requests a second, the median and 99th percentile latency of
each kind of request (a new game; a move, which includes the agents' moves and the store's write; a state read),
and every answer that was not 200. Nothing is asserted: the figures depend on the machine and its load (the
tests check correctness under load).
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def client(port: int, body: dict, starts: list[float], flips: list[float], reads: list[float],
           errors: list[str]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def call(method: str, path: str, payload: dict | None, into: list[float]) -> dict:
        start = time.perf_counter()
        connection.request(method, path, None if payload is None else json.dumps(payload),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = json.loads(response.read())
        into.append(time.perf_counter() - start)
        if response.status != 200:
            errors.append(f"{method} {path}: {response.status} {data}")
            raise RuntimeError(data)
        return data

    try:
        data = call("POST", "/api/gold/games", body, starts)
        while not data["state"]["finished"]:
            data = call("POST", f"/api/gold/games/{data['id']}/act", {"action": data["state"]["legal"][0]}, flips)
            call("GET", f"/api/gold/games/{data['id']}", None, reads)
    except (RuntimeError, OSError) as error:
        errors.append(repr(error))
    finally:
        connection.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50, help="games played at once (default: %(default)s)")
    parser.add_argument("--opponents", default="greedy", help="the agents each client plays (default: %(default)s)")
    parser.add_argument("--table", default="full", choices=["full", "half", "quarter"])
    parser.add_argument("--store", default="file", choices=["file", "memory"],
                        help="where the server keeps its games: a new SQLite file in a temporary folder, or memory "
                             "only (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.clients < 1:
        parser.error(f"--clients must be at least 1, got {args.clients}")

    folder = tempfile.TemporaryDirectory(prefix="goldrush-web-load-")
    store = ":memory:" if args.store == "memory" else str(Path(folder.name) / "server.sqlite3")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "goldrush_agents.cli", "serve", "--port", str(port),
                               "--store", store], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server did not start: {server.stderr.read() if server.stderr else ''}") \
                        from None
                time.sleep(0.1)
        starts: list[float] = []
        flips: list[float] = []
        reads: list[float] = []
        errors: list[str] = []
        body = {"opponents": args.opponents, "table": args.table, "seed": 1}
        threads = [threading.Thread(target=client, args=(port, {**body, "seed": i}, starts, flips, reads, errors))
                   for i in range(args.clients)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(30)
        folder.cleanup()
    total = len(starts) + len(flips) + len(reads)
    print(f"{args.clients} games against {args.opponents} on the {args.table} table: {total:,} requests in "
          f"{elapsed:.1f} s, {total / elapsed:,.0f} requests/s, the games kept in {args.store}")
    for name, times in (("new game", starts), ("move", flips), ("state read", reads)):
        if times:
            ms = np.array(times) * 1000
            print(f"  {name:18s} median {np.median(ms):7.1f} ms   p99 {np.percentile(ms, 99):7.1f} ms   "
                  f"({len(ms):,} requests)")
    print(f"  errors: {len(errors)}" + "".join(f"\n    {error}" for error in errors[:10]))


if __name__ == "__main__":
    main()
