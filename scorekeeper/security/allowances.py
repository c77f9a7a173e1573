"""Limits an open server keeps per address: groups started in a day, wrong group keys tried in an hour.

Counted in the database, so every server process behind a load balancer counts one
address alike. An address is an IPv4 address or an IPv6 /64 (guesses.client_key):
one home, or one phone network. A limit reached answers that address alone: a
guesser on one address never slows a group's own phones on another.
"""

from dataclasses import dataclass
from datetime import timedelta

from flask import request
from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from ..store import models
from ..store.db import db
from .guesses import client_key, whole_seconds_until


@dataclass(frozen=True)
class Limit:
    kind: str  # the allowance's row, beside the address
    most: int
    window: timedelta


GROUPS_STARTED = Limit("groups", 20, timedelta(days=1))
WRONG_KEYS = Limit("wrong-keys", 30, timedelta(hours=1))
LONGEST = timedelta(days=1)  # rows older than the longest window count for nothing: they go


def take(limit: Limit) -> int:
    """Use one of this address's allowance, in the session's transaction (the caller commits, or rolls it back
    with what it was for); 0 when there was one to use, else the seconds until the window starts again.

    An address past its limit is told so from a read alone: a flood of refused requests (a guesser's wrong keys
    from a hundred addresses) writes nothing, so it never holds the database from a group's own phones.
    """
    address = client_key(request.remote_addr)
    known = db.session.scalar(select(models.Allowance).filter_by(kind=limit.kind, address=address))
    if known is not None and (wait := seconds_left(limit, known)):
        return wait
    row = hold(limit.kind, address)
    if wait := seconds_left(limit, row):  # another request took the last one meanwhile
        return wait
    if models.utcnow() - row.since >= limit.window:
        row.used, row.since = 0, models.utcnow()
    row.used += 1
    return 0


def seconds_left(limit: Limit, row: models.Allowance) -> int:
    """0 while the address has some of its allowance left (or its window is over), else the seconds until the
    window starts again."""
    if row.used < limit.most or models.utcnow() - row.since >= limit.window:
        return 0
    return whole_seconds_until(row.since + limit.window)


def hold(kind: str, address: str) -> models.Allowance:
    """The address's row for this allowance, created if new, written first so that parallel requests queue."""
    table = models.Allowance
    db.session.execute(delete(table).where(table.since < models.utcnow() - LONGEST))
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    statement = insert(table).values(kind=kind, address=address, used=0, since=models.utcnow())
    db.session.execute(statement.on_conflict_do_update(index_elements=["kind", "address"], set_={"kind": kind}))
    row = db.session.get(table, (kind, address), populate_existing=True)
    assert row is not None
    return row
