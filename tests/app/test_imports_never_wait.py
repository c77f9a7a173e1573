"""Issue 41, third probe, point 1: twelve imports at once (of a file already imported: nothing stored, no limit reached)
each held a worker thread while it waited its turn, all 8 of them, and another group's page waited 12 to 19 s. Now
a group imports one file at a time, and only a few imports wait at all: the rest are answered at once, 503.

Fourth probe, M2: three groups importing large files kept every other group's import at 503 (three imports at once
in a process). Now imports wait on threads of their own, so the turns hold many, one from each address: keeping every
place takes as many addresses."""

import io
import json
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from test_groups import client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures

from scorekeeper.service import restore, turns

from conftest import until
from server import served_here, status_from

EXPORT = json.dumps({"format": "hearts-scorekeeper", "version": 1, "games": []}).encode()
GUARD_SECONDS = 30  # a cap on a hang (on a server where the import waits its turn), never a measure


def post_import(client, key, address="127.0.0.1"):  # noqa: F811
    return client.post(f"/g/{key}/history/import", data={"export": (io.BytesIO(EXPORT), "export.json")},
                       environ_base={"REMOTE_ADDR": address})  # fmt: skip


@pytest.fixture
def held(monkeypatch):
    """Imports that, once they work, stop until told: ``started`` counts those working, ``go_on`` lets them end. Their
    turns are a process's just begun: the groups of an earlier test (group ids begin again with each database) have
    had no processor lately, and every import of EXPORT stands alike."""
    started, go_on = threading.Semaphore(0), threading.Event()
    checked = restore.check_all
    monkeypatch.setattr(restore, "LONG_WORK", turns.Turns())

    def check_all_then_wait(*args, **kwargs):
        started.release()
        go_on.wait(GUARD_SECONDS)
        return checked(*args, **kwargs)

    monkeypatch.setattr(restore, "check_all", check_all_then_wait)
    yield started, go_on
    go_on.set()


def test_a_groups_second_import_is_answered_at_once_while_its_first_is_under_way(client, held):  # noqa: F811
    started, go_on = held
    key = start_group(client)["key"]
    with ThreadPoolExecutor(2) as phones:
        first = phones.submit(post_import, client, key)
        assert started.acquire(timeout=GUARD_SECONDS)
        second = phones.submit(post_import, client, key).result(timeout=GUARD_SECONDS)
        go_on.set()
        assert first.result(timeout=GUARD_SECONDS).status_code == 302
    page = second.get_data(as_text=True)
    assert second.status_code == 503 and second.headers["Retry-After"]
    assert "An import of this group is under way: nothing was imported from this file." in page
    assert post_import(client, key).status_code == 302  # the first done: the group imports again


def test_imports_past_the_few_that_wait_are_answered_at_once_and_other_pages_are_served(client, held, monkeypatch):  # noqa: F811
    started, go_on = held
    monkeypatch.setattr(restore.LONG_WORK, "coming_most", 2)  # imports waiting for a place in the turns, at most
    addresses = [f"10.0.{number}.1" for number in range(turns.AT_ONCE + 4)]  # each group's own
    keys = [start_group(client, address=address)["key"] for address in addresses]
    start_game(client, keys[-1])
    with ThreadPoolExecutor(turns.AT_ONCE + 2) as phones:
        working = phones.submit(post_import, client, keys[0], addresses[0])
        assert started.acquire(timeout=GUARD_SECONDS)  # one works (and holds its turn); the next wait for theirs
        pairs = list(zip(keys, addresses, strict=True))
        waiting = [phones.submit(post_import, client, *pair) for pair in pairs[1 : turns.AT_ONCE]]
        until(lambda: restore.LONG_WORK.places == turns.AT_ONCE)  # the others take their places in the turns
        waiting += [phones.submit(post_import, client, *pair) for pair in pairs[turns.AT_ONCE : turns.AT_ONCE + 2]]
        until(lambda: len(restore.LONG_WORK.coming) == 2)  # two wait for a place
        refused = [post_import(client, *pair) for pair in pairs[turns.AT_ONCE + 2 :]]
        assert client.get(f"/g/{keys[-1]}/history").status_code == 200
        go_on.set()
        answers = [working.result(GUARD_SECONDS), *(answer.result(GUARD_SECONDS) for answer in waiting)]
    assert [answer.status_code for answer in answers] == [302] * (turns.AT_ONCE + 2)
    for answer in refused:
        assert answer.status_code == 503 and answer.headers["Retry-After"]
        said = answer.get_data(as_text=True)
        assert "The server is busy with the imports of other groups: nothing was imported." in said
    assert not restore.LONG_WORK.owners and not restore.LONG_WORK.busy


def test_an_address_imports_one_file_at_a_time_whatever_its_groups(client, held):  # noqa: F811
    """Anyone can start groups, so a place in the turns a group would let one address hold them all."""
    started, go_on = held
    first, second = start_group(client)["key"], start_group(client)["key"]
    with ThreadPoolExecutor(2) as phones:
        working = phones.submit(post_import, client, first, "10.1.0.1")
        assert started.acquire(timeout=GUARD_SECONDS)
        refused = post_import(client, second, "10.1.0.1")
        elsewhere = phones.submit(post_import, client, second, "10.1.0.2")  # another address: waits its turn
        until(lambda: len(restore.LONG_WORK.owners) == 2)
        go_on.set()
        assert working.result(GUARD_SECONDS).status_code == 302 and elsewhere.result(GUARD_SECONDS).status_code == 302
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    said = refused.get_data(as_text=True)
    assert "Another import from your network is under way: nothing was imported from this file." in said
    assert post_import(client, second, "10.1.0.1").status_code == 302  # the first done: the address imports again


def posted_import(base, key, address):
    """An import sent to a real server from ``address`` (any of 127/8 is this machine): its status."""
    boundary = "scorekeeper-test-boundary"
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="export"; filename="export.json"\r\n'
            "Content-Type: application/json\r\n\r\n")  # fmt: skip
    body = head.encode() + EXPORT + f"\r\n--{boundary}--\r\n".encode()
    form = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    return status_from(base, address, "POST", f"/g/{key}/history/import", body, form)


def test_imports_waiting_their_turn_hold_no_thread_of_the_pages(open_app, client, held):  # noqa: F811
    """On the production server, with two threads for the pages: every place in the turns taken, by imports from as
    many addresses, and one more waiting for a place, and a page of another group is served; the one waiting is
    imported once a place is free."""
    started, go_on = held
    addresses = [f"127.0.4.{number + 1}" for number in range(turns.AT_ONCE + 2)]
    keys = [start_group(client, address=address)["key"] for address in addresses]
    start_game(client, keys[-1])
    with served_here(open_app) as base, ThreadPoolExecutor(turns.AT_ONCE + 1) as phones:
        pairs = list(zip(keys, addresses, strict=True))
        taking = [phones.submit(posted_import, base, *pair) for pair in pairs[: turns.AT_ONCE]]
        assert started.acquire(timeout=GUARD_SECONDS)
        until(lambda: restore.LONG_WORK.places == turns.AT_ONCE)
        taking.append(phones.submit(posted_import, base, *pairs[turns.AT_ONCE]))
        until(lambda: restore.LONG_WORK.coming)
        try:
            page = urllib.request.urlopen(f"{base}/g/{keys[-1]}/history", timeout=GUARD_SECONDS)
            assert page.status == 200 and b"Ann" in page.read()
        finally:
            go_on.set()
        assert [answer.result(GUARD_SECONDS) for answer in taking] == [302] * (turns.AT_ONCE + 1)
