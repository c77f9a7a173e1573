"""A bounded load on the production server, on loopback only, against a hello-world baseline.

    python scripts/bench_load.py [--seconds 20] [--tables 20] [--phones 80]

1. Starts gunicorn as `make run` does (2 workers) on a fresh SQLite database
   with one game per table.
2. Table at play: each table records a hand through the API and reloads its
   table page every 2 s; each following phone polls its game's board every
   second with If-None-Match, as the follow view does. Prints requests per
   second, p50 and p95 latency, and errors.
3. Throughput: wrk (apt-get install wrk) on the table page, then on a
   hello-world Flask app on the same server and settings; prints both and
   the ratio. Aims: no errors, p95 under 100 ms, ratio at least 0.5.
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
from server import ROOT, call, free_port, running_server, wait_until_up  # noqa: E402

HANDS = [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2), ([2, 3, 4, 4], 0), ([1, 1, 1, 10], 3)]


class Client:
    """One keep-alive connection, timing each request."""

    def __init__(self, port: int, timings: list[float], errors: list[str]):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.timings, self.errors = timings, errors

    def request(self, method: str, path: str, body=None, headers=None) -> http.client.HTTPResponse | None:
        headers = {"Content-Type": "application/json", **(headers or {})}
        start = time.perf_counter()
        for attempt in (1, 2):  # like a browser, reconnect once when an idle connection was closed
            try:
                self.connection.request(method, path, None if body is None else json.dumps(body), headers)
                answer = self.connection.getresponse()
                answer.read()
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
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-w", "2", "--threads", "4", "-b", f"127.0.0.1:{port}",
               "hello_app:app"]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=HERE, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            wait_until_up(f"http://127.0.0.1:{port}", process, log, path="/")
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=80)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, running_server(f"sqlite:///{folder}/load.sqlite") as server:
        table_night(server.base, args.seconds, args.tables, args.phones)
        if not shutil.which("wrk"):
            print("throughput: skipped, no wrk (apt-get install wrk)")
            return
        game = call("POST", server.base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})[1]["id"]
        for hearts, queen in HANDS * 2:
            call("POST", f"{server.base}/api/games/{game}/hands", {"hearts": hearts, "queen": queen})
        page_rate, page_notes = wrk(f"{server.base}/games/{game}", args.seconds // 2)
        board_rate, board_notes = wrk(f"{server.base}/games/{game}/follow/board", args.seconds // 2)
    with hello_server() as hello:
        hello_rate, hello_notes = wrk(hello + "/", args.seconds // 2)
    print(f"throughput, table page (8 hands): {page_rate:.0f} requests/s ({page_notes})")
    print(f"throughput, follow board:         {board_rate:.0f} requests/s ({board_notes})")
    print(f"throughput, hello world:          {hello_rate:.0f} requests/s ({hello_notes})")
    print(f"ratio, table page / hello world: {page_rate / hello_rate:.2f} (aim: at least 0.5)")
    print(f"ratio, follow board / hello world: {board_rate / hello_rate:.2f}")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
