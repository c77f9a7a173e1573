"""Many tables at once on the production server: how many does one machine hold?

    python scripts/bench_tables.py [--tables 300] [--seconds 60] [--ramp 20] [--processes 1|2]
                                   [--database URL] [--url URL ...] [--hand-every 15] [--pin]

Each table plays as a real one does, from a loopback address of its own (127.0.x.y;
every 127/8 address is this machine): three phones follow the game as static/follow.js
does, and one phone records a hand every 15 s through the API and then loads the table
page. A follower holds the game's stream (Server-Sent Events) where the server has one,
and fetches the board (If-None-Match) each time it is told a new version; on a server
without one it asks for its board every second after the last answer. Tables start one
after another over ``--ramp`` seconds; then every request is timed for ``--seconds``.

``--pin``: the servers started run on the first core and this script on the second
(``taskset``, Linux): with both on both cores, the load's own processor decides the tail.

Without ``--url`` the script starts ``--processes`` servers (``scorekeeper serve``,
as `make run` does) open to many groups (SCOREKEEPER_GROUPS=open) on ``--database``
(default: a fresh SQLite file), and every table is a group of its own, started from
its own address; the phones of a table are spread over the processes, as a load
balancer would. With ``--url`` (one for each process of a server already running)
the tables play there: in groups of their own on an open server, at the root of a
server that is one group's.

Prints how long a hand took to reach a follower (from its Save to the board showing it in
the follower's hands: told and fetched, or polled), the polls' own times where
followers poll, the saves' (the hand posted plus the table page loaded) p50 and p95,
the errors, and whether every hand the server acknowledged is stored (nothing lost);
the load average before and after. Exits 1 on an error or a lost hand. Goals on one
core, for 300 tables: the board at a follower within 100 ms at p95, a save within
300 ms at p95.
"""

import argparse
import http.client
import math
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from bench_load import HANDS, Client  # noqa: E402

from server import ROOT, call, running_server  # noqa: E402

FOLLOWERS = 3  # phones following each table
POLL_EVERY = 1.0  # seconds between a follower's answer and its next question (static/follow.js)
BOARD_GOAL, SAVE_GOAL = 100, 300  # p95 in ms a table must see


@dataclass
class Table:
    number: int
    source: str  # the loopback address its phones connect from
    base: str  # the server its phones use (one process of several)
    prefix: str  # its group's address ("/g/<key>"), or "" on a server that is one group's
    game: int = 0
    acknowledged: list[int] = field(default_factory=list)  # hands the server said it stored
    sent: dict[int, float] = field(default_factory=dict)  # each hand: when its phone sent it (a tap on Save)

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])


@dataclass
class Measured:
    polls: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)  # from a hand's Save to the board showing it at a follower
    saves: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    measuring: threading.Event = field(default_factory=threading.Event)  # set once every table plays


def source_address(number: int) -> str:
    """Table ``number``'s own loopback address: 127.0.1.1, 127.0.1.2, … (127.0.0.1 is left to the servers).

    >>> source_address(0), source_address(249), source_address(250)
    ('127.0.1.1', '127.0.1.250', '127.0.2.1')
    """
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


