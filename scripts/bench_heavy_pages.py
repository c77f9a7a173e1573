"""How long a group's phone waits while other groups' phones ask for heavy pages of their own, on the production
server.

    python scripts/bench_heavy_pages.py [--games 1500] [--groups 1] [--askers 8] [--limit 20] [--exports]
                                        [--seconds 8] [--database URL] [--pin]

Starts `scorekeeper serve` as an open server on loopback (a fresh SQLite file unless --database names one). GROUPS
large groups, each from an address of its own, import GAMES games each (of 50 moons: the heaviest list of games
there is); a small group starts a game. Times the small group's phone loading its table page, one load every 50 ms:
first alone, then while ASKERS connections, shared among the large groups, each from its group's address, ask for
their group's list of LIMIT games (`/api/games?limit=LIMIT`) back to back; with --exports, their group's whole
export (`/history/export.json`) instead. Prints the phone's p50, p95 and longest
wait, and the lists answered a second. With --pin the server runs on the first core and this script on the second.
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


def asker(port: int, address: str, page: str, stop: threading.Event, done: list[int]) -> None:
    """One connection asking for ``page`` back to back until ``stop``; ``done`` counts the answers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=(address, 0))
    while not stop.is_set():
        status, _list = ask(connection, "GET", page)
        assert status == 200, status
        done.append(1)


def measure(base: str, games: int, groups: int, askers: int, asked: str, seconds: float) -> None:
    port = int(base.rsplit(":", 1)[1])
    heavy = []
    for number in range(groups):
        large = Importer(base, f"127.0.8.{number + 1}")
        large.send(export(games))
        assert large.status in (200, 302, 303), large.status
        group = large.path.removesuffix("/history/import")
        heavy.append((f"127.0.8.{number + 1}", f"{group}/{asked}"))
    phone = http.client.HTTPConnection("127.0.0.1", port, timeout=600, source_address=("127.0.4.1", 0))
    key = json.loads(ask(phone, "POST", "/api/groups")[1])["key"]
    game = json.loads(ask(phone, "POST", f"/g/{key}/api/games", {"players": ["Ann", "Ben", "Cat"]})[1])
    page = f"/g/{key}/games/{game['id']}"
    began = time.perf_counter()
    ask(phone, "GET", heavy[0][1])
    print(f"{groups} large groups of {games} games; {asked} alone takes "
          f"{(time.perf_counter() - began) * 1000:.0f} ms")  # fmt: skip
    print(said("the phone alone", phone_waits(phone, page, seconds)))
    stop, done = threading.Event(), []
    threads = [threading.Thread(target=asker, args=(port, *heavy[number % groups], stop, done))
               for number in range(askers)]  # fmt: skip
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
    print(said(f"beside {askers} connections asking for {asked} ({rate:.1f} answers/s)", waits))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--groups", type=int, default=1)
    parser.add_argument("--askers", type=int, default=8)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--exports", action="store_true", help="the askers ask for their group's export")
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
            asked = "history/export.json" if options.exports else f"api/games?limit={options.limit}"
            measure(server.base, options.games, options.groups, options.askers, asked, options.seconds)


if __name__ == "__main__":
    main()
