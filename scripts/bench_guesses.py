"""How long a group's phone waits while many addresses guess group keys, on the production server.

    python scripts/bench_guesses.py [--guessers 128] [--seconds 8] [--database URL] [--pin]

Starts `scorekeeper serve` as an open server on loopback (a fresh SQLite file unless --database names one) with
one group and its game. Times the phone loading the game's table page, one load every 50 ms: first alone, then
while GUESSERS addresses each send wrong keys back to back on a keep-alive connection, from the moment every one
of them is past its 30 wrong keys an hour (so each guess is a 429). Prints the phone's p50, p95 and longest wait,
and the guesses answered a second. With --pin the server runs on the first core and this script on the second.
(Every address of 127/8 is this machine: the phone and each guesser connect from an address of their own.)
"""

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from server import running_server  # noqa: E402

WRONG_KEYS = 30  # an address's wrong keys an hour before it is answered 429 (security/allowances.py)


def ask(connection: http.client.HTTPConnection, method: str, path: str, body: object = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    return answer.status, answer.read()


def phone_waits(connection: http.client.HTTPConnection, page: str, seconds: float) -> list[float]:
    """The phone's waits for ``page``, in ms, one load every 50 ms for ``seconds``."""
    waits, until = [], time.monotonic() + seconds
    while time.monotonic() < until:
        start = time.perf_counter()
        status, _page = ask(connection, "GET", page)
        assert status == 200, status
        waits.append((time.perf_counter() - start) * 1000)
        time.sleep(0.05)
    return waits


def guess(port: int, number: int, stop: threading.Event, done: list[int]) -> None:
    """One address's wrong keys, back to back, until ``stop``; ``done[number]`` counts them."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address(number), 0))
    while not stop.is_set():
        ask(connection, "GET", f"/g/guess{number:03d}x{done[number]:06d}/api/games")
        done[number] += 1


def address(number: int) -> str:
    return f"127.0.{5 + number // 250}.{number % 250 + 1}"


def said(label: str, waits: list[float]) -> str:
    tail = sorted(waits)[int(len(waits) * 0.95)]
    return f"{label}: p50 {statistics.median(waits):.1f} ms, p95 {tail:.1f} ms, longest {max(waits):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guessers", type=int, default=128)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--database", help="a PostgreSQL URL; a fresh SQLite file when left out")
    parser.add_argument("--pin", action="store_true", help="the server on the first core, this script on the second")
    options = parser.parse_args()
    if options.pin:
        os.sched_setaffinity(0, {1})
    with tempfile.TemporaryDirectory() as folder:
        database = options.database or f"sqlite:///{folder}/guesses.sqlite"
        pinned = ("taskset", "-c", "0") if options.pin else ()
        with running_server(database, extra_env={"SCOREKEEPER_GROUPS": "open"}, before=pinned) as server:
            port = int(server.base.rsplit(":", 1)[1])
            phone = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=("127.0.4.1", 0))
            key = json.loads(ask(phone, "POST", "/api/groups")[1])["key"]
            game = json.loads(ask(phone, "POST", f"/g/{key}/api/games", {"players": ["Ann", "Ben", "Cat"]})[1])
            page = f"/g/{key}/games/{game['id']}"
            print(said("the phone alone", phone_waits(phone, page, options.seconds)))
            stop, done = threading.Event(), [0] * options.guessers
            guessers = [threading.Thread(target=guess, args=(port, n, stop, done)) for n in range(options.guessers)]
            for each in guessers:
                each.start()
            while min(done) <= WRONG_KEYS:  # every address past its limit: from here on, each guess is a 429
                time.sleep(0.1)
            began, before = time.monotonic(), sum(done)
            waits = phone_waits(phone, page, options.seconds)
            rate = (sum(done) - before) / (time.monotonic() - began)
            stop.set()
            for each in guessers:
                each.join()
            print(said(f"beside {options.guessers} guessing addresses ({rate:.0f} guesses/s)", waits))


if __name__ == "__main__":
    main()
