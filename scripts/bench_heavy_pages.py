"""How long a group's phone waits while another group's phones ask for heavy pages of their own, on the production
server.

    python scripts/bench_heavy_pages.py [--games 1500] [--askers 8] [--seconds 8] [--database URL] [--pin]

Starts `scorekeeper serve` as an open server on loopback (a fresh SQLite file unless --database names one). A large
group imports GAMES games (each of 50 moons: the heaviest list of games there is); a small group starts a game. Times
the small group's phone loading its table page, one load every 50 ms: first alone, then while ASKERS connections of
the large group, from an address of its own, ask for its list of games (`/api/games`) back to back. Prints the
phone's p50, p95 and longest wait, and the lists answered a second. With --pin the server runs on the first core and
this script on the second.
(Every address of 127/8 is this machine.)
"""

import argparse
import http.client
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]  # the other benchmarks' phones, and the tests' server
from bench_guesses import ask, phone_waits, said  # noqa: E402
from bench_imports import Importer, export  # noqa: E402

from server import running_server  # noqa: E402


def asker(port: int, page: str, stop: threading.Event, done: list[int]) -> None:
    """One connection asking for ``page`` back to back until ``stop``; ``done`` counts the answers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=("127.0.8.1", 0))
    while not stop.is_set():
        status, _list = ask(connection, "GET", page)
        assert status == 200, status
        done.append(1)


def measure(base: str, games: int, askers: int, seconds: float) -> None:
    port = int(base.rsplit(":", 1)[1])
    large = Importer(base, "127.0.8.1")
    large.send(export(games))
    assert large.status in (200, 302, 303), large.status
    heavy = large.path.removesuffix("/history/import") + "/api/games"
    phone = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=("127.0.4.1", 0))
    key = json.loads(ask(phone, "POST", "/api/groups")[1])["key"]
    game = json.loads(ask(phone, "POST", f"/g/{key}/api/games", {"players": ["Ann", "Ben", "Cat"]})[1])
    page = f"/g/{key}/games/{game['id']}"
    began = time.perf_counter()
    ask(phone, "GET", heavy)
    print(f"the large group: {games} games; its list alone takes {(time.perf_counter() - began) * 1000:.0f} ms")
    print(said("the phone alone", phone_waits(phone, page, seconds)))
    stop, done = threading.Event(), []
    threads = [threading.Thread(target=asker, args=(port, heavy, stop, done)) for _ in range(askers)]
    for each in threads:
        each.start()
    while len(done) < askers:  # every asker has had an answer: the server is as busy as it gets
        time.sleep(0.05)
    began, before = time.monotonic(), len(done)
    waits = phone_waits(phone, page, seconds)
    rate = (len(done) - before) / (time.monotonic() - began)
    stop.set()
    for each in threads:
        each.join()
    print(said(f"beside {askers} connections asking for the large list ({rate:.1f} lists/s)", waits))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--askers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--database", help="a PostgreSQL URL; a fresh SQLite file when left out")
    parser.add_argument("--pin", action="store_true", help="the server on the first core, this script on the second")
    options = parser.parse_args()
    if options.pin:
        os.sched_setaffinity(0, {1})
    with tempfile.TemporaryDirectory() as folder:
        database = options.database or f"sqlite:///{folder}/heavy.sqlite"
        pinned = ("taskset", "-c", "0") if options.pin else ()
        with running_server(database, extra_env={"SCOREKEEPER_GROUPS": "open"}, before=pinned) as server:
            measure(server.base, options.games, options.askers, options.seconds)


if __name__ == "__main__":
    main()
