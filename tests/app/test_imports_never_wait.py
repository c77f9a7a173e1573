"""Issue 41, third probe, point 1: twelve imports at once (of a file already imported: nothing stored, no limit reached)
each held a worker thread while it waited its turn, all 8 of them, and another group's page waited 12 to 19 s. Now
a group imports one file at a time, and only a few imports wait at all: the rest are answered at once, 503."""

import io
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from test_groups import client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures

from scorekeeper.service import restore, turns

EXPORT = json.dumps({"format": "hearts-scorekeeper", "version": 1, "games": []}).encode()
GUARD_SECONDS = 30  # a cap on a hang (on a server where the import waits its turn), never a measure


def post_import(client, key):  # noqa: F811
    return client.post(f"/g/{key}/history/import", data={"export": (io.BytesIO(EXPORT), "export.json")})


def until(condition):
    """Once ``condition`` holds (looked at every few milliseconds; a failure past GUARD_SECONDS)."""
    looked = threading.Event()
    for _ in range(GUARD_SECONDS * 100):
        if condition():
            return
        looked.wait(0.01)
    raise AssertionError("never came true")


@pytest.fixture
def held(monkeypatch):
    """Imports that, once they work, stop until told: ``started`` counts those working, ``go_on`` lets them end."""
    started, go_on = threading.Semaphore(0), threading.Event()
    checked = restore.check_all

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


def test_imports_past_the_few_that_wait_are_answered_at_once_and_other_pages_are_served(client, held):  # noqa: F811
    started, go_on = held
    keys = [start_group(client)["key"] for _ in range(turns.AT_ONCE + 4)]
    start_game(client, keys[-1])
    with ThreadPoolExecutor(turns.AT_ONCE) as phones:
        working = phones.submit(post_import, client, keys[0])
        assert started.acquire(timeout=GUARD_SECONDS)  # one works (and holds its turn); the next wait for theirs
        waiting = [phones.submit(post_import, client, key) for key in keys[1 : turns.AT_ONCE]]
        until(lambda: len(restore.IMPORTS.owners) == turns.AT_ONCE)  # the others take their places in the turns
        refused = [post_import(client, key) for key in keys[turns.AT_ONCE :]]
        assert client.get(f"/g/{keys[-1]}/history").status_code == 200
        go_on.set()
        answers = [working.result(GUARD_SECONDS), *(answer.result(GUARD_SECONDS) for answer in waiting)]
    assert [answer.status_code for answer in answers] == [302] * turns.AT_ONCE
    for answer in refused:
        assert answer.status_code == 503 and answer.headers["Retry-After"]
        said = answer.get_data(as_text=True)
        assert "The server is busy with the imports of other groups: nothing was imported." in said
    assert not restore.IMPORTS.owners and not restore.IMPORTS.busy
