"""Point 7 of the security review: a 10,000-game import while four tables keep recording hands.

The real server (`scorekeeper serve`, as `make run` serves it) takes the import and the
hands. Every hand posted during the import answers 201 (stored) or 503 (busy: nothing
stored, try again), never 500, and every 201 is found stored afterwards.
"""

import http.client
import json
import re
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from datetime import datetime

import pytest

from scorekeeper import rules
from scorekeeper.store.db import db
from scorekeeper.store.models import Game, Hand

from conftest import as_host
from server import running_server

GAMES = 10_000
TABLES = 4
MOON = {"hearts": [13, 0, 0, 0], "queen": 0, "moon_option": "subtract"}  # totals stay 0: the game never ends
MOST_HANDS = rules.most_hands(4, rules.HouseRules())  # then the next game


def backup(games):
    hand = {"hearts": [4, 0, 9, 0], "queen": 1, "jack": None, "all_tricks": None, "moon": None}
    game = {"players": ["Ann", "Ben", "Cat", "Dan"], "created_at": "2025-01-01T20:00:00Z", "hands": [hand]}
    return {"format": "hearts-scorekeeper", "version": 1,
            "games": [{**game, "uid": uuid.uuid4().hex} for _ in range(games)]}  # fmt: skip


class TableAtPlay(threading.Thread):
    """Records hands on its own games until told the import is over; remembers each answer."""

    def __init__(self, url, started, done):
        super().__init__(daemon=True)
        self.url, self.started, self.done = url, started, done
        self.statuses = Counter()
        self.acknowledged = Counter()  # game id -> hands answered 201
        self.error = None

    def run(self):
        try:
            self.play()
        except Exception as problem:  # noqa: BLE001 - reported by the test
            self.error = problem
            self.started.set()

    def post(self, path, body):
        """POST JSON; the answer's status and body."""
        request = urllib.request.Request(f"{self.url}{path}", json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refused:
            with refused:
                return refused.code, None

    def play(self):
        game_id = None
        while True:
            if game_id is None or self.acknowledged[game_id] == MOST_HANDS:
                status, game = self.post("/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
                self.statuses[status] += 1
                if status != 201:
                    continue
                game_id = game["id"]
            number = self.acknowledged[game_id] + 1
            status, _ = self.post(f"/api/games/{game_id}/hands", {**MOON, "number": number})
            self.statuses[status] += 1
            if status == 201:
                self.acknowledged[game_id] += 1
                self.started.set()
            if self.done.is_set():
                return


def upload(url, document):
    """The import page's form posted as a browser posts it (its CSRF token and cookie); the answer's status."""
    connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=600)
    connection.request("GET", "/history/import")
    page = connection.getresponse()
    cookie = page.getheader("Set-Cookie").split(";")[0]
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.read().decode()).group(1)
    boundary = uuid.uuid4().hex
    fields = f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
    fields += f'--{boundary}\r\nContent-Disposition: form-data; name="export"; filename="backup.json"\r\n\r\n'
    body = fields.encode() + document + f"\r\n--{boundary}--\r\n".encode()
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie}
    connection.request("POST", "/history/import", body, headers)
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.mark.server
@pytest.mark.long
def test_hands_recorded_during_a_big_import_are_all_kept(app, database_url):
    document = json.dumps(backup(GAMES)).encode()
    done = threading.Event()
    with running_server(database_url) as server:
        url = server.base
        tables = [TableAtPlay(url, threading.Event(), done) for _ in range(TABLES)]
        for table in tables:
            table.start()
        for table in tables:
            table.started.wait()
        began = time.perf_counter()
        imported = upload(url, document)
        seconds = time.perf_counter() - began
        done.set()
        for table in tables:
            table.join()
    assert imported == 302
    statuses = sum((table.statuses for table in tables), Counter())
    print(f"\nimport of {GAMES} games: {seconds:.1f} s; answers to the tables during it: {dict(statuses)}")
    assert [table.error for table in tables] == [None] * TABLES
    assert set(statuses) <= {201, 503}, statuses
    with as_host(app):
        assert db.session.query(Game).filter(Game.created_at < datetime(2026, 1, 1)).count() == GAMES
        for table in tables:
            for game_id, count in table.acknowledged.items():
                assert db.session.query(Hand).filter_by(game_id=game_id).count() == count
