"""Judging passcode guesses: slower after each wrong one from an address, and budgets all addresses share.

One address (an IPv4 address, or an IPv6 /64: one home or one phone network
holds a whole /64) waits longer after each wrong guess at one lock (the server's
passcode, or one group's): 1 s, 2 s, 4 s … 5 min. Each lock keeps its own count
of each address: guessing one group's passcode costs that address nothing at
another group's, as a café's shared address holds a guesser and a group's phones.
Its guesses are judged one at a time: the attempt row is written (and so held)
before the guess is compared, so parallel guesses queue behind it and find the
wait it set instead of being judged too.

An address's first tries of the day (OWN_TRIES) are judged as soon as its own
wait allows and spend nothing shared: the right passcode is never a guess, so a
new phone at the table (or a script sending the passcode with every request), or
one that mistyped it once or twice, is never behind someone guessing elsewhere.
Every later guess of an address that guessed wrong also spends a budget all such
addresses share, which refills slowly, so a hundred guessing addresses get no
more than their first tries and what the budget gives. When the budget is spent,
a guess is not refused for good: it gets the budget's next turn, the address
keeps it, and its next guess from then on is judged. Turns are given in order.
Phones already signed in never guess at all.
"""

import ipaddress
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import request
from flask_babel import ngettext
from sqlalchemy import delete, or_
from sqlalchemy.dialects import postgresql, sqlite

from ..store import models
from ..store.db import db

RIGHT, WRONG = -1, 0
MAX_WAIT = timedelta(minutes=5)
MAX_DOUBLINGS = 9  # 2**9 s is past MAX_WAIT already; no bigger power is ever computed
FORGET_AFTER = timedelta(days=1)  # an address's wrong guesses count for a day; its row goes after that


@dataclass(frozen=True)
class Budget:
    """Guesses all addresses share: ``size`` at once, then one more every ``refill``."""

    size: int
    refill: timedelta


# Guesses of an address judged before it spends the budget all share: a phone's typo or two, then the right one.
OWN_TRIES = 3
# Later guesses of every address together: 2,880 a day, however many addresses share them.
EVERYONE = Budget(20, timedelta(seconds=30))


def budget_row(group_id: int | None) -> str:
    """The row of the shared budget of a lock: the server's passcode, or a group's (no address is written so).

    >>> budget_row(None), budget_row(7)
    ('*', '*7')
    """
    return "*" if group_id is None else f"*{group_id}"


def judge(given: bytes, is_right: Callable[[bytes], bool], group_id: int | None = None) -> int:
    """RIGHT, WRONG, or the seconds to wait before this address may guess again.

    An address's first tries of the day are judged, right or wrong, spending no budget: a phone with the
    passcode never waits behind guessers elsewhere. From its first wrong guess on, the address waits longer after
    each, and from its OWN_TRIES-th on, its guesses spend the budget of the lock (``group_id``) that all share.
    """
    attempt = hold_attempt(attempt_row(client_key(request.remote_addr), group_id))
    forget_old_attempts()
    wait = 0
    if attempt.failures:
        wait = seconds_to_wait(attempt) or (wait_for_turn(attempt, group_id) if attempt.failures >= OWN_TRIES else 0)
    if wait:
        db.session.commit()  # a turn given is kept
        return wait
    if is_right(given):
        db.session.delete(attempt)
        db.session.commit()
        return RIGHT
    attempt.failures += 1
    attempt.last_failure = models.utcnow()
    db.session.commit()
    return WRONG


def attempt_row(address: str, group_id: int | None) -> str:
    """The row of an address's guesses at a lock: the server's passcode, or a group's.

    >>> attempt_row("192.0.2.7", None), attempt_row("2001:db8:1:2::/64", 7)
    ('192.0.2.7', '2001:db8:1:2::/64 in 7')
    """
    return address if group_id is None else f"{address} in {group_id}"


