"""A group's import or export beside many other groups' small ones, each from an address of its own, on the production
server: how long it waits.

    python scripts/bench_fair_turns.py stream  [--seconds 30] [--database URL] [--url BASE]
    python scripts/bench_fair_turns.py exports [--seconds 30] [--database URL] [--url BASE]
    python scripts/bench_fair_turns.py burst   [--database URL] [--url BASE]

- stream: 16 phones, each time from an address never seen, into a group made for it, import a small file (200
  games of three names, no hand) one after the other, for SECONDS; meanwhile another group imports a file of 100
  games of 50 moons each (450 kB), and prints how long it took (and alone, before the stream).
- exports: 16 addresses each import 1,600 games of three names into a group of their own, then ask for its CSV
  export again and again on two connections (an address's most at once), for SECONDS; meanwhile another group asks
  for its export of ten games once a second, and prints the answers and the longest.
- burst: 32 addresses never seen import a file of 150 games of 50 moons each, at once; meanwhile another group asks
  for its export of ten games once a second, and prints the answers and the longest.

Starts `scorekeeper serve` as an open server on loopback (a fresh SQLite file unless --database names one), or uses
the open server at --url. Every address of 127/8 is this machine.
"""

import argparse
import http.client
import json
import sys
import tempfile
import threading
import time
from itertools import count
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]  # the other benchmarks' phones, and the tests' server
from bench_imports import Importer, export  # noqa: E402

from server import running_server  # noqa: E402

PHONES = 16  # the stream's phones, and the exports' addresses
BURST = 32
ADDRESSES = count(1)


def fresh_address() -> str:
    """An address of 127/8 not used before by this run."""
    number = next(ADDRESSES)
    return f"127.{20 + number // 65536}.{number // 256 % 256}.{number % 256}"


def small_games(games: int) -> bytes:
    made = [{"players": ["A", "B", "C"]} for _ in range(games)]
    return json.dumps({"format": "hearts-scorekeeper", "version": 1, "games": made}).encode()


def looped(work, seconds: float, phones: int) -> list[threading.Thread]:
    """``phones`` threads, each doing ``work`` again and again for ``seconds``."""
    until = time.monotonic() + seconds

    def loop() -> None:
        while time.monotonic() < until:
            work()

    threads = [threading.Thread(target=loop) for _ in range(phones)]
    for thread in threads:
        thread.start()
    return threads


def exports_each_second(phone: Importer, done: threading.Event) -> list[str]:
    """``phone``'s group's export, once a second until ``done``: each answer and how long it took."""
    answers = []
    while not done.is_set():
        answers.append(phone.exported())
        done.wait(1.0)
    return answers


def summary(answers: list[str]) -> str:
    written = [float(answer.split()[2]) for answer in answers if answer.startswith("200")]
    refused = sum(not answer.startswith("200") for answer in answers)
    longest = f", the longest in {max(written):.2f} s" if written else ""
    return f"{len(written)} of {len(answers)} written{longest}; {refused} refused"


def stream(base: str, seconds: float) -> None:
    honest = Importer(base, "127.0.9.1")
    honest.send(export(100))
    print(f"the 100-game import alone: {honest.status} in {honest.seconds:.2f} s")
    small = small_games(200)
    print(f"{PHONES} phones import {len(small) / 1e3:.1f} kB files of 200 games, each from a fresh address")
    imported = []

    def one() -> None:
        phone = Importer(base, fresh_address())
        phone.send(small)
        imported.append(phone.status)

    threads = looped(one, seconds, PHONES)
    time.sleep(seconds / 3)
    honest = Importer(base, "127.0.9.2")
    honest.send(export(100))
    print(f"the 100-game import during the stream: {honest.status} in {honest.seconds:.2f} s")
    for thread in threads:
        thread.join()
    print(f"the stream: {len(imported)} imports, {imported.count(302)} imported")


def exports(base: str, seconds: float) -> None:
    loopers = [Importer(base, fresh_address()) for _ in range(PHONES)]
    for phone in loopers:
        phone.send(small_games(1600))
        assert phone.status == 302, phone.status
    victim = Importer(base, "127.0.9.3")
    victim.start_games(10)
    print(f"the ten-game export alone: {victim.exported()}")
    print(f"{PHONES} addresses ask for the CSV export of their 1,600 games again and again, two at a time")
    asked: list[int] = []

    def ask_again(phone: Importer) -> None:
        where = urlsplit(base)
        source = phone.connection.source_address[0]
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=600, source_address=(source, 0))
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            connection.request("GET", phone.path.replace("/import", "/export.csv"))
            answer = connection.getresponse()
            answer.read()
            asked.append(answer.status)

    threads = [threading.Thread(target=ask_again, args=(phone,)) for phone in loopers * 2]
    for thread in threads:
        thread.start()
    time.sleep(2)
    done = threading.Event()
    timer = threading.Timer(seconds - 4, done.set)
    timer.start()
    answers = exports_each_second(victim, done)
    for thread in threads:
        thread.join()
    print(f"the ten-game export meanwhile: {summary(answers)}")
    print(f"the looping exports: {len(asked)}, {asked.count(200)} written, {asked.count(503)} refused")


def burst(base: str) -> None:
    victim = Importer(base, "127.0.9.4")
    victim.start_games(10)
    print(f"the ten-game export alone: {victim.exported()}")
    phones = [Importer(base, fresh_address()) for _ in range(BURST)]
    file = export(150)
    print(f"{BURST} fresh addresses import a file of 150 games ({len(file) / 1e6:.2f} MB) at once")
    threads = [threading.Thread(target=phone.send, args=(file,)) for phone in phones]
    for thread in threads:
        thread.start()
    done = threading.Event()

    def watch() -> None:
        for thread in threads:
            thread.join()
        done.set()

    threading.Thread(target=watch).start()
    answers = exports_each_second(victim, done)
    print(f"the ten-game export meanwhile: {summary(answers)}")
    imported, last = [phone.status for phone in phones].count(302), max(phone.seconds for phone in phones)
    print(f"the burst: {imported} of {BURST} imported, the last in {last:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("stream", "exports", "burst"))
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--database", help="a PostgreSQL URL; a fresh SQLite file when left out")
    parser.add_argument("--url", help="an open server already running (its base URL)")
    options = parser.parse_args()

    def measure(base: str) -> None:
        if options.kind == "stream":
            stream(base, options.seconds)
        elif options.kind == "exports":
            exports(base, options.seconds)
        else:
            burst(base)

    if options.url:
        measure(options.url)
        return
    with tempfile.TemporaryDirectory() as folder:
        database = options.database or f"sqlite:///{folder}/turns.sqlite"
        with running_server(database, extra_env={"SCOREKEEPER_GROUPS": "open"}) as server:
            measure(server.base)


if __name__ == "__main__":
    main()
