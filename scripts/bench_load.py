"""A bounded load on the production server, on loopback only, against a hello-world baseline.

    python scripts/bench_load.py [--seconds 20] [--tables 20] [--phones 80]

1. Starts `scorekeeper serve` as `make run` does on a fresh SQLite database
   with one game per table.
2. Table at play: each table records a hand through the API and reloads its
   table page every 2 s; each following phone polls its game's board every
   second with If-None-Match, as the follow view does. Prints requests per
   second, p50 and p95 latency, and errors.
3. Throughput: wrk (apt-get install wrk) on the table page, the follow
   board, a static file, and a hello-world Flask app on the same server and
   settings, in turn for a few rounds; prints the medians and the ratios.
   Aims: no errors, p95 under 100 ms, table page / hello world at least 0.5, table page / a static
   file at least 0.25.
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from server import ROOT, call, running_server, serving  # noqa: E402

HANDS = [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2), ([2, 3, 4, 4], 0), ([1, 1, 1, 10], 3)]


class Client:
    """One keep-alive connection, timing each request."""

    def __init__(self, port: int, timings: list[float], errors: list[str], source: str | None = None):
        """``source``: the loopback address to connect from (every 127/8 address is this machine), one per table."""
        address = (source, 0) if source else None
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=address)
        self.timings, self.errors = timings, errors
        self.last_body = ""  # the last answer's body, as text

    def request(self, method: str, path: str, body=None, headers=None) -> http.client.HTTPResponse | None:
        headers = {"Content-Type": "application/json", **(headers or {})}
        start = time.perf_counter()
        for attempt in (1, 2):  # like a browser, reconnect once when an idle connection was closed
            try:
                self.connection.request(method, path, None if body is None else json.dumps(body), headers)
                answer = self.connection.getresponse()
                self.last_body = answer.read().decode(errors="replace")
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as failure:
                self.connection.close()
                if attempt == 2:
                    self.errors.append(repr(failure))
                    return None
            except OSError as failure:
                self.errors.append(repr(failure))
                self.connection.close()
                return None
        self.timings.append(time.perf_counter() - start)
        if answer.status >= 400:
            self.errors.append(f"{method} {path}: {answer.status}")
        return answer


def table(port, game_id, until, timings, errors):
    client, number = Client(port, timings, errors), 1
    time.sleep(2 * random.random())
    while time.monotonic() < until:
        hearts, queen = HANDS[number % len(HANDS)]
        client.request("POST", f"/api/games/{game_id}/hands", {"number": number, "hearts": hearts, "queen": queen})
        client.request("GET", f"/games/{game_id}")
        number += 1
        time.sleep(2)


def phone(port, game_id, until, timings, errors):
    client, tag = Client(port, timings, errors), ""
    time.sleep(random.random())  # phones are not in step
    while time.monotonic() < until:
        answer = client.request("GET", f"/games/{game_id}/follow/board", headers={"If-None-Match": tag})
        if answer is not None and answer.status == 200:
            tag = answer.getheader("ETag", "")
        time.sleep(1)


def table_night(base: str, seconds: int, tables: int, phones: int) -> None:
    port = int(base.rsplit(":", 1)[1])
    games = [
        call("POST", base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 1000}})[1]["id"]
        for _ in range(tables)
    ]
    timings: list[float] = []
    errors: list[str] = []
    until = time.monotonic() + seconds
    workers = [threading.Thread(target=table, args=(port, g, until, timings, errors)) for g in games]
    workers += [
        threading.Thread(target=phone, args=(port, games[k % tables], until, timings, errors)) for k in range(phones)
    ]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.monotonic() - started
    ms = sorted(t * 1000 for t in timings)
    p95 = ms[int(len(ms) * 0.95) - 1]
    print(f"table night: {tables} tables, {phones} phones, {elapsed:.0f} s: {len(ms)} requests, "
          f"{len(ms) / elapsed:.0f}/s, p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
          f"errors {len(errors)}{(': ' + errors[0]) if errors else ''}")  # fmt: skip


def wrk(url: str, seconds: int) -> tuple[float, str]:
    out = subprocess.run(
        ["wrk", "-t2", "-c20", f"-d{seconds}s", "--latency", url], capture_output=True, text=True, check=True
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+(\S+)", out).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", out)
    return rate, f"p99 {p99}" + (f", errors: {errors.group(0)}" if errors else ", no errors")


@contextmanager
def hello_server():
    """The baseline: the same server with the same settings (scorekeeper/server/serving.py), serving hello_app."""
    with serving([sys.executable, "hello_app.py"], cwd=HERE, path="/") as hello:
        yield hello.base


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=80)
    parser.add_argument("--rounds", type=int, default=3, help="throughput rounds, taken in turn; medians printed")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(f"sqlite:///{folder}/load.sqlite") as server,
        hello_server() as hello,
    ):
        table_night(server.base, args.seconds, args.tables, args.phones)
        if not shutil.which("wrk"):
            print("throughput: skipped, no wrk (apt-get install wrk)")
            return
        game = call("POST", server.base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})[1]["id"]
        for hearts, queen in HANDS * 2:
            call("POST", f"{server.base}/api/games/{game}/hands", {"hearts": hearts, "queen": queen})
        targets = {
            "table page (8 hands)": f"{server.base}/games/{game}",
            "follow board": f"{server.base}/games/{game}/follow/board",
            "a static file": f"{server.base}/static/app.css",
            "hello world": hello + "/",
        }
        # This machine's speed drifts from minute to minute: take the targets in turn, several times.
        runs: dict[str, list[tuple[float, str]]] = {name: [] for name in targets}
        for _ in range(args.rounds):
            for name, url in targets.items():
                runs[name].append(wrk(url, max(1, args.seconds // 4)))
    rates = {name: statistics.median(rate for rate, _ in results) for name, results in runs.items()}
    for name, results in runs.items():
        print(f"throughput, {name + ':':22} {rates[name]:5.0f} requests/s (median of "
              f"{', '.join(f'{rate:.0f}' for rate, _ in results)}; last run {results[-1][1]})")  # fmt: skip
    for name in ("table page (8 hands)", "follow board", "a static file"):
        print(f"ratio, {name} / hello world: {rates[name] / rates['hello world']:.2f}"
              + (" (aim: at least 0.5)" if name.startswith("table") else ""))  # fmt: skip
    page, static = rates["table page (8 hands)"], rates["a static file"]
    print(f"ratio, table page (8 hands) / a static file: {page / static:.2f} (aim: at least 0.25)")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