def client_key(address: str | None) -> str:
    """Whose guess this is: the address, or the /64 of an IPv6 one; "unknown" for anything else.

    >>> client_key("2001:db8:1:2:aaaa::1"), client_key("::ffff:192.0.2.7"), client_key("192.0.2.7")
    ('2001:db8:1:2::/64', '192.0.2.7', '192.0.2.7')
    """
    try:
        found = ipaddress.ip_address((address or "").partition("%")[0])
    except ValueError:
        return "unknown"  # nothing a client may claim (behind a proxy) is ever a budget's row
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


def normalized(code: bytes) -> bytes:
    """The passcode as NFC UTF-8, so "José" typed either way on any phone is the same passcode."""
    return unicodedata.normalize("NFC", code.decode("utf-8", errors="replace")).encode()


def hold_attempt(address: str) -> models.SignInAttempt:
    """This address's attempt row (or a budget's), created if new, written in this transaction to hold it.

    The address's row is always held before a budget's, so two guesses never wait on each other in turn.
    """
    if not address.startswith("*"):
        db.session.rollback()  # start afresh: the write below must be the transaction's first statement
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    statement = insert(models.SignInAttempt).values(address=address, failures=0, last_failure=models.utcnow())
    db.session.execute(statement.on_conflict_do_update(index_elements=["address"], set_={"address": address}))
    attempt = db.session.get(models.SignInAttempt, address, populate_existing=True)
    assert attempt is not None
    return attempt


def forget_old_attempts() -> None:
    """Addresses with no wrong guess and no turn in the last day start afresh: their rows go (an indexed delete)."""
    table, long_ago = models.SignInAttempt, models.utcnow() - FORGET_AFTER
    db.session.execute(
        delete(table)
        .where(~table.address.startswith("*"), table.last_failure < long_ago)
        .where(or_(table.turn_at.is_(None), table.turn_at < long_ago))
    )


def seconds_to_wait(attempt: models.SignInAttempt) -> int:
    """The address's own wait after its wrong guesses: doubling from 1 s to 5 min."""
    if not attempt.failures:
        return 0
    doubled = timedelta(seconds=2 ** min(attempt.failures - 1, MAX_DOUBLINGS))
    return whole_seconds_until(attempt.last_failure + min(MAX_WAIT, doubled))


def wait_for_turn(attempt: models.SignInAttempt, group_id: int | None) -> int:
    """0 when the guess may be judged now (a turn of the shared budget taken), else the seconds until the
    address's turn."""
    if attempt.turn_at is not None:
        ready, attempt.turn_at = attempt.turn_at, None
        if ready > models.utcnow():
            attempt.turn_at = ready  # kept, not given again: the address's place stays its own
            return whole_seconds_until(ready)
        return 0  # its turn came: the budget counted it when it gave it
    turn = take_turn(hold_attempt(budget_row(group_id)), EVERYONE)
    if turn > models.utcnow():
        attempt.turn_at = turn
        return whole_seconds_until(turn)
    return 0


def take_turn(row: models.SignInAttempt, budget: Budget) -> datetime:
    """The budget's next turn, now or later, and the one after it set aside for the next guess.

    The row keeps when its next turn is free: a full budget's is ``size - 1`` refills in the past,
    so that so many guesses are judged at once and then one each refill.
    """
    full = models.utcnow() - (budget.size - 1) * budget.refill
    turn = max(row.turn_at or full, full)
    row.turn_at = turn + budget.refill
    return turn


def whole_seconds_until(ready: datetime) -> int:
    return max(0, int((ready - models.utcnow()).total_seconds() + 0.999))


def wait_words(seconds: int) -> str:
    """A wait as a person says it: seconds, then whole minutes from 90 s, then whole hours from 90 minutes."""
    if seconds < 90:
        return str(ngettext("%(num)d second", "%(num)d seconds", seconds))
    if seconds < 90 * 60:
        return str(ngettext("%(num)d minute", "%(num)d minutes", math.ceil(seconds / 60)))
    return str(ngettext("%(num)d hour", "%(num)d hours", math.ceil(seconds / 3600)))
