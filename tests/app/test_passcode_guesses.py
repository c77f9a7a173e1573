"""The passcode's slow-down holds against parallel guesses, odd guesses, and guesses from many addresses."""

import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from scorekeeper import create_app
from scorekeeper.security import guesses
from scorekeeper.security.guesses import Budget
from scorekeeper.store.db import db
from scorekeeper.store.models import SignInAttempt, utcnow

from conftest import as_host

PASSCODE = "Pique ♠ José"  # composed é


@pytest.fixture
def guarded(app):
    app.config["PASSCODE"] = PASSCODE
    return app


def attempts(app):
    with as_host(app):
        found = {row.address: row.failures for row in db.session.query(SignInAttempt) if row.address[0] != "*"}
        db.session.remove()
    return found


def guess(url, code, barrier):
    request = urllib.request.Request(f"{url}/api/games", headers={"Authorization": f"Bearer {code}"})
    barrier.wait()
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_sixteen_parallel_wrong_guesses_are_judged_at_most_twice(guarded, live_server):
    barrier = threading.Barrier(16)
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda n: guess(live_server, f"jack {n}", barrier), range(16)))
    assert set(statuses) <= {401, 429} and 401 in statuses, statuses
    assert 1 <= attempts(guarded)["127.0.0.1"] <= 2  # each judged wrong guess counts once


def test_the_wait_stops_growing_at_five_minutes(guarded):
    with as_host(guarded):
        long_ago = utcnow() - timedelta(hours=23)  # forgotten after a day
        db.session.add(SignInAttempt(address="127.0.0.1", failures=60, last_failure=long_ago))
        db.session.commit()
    client = guarded.test_client()
    assert client.get("/api/games", headers={"Authorization": "Bearer jack"}).status_code == 401
    soon = client.get("/api/games", headers={"Authorization": "Bearer jack"})
    assert soon.status_code == 429 and soon.headers["Retry-After"] == "300"


@pytest.mark.parametrize("header", ["xyz", "Bearer", "Bearer   ", "Basic cXVlZW4=", "bearer"])
def test_an_authorization_without_a_bearer_token_is_no_guess(guarded, header):
    answer = guarded.test_client().get("/api/games", headers={"Authorization": header})
    assert answer.status_code == 401 and attempts(guarded) == {}


def header_bytes(text):
    """What a client sending UTF-8 puts on the wire, as WSGI hands it over (latin-1)."""
    return text.encode().decode("latin-1")


@pytest.mark.parametrize("typed", [PASSCODE, "Pique ♠ Jose\u0301"])
def test_a_non_ascii_passcode_works_over_the_api_and_the_sign_in_page(guarded, typed):
    client = guarded.test_client()
    assert client.get("/api/games", headers={"Authorization": f"Bearer {header_bytes(typed)}"}).status_code == 200
    assert client.post("/sign-in", data={"passcode": typed}).status_code == 302


def test_a_long_forwarded_for_behind_a_proxy_is_cut_not_a_500(database_url, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "1")
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url, "PASSCODE": PASSCODE}
    )
    client = app.test_client()
    address = "2001:db8::" + "f" * 200
    answer = client.get("/api/games", headers={"Authorization": "Bearer y", "X-Forwarded-For": address})
    assert answer.status_code == 401
    assert list(attempts(app)) == ["unknown"]
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def guess_from(client, address, code="jack"):
    headers = {"Authorization": f"Bearer {code}"}
    return client.get("/api/games", headers=headers, environ_base={"REMOTE_ADDR": address})


def move_clock(app, passed):
    """Time passes: for every address's wait and turn, and for the budgets' turns."""
    with as_host(app):
        for row in db.session.query(SignInAttempt):
            row.last_failure -= passed
            row.turn_at = row.turn_at and row.turn_at - passed
        db.session.commit()


HUNDRED = [f"198.51.100.{n}" for n in range(1, 101)]
NEWCOMER = "203.0.113.9"


@pytest.fixture
def slow_refill(monkeypatch):
    """The budget refills once an hour, so that however slow this machine runs, no refill comes by itself."""
    monkeypatch.setattr(guesses, "EVERYONE", Budget(20, timedelta(hours=1)))


