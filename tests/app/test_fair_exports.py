"""Issue 41, point 3: two slow readers of one group's export made every other group's export answer 503, for as long
as they liked. Now each group has exports of its own, and a reader that takes nothing is cut off."""

import asyncio
import io
import json
import logging
import socket
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

from flask import request
from test_groups import client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures
from test_imports_bounded import waiting_in_order

from scorekeeper.server import asgi, sending
from scorekeeper.service import export, games, groups, restore, turns
from scorekeeper.service import places as places_module
from scorekeeper.service.places import Places
from scorekeeper.service.turns import LONG_WORK
from scorekeeper.store import scope
from scorekeeper.store.db import db
from scorekeeper.web.views import history
from scorekeeper.web.views.history import CLIENT_LEFT, EXPORTING, EXPORTS_AT_ONCE, EXPORTS_MOST

from conftest import run_apart, until
from server import running_here, served_here, status_from

GUARD_SECONDS = 30  # a cap on a hang, never a measure


def test_one_groups_exports_never_make_another_groups_wait(client):  # noqa: F811
    a, b = start_group(client)["key"], start_group(client)["key"]
    for key in (a, b):
        start_game(client, key)
    started, go_on = threading.Barrier(EXPORTS_AT_ONCE + 1), threading.Event()

    def held_export():  # a phone of group a, its export streamed and not read until told
        answer = client.get(f"/g/{a}/history/export.json")
        started.wait()
        go_on.wait()
        return len(json.loads(answer.get_data())["games"])

    with ThreadPoolExecutor(EXPORTS_AT_ONCE) as phones:
        held = [phones.submit(held_export) for _ in range(EXPORTS_AT_ONCE)]
        started.wait()
        try:
            third = client.get(f"/g/{a}/history/export.json", environ_base={"REMOTE_ADDR": "10.2.0.3"})
            same_address = client.get(f"/g/{b}/history/export.json")  # a's phones' address: its two are written
            others = [client.get(f"/g/{b}/history/export.{kind}", environ_base={"REMOTE_ADDR": "10.2.0.2"})
                      for kind in ("json", "csv")]  # fmt: skip
        finally:
            go_on.set()
        assert third.status_code == 503  # a's own third waits its turn
        assert same_address.status_code == 503  # and so does another group's from the same address
        assert [answer.status_code for answer in others] == [200] * 2  # b's are never a's to wait for
        assert [written.result() for written in held] == [1] * EXPORTS_AT_ONCE
    assert client.get(f"/g/{a}/history/export.json").status_code == 200


