"""Issue 41, point 9: on PostgreSQL, deleting a group while its phones wrote deadlocked (4 of 4 deletions answered
503 with 8 writers): the deletion took the players' rows, then the games'; a hand's change took its game's row, then
its players' and their records'. Now every change of a group's games takes the group's row first (shared), and the
deletion takes it first too (alone): the deletion waits for the changes under way, and the changes after it find
the group gone."""

import sqlite3
import threading
from collections import Counter

import pytest
from sqlalchemy import event, func, select
from test_groups import HAND, client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures

from scorekeeper.service import groups
from scorekeeper.service.loaded import GameNotFound
from scorekeeper.store.db import db
from scorekeeper.store.models import Game, Group, Hand

from conftest import as_host

PHONES = 8
GROUPS = 4


class Phone(threading.Thread):
    """Records hands on its own game, each on a client of its own, until its group is gone (or the deletion was
    answered: refused, it leaves the group there)."""

    def __init__(self, app, key, game_id, started, answered):
        super().__init__(daemon=True)
        self.client, self.key, self.game_id, self.started = app.test_client(), key, game_id, started
        self.answered = answered
        self.answers = Counter()

    def run(self):
        number = 1
        while True:
            # a new game too (fifth probe, L1: one made as its group was deleted was a 500, its group's key gone)
            made = self.client.post(f"/g/{self.key}/api/games", json={"players": ["Ann", "Ben", "Cat"]})
            self.answers[made.status_code] += 1
            body = {**HAND, "hearts": [4, 0, 9, 0], "number": number}
            answer = self.client.post(f"/g/{self.key}/api/games/{self.game_id}/hands", json=body)
            self.answers[answer.status_code] += 1
            self.started.set()
            if answer.status_code == 201:
                number += 1
                if number > 3:  # the game goes on by undoing: a change of every kind
                    undone = self.client.delete(f"/g/{self.key}/api/games/{self.game_id}/hands/{number - 1}")
                    self.answers[undone.status_code] += 1
                    number -= undone.status_code == 200
            if answer.status_code == 404 or self.answered.is_set():
                return


def test_a_group_is_deleted_while_its_phones_write(open_app, client, server_url):  # noqa: F811
    if server_url is None:
        pytest.skip("row locks are PostgreSQL's: SQLite takes one write at a time")
    for _ in range(GROUPS):
        key = start_group(client)["key"]
        started, answered = [threading.Event() for _ in range(PHONES)], threading.Event()
        phones = [Phone(open_app, key, start_game(client, key)["id"], event, answered) for event in started]
        for phone in phones:
            phone.start()
        for begun in started:
            begun.wait()
        deleted = client.delete(f"/g/{key}/api/group")
        answered.set()
        for phone in phones:
            phone.join()
        assert deleted.status_code == 204, deleted.get_data(as_text=True)
        answers = sum((phone.answers for phone in phones), Counter())
        assert set(answers) <= {200, 201, 404}, answers  # never 503 (a deadlock) nor 500


def test_a_large_group_is_deleted_a_batch_at_a_time_with_other_groups_writing_between(open_app, client, monkeypatch):  # noqa: F811
    """Thirty-second probe: a group of 5 million hands was deleted in one transaction, which held SQLite's write lock
    for 18 s (another group's hand: 503), and read every hand's id back first (1.3 GB). Now its games go a batch at a
    time (HANDS_AT_ONCE hands), each batch its own transaction; on SQLite another group's hand is recorded between
    two; and no deletion reads its rows back."""
    monkeypatch.setattr(groups, "HANDS_AT_ONCE", 6)  # two games of three hands
    key, other = start_group(client)["key"], start_group(client)["key"]
    for game in [start_game(client, key)["id"] for _ in range(5)]:
        for number in (1, 2, 3):
            assert client.post(f"/g/{key}/api/games/{game}/hands", json={**HAND, "number": number}).status_code == 201
    theirs, recorded, left = start_game(client, other)["id"], [], []

    def phone() -> None:  # another group's, on a thread of its own as a server's request is
        number = len(recorded) + 1
        answer = open_app.test_client().post(f"/g/{other}/api/games/{theirs}/hands", json={**HAND, "number": number})
        recorded.append(answer.status_code)
        with as_host(open_app):
            left.append(db.session.scalar(select(func.count()).select_from(Game).where(Game.group_id == deleted)))

    def between(seconds: float) -> None:  # SQLite's pause between two batches: the phone writes
        writing = threading.Thread(target=phone)
        writing.start()
        writing.join()

    statements = []
    with as_host(open_app):
        deleted = db.session.scalar(select(Group.id).where(Group.key == key))
        event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        groups.delete_group(deleted, pause=between)
        assert db.session.get(Group, deleted) is None
        assert db.session.scalar(select(func.count()).select_from(Game).where(Game.group_id == deleted)) == 0
        assert db.session.scalar(select(func.count()).select_from(Hand).where(Hand.game_id == theirs)) == len(recorded)
    assert len([statement for statement in statements if statement.startswith("DELETE FROM hands")]) == 4
    assert not [statement for statement in statements if "RETURNING" in statement]
    if open_app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        assert recorded == [201, 201, 201] and left == [3, 1, 0]


def test_a_deletion_past_those_under_way_is_refused_and_deletes_nothing(open_app, client):  # noqa: F811
    """Thirty-third probe: a group's deletion holds a page thread for as long as it takes (a full group's, a minute),
    and a group just started is light, so deletions of many groups held every page thread. DELETIONS_AT_ONCE run at
    once; another is refused at once (503, saying so) and deletes nothing; it goes through once one has ended."""
    key = start_group(client)["key"]
    game = start_game(client, key)["id"]
    for _ in range(groups.DELETIONS_AT_ONCE):  # the deletions under way, as far as the count goes
        assert groups.DELETING.acquire(blocking=False)
    try:
        refused = client.delete(f"/g/{key}/api/group")
        page = client.post(f"/g/{key}/group/delete")
    finally:
        for _ in range(groups.DELETIONS_AT_ONCE):
            groups.DELETING.release()
    assert refused.status_code == 503 and "nothing was deleted" in refused.json["error"]
    assert page.status_code == 503 and "nothing was deleted" in page.get_data(as_text=True)
    assert client.get(f"/g/{key}/api/games/{game}").status_code == 200  # the group and its game are there
    assert client.delete(f"/g/{key}/api/group").status_code == 204
    assert client.get(f"/g/{key}/api/games/{game}").status_code == 404


def test_a_change_on_sqlite_holds_its_group_from_its_start_so_a_deletion_waits_for_it(open_app, client):  # noqa: F811
    """Thirty-third probe: on SQLite a new game's change read its group's row, the group's deletion ended meanwhile,
    and the game's row broke the foreign key: 500. Now a change takes its group's row first by writing it, as it
    takes it on PostgreSQL: SQLite's write lock is the change's from then on, and a deletion (any writer) waits for
    it to end, then finds the new game and deletes it with the rest; or it came first, and the change finds no group."""
    if not open_app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("PostgreSQL holds the row itself: the eight writers' test above")
    key = start_group(client)["key"]
    with as_host(open_app):
        group = db.session.scalar(select(Group.id).where(Group.key == key))
        other = sqlite3.connect(db.engine.url.database, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")  # nobody writes yet
            other.rollback()
            groups.hold_for_change(group)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            db.session.rollback()
            other.execute("DELETE FROM groups WHERE id = ?", (group,))  # the deletion's last transaction, first
            other.commit()
            with pytest.raises(GameNotFound, match="This group was deleted"):
                groups.hold_for_change(group)
        finally:
            other.close()
            db.session.rollback()
