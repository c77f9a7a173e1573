"""Crash safety: SIGKILL the server in the middle of a burst of hands, restart, lose nothing."""

import http.client
import threading

import pytest
import sqlalchemy as sa

from server import call, running_server

pytestmark = pytest.mark.server

TABLES, PHONES_A_TABLE = 4, 2
HANDS = [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2), ([2, 3, 4, 4], 0), ([1, 1, 1, 10], 3)]


ACKNOWLEDGED_BEFORE_THE_KILL = 40


def burst(base, game_id, stored, stop, enough):
    """One phone recording hands as fast as it can; every 201 is noted with the hand's number.

    A 200 too: the other phone stored this very hand first (both phones send the same facts).
    """
    number = 1
    while not stop.is_set():
        hearts, queen = HANDS[number % len(HANDS)]
        try:
            status, body = call("POST", f"{base}/api/games/{game_id}/hands",
                                {"number": number, "hearts": hearts, "queen": queen})  # fmt: skip
            if status == 409:  # the other phone was first: catch up
                number = len(call("GET", f"{base}/api/games/{game_id}")[1]["hands"]) + 1
        except (OSError, http.client.HTTPException):
            return  # the server is gone, perhaps halfway through an answer: not an acknowledgement
        if status in (200, 201):
            stored.add((game_id, number))
            number += 1
            if len(stored) >= ACKNOWLEDGED_BEFORE_THE_KILL:
                enough.set()
        elif status != 409:
            raise AssertionError((status, body))


def test_a_killed_server_keeps_every_acknowledged_hand_and_nothing_half_written(database_url):
    stored: set[tuple[int, int]] = set()
    stop, enough = threading.Event(), threading.Event()
    with running_server(database_url) as server:
        games = [call("POST", server.base + "/api/games",
                      {"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 1000}})[1]["id"]
                 for _ in range(TABLES)]  # fmt: skip
        phones = [
            threading.Thread(target=burst, args=(server.base, game_id, stored, stop, enough))
            for game_id in games
            for _ in range(PHONES_A_TABLE)
        ]
        for phone in phones:
            phone.start()
        # An event, not a time budget: a slow machine just takes longer (unless every phone gave up).
        while not enough.wait(0.1) and any(phone.is_alive() for phone in phones):
            pass
        server.kill()  # mid-burst: requests are in flight
        stop.set()
        for phone in phones:
            phone.join(timeout=30)
    assert len(stored) >= ACKNOWLEDGED_BEFORE_THE_KILL

    with running_server(database_url) as server:
        for game_id in games:
            status, game = call("GET", f"{server.base}/api/games/{game_id}")
            assert status == 200  # replays: every stored hand is whole and valid
            numbers = [hand["number"] for hand in game["hands"]]
            assert numbers == list(range(1, len(numbers) + 1))
            acknowledged = {number for stored_game, number in stored if stored_game == game_id}
            assert acknowledged <= set(numbers)
            assert len(numbers) - max(acknowledged, default=0) <= PHONES_A_TABLE  # only in-flight hands beyond
            assert sum(game["totals"]) == 26 * len(numbers)
            status, again = call("POST", f"{server.base}/api/games/{game_id}/hands", {"hearts": [13, 0, 0, 0],
                                 "queen": 1, "number": len(numbers) + 1})  # fmt: skip
            assert status == 201  # and play goes on
    check_integrity(database_url)


def check_integrity(url):
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            assert connection.execute(sa.text("PRAGMA integrity_check")).scalar() == "ok"
        orphans = connection.execute(
            sa.text("SELECT count(*) FROM hands WHERE game_id NOT IN (SELECT id FROM games)")
        ).scalar()
        assert orphans == 0
    engine.dispose()