def test_a_reader_that_takes_nothing_is_cut_off_and_frees_its_export(open_app, client, monkeypatch):  # noqa: F811
    """The server gives up an answer the client takes none of for SEND_WAIT_SECONDS: the thread writing the export
    goes on to its end and gives its turn back, though the client never read a byte."""
    monkeypatch.setattr(sending, "SEND_WAIT_SECONDS", 0.1)
    key = start_group(client)["key"]
    start_game(client, key)
    entry = asgi.Entry(open_app, threads=2)
    never = asyncio.Event()
    sent = []

    async def receive():
        if not sent:
            sent.append("request")
            return {"type": "http.request", "body": b"", "more_body": False}
        await never.wait()  # the client stays, and reads nothing

    async def send(message):
        sent.append(message["type"])
        if message["type"] == "http.response.body":
            await never.wait()  # its socket's buffer is full: nothing more goes out

    scope = {"type": "http", "http_version": "1.1", "method": "GET", "scheme": "http", "root_path": "",
             "path": f"/g/{key}/history/export.json", "raw_path": b"", "query_string": b"",
             "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 5), "server": ("localhost", 80)}  # fmt: skip

    async def serve():
        await asyncio.wait_for(entry.http(scope, receive, send), timeout=30)  # without the cut: never

    run_apart(serve())
    assert sent[:3] == ["request", "http.response.start", "http.response.body"]
    assert not EXPORTING.held  # its turn given back


def test_a_reader_that_takes_nothing_has_its_connection_closed_with_it(open_app, client, monkeypatch, caplog):  # noqa: F811
    """Nineteenth probe, F3: an export its reader took none of was given up, but its connection was closed as uvicorn
    closes one, open until the reader took what had been sent; and each logged an ERROR ("ASGI callable returned
    without completing response"). Now the connection is cut with the answer, and no error is logged."""
    monkeypatch.setattr(sending, "SEND_WAIT_SECONDS", 0.5)
    key = start_group(client)["key"]
    moon = {"hearts": [13, 0, 0, 0], "queen": 0, "moon": {"shooter": 0, "option": "subtract"}}
    with open_app.test_request_context():
        scope.limit_to(groups.find_group(key).id)
        games_file = [{"players": ["A", "B", "C", "D"], "uid": uuid.uuid4().hex, "hands": [moon] * 50}
                      for _ in range(30)]  # fmt: skip
        restore.import_games(io.BytesIO(json.dumps({"format": "hearts-scorekeeper", "games": games_file}).encode()))
        db.session.remove()
    with running_here(open_app) as server, socket.socket() as reader:
        watched = server.server.config.app.connections.watched
        for listening in server.sockets:  # its connections' buffers: small, the 330 kB export far larger
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # it takes little, and then nothing
        reader.connect(("127.0.0.1", server.addresses()[0][1]))
        reader.sendall(f"GET /g/{key}/history/export.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        until(lambda: reader.getsockname() in watched)
        until(lambda: reader.getsockname() not in watched)  # closed, though what it was sent waits for it
    assert not [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def test_exports_are_written_on_threads_of_their_own_so_many_at_once(open_app, client, monkeypatch):  # noqa: F811
    """Issue 41, fifth probe, H1: four groups' exports, two each, took every thread of the pages, and another group's
    page waited up to 17 s. On the production server, with two threads for the pages: EXPORTS_MOST exports written at
    once, by groups at as many addresses, and another group's page is served; one more export waits for a place, on a
    thread of the exports', and is written once one is free."""
    started, go_on = held_exports(monkeypatch)
    addresses = [f"127.0.5.{number + 1}" for number in range(EXPORTS_MOST // EXPORTS_AT_ONCE + 1)]
    keys = [start_group(client, address=address)["key"] for address in addresses]
    start_game(client, keys[-1])
    with served_here(open_app) as base, ThreadPoolExecutor(EXPORTS_MOST + 1) as phones:
        pairs = list(zip(keys, addresses, strict=True))[:-1] * EXPORTS_AT_ONCE
        exporting = [
            phones.submit(status_from, base, address, "GET", f"/g/{key}/history/export.json") for key, address in pairs
        ]
        for _ in range(EXPORTS_MOST):
            assert started.acquire(timeout=GUARD_SECONDS)
        try:
            one_more = phones.submit(status_from, base, addresses[-1], "GET", f"/g/{keys[-1]}/history/export.csv")
            until(lambda: EXPORTING.waiting)
            assert status_from(base, addresses[-1], "GET", f"/g/{keys[-1]}/history") == 200
        finally:
            go_on.set()
        assert [answer.result(GUARD_SECONDS) for answer in exporting] == [200] * EXPORTS_MOST
        assert one_more.result(GUARD_SECONDS) == 200


def held_exports(monkeypatch):
    """Each export, once it asks for its games, says so (``started``) and waits until told (``go_on``)."""
    started, go_on = threading.Semaphore(0), threading.Event()
    every_game = games.all_games

    def held_games():
        started.release()
        go_on.wait(GUARD_SECONDS)
        return every_game()

    monkeypatch.setattr(games, "all_games", held_games)
    return started, go_on


def test_an_export_stops_once_its_phone_went_away(open_app, client, monkeypatch):  # noqa: F811
    """Ninth probe, F1: 400 exports, each left 0.3 s after it was asked for, kept the server at 100 % for 45 s after
    the last: each was written whole, for nobody, and held an export's place meanwhile. On the production server, an
    export stops once its phone has gone."""
    key = start_group(client, address="127.0.5.40")["key"]
    for _ in range(6):
        start_game(client, key)
    written, every_game = [], games.all_games

    def counted_games():
        for number, game in enumerate(every_game()):
            if number == 1:  # the export is under way: the phone goes before the second game is written
                left = request.environ.get("asgi.scope", {}).get(CLIENT_LEFT)
                if left is not None:
                    left.wait(GUARD_SECONDS)
            written.append(game.id)
            yield game

    monkeypatch.setattr(games, "all_games", counted_games)
    with served_here(open_app) as base:
        host, port = base.removeprefix("http://").split(":")
        leaving = socket.create_connection((host, int(port)), source_address=("127.0.5.40", 0))
        leaving.sendall(f"GET /g/{key}/history/export.json HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        until(lambda: written)
        leaving.close()
        until(lambda: not EXPORTING.held)  # the export is over, its place given back
    assert len(written) == 2  # of 6: the rest was never read nor written


def test_an_export_writes_its_games_in_turns_with_the_imports_and_the_other_exports(client):  # noqa: F811
    """Ninth probe, F2: eight exports looping in four groups were written eight at once, outside every share of the
    processor, and another group's phone waited p50 123 ms, p95 424 ms. Now an export writes its games in turns of
    the long work's (service/turns.py), one at a time with the imports and the other exports: while another group's
    import works, an export waits for it."""
    key = start_group(client)["key"]
    for _ in range(3):
        start_game(client, key)
    with ThreadPoolExecutor(1) as phone:
        with LONG_WORK.taken("another group", "10.9.0.1"):  # its import at work
            exported = phone.submit(lambda: client.get(f"/g/{key}/history/export.json").get_data())
            until(lambda: LONG_WORK.others_wait() or exported.done())
            assert not exported.done()  # it waits for the import's turn
        assert len(json.loads(exported.result(GUARD_SECONDS))["games"]) == 3  # and is written whole after it


def test_a_phone_reading_its_export_slowly_holds_no_turn(client):  # noqa: F811
    """While its phone reads what it wrote, an export holds none of the long work's turns: a phone that reads slowly
    keeps no import and no other export waiting."""
    key = start_group(client)["key"]
    played = [start_game(client, key)["id"] for _ in range(3)]
    answer = client.get(f"/g/{key}/history/export.json", buffered=False)
    parts = iter(answer.response)
    assert next(parts)  # the phone has read a part, and reads no more for now
    try:
        assert not LONG_WORK.busy
        other = client.get(f"/g/{key}/games/{played[0]}/export.json")  # another export is written meanwhile
        assert other.status_code == 200 and len(json.loads(other.get_data())["games"]) == 1
    finally:
        answer.close()
    assert not EXPORTING.held


def test_a_turn_writes_many_games_up_to_its_most(client, monkeypatch):  # noqa: F811
    """Tenth probe, E1: an export took a turn for each game, and beside another group's import each turn waited for
    the import's few seconds: ten games took 33 s. Now a turn writes games until TURN_MOST characters are written
    (or work waiting is due the turn), and the phone reads them all at once."""
    key = start_group(client)["key"]
    for _ in range(5):
        start_game(client, key)
    parts = list(client.get(f"/g/{key}/history/export.json", buffered=False).response)
    assert len(parts) == 1 and len(json.loads(b"".join(parts))["games"]) == 5  # one turn: nothing else waited
    monkeypatch.setattr(export, "TURN_MOST", 1)
    parts = list(client.get(f"/g/{key}/history/export.json", buffered=False).response)
    assert len(parts) == 7 and len(json.loads(b"".join(parts))["games"]) == 5  # the start, each game, the end


def test_a_turns_games_are_sent_a_little_at_a_time(client, monkeypatch):  # noqa: F811
    """Seventeenth probe, F3: a turn's games were sent in one piece of up to 256 K characters, and the server gives
    up an answer when its phone takes none of a piece for 20 s: a phone reading below about 13 kB/s had its export
    cut off. Now a turn's games are sent SEND_MOST characters at a time."""
    key = start_group(client)["key"]
    for _ in range(5):
        start_game(client, key)
    whole = client.get(f"/g/{key}/history/export.json").get_data()
    monkeypatch.setattr(export, "SEND_MOST", 100)
    parts = list(client.get(f"/g/{key}/history/export.json", buffered=False).response)
    assert b"".join(parts) == whole and len(parts) == -(-len(whole.decode()) // 100)
    assert all(len(part.decode()) <= 100 for part in parts)


def test_an_export_is_expected_to_take_what_its_groups_games_and_hands_say(open_app, client):  # noqa: F811
    """Fourteenth probe, C3: an export stood by its group's seconds lately alone, so the export of a group not seen
    for a while stood before everything, however many games it held: 14 exports of groups of 9,990 games without a
    hand held another group's export of ten games 18 s. Now it stands by what its games and hands take too."""
    small, large = start_group(client)["key"], start_group(client)["key"]
    game = start_game(client, small)["id"]
    for _ in range(3):
        moon = {"hearts": [13, 0, 0, 0], "queen": 0, "moon_option": "subtract"}
        assert client.post(f"/g/{small}/api/games/{game}/hands", json=moon).status_code == 201
    for _ in range(4):
        start_game(client, large)
    sizes = {}
    for key in (small, large):
        with open_app.test_request_context():
            scope.limit_to(groups.find_group(key).id)
            sizes[key] = games.size_of_all()
    assert sizes == {small: (1, 3), large: (4, 0)}
    assert export.expected_seconds(4, 0) < export.expected_seconds(9_990, 0) / 1_000


def test_an_export_expected_to_take_long_goes_after_one_that_has_had_a_little_lately():
    now = [0.0]
    taking = turns.Turns(clock=lambda: now[0])
    went = []

    def export(group, address, expected):
        with taking.turn(group, address, expected).step():
            now[0] += 0.02
            went.append(group)

    export("a club", "10.0.0.1", 0.05)  # its export a moment ago
    with taking.taken("a group importing", "10.0.0.2"):
        phones = [
            threading.Thread(target=export, args=(group, address, expected))
            for group, address, expected in (
                ("a group not seen lately", "10.6.6.1", 1.5),
                ("a club", "10.0.0.1", 0.05),
            )
        ]
        waiting_in_order(taking, phones)
    for phone in phones:
        phone.join(GUARD_SECONDS)
    assert went == ["a club", "a club", "a group not seen lately"]


def test_the_last_export_places_are_kept_for_small_exports(client, monkeypatch):  # noqa: F811
    """Fifteenth probe, P2: sixteen addresses, each asking again and again for a CSV export of its own group of
    9,990 games without a hand (122 bytes for 1.5 s of processor), kept every export place, and another group's
    export of ten games was refused 36 times in 37 s. Now the last places are for small exports alone, each written
    in a turn."""
    monkeypatch.setattr(history, "EXPORTING", Places(EXPORTS_AT_ONCE, 2, kept=1, wait_seconds=0))
    monkeypatch.setattr(history, "SMALL_EXPORT_SECONDS", 0.0)  # any game makes an export large
    large, other, small = (start_group(client, address=f"10.3.0.{number}")["key"] for number in (1, 2, 3))
    for key in (large, other):
        start_game(client, key)

    def exported(key, number):
        return client.get(f"/g/{key}/history/export.csv", environ_base={"REMOTE_ADDR": f"10.3.0.{number}"})

    held = exported(large, 1)  # written while its phone reads, and not read yet: its place is held
    assert held.status_code == 200
    refused = exported(other, 2)
    assert refused.status_code == 503 and "Other exports are being written" in refused.get_data(as_text=True)
    assert exported(small, 3).status_code == 200  # a group of no game: small
    held.close()
    assert exported(other, 2).status_code == 200


def test_an_export_past_the_places_waits_for_one_and_the_one_that_stands_first_has_it():
    """Sixteenth probe, Q1: 16 addresses, each looping a small export of its own group (expected to take just under
    the line), kept the 4 places kept for small exports, and another group's export of ten games was refused 26 times
    in 27 over 30 s: the places went to the first come. Now an export past them waits for a place, and the place
    that comes free goes to the export that stands first in the turns."""
    places, went = Places(EXPORTS_AT_ONCE, 1), []

    def export(group, standing):
        if places.take(group, group, standing=lambda: standing):
            went.append(group)
            places.give_back(group, group)

    assert places.take("a looping group", "10.6.6.1")
    phones = [threading.Thread(target=export, args=args) for args in (("looping again", 5.0), ("a club", 0.01))]
    for number, phone in enumerate(phones, 1):
        phone.start()
        until(lambda: len(places.waiting) == number)  # noqa: B023 - looked at before the next
    places.give_back("a looping group", "10.6.6.1")
    for phone in phones:
        phone.join(GUARD_SECONDS)
    assert went == ["a club", "looping again"] and not places.held


def test_past_the_exports_waiting_the_one_that_stands_last_is_refused():
    places, answers = Places(EXPORTS_AT_ONCE, 1, waiting=1), {}

    def export(group, standing):
        answers[group] = places.take(group, group, standing=lambda: standing)
        if answers[group]:
            places.give_back(group, group)

    assert places.take("a looping group", "10.6.6.1")
    looping = threading.Thread(target=export, args=("looping again", 5.0))
    looping.start()
    until(lambda: places.waiting)
    club = threading.Thread(target=export, args=("a club", 0.01))
    club.start()  # stands before the one waiting: it waits in its stead
    looping.join(GUARD_SECONDS)
    assert answers == {"looping again": False}
    assert not places.take("another looping group", "10.6.6.2", standing=lambda: 9.0)  # stands last: refused at once
    places.give_back("a looping group", "10.6.6.1")
    club.join(GUARD_SECONDS)
    assert answers == {"looping again": False, "a club": True} and not places.held and not places.waiting


def test_an_export_waits_for_a_place_only_while_its_phone_is_there(monkeypatch):
    monkeypatch.setattr(places_module, "LOOK_SECONDS", 0.01)
    places, there = Places(EXPORTS_AT_ONCE, 1), threading.Event()
    assert places.take("a looping group", "10.6.6.1")
    there.set()
    gone = ThreadPoolExecutor(1).submit(places.take, "a club", "10.0.0.1", wanted=there.is_set)
    until(lambda: places.waiting)
    there.clear()  # its phone went away
    assert gone.result(GUARD_SECONDS) is False
    assert not places.waiting and places.held == {("group", "a looping group"): 1, ("address", "10.6.6.1"): 1,
                                                  "all": 1}  # fmt: skip


def test_an_export_waiting_for_a_place_holds_no_database_connection(open_app, client, monkeypatch):  # noqa: F811
    """The exports holding the places need the pool's few connections to write theirs: with 16 exports waiting, each
    holding one, the 16 writing waited for them, and another group's ten-game export took 18 s."""
    monkeypatch.setattr(history, "EXPORTING", Places(EXPORTS_AT_ONCE, 1))
    first, second = (start_group(client, address=f"10.3.1.{number}")["key"] for number in (1, 2))
    start_game(client, second)
    held = client.get(f"/g/{first}/history/export.json", environ_base={"REMOTE_ADDR": "10.3.1.1"})
    with open_app.app_context():
        pool = db.engine.pool
    connections = pool.checkedout()

    def export():  # read on the phone's own thread, where its request is
        answer = client.get(f"/g/{second}/history/export.json", environ_base={"REMOTE_ADDR": "10.3.1.2"})
        return len(json.loads(answer.get_data())["games"])

    with ThreadPoolExecutor(1) as phone:
        waiting = phone.submit(export)
        until(lambda: history.EXPORTING.waiting)
        until(lambda: pool.checkedout() == connections)  # it let go of its own as it began to wait
        held.close()
        assert waiting.result(GUARD_SECONDS) == 1


def test_an_addresss_exports_past_its_own_wait_for_one_of_them_holding_no_thread(open_app, client, monkeypatch):  # noqa: F811
    """Seventeenth probe: 32 addresses, each looping exports on 40 connections, had every export thread refusing
    their exports past an address's own, and another group's export waited seconds in the threads' queue. On the
    production server, a group's and an address's exports past their own wait for one of them, holding no thread,
    and are written then."""
    started, go_on = held_exports(monkeypatch)
    key = start_group(client, address="127.0.5.60")["key"]
    start_game(client, key)
    more = 3
    with running_here(open_app) as server, ThreadPoolExecutor(EXPORTS_AT_ONCE + more) as phones:
        base = f"http://127.0.0.1:{server.addresses()[0][1]}"
        path = f"/g/{key}/history/export.json"
        exporting = [phones.submit(status_from, base, "127.0.5.60", "GET", path) for _ in range(EXPORTS_AT_ONCE)]
        for _ in range(EXPORTS_AT_ONCE):
            assert started.acquire(timeout=GUARD_SECONDS)
        exporting += [phones.submit(status_from, base, "127.0.5.60", "GET", path) for _ in range(more)]
        entry = server.server.config.app
        until(lambda: entry.exporting.users(("group", key)) == EXPORTS_AT_ONCE + more)  # the rest wait their turn
        go_on.set()
        assert [answer.result(GUARD_SECONDS) for answer in exporting] == [200] * (EXPORTS_AT_ONCE + more)