def set_up(table: Table, errors: list[str]) -> Table:
    """The table's group (on an open server, started from the table's own address) and its game."""
    client = Client(table.port, [], errors, table.source)
    answer = client.request("POST", "/api/groups", {"name": f"Table {table.number}"})
    if answer is not None and answer.status == 201:
        table.prefix = "/g/" + answer.getheader("Location", "").rstrip("/").rsplit("/g/", 1)[1]
    elif answer is not None and answer.status == 404:
        errors.pop()  # a server that is one group's: the tables play at its root
    players = {"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 1000}}  # no game ends during a run
    answer = client.request("POST", table.prefix + "/api/games", players)
    if answer is None or answer.status != 201:
        raise RuntimeError(f"table {table.number} could not start its game: {errors[-1:]}")
    table.game = int(answer.getheader("Location", "").rstrip("/").rsplit("/", 1)[1])
    client.connection.close()
    return table


def follower(table: Table, base: str, until: float, measured: Measured) -> None:
    """A phone following the game: told by the game's stream where the server has one, else asking every second (as
    follow.js does while it has no stream; every five seconds where the server has no room for one)."""
    client = Client(int(base.rsplit(":", 1)[1]), [], measured.errors, table.source)
    time.sleep(POLL_EVERY * random.random())  # phones are not in step
    stream = http.client.HTTPConnection(
        "127.0.0.1", client.connection.port, timeout=30, source_address=(table.source, 0)
    )
    stream.request("GET", f"{table.prefix}/games/{table.game}/follow/events")
    answer = stream.getresponse()
    if answer.status == 200:
        stream.sock.settimeout(max(0.1, until - time.monotonic()))  # the stream ends with the run
        told(table, client, answer, until, measured)
    else:
        answer.read()
        polled(table, client, until, measured)
    stream.close()
    client.connection.close()


def told(table: Table, client: Client, events: http.client.HTTPResponse, until: float, measured: Measured) -> None:
    """Each version the stream tells, the board fetched with the tag held (as static/follow.js does)."""
    held, event = Held(), ""
    while time.monotonic() < until:
        try:
            line = events.readline().decode()
        except OSError:  # the run's end, as the stream's read timed out
            break
        if not line:
            measured.errors.append("a follow stream ended")
            break
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("data: ") and event == "version" and f'"{line[6:].strip()}"' != held.tag:
            fetch_board(table, client, held, measured)


def polled(table: Table, client: Client, until: float, measured: Measured) -> None:
    held = Held()
    while time.monotonic() < until:
        fetch_board(table, client, held, measured)
        time.sleep(POLL_EVERY)


@dataclass
class Held:
    """What a follower's page holds: the board's tag, and how many hands it shows."""

    tag: str = ""
    hands: int = 0


NEXT_HAND = re.compile(r"<h1>Hand (\d+)<")  # the board's next hand (English: the followers ask for no language)


def fetch_board(table: Table, client: Client, held: Held, measured: Measured) -> None:
    """The board asked for with the tag held; when it changed, each hand new on it timed from its Save."""
    timing = measured.measuring.is_set()
    start = time.perf_counter()
    answer = client.request("GET", f"{table.prefix}/games/{table.game}/follow/board",
                            headers={"If-None-Match": held.tag} if held.tag else None)  # fmt: skip
    if answer is None:
        return
    if timing:
        measured.polls.append(time.perf_counter() - start)
    if answer.status != 200:
        return
    held.tag = answer.getheader("ETag", "")
    shown = NEXT_HAND.search(client.last_body)
    hands = int(shown[1]) - 1 if shown else held.hands
    now = time.perf_counter()
    for number in range(held.hands + 1, hands + 1):
        if timing and number in table.sent:
            measured.boards.append(now - table.sent[number])
    held.hands = max(held.hands, hands)


def scorer(table: Table, until: float, every: float, measured: Measured) -> None:
    """The phone that keeps score: a hand every ``every`` seconds, then the table page, as a save does."""
    client = Client(table.port, [], measured.errors, table.source)
    game = f"{table.prefix}/api/games/{table.game}"
    next_hand = time.monotonic() + every * random.random()
    number = 1
    while True:
        time.sleep(max(0.0, min(next_hand, until) - time.monotonic()))
        if time.monotonic() >= until:
            break
        hearts, queen = HANDS[number % len(HANDS)]
        timing = measured.measuring.is_set()
        start = table.sent[number] = time.perf_counter()
        posted = client.request("POST", game + "/hands", {"number": number, "hearts": hearts, "queen": queen})
        if posted is not None and posted.status in (200, 201):  # 200: a resend of a hand stored already
            table.acknowledged.append(number)
            number += 1
        page = client.request("GET", f"{table.prefix}/games/{table.game}")
        if posted is not None and page is not None and timing:
            measured.saves.append(time.perf_counter() - start)
        next_hand += every
    client.connection.close()


def lost_hands(tables: list[Table]) -> list[str]:
    """Every hand a server acknowledged that the game does not hold."""
    lost = []
    for table in tables:
        status, game = call("GET", f"{table.base}{table.prefix}/api/games/{table.game}")
        stored = {hand["number"] for hand in game.get("hands", [])} if status == 200 else set()
        lost += [f"table {table.number}, hand {number}" for number in table.acknowledged if number not in stored]
    return lost


def percentiles(seconds: list[float]) -> str:
    if not seconds:
        return "none answered"
    return f"p50 {statistics.median(seconds) * 1000:.0f} ms, p95 {p95(seconds):.0f} ms ({len(seconds)})"


def p95(seconds: list[float]) -> float:
    """The 95th percentile in ms (nearest rank); infinite for none.

    >>> p95([0.001] * 19 + [0.5]), p95([0.010, 0.020])
    (1.0, 20.0)
    """
    ms = sorted(s * 1000 for s in seconds)
    return ms[math.ceil(len(ms) * 0.95) - 1] if ms else float("inf")


def load() -> str:
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def cpu_seconds(pids: list[int]) -> float:
    """The processor time the processes ``pids`` used so far (Linux; 0 elsewhere)."""
    used = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        used += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return used


def play(bases: list[str], args: argparse.Namespace, pids: list[int]) -> bool:
    """Every table at once on the servers at ``bases`` (processes ``pids``, when started here); prints what was
    measured; True when all held."""
    errors: list[str] = []
    tables = [Table(k, source_address(k), bases[k % len(bases)], "") for k in range(args.tables)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda table: set_up(table, errors), tables))
    measured = Measured(errors=errors)
    print(f"{args.tables} tables on {len(bases)} process(es), {load()}", flush=True)
    threading.stack_size(256 * 1024)  # a thousand threads that mostly sleep
    until = time.monotonic() + args.ramp + args.seconds
    workers = []
    for table in tables:
        workers.append(threading.Thread(target=scorer, args=(table, until, args.hand_every, measured)))
        workers += [
            threading.Thread(target=follower, args=(table, bases[(table.number + k + 1) % len(bases)], until, measured))
            for k in range(FOLLOWERS)
        ]
    for k, worker in enumerate(workers):
        worker.start()
        time.sleep(args.ramp / len(workers) if k % (FOLLOWERS + 1) == FOLLOWERS else 0)
    measured.measuring.set()
    started, cpu_before, own_before = time.monotonic(), cpu_seconds(pids), cpu_seconds([os.getpid()])
    for worker in workers:
        worker.join()
    elapsed, cpu = time.monotonic() - started, cpu_seconds(pids) - cpu_before
    own = cpu_seconds([os.getpid()]) - own_before
    lost = lost_hands(tables)
    acknowledged = sum(len(table.acknowledged) for table in tables)
    print(f"measured {elapsed:.0f} s: the board at a follower {percentiles(measured.boards)}; board requests "
          f"{percentiles(measured.polls)}; saves (post + page) "
          f"{percentiles(measured.saves)}; errors {len(errors)}{(' (' + errors[0] + ')') if errors else ''}; "
          f"hands acknowledged {acknowledged}, lost {len(lost)}{(' (' + lost[0] + ')') if lost else ''}; "
          f"{load()}")  # fmt: skip
    if pids and cpu:
        answered = len(measured.polls) + 2 * len(measured.saves)  # a stream's opening left out
        print(f"servers' processor time: {cpu:.1f} s in {elapsed:.0f} s ({cpu / elapsed:.2f} of a core), "
              f"{1000 * cpu / max(1, answered):.2f} ms a request; the phones' (this script): "
              f"{own / elapsed:.2f} of a core")  # fmt: skip
    held = p95(measured.boards) <= BOARD_GOAL and p95(measured.saves) <= SAVE_GOAL and not errors and not lost
    print(f"{'held' if held else 'did not hold'}: goals the board at a follower p95 <= {BOARD_GOAL} ms, save p95 <= "
          f"{SAVE_GOAL} ms, no error, nothing lost")  # fmt: skip
    return not errors and not lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60, help="measured, once every table plays")
    parser.add_argument("--ramp", type=float, default=20, help="seconds over which the tables start")
    parser.add_argument("--hand-every", type=float, default=15, help="seconds between two hands of a table")
    parser.add_argument("--processes", type=int, default=1, help="servers to start on the one database")
    parser.add_argument("--database", help="DATABASE_URL of the servers started (default: a fresh SQLite file)")
    parser.add_argument("--threads", type=int, help="THREADS of the servers started (default: theirs)")
    parser.add_argument("--url", action="append", help="a running server's address (one for each process)")
    parser.add_argument("--pin", action="store_true", help="the servers on the first core, the load on the second")
    parser.add_argument("--pid", type=int, action="append", default=[],
                        help="with --url: a server's process, whose processor time is measured")  # fmt: skip
    args = parser.parse_args()
    with ExitStack() as stack:
        bases, pids = args.url, args.pid
        before = ["taskset", "-c", "0"] if args.pin else []
        if args.pin:
            os.sched_setaffinity(0, {1})  # this process: every phone's thread after it
        if not bases:
            database = args.database or f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/t.sqlite"
            open_server = {"SCOREKEEPER_GROUPS": "open"}
            servers = [stack.enter_context(running_server(database, args.threads, open_server, before))
                       for _ in range(args.processes)]  # fmt: skip
            bases, pids = [server.base for server in servers], [server.process.pid for server in servers]
        held = play([base.rstrip("/") for base in bases], args, pids)
    sys.exit(0 if held else 1)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
