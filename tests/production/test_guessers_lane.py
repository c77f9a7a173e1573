"""Issue 41: a flood of wrong keys from 128 addresses slowed a group's own phone from 7 ms to 150-190 ms at p50 (and
to 200 ms in the fourth probe, the server's processor full): each guess, a 429 answered from a read, still took a
thread and its share of the processor. Now an address answered 429 takes a lane of one thread for a while, so a
flood waits behind itself. How long the phone waits is measured by scripts/bench_guesses.py; here, that the lane
holds one request at a time and leaves the other threads to the phones."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from test_groups import client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures

from scorekeeper.security import allowances, group_scope
from scorekeeper.server import guessers

from conftest import run_apart, until
from server import served_here, status_from

pytestmark = pytest.mark.server

GUARD_SECONDS = 30  # a cap on a hang, never a measure
GUESSER, PHONE = "127.0.8.1", "127.0.8.2"


def guess(base, number):
    """The guesser's wrong key ``number``: its status."""
    return status_from(base, GUESSER, "GET", f"/g/wrong-key-{number}/api/games")


@pytest.fixture
def held_guesses(monkeypatch):
    """A guesser past its wrong keys at its second; its guesses from then on, once in the app, stop until told:
    ``entered`` counts those in the app, ``go_on`` lets them end."""
    monkeypatch.setattr(allowances, "WRONG_KEYS", allowances.Limit("wrong-keys", 1, allowances.WRONG_KEYS.window))
    entered, go_on = [], threading.Event()
    refused = group_scope.wrong_key

    def hold(base):
        assert [guess(base, 1), guess(base, 2)] == [404, 429]  # past its limit: in the lane from here

        def held_wrong_key():
            entered.append(1)
            go_on.wait(GUARD_SECONDS)
            refused()

        monkeypatch.setattr(group_scope, "wrong_key", held_wrong_key)

    yield hold, entered, go_on
    go_on.set()


def test_an_address_answered_429_takes_one_thread_at_most_and_the_phones_the_rest(open_app, client, monkeypatch,  # noqa: F811
                                                                                  held_guesses):  # fmt: skip
    hold, entered, go_on = held_guesses
    monkeypatch.setattr(guessers, "HOLD_SECONDS", GUARD_SECONDS)  # the first guess keeps the lane all along
    key = start_group(client, address=PHONE)["key"]
    start_game(client, key)
    with served_here(open_app) as base:  # two threads for the pages
        hold(base)
        with ThreadPoolExecutor(2) as guessing:
            guesses = [guessing.submit(guess, base, number) for number in (3, 4)]
            until(lambda: entered)
            try:
                assert status_from(base, PHONE, "GET", f"/g/{key}/api/games") == 200  # a thread is free for the phone
                assert len(entered) == 1  # the guesser's second request waits for the lane, holding no thread
            finally:
                go_on.set()
            assert [answer.result(GUARD_SECONDS) for answer in guesses] == [429, 429]
        assert len(entered) == 2


def test_a_request_keeps_the_lane_a_moment_at_most(open_app, monkeypatch, held_guesses):  # noqa: F811
    """An answer sent slowly (an export read a byte at a time), or held long, from an address in the lane would
    otherwise stop the lane: the next request goes on once HOLD_SECONDS have passed."""
    hold, entered, go_on = held_guesses
    monkeypatch.setattr(guessers, "HOLD_SECONDS", 0.1)
    with served_here(open_app) as base:
        hold(base)
        with ThreadPoolExecutor(2) as guessing:
            guesses = [guessing.submit(guess, base, number) for number in (3, 4)]
            try:
                until(lambda: len(entered) == 2)  # both in the app, the first still held
            finally:
                go_on.set()
            assert [answer.result(GUARD_SECONDS) for answer in guesses] == [429, 429]


def test_the_lane_is_for_a_while_after_the_last_refusal_and_behind_a_proxy_for_the_address_it_names(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(guessers.time, "monotonic", lambda: now[0])
    watched, proxied = guessers.Guessers(), guessers.Guessers(proxies=1)

    async def answer(status):
        return status

    for status in (200, 401, 404):  # a refusal puts the address in the lane; an answer, or a sign-in asked, not
        run_apart(watched.watch(request("192.0.2.7"), answer)({"type": "http.response.start", "status": status}))
        assert (watched.lane_of(request("192.0.2.7")) is not guessers.at_once) is (status == 404), status
    watched.note("2001:db8:1:2::1")
    assert watched.lane_of(request("2001:db8:1:2::99")) is not guessers.at_once  # the same /64
    assert watched.lane_of(request("192.0.2.8")) is guessers.at_once
    proxied.note("192.0.2.7")
    assert proxied.lane_of(request("127.0.0.1", "10.9.9.9, 192.0.2.7")) is not guessers.at_once  # the proxy's word
    assert proxied.lane_of(request("127.0.0.1", "192.0.2.7, 10.9.9.9")) is guessers.at_once  # a client's own claim
    assert proxied.lane_of(request("192.0.2.7")) is guessers.at_once  # no proxy's word: nobody's
    now[0] += guessers.LANE_SECONDS + 1
    assert watched.lane_of(request("192.0.2.7")) is guessers.at_once
    watched.note("192.0.2.9")  # the others' time is over: forgotten
    assert list(watched.until) == ["192.0.2.9"]


def request(address, forwarded=None):
    """An ASGI request's scope from ``address``, through a proxy that names its client when ``forwarded``."""
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    return {"type": "http", "client": (address, 5000), "headers": headers}


def test_an_address_with_many_requests_makes_the_others_in_the_lane_wait_for_one(monkeypatch):
    """Sixth probe, M1: one address in the lane with a hundred requests under way (heavy pages of its own group) made
    a phone that had met one 404 wait 39 s behind them all. Now each address has one request waiting for the lane at
    a time: the phone waits for the one in the lane, not for the hundred."""
    monkeypatch.setattr(guessers, "HOLD_SECONDS", 30)  # the first request keeps the lane until it is over

    async def scenario():
        lanes = guessers.Guessers()
        for address in ("192.0.2.1", "192.0.2.2"):
            lanes.note(address)
        heavy, phone = lanes.lane_of(request("192.0.2.1")), lanes.lane_of(request("192.0.2.2"))
        order, go_on = [], asyncio.Event()

        async def answer(name):
            order.append(name)
            if name == "heavy 1":
                await go_on.wait()

        answers = [asyncio.ensure_future(heavy(answer(f"heavy {number}"))) for number in range(1, 6)]
        while order != ["heavy 1"]:
            await asyncio.sleep(0)
        answers.append(asyncio.ensure_future(phone(answer("phone"))))
        for _ in range(10):  # the phone's request comes to the lane (each step of the loop's, no time passing)
            await asyncio.sleep(0)
        go_on.set()
        await asyncio.gather(*answers)
        return order, lanes.waiting

    order, waiting = run_apart(scenario())
    assert order == ["heavy 1", "phone", "heavy 2", "heavy 3", "heavy 4", "heavy 5"]
    assert not waiting
