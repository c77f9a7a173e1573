"""Sixth probe, M5: eight connections asking back to back for the list of their own group's 1,500 games held every
page thread, and another group's phone waited behind them (p50 274 ms; alone, 6 ms). Now a group and an address
each have a share of the threads (server/shares.py): the rest of their requests wait in the event loop. How long the
phone waits is measured by scripts/bench_heavy_pages.py; here, that the share holds."""

import asyncio
import inspect
import socket
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from test_groups import client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures

from scorekeeper.server import asgi, shares
from scorekeeper.service import games

from conftest import run_apart, until
from server import running_here, served_here, status_from

pytestmark = pytest.mark.server

GUARD_SECONDS = 30  # a cap on a hang, never a measure
HEAVY, PHONE = "127.0.9.1", "127.0.9.2"


class Asking:
    """Requests to ``taken``'s threads, in the event loop: each answer notes its name and holds its thread until it
    is told it is done."""

    def __init__(self, taken):
        self.taken, self.order, self.done, self.finished = taken, [], defaultdict(asyncio.Event), False

    async def answer(self, name):
        self.order.append(name)
        if not self.finished:
            await self.done[name].wait()

    def ask(self, name, address, group):
        keys = self.taken.keys(address, f"/g/{group}/api/games")
        return asyncio.ensure_future(self.taken.run(keys, self.answer(name)))

    def finish(self):
        """Every answer done, those begun and those to come."""
        self.finished = True
        for each in self.done.values():
            each.set()


async def settle():
    for _ in range(10):  # each request comes as far as it may (each step of the loop's, no time passing)
        await asyncio.sleep(0)


def test_a_group_takes_its_share_of_the_threads_and_another_groups_phone_the_rest(open_app, client, monkeypatch):  # noqa: F811
    heavy = start_group(client, address=HEAVY)["key"]
    other = start_group(client, address=PHONE)["key"]
    game = start_game(client, other)
    entered, go_on, listed = [], threading.Event(), games.list_games

    def held_list(*args):  # the heavy group's list, held in the app until told
        entered.append(1)
        go_on.wait(GUARD_SECONDS)
        return listed(*args)

    monkeypatch.setattr(games, "list_games", held_list)
    with served_here(open_app, threads=shares.EACH + 1) as base, ThreadPoolExecutor(shares.EACH + 2) as asking:
        page = f"/g/{heavy}/api/games"
        lists = [asking.submit(status_from, base, HEAVY, "GET", page) for _ in range(shares.EACH + 2)]
        try:
            until(lambda: len(entered) == shares.EACH)
            assert status_from(base, PHONE, "GET", f"/g/{other}/api/games/{game['id']}") == 200  # a thread is free
            assert len(entered) == shares.EACH  # the heavy group's other requests wait, holding no thread
        finally:
            go_on.set()
        assert [answer.result(GUARD_SECONDS) for answer in lists] == [200] * (shares.EACH + 2)


