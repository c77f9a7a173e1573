"""Judging passcode guesses: slower after each wrong one from an address, and a budget shared by all.

One address (an IPv4 address, or an IPv6 /64: one home or one phone network
holds a whole /64) waits longer after each wrong guess: 1 s, 2 s, 4 s … 5 min.
Its guesses are judged one at a time: the attempt row is written (and so held)
before the guess is compared, so parallel guesses queue behind it and find the
wait it set instead of being judged too.

All addresses together spend one budget of wrong guesses, which refills slowly:
once it is spent, an address that guessed wrong before waits for the next
refill too, so a hundred addresses get no more guesses than one. An address
with no wrong guess lately is judged even with the budget spent: a new phone at
the table gets its first try however hard someone else is guessing, and phones
already signed in never guess at all.
"""

import hmac
import ipaddress
import unicodedata
from datetime import datetime, timedelta

from flask import request
from sqlalchemy.dialects import postgresql, sqlite

from . import models
from .db import db

RIGHT, WRONG = -1, 0
MAX_WAIT = timedelta(minutes=5)
MAX_DOUBLINGS = 9  # 2**9 s is past MAX_WAIT already; no bigger power is ever computed
BUDGET = 20  # wrong guesses all addresses may make at once
REFILL = timedelta(seconds=30)  # one more each: 2,880 a day, however many addresses share them
FRESH_AFTER = timedelta(days=1)  # an address whose last wrong guess is older is judged whatever the budget
EVERYONE = "*"  # the budget's row among the addresses' (no address is written so)


def judge(given: bytes, passcode: bytes) -> int:
    """RIGHT, WRONG, or the seconds to wait before this address may guess again."""
    attempt = hold_attempt(client_key(request.remote_addr))
    budget = None
    wait = seconds_to_wait(attempt)
    if not wait and not is_fresh(attempt):
        budget = hold_attempt(EVERYONE)
        wait = seconds_to_refill(budget)
    if wait:
        db.session.rollback()
        return wait
    if hmac.compare_digest(normalized(given), normalized(passcode)):
        db.session.delete(attempt)
        db.session.commit()
        return RIGHT
    attempt.failures += 1
    attempt.last_failure = models.utcnow()
    spend(budget or hold_attempt(EVERYONE))
    db.session.commit()
    return WRONG


def client_key(address: str | None) -> str:
    """Whose guess this is: the address, or the /64 of an IPv6 one; "unknown" for anything else.

    >>> client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:192.0.2.7"), client_key("192.0.2.7")
    ('2001:db8:1:2::/64', '192.0.2.7', '192.0.2.7')
    """
    try:
        found = ipaddress.ip_address((address or "").partition("%")[0])
    except ValueError:
        return "unknown"  # nothing a client may claim (behind a proxy) is ever the budget's row
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


def normalized(code: bytes) -> bytes:
    """The passcode as NFC UTF-8, so "José" typed either way on any phone is the same passcode."""
    return unicodedata.normalize("NFC", code.decode("utf-8", errors="replace")).encode()


def hold_attempt(address: str) -> models.SignInAttempt:
    """This address's attempt row, created if new, written in this transaction to hold it.

    The address's row is always held before the budget's, so two guesses never wait on each other in turn.
    """
    if address != EVERYONE:
        db.session.rollback()  # start afresh: the write below must be the transaction's first statement
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    statement = insert(models.SignInAttempt).values(address=address, failures=0, last_failure=models.utcnow())
    db.session.execute(statement.on_conflict_do_update(index_elements=["address"], set_={"address": address}))
    attempt = db.session.get(models.SignInAttempt, address, populate_existing=True)
    assert attempt is not None
    return attempt


def is_fresh(attempt: models.SignInAttempt) -> bool:
    return not attempt.failures or models.utcnow() - attempt.last_failure > FRESH_AFTER


def seconds_to_wait(attempt: models.SignInAttempt) -> int:
    if not attempt.failures:
        return 0
    doubled = timedelta(seconds=2 ** min(attempt.failures - 1, MAX_DOUBLINGS))
    return whole_seconds_until(attempt.last_failure + min(MAX_WAIT, doubled))


def refilled(budget: models.SignInAttempt) -> None:
    """Give back what has refilled since the budget was last counted (its row's last_failure)."""
    back = min(budget.failures, int((models.utcnow() - budget.last_failure) / REFILL))
    budget.failures -= back
    budget.last_failure = budget.last_failure + back * REFILL if budget.failures else models.utcnow()


def seconds_to_refill(budget: models.SignInAttempt) -> int:
    refilled(budget)
    return whole_seconds_until(budget.last_failure + REFILL) if budget.failures >= BUDGET else 0


def spend(budget: models.SignInAttempt) -> None:
    """One wrong guess more; a flood of first tries fills the budget but never pushes its refill further out."""
    refilled(budget)
    budget.failures = min(BUDGET, budget.failures + 1)


def whole_seconds_until(ready: datetime) -> int:
    return max(0, int((ready - models.utcnow()).total_seconds() + 0.999))
