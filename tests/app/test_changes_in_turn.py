"""A change starts from the game as the database holds it when its row is locked, whatever this process kept.

A process keeps each game it loaded by version (service/loaded.py), and a change locks the row at the version it
read just before, to start from the game kept for it without replaying every hand. Another process (here: a
second app on the same database, with a cache of its own) may change the game at any moment before the lock.
"""

import pytest
from sqlalchemy import event

from scorekeeper import create_app, rules
from scorekeeper.store.db import db

from conftest import Table, as_host

HANDS = [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2), ([2, 3, 4, 4], 0)]


@pytest.fixture
def other_process(database_url):
    """A second app on the same database: another server process."""
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url})
    yield other
    with as_host(other):
        db.session.remove()
        db.engine.dispose()


def totals_of(hands, players=4):
    facts = [rules.make_hand(["Ann", "Ben", "Cat", "Dan"][:players], rules.HouseRules(), {"hearts": h, "queen": q})
             for h, q in hands]  # fmt: skip
    return list(rules.replay(players, rules.HouseRules(), facts).totals)


def test_a_hand_after_another_process_recorded_one_is_the_hand_after_it(table, other_process):
    table.start_game()
    table.record_hand(*HANDS[0])  # this process keeps the game at one hand
    there = Table(other_process.test_client())
    there.game_id = table.game_id
    there.record_hand(*HANDS[1], number=2)
    stored = table.record_hand(*HANDS[2], number=3)
    assert [hand["number"] for hand in stored["hands"]] == [1, 2, 3]
    assert stored["totals"] == totals_of(HANDS)


def test_a_hand_recorded_elsewhere_between_the_read_and_the_lock_is_counted(app, table, other_process):
    """The other process stores hand 2 just before this one locks the row for its own next hand: this one's is
    hand 3, counted after hand 2, not a second hand 2."""
    table.start_game()
    table.record_hand(*HANDS[0])
    there = Table(other_process.test_client())
    there.game_id = table.game_id
    cut_in = []

    def before_the_lock(_connection, _cursor, statement, *_args):
        # Its group's row, taken first (groups.hold_for_change: written on SQLite, held on PostgreSQL)
        locking = statement.lstrip().upper().startswith("UPDATE GROUPS") or "FOR NO KEY UPDATE" in statement
        if locking and not cut_in:
            cut_in.append(there.record_hand(*HANDS[1], number=2))

    with as_host(app):
        engine = db.engine
    event.listen(engine, "before_cursor_execute", before_the_lock)
    try:
        stored = table.record_hand(*HANDS[2])
    finally:
        event.remove(engine, "before_cursor_execute", before_the_lock)
    assert cut_in, "the other process recorded its hand before the lock"
    assert [hand["number"] for hand in stored["hands"]] == [1, 2, 3]
    assert stored["totals"] == totals_of(HANDS)
    assert table.game()["totals"] == totals_of(HANDS)