def test_a_request_whose_client_left_while_it_waited_for_its_share_is_never_begun(open_app, client, monkeypatch):  # noqa: F811
    """Seventh probe: 8,000 heavy requests, each closed 0.2 s after it was sent, kept two processes busy for
    minutes after the sender stopped: each was answered in its turn, for nobody. One never begun is never run."""
    heavy = start_group(client, address=HEAVY)["key"]
    asked, go_on, listed = [], threading.Event(), games.list_games

    def held_list(limit, *rest):  # a list of one game is held in the app until told
        asked.append(limit)
        if limit == 1:
            go_on.wait(GUARD_SECONDS)
        return listed(limit, *rest)

    monkeypatch.setattr(games, "list_games", held_list)
    page = f"/g/{heavy}/api/games"
    with running_here(open_app, threads=shares.EACH + 1) as server, ThreadPoolExecutor(shares.EACH) as asking:
        host, port = server.addresses()[0]
        base, taken = f"http://{host}:{port}", server.server.config.app.shares

        def in_line():
            return taken.shares.users(("group", heavy))

        held = [asking.submit(status_from, base, HEAVY, "GET", f"{page}?limit=1") for _ in range(shares.EACH)]
        try:
            until(lambda: len(asked) == shares.EACH)
            leaving = socket.create_connection((host, port), source_address=(HEAVY, 0))
            leaving.sendall(f"GET {page}?limit=2 HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            until(lambda: in_line() == shares.EACH + 1)  # it waits for the group's share
            leaving.close()
            until(lambda: in_line() == shares.EACH)  # and leaves the line with its client
        finally:
            go_on.set()
        assert [answer.result(GUARD_SECONDS) for answer in held] == [200] * shares.EACH
        assert status_from(base, HEAVY, "GET", f"{page}?limit=3") == 200
    assert asked == [1] * shares.EACH + [3]


def test_a_request_waiting_for_its_share_when_the_server_stops_is_closed_never_begun():
    """Twenty-sixth probe, N6: a process stopped while requests waited for their share logged "coroutine
    'WSGIMiddleware.__call__' was never awaited": the answer was closed only when its client left, not when the server
    cancelled the wait."""

    async def scenario():
        each, key, held, stays = shares.Each(1), ("group", "busy"), asyncio.Event(), asyncio.Event()

        async def client_stays():
            await stays.wait()
            return {"type": "http.disconnect"}

        async def answer():
            await held.wait()

        first = asyncio.create_task(each.run([key], answer()))  # holds the group's one place
        waiting = answer()
        lane = partial(each.run, [key])
        stopped = asyncio.create_task(asgi.unless_left(client_stays, lane, waiting, threading.Event()))
        while each.users(key) < 2:
            await asyncio.sleep(0)
        stopped.cancel()  # what the server does to what still waits once its seconds to stop are over
        with pytest.raises(asyncio.CancelledError):
            await stopped
        held.set()
        await first
        return inspect.getcoroutinestate(waiting)

    assert run_apart(scenario()) == inspect.CORO_CLOSED


def test_an_address_has_its_share_whatever_its_groups_and_a_group_whatever_its_addresses(monkeypatch):
    """A group's share holds from any address; an address's holds for any group but a light one (below)."""
    monkeypatch.setattr(shares, "EACH", 1)

    async def scenario():
        taken, order, go_on = shares.Shares(threads=8), [], asyncio.Event()
        for group in ("groupA", "groupB", "groupC"):  # none of them light, none busy
            taken.note([("group", group)], (shares.LIGHT_SECONDS + shares.BUSY_SECONDS) / 2)

        async def answer(name):
            order.append(name)
            await go_on.wait()

        asked = [
            ("first", "192.0.2.1", "/g/groupA/api/games"),
            ("same address, other group", "192.0.2.1", "/g/groupB/api/games"),
            ("same group, other address", "192.0.2.2", "/g/groupA/api/games"),
            ("neither", "192.0.2.3", "/g/groupC/api/games"),
        ]
        running = [asyncio.ensure_future(taken.run(taken.keys(address, path), answer(name)))
                   for name, address, path in asked]  # fmt: skip
        for _ in range(10):  # each request comes to its shares (each step of the loop's, no time passing)
            await asyncio.sleep(0)
        begun = list(order)
        go_on.set()
        await asyncio.gather(*running)
        return begun, order, taken.shares.held

    begun, answered, held = run_apart(scenario())
    assert begun == ["first", "neither"]
    assert len(answered) == 4  # the others in their turn
    assert not held  # the shares no request holds are forgotten


def test_a_phone_at_an_address_busy_with_another_groups_requests_waits_for_one_of_them(monkeypatch):
    """Seventh probe: 40 connections of one group looping a heavy page, and a phone of another group at the same
    address (a household, a club's Wi-Fi) waited 3.5 s at p50 behind all of them. The group's share is taken first
    now, so the group's own requests wait for it, holding nothing; and the phone's group is light, so it is not
    held for its address's share either."""
    monkeypatch.setattr(shares, "EACH", 1)

    async def scenario():
        taken, order, go_on = shares.Shares(threads=8), [], asyncio.Event()

        async def answer(name):
            order.append(name)
            await go_on.wait()

        running = [asyncio.ensure_future(taken.run(taken.keys("192.0.2.1", path), answer(name)))
                   for name, path in [("heavy 1", "/g/heavy/api/games"), ("heavy 2", "/g/heavy/api/games"),
                                      ("heavy 3", "/g/heavy/api/games"), ("phone", "/g/other/games/1")]]  # fmt: skip
        for _ in range(10):  # each request comes to its shares (each step of the loop's, no time passing)
            await asyncio.sleep(0)
        go_on.set()
        await asyncio.gather(*running)
        return order

    assert run_apart(scenario()) == ["heavy 1", "phone", "heavy 2", "heavy 3"]


def test_a_groups_taps_are_not_held_behind_its_followers_asking():
    """Twentieth probe, F: sixty phones of a club, left no follow stream, asked for the board every second, took the
    group's share, and the table's taps waited about 5 s behind them. Now the follow pages' boards and streams have
    a share of their own, the group's followers': the group's taps wait for none of them."""

    async def scenario():
        taken, order, go_on = shares.Shares(threads=8), [], asyncio.Event()

        async def answer(name):
            order.append(name)
            await go_on.wait()

        asked = [*((f"board {n}", "/g/club/games/1/follow/board") for n in range(6)),
                 ("stream", "/g/club/games/1/follow/events"), ("tap", "/g/club/api/games/1/hands")]  # fmt: skip
        running = [asyncio.ensure_future(taken.run(taken.keys("192.0.2.1", path), answer(name)))
                   for name, path in asked]  # fmt: skip
        await settle()
        begun = list(order)
        go_on.set()
        await asyncio.gather(*running)
        return begun, order

    begun, answered = run_apart(scenario())
    assert begun == ["board 0", "board 1", "tap"]  # the followers' share, and the tap beside it at once
    assert len(answered) == 8


def test_a_free_thread_goes_to_the_request_whose_group_has_had_the_least_time_in_the_app_lately():
    """Seventh probe: four groups from four addresses, each asking for its own list of 100 long games, took the
    eight threads within their shares, and another group's phone waited behind them (p50 248 to 544 ms). A free
    thread now goes to the request whose group has had the least of them lately, not to the first come."""
    now = [100.0]

    async def scenario():
        taken = shares.Shares(threads=1, clock=lambda: now[0])
        asking = Asking(taken)
        running = [asking.ask("heavy 1", "192.0.2.1", "heavy")]
        await settle()
        running += [asking.ask("heavy 2", "192.0.2.2", "heavy"), asking.ask("gone", "192.0.2.4", "left")]
        running.append(asking.ask("phone", "192.0.2.3", "other"))
        await settle()
        running[2].cancel()  # its client left while it waited: it never begins, and takes no turn
        now[0] += 5  # the heavy group's first request had the thread 5 s
        asking.done["heavy 1"].set()
        await settle()
        after_heavy = list(asking.order)
        asking.done["phone"].set()
        asking.done["heavy 2"].set()
        await asyncio.gather(*running, return_exceptions=True)
        now[0] += shares.HALF_LIFE_SECONDS
        return after_heavy, asking.order, taken

    after_heavy, order, taken = run_apart(scenario())
    assert after_heavy == ["heavy 1", "phone"]  # the phone came after the heavy group's second, and goes first
    assert order == ["heavy 1", "phone", "heavy 2"]
    assert taken.time_of([("group", "heavy")]) == pytest.approx(2.5)  # 5 s, counted half after a half-life
    assert (taken.free, taken.waiting, taken.shares.held) == (1, [], {})


def test_busy_groups_run_two_requests_at_once_in_all_and_leave_the_other_threads_to_the_rest():
    """With four groups asking for heavy lists, the eight threads ran eight heavy requests, and another group's
    phone, given a thread at once, shared one processor with eight (p50 198 ms). Busy groups now run BUSY_MOST
    requests at once in all: as much processor for them, and a phone shares it with two."""
    now = [100.0]

    async def scenario():
        taken = shares.Shares(threads=4, clock=lambda: now[0])
        asking = Asking(taken)
        for group in ("heavy", "hog"):
            taken.note([("group", group)], 2 * shares.BUSY_SECONDS)  # each has had the app long, lately
        running = [asking.ask("heavy 1", "192.0.2.1", "heavy"), asking.ask("hog 1", "192.0.2.2", "hog"),
                   asking.ask("heavy 2", "192.0.2.3", "heavy"), asking.ask("phone", "192.0.2.4", "other")]  # fmt: skip
        await settle()
        begun = list(asking.order)
        asking.done["heavy 1"].set()
        await settle()
        after_one = list(asking.order)
        asking.finish()
        await asyncio.gather(*running)
        return begun, after_one, taken

    begun, after_one, taken = run_apart(scenario())
    assert begun == ["heavy 1", "hog 1", "phone"]  # two threads of four are free, and kept from the busy
    assert after_one == [*begun, "heavy 2"]
    assert (taken.free, taken.busy, taken.waiting) == (4, 0, [])


def test_a_light_groups_phone_behind_a_busy_address_is_not_held_with_the_busy():
    """Eighth probe: a club of twenty tables in one group, behind one address (its Wi-Fi), had as much time in the
    app as a heavy group, was counted busy, and waited with the heavy (p95 4.9 s). Busy and light go by the time in
    heavy requests: the club's group is light, and its phones run beside the busy, not after them, even with a busy
    group at their address. Many groups from one address, each of them not quite busy, are."""
    now = [100.0]

    async def scenario():
        taken = shares.Shares(threads=4, clock=lambda: now[0])
        asking = Asking(taken)
        taken.note([("group", "heavy"), ("address", "192.0.2.1")], 2 * shares.BUSY_SECONDS)
        taken.note([("group", "rotating"), ("address", "192.0.2.1")], (shares.LIGHT_SECONDS + shares.BUSY_SECONDS) / 2)
        taken.note([("group", "hog")], 2 * shares.BUSY_SECONDS)
        for _ in range(100):  # the club's taps: as much time as the heavy group's, a few milliseconds each
            taken.note([("group", "club"), ("address", "192.0.2.1")], 2 * shares.BUSY_SECONDS / 100)
        running = [asking.ask(name, address, group) for name, address, group in [
            ("heavy 1", "192.0.2.1", "heavy"), ("hog 1", "192.0.2.2", "hog"),
            ("rotating", "192.0.2.1", "rotating"), ("table", "192.0.2.1", "club")]]  # fmt: skip
        await settle()
        begun = list(asking.order)
        asking.finish()
        await asyncio.gather(*running)
        return begun, asking.order

    begun, order = run_apart(scenario())
    assert begun == ["heavy 1", "hog 1", "table"]  # the rotating group waits with the busy; the club's table not
    assert order[-1] == "rotating"


def test_a_request_cancelled_as_a_thread_comes_free_takes_none():
    """Eighth probe: a request cancelled while it waited (its client left) stays among the waiting until its task
    next runs; a thread freed in between was given to it, set on its cancelled turn (InvalidStateError), and lost
    for good, and with two lost, no busy group was served again."""

    async def scenario():
        taken = shares.Shares(threads=1)
        asking = Asking(taken)
        first = asking.ask("first", "192.0.2.1", "a")
        await settle()
        gone = asking.ask("gone", "192.0.2.1", "b")
        await settle()
        asking.done["first"].set()  # the first ends on the loop's next step...
        gone.cancel()  # ...and the waiting one's client leaves before it
        await asyncio.gather(first, gone, return_exceptions=True)
        late = asking.ask("next", "192.0.2.1", "c")
        await settle()
        asking.done["next"].set()
        await asyncio.wait({late}, timeout=GUARD_SECONDS)  # a lost thread: it never begins
        return asking.order, first.exception(), taken

    order, failed, taken = run_apart(scenario())
    assert failed is None
    assert order == ["first", "next"]
    assert (taken.free, taken.busy, taken.waiting, dict(taken.running)) == (1, 0, [], {})