def retry_after(answer):
    return int(answer.headers["Retry-After"])


def own_tries(app, client, addresses):
    """Each address's tries that spend nothing shared, every one wrong, each once the address's own wait is over."""
    for _try in range(guesses.OWN_TRIES):
        assert [guess_from(client, address).status_code for address in addresses] == [401] * len(addresses)
        move_clock(app, timedelta(minutes=10))


def test_first_tries_are_judged_at_once_and_later_guesses_share_one_budget_in_order(guarded, slow_refill):
    client = guarded.test_client()
    own_tries(guarded, client, HUNDRED)
    second = [guess_from(client, address) for address in HUNDRED]
    assert [answer.status_code for answer in second] == [401] * 20 + [429] * 80  # not a hundred judged again
    waits = [retry_after(answer) for answer in second[20:]]
    assert waits == sorted(waits) and waits[-1] - waits[0] > 79 * 3500  # one turn an hour, in the order asked
    again = guess_from(client, HUNDRED[20])
    assert again.status_code == 429 and retry_after(again) <= waits[0]  # asking again keeps its place
    move_clock(guarded, timedelta(hours=1, minutes=1))
    assert guess_from(client, HUNDRED[20]).status_code == 401  # its turn came: judged
    assert guess_from(client, HUNDRED[21]).status_code == 429  # the next one's comes an hour later


def test_an_address_that_guessed_wrong_waits_even_with_the_right_passcode(guarded, slow_refill):
    client = guarded.test_client()
    assert guess_from(client, HUNDRED[0]).status_code == 401
    right = client.get("/api/games", headers={"Authorization": f"Bearer {header_bytes(PASSCODE)}"},
                       environ_base={"REMOTE_ADDR": HUNDRED[0]})  # fmt: skip
    assert right.status_code == 429  # a wait that told right from wrong would be a guess for free


def test_a_phone_that_mistyped_is_not_behind_guessers_elsewhere(guarded, slow_refill):
    """The probe's case: a phone mistypes, sixty addresses guess twice each, then the phone types it right."""
    client = guarded.test_client()
    assert guess_from(client, NEWCOMER).status_code == 401
    own_tries(guarded, client, HUNDRED[:60])
    assert [guess_from(client, address).status_code for address in HUNDRED[:60]] == [401] * 20 + [429] * 40
    right = client.get("/api/games", headers={"Authorization": f"Bearer {header_bytes(PASSCODE)}"},
                       environ_base={"REMOTE_ADDR": NEWCOMER})  # fmt: skip
    assert right.status_code == 200


def test_guessers_everywhere_never_hold_up_the_right_passcode(guarded, slow_refill):
    table = guarded.test_client()
    assert table.post("/sign-in", data={"passcode": PASSCODE}).status_code == 302
    attacker = guarded.test_client()
    own_tries(guarded, attacker, HUNDRED)
    for address in HUNDRED:  # the budget all of them share is spent, and turns are handed out for hours
        guess_from(attacker, address)
    assert table.get("/api/games").status_code == 200  # a phone signed in never guesses
    newcomer = guarded.test_client()
    answer = newcomer.post("/sign-in", data={"passcode": PASSCODE}, environ_base={"REMOTE_ADDR": NEWCOMER})
    assert answer.status_code == 302 and newcomer.get("/").status_code == 200  # at once: its first try


def test_the_right_passcode_over_the_api_spends_no_budget(guarded, slow_refill):
    client = guarded.test_client()
    bearer = {"Authorization": f"Bearer {header_bytes(PASSCODE)}"}
    assert [client.get("/api/games", headers=bearer).status_code for _ in range(60)] == [200] * 60
    assert attempts(guarded) == {}


def test_an_address_is_forgotten_a_day_after_its_last_wrong_guess(guarded):
    client = guarded.test_client()
    assert guess_from(client, HUNDRED[0]).status_code == 401
    move_clock(guarded, timedelta(days=1, minutes=1))
    assert guess_from(client, HUNDRED[1]).status_code == 401
    assert attempts(guarded) == {HUNDRED[1]: 1}  # the other's row is gone, not kept for ever


