"""How long the phones wait beside slow clients, on the production server with nothing in front.

    python scripts/bench_slow_clients.py [--slow 64] [--attacker 540] [--seconds 20] [--phones 4]

Starts `scorekeeper serve` on loopback (its own settings: threads, limits) on a fresh
SQLite database with one game of eight hands. Then, three times for the same time: phones
loading the table page and the game's JSON one after another, each on its own
keep-alive connection; the first time alone; the second beside SLOW slow clients from
8 addresses: half send a request line and part of a header, the other half whole
headers of a POST and then its body, each one byte every 2 s (they are reopened when
the server closes them); the third beside one attacker: ATTACKER such connections, all
from one address. Prints the requests answered, their p50, p95 and longest wait, and
what became of the slow connections. (Every address of 127/8 is this machine: the
phones, the slow clients and the attacker each connect from addresses of their own.)
"""

import argparse
import http.client
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from server import call, running_server  # noqa: E402

HANDS = [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2), ([2, 3, 4, 4], 0), ([1, 1, 1, 10], 3)]
BYTE_EVERY = 2.0  # seconds between two bytes of a slow client
SLOW_HEADER = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
SLOW_BODY = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 65536\r\n\r\n{")  # fmt: skip


class SlowClients(threading.Thread):
    """``count`` connections from ``sources`` in turn, each sending one byte every BYTE_EVERY seconds; reopened
    when the server closes one."""

    def __init__(self, port: int, count: int, sources: list[str]):
        super().__init__(daemon=True)
        self.port, self.count, self.sources = port, count, sources
        self.stop = threading.Event()
        self.opened = self.closed_by_server = self.open_at_the_end = 0
        self.sockets: list[tuple[socket.socket, bytes, str]] = []

    def open(self, start: bytes, source: str) -> tuple[socket.socket, bytes, str]:
        client = socket.create_connection(("127.0.0.1", self.port), 5, (source, 0))
        client.sendall(start)
        self.opened += 1
        return client, start, source

    def run(self) -> None:
        self.sockets = [self.open(SLOW_HEADER if k % 2 else SLOW_BODY, self.sources[k % len(self.sources)])
                        for k in range(self.count)]  # fmt: skip
        while not self.stop.wait(BYTE_EVERY / self.count):
            client, start, source = self.sockets.pop(0)  # one at a time: every client sends once per BYTE_EVERY
            try:
                client.sendall(b"a")
            except OSError:
                self.closed_by_server += 1
                client.close()
                client, start, source = self.open(start, source)
            self.sockets.append((client, start, source))
        self.open_at_the_end = sum(still_open(client) for client, _, _ in self.sockets)
        for client, _, _ in self.sockets:
            client.close()


def still_open(client: socket.socket) -> bool:
    """True while the server keeps the connection: nothing to read, and no end of it."""
    client.setblocking(False)
    try:
        return client.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def phone(port: int, paths: list[str], until: float, waits: list[float], errors: list[str]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < until:
        for path in paths:
            start = time.perf_counter()
            try:
                connection.request("GET", path)
                answer = connection.getresponse()
                answer.read()
            except (OSError, http.client.HTTPException) as failure:
                errors.append(f"{path}: {failure!r}")
                connection.close()
                continue
            waits.append(time.perf_counter() - start)
            if answer.status != 200:
                errors.append(f"{path}: {answer.status}")
    connection.close()


def phones_for(port: int, game: int, phones: int, seconds: float) -> tuple[list[float], list[str]]:
    waits: list[float] = []
    errors: list[str] = []
    until = time.monotonic() + seconds
    paths = [f"/games/{game}", f"/api/games/{game}"]
    threads = [threading.Thread(target=phone, args=(port, paths, until, waits, errors)) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return waits, errors


def report(name: str, waits: list[float], errors: list[str], seconds: float) -> None:
    ms = sorted(wait * 1000 for wait in waits)
    if not ms:
        print(f"{name}: no request answered in {seconds:.0f} s; errors {len(errors)}")
        return
    p95 = ms[max(0, int(len(ms) * 0.95) - 1)]
    print(f"{name}: {len(ms)} requests answered in {seconds:.0f} s ({len(ms) / seconds:.0f}/s), "
          f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, longest {ms[-1]:.1f} ms, "
          f"errors {len(errors)}{(': ' + errors[0]) if errors else ''}")  # fmt: skip


def beside(port: int, game: int, args: argparse.Namespace, name: str, slow: SlowClients) -> None:
    """The phones for ``args.seconds`` while ``slow`` holds its connections, and what became of those."""
    slow.start()
    while len(slow.sockets) < slow.count and slow.is_alive():
        time.sleep(0.05)  # all of them connected and started before the phones go
    try:
        waits, errors = phones_for(port, game, args.phones, args.seconds)
    finally:
        slow.stop.set()
        slow.join()
    report(name, waits, errors, args.seconds)
    print(f"    {slow.opened} connections opened, {slow.closed_by_server} closed by the server, "
          f"{slow.open_at_the_end} of {slow.count} open at the end; a byte every {BYTE_EVERY:.0f} s each")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slow", type=int, default=64, help="slow clients, from 8 addresses")
    parser.add_argument("--attacker", type=int, default=540, help="slow connections from one address")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--phones", type=int, default=4, help="phones loading pages one after another")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, running_server(f"sqlite:///{folder}/slow.sqlite") as server:
        port = int(server.base.rsplit(":", 1)[1])
        game = call("POST", server.base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})[1]["id"]
        for hearts, queen in HANDS * 2:
            call("POST", f"{server.base}/api/games/{game}/hands", {"hearts": hearts, "queen": queen})
        report("alone", *phones_for(port, game, args.phones, args.seconds), args.seconds)
        eight = [f"127.0.1.{k}" for k in range(1, 9)]
        beside(port, game, args, f"beside {args.slow} slow clients", SlowClients(port, args.slow, eight))
        attacker = SlowClients(port, args.attacker, ["127.0.3.1"])
        beside(port, game, args, f"beside one address with {args.attacker} slow connections", attacker)
        status, _ = call("GET", server.base + "/api/games")
        print(f"after them: GET /api/games answers {status}")


if __name__ == "__main__":
    main()
