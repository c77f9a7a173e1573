"""How long a group's small import waits while other groups import large files, on the production server.

    python scripts/bench_imports.py [--large 3] [--games 1500] [--database URL] [--url BASE]

Starts `scorekeeper serve` as an open server on loopback (a fresh SQLite file unless --database names one; or uses
the open server at --url). LARGE groups, each from an address of its own, import a large file of their own at once
(GAMES games of 50 moons each, every game new); once every large file is sent, and 2 s more for the server to begin
them, another group, from another address, imports a file of one game, then exports its SMALL games (the others
started before). Prints each import's answer and how long it took, the small one's first, and its export's.
(Every address of 127/8 is this machine.)
"""

import argparse
import http.client
import json
import re
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]  # the other benchmarks' phones, and the tests' server
from bench_guesses import ask  # noqa: E402

from server import running_server  # noqa: E402

BEGUN_SECONDS = 2  # after the large files are sent: the server has read them and begun their imports
SMALL = 10  # games the small group exports: one it imported, and games of its own
MOON = {"hearts": [13, 0, 0, 0], "queen": 0, "moon": {"shooter": 0, "option": "subtract"}}


def export(games: int) -> bytes:
    """An export of ``games`` new games, each of 50 moons subtracted (as heavy to check as a game gets)."""
    made = [{"players": ["Ann", "Ben", "Cat", "Dan"], "uid": uuid.uuid4().hex, "hands": [MOON] * 50}
            for _ in range(games)]  # fmt: skip
    return json.dumps({"format": "hearts-scorekeeper", "version": 1, "games": made}).encode()


class Importer:
    """A phone of its own group, at its own address, on the import page (its CSRF token and cookie in hand)."""

    def __init__(self, base: str, address: str) -> None:
        where = urlsplit(base)
        self.connection = http.client.HTTPConnection(where.hostname, where.port, timeout=3600,
                                                     source_address=(address, 0))  # fmt: skip
        self.connection.request("POST", "/api/groups")
        answer = self.connection.getresponse()
        assert answer.status == 201, answer.read()
        self.path = f"/g/{json.loads(answer.read())['key']}/history/import"
        self.connection.request("GET", self.path)
        page = self.connection.getresponse()
        self.cookie = (page.getheader("Set-Cookie") or "").split(";")[0]
        found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.read().decode())
        self.token = found.group(1) if found else ""
        self.sent = threading.Event()
        self.status, self.seconds = 0, 0.0

    def send(self, document: bytes) -> None:
        boundary = uuid.uuid4().hex
        fields = f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{self.token}\r\n'
        fields += f'--{boundary}\r\nContent-Disposition: form-data; name="export"; filename="export.json"\r\n\r\n'
        body = fields.encode() + document + f"\r\n--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": self.cookie}
        began = time.monotonic()
        self.connection.request("POST", self.path, body, headers)
        self.sent.set()
        answer = self.connection.getresponse()
        answer.read()
        self.status, self.seconds = answer.status, time.monotonic() - began

    def start_games(self, games: int) -> None:
        games_path = self.path.replace("/history/import", "/api/games")
        for _ in range(games):
            status, said = ask(self.connection, "POST", games_path, {"players": ["Ann", "Ben", "Cat"]})
            assert status == 201, said

    def exported(self) -> str:
        """The group's export, read whole: its answer and how long it took."""
        began = time.monotonic()
        self.connection.request("GET", self.path.replace("/import", "/export.json"), headers={"Cookie": self.cookie})
        answer = self.connection.getresponse()
        answer.read()
        return f"{answer.status} in {time.monotonic() - began:.2f} s"


def measure(base: str, large: int, games: int) -> None:
    big = [Importer(base, f"127.0.6.{number + 1}") for number in range(large)]
    small = Importer(base, "127.0.7.1")
    small.start_games(SMALL - 1)
    files = [export(games) for _ in big]
    print(f"{large} large files of {games} games ({len(files[0]) / 1e6:.1f} MB each), then one of one game")
    threads = [threading.Thread(target=phone.send, args=(file,)) for phone, file in zip(big, files, strict=True)]
    for thread in threads:
        thread.start()
    for phone in big:
        phone.sent.wait()
    time.sleep(BEGUN_SECONDS)
    small.send(export(1))
    print(f"the small import: {small.status} in {small.seconds:.2f} s")
    print(f"its export: {small.exported()} while the large ones go on")
    for thread in threads:
        thread.join()
    for number, phone in enumerate(big, 1):
        print(f"large import {number}: {phone.status} in {phone.seconds:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=int, default=3)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--database", help="a PostgreSQL URL; a fresh SQLite file when left out")
    parser.add_argument("--url", help="an open server already running (its base URL)")
    options = parser.parse_args()
    if options.url:
        measure(options.url, options.large, options.games)
        return
    with tempfile.TemporaryDirectory() as folder:
        database = options.database or f"sqlite:///{folder}/imports.sqlite"
        with running_server(database, extra_env={"SCOREKEEPER_GROUPS": "open"}) as server:
            measure(server.base, options.large, options.games)


if __name__ == "__main__":
    main()