def test_an_ipv6_network_of_one_home_is_one_address(guarded):
    client = guarded.test_client()
    assert guess_from(client, "2001:db8:1:2::1").status_code == 401
    assert guess_from(client, "2001:db8:1:2:ffff:ffff:ffff:9").status_code == 429
    assert guess_from(client, "2001:db8:1:3::1").status_code == 401
    assert attempts(guarded) == {"2001:db8:1:2::/64": 1, "2001:db8:1:3::/64": 1}


@pytest.mark.parametrize("setting", ["0", "off", "no", "false", ""])
def test_a_proxy_setting_that_says_off_trusts_no_forwarded_address(database_url, monkeypatch, tmp_path, setting):
    (tmp_path / "settings.env").write_text(f"SCOREKEEPER_BEHIND_PROXY={setting}\n")
    (tmp_path / "settings.env").chmod(0o600)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.delenv("SCOREKEEPER_BEHIND_PROXY", raising=False)
    settings = {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url, "PASSCODE": PASSCODE}
    client = (app := create_app(settings)).test_client()
    for address in ("198.51.100.1", "198.51.100.2"):
        headers = {"Authorization": "Bearer jack", "X-Forwarded-For": address, "X-Forwarded-Proto": "https"}
        answer = client.get("/api/games", headers=headers)
    assert answer.status_code == 429  # the second guess is the same client's, whatever it claims
    assert list(attempts(app)) == ["127.0.0.1"]
    assert "Secure" not in client.post("/sign-in", headers={"X-Forwarded-Proto": "https"}).headers.get("Set-Cookie", "")
    with as_host(app):
        db.engine.dispose()


@pytest.fixture
def open_server(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database_url, "GROUPS_OPEN": True})  # fmt: skip
    yield app
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def locked_group(client, passcode):
    key = client.post("/api/groups").json["key"]
    assert client.post(f"/g/{key}/group/passcode", data={"code-passcode": passcode}).status_code == 302
    return key


def guess_group(client, key, address, code="jack"):
    headers = {"Authorization": f"Bearer {code}"}
    return client.get(f"/g/{key}/api/games", headers=headers, environ_base={"REMOTE_ADDR": address})


def test_a_wait_earned_at_one_groups_passcode_is_not_kept_at_anothers(open_server):
    """The probe's case: an address guessed group C's passcode, then brought group D's right one."""
    host = open_server.test_client()
    c, d = locked_group(host, "queen of spades"), locked_group(host, "jack of diamonds")
    phone = open_server.test_client()
    assert guess_group(phone, c, NEWCOMER).status_code == 401
    assert guess_group(phone, c, NEWCOMER, "queen of spades").status_code == 429  # its wait at C holds
    assert guess_group(phone, d, NEWCOMER, "jack of diamonds").status_code == 200
    assert phone.post(f"/g/{d}/sign-in", data={"passcode": "jack of diamonds"},
                      environ_base={"REMOTE_ADDR": NEWCOMER}).status_code == 302  # fmt: skip


def test_a_turn_of_one_groups_budget_is_not_waited_for_at_anothers(open_server, slow_refill):
    host = open_server.test_client()
    c, d = locked_group(host, "queen of spades"), locked_group(host, "jack of diamonds")
    guesser, addresses = open_server.test_client(), HUNDRED[:21]
    for _try in range(guesses.OWN_TRIES):
        assert [guess_group(guesser, c, address).status_code for address in addresses] == [401] * 21
        move_clock(open_server, timedelta(minutes=10))
    later = [guess_group(guesser, c, address) for address in addresses]
    assert [answer.status_code for answer in later] == [401] * 20 + [429]
    assert retry_after(later[-1]) > 3000  # C's budget is spent: its next turn is an hour away
    assert guess_group(guesser, d, addresses[-1], "jack of diamonds").status_code == 200
    assert guess_group(guesser, d, addresses[-1]).status_code == 401  # judged at D, its own first try there
