"""Groups on an open server: started, found by their key, named, locked with a passcode, deleted.

A group's key is its secret (144 random bits, URL-safe): whoever has its link reaches
the group. It is looked up by its digest, so no lookup's time says anything of a key.
"""

import functools
import hashlib
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext
from sqlalchemy import Delete, Select, delete, func, select, text, update
from werkzeug.security import check_password_hash, generate_password_hash

from .. import rules
from ..store import models, news
from ..store.db import WRITES_PAUSE, db
from .every_game import first_holding
from .loaded import GameNotFound

KEY_BYTES = 18  # 144 random bits, 24 characters
GAMES_MAX = 10_000  # games one group keeps: a club's decade of weekly tables, many times over
SEEN_EVERY = timedelta(hours=1)  # how often a group notes that its phones came back: not a write a request
PASSCODE_HASH = "pbkdf2:sha256:60000"
# A group is deleted a batch of its games at a time (delete_group): the hands of one batch, at most (a tenth of a
# second of SQLite's write lock), and its games, at most.
HANDS_AT_ONCE = 10_000
GAMES_AT_ONCE = 200
# Groups deleted at once by one process: each holds a page thread for as long as it takes (a full group's, a minute),
# and every other group's pages need the rest. Past it, a deletion is refused at once (DeletionBusy).
DELETIONS_AT_ONCE = 2
DELETING = threading.BoundedSemaphore(DELETIONS_AT_ONCE)


class DeletionBusy(Exception):
    """A group's deletion refused before it began, nothing deleted: DELETIONS_AT_ONCE are under way."""

    @property
    def message(self) -> str:
        return str(gettext("Other groups are being deleted on this server just now, and this one is not yet: "
                           "nothing was deleted. Try again in a minute."))  # fmt: skip


@dataclass(frozen=True)
class GroupSeen:
    """A group as a request holds it: plain values, no database row."""

    id: int
    key: str
    name: str
    passcode_hash: str | None
    last_used: datetime


SEEN = select(*(getattr(models.Group, field.name) for field in fields(GroupSeen)))  # a GroupSeen's values


@dataclass(frozen=True)
class GroupListed:
    """A group as the host's list shows it: never its key."""

    id: int
    name: str
    games: int
    created_at: datetime
    last_used: datetime


@functools.lru_cache(maxsize=4096)  # each request of a group's phones asks for its key's
def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", errors="replace")).hexdigest()


def seen(group: models.Group) -> GroupSeen:
    return GroupSeen(group.id, group.key, group.name, group.passcode_hash, group.last_used)


def start_group(name: object = None, key: str | None = None) -> GroupSeen:
    """A new group, named ``name`` (optional); ``key`` only when a backup gives it back. Not yet committed."""
    key = key or secrets.token_urlsafe(KEY_BYTES)
    group = models.Group(key=key, key_digest=digest(key), name=clean_name(name))
    db.session.add(group)
    db.session.flush()
    return seen(group)


def clean_name(name: object) -> str:
    """A group's name as given, trimmed; a RuleError says what is wrong with one that cannot be a name.

    >>> clean_name("  Thursday table "), clean_name(None)
    ('Thursday table', '')
    """
    if name is None:
        return ""
    if not isinstance(name, str):
        raise rules.RuleError(gettext("The group's name must be text."), {"name": gettext("Text.")})
    name = unicodedata.normalize("NFC", name).strip()
    if len(name) > models.GROUP_NAME_MAX:
        said = gettext("The group's name is too long: %(most)d characters at most.", most=models.GROUP_NAME_MAX)
        raise rules.RuleError(said, {"name": said})
    if rules.has_hidden_characters(name) or any(unicodedata.category(char) in ("Zl", "Zp") for char in name):
        said = gettext("The group's name has an invisible or control character: type it again.")
        raise rules.RuleError(said, {"name": said})
    return name


def find_group(key: str) -> GroupSeen | None:
    """The group whose key this is; None for any other text. Asked at every request of a group's phones: its
    values alone, no row for the session to keep."""
    return seen_first(SEEN.where(models.Group.key_digest == digest(key)))


def first_group() -> GroupSeen | None:
    """The first group (the lowest id): the one a server that is one group's serves; None before there is one."""
    return seen_first(SEEN.order_by(models.Group.id).limit(1))


def seen_first(statement: Select[Any]) -> GroupSeen | None:
    found = db.session.execute(statement).first()
    return GroupSeen(*found) if found is not None else None


def group_by_id(group_id: int) -> GroupSeen | None:
    found = db.session.scalar(select(models.Group).where(models.Group.id == group_id))
    return seen(found) if found is not None else None


def note_use(group: GroupSeen) -> None:
    """Note that the group's phones came back, for the host's list: at most once in SEEN_EVERY (a request that
    finds the group seen within it writes nothing, not even an UPDATE of no row: SQLite would take its lock)."""
    now = models.utcnow()
    if now - group.last_used < SEEN_EVERY:
        return
    table = models.Group
    changed = db.session.execute(
        update(table).where(table.id == group.id, table.last_used < now - SEEN_EVERY).values(last_used=now)
    )
    if changed.rowcount:  # type: ignore[attr-defined]
        db.session.commit()


def rename(group_id: int, name: object) -> None:
    db.session.execute(update(models.Group).where(models.Group.id == group_id).values(name=clean_name(name)))
    db.session.commit()


def set_passcode(group_id: int, code: str | None) -> None:
    """Lock the group with a passcode (None: open it again); every phone signed in to it signs in again."""
    hashed = generate_password_hash(code, PASSCODE_HASH) if code else None
    db.session.execute(update(models.Group).where(models.Group.id == group_id).values(passcode_hash=hashed))
    db.session.execute(delete(models.SignIn).where(models.SignIn.group_id == group_id))
    db.session.commit()


def passcode_is(hashed: str, given: bytes) -> bool:
    """Whether ``given`` is the passcode ``hashed`` was made from (NFC, as guesses.normalized)."""
    return _passcode_is(hashed, unicodedata.normalize("NFC", given.decode("utf-8", errors="replace")))


@functools.lru_cache(maxsize=256)
def _passcode_is(hashed: str, text: str) -> bool:
    """Answers remembered: a script sending the passcode with each request costs one slow hash, not one each."""
    return check_password_hash(hashed, text)


def games_in_group() -> int:
    """The games of the group in scope."""
    return db.session.scalar(select(func.count()).select_from(models.Game)) or 0


def room_for(count: int) -> None:
    """On an open server, a RuleError (409) when ``count`` more games would take the group in scope past GAMES_MAX
    (a server that is one group's keeps as many as its host lets it)."""
    if current_app.config.get("GROUPS_OPEN") and games_in_group() + count > GAMES_MAX:
        said = gettext("This group keeps %(most)d games at most: delete old games (export them first) to start "
                       "new ones.", most=GAMES_MAX)  # fmt: skip
        raise rules.RuleError(said, conflict=True)


def hold_for_change(group: object) -> None:
    """Before a change of one of the group's games (or a new game): its row (FOR NO KEY UPDATE: the group's changes
    take turns, and the hourly note of its use is not held up), so that a deletion of the group waits for them (and
    they for it), never in a circle of rows (delete_group); GameNotFound when the group was deleted meanwhile."""
    if not isinstance(group, int):  # a host's command sees every group: no row to share
        return
    if db.engine.dialect.name == "sqlite":
        # No row locks: the row written (a column that is no key, to itself: a key written has SQLite look at every
        # row that refers to it), SQLite's write lock is taken now, not at the change's first write, so that a
        # deletion's last transaction ends before the change or begins after it. Read only, the row was gone by the
        # change's first write, and its new game broke the foreign key: 500 (thirty-third probe).
        written = update(models.Group).where(models.Group.id == group).values(last_used=models.Group.last_used)
        found = db.session.execute(written, execution_options={"synchronize_session": False}).rowcount  # type: ignore[attr-defined]
    else:
        held = select(models.Group.id).where(models.Group.id == group).with_for_update(key_share=True)
        found = db.session.scalar(held) is not None
    if not found:
        raise GameNotFound(gettext("This group was deleted."))


def delete_group(group_id: int, pause: Callable[[float], None] = time.sleep) -> None:
    """The group, its games, their players and hands, its players' records and sign-ins: all gone.

    Its games go first, a batch at a time (HANDS_AT_ONCE hands at most, each batch its own transaction, with
    SQLite's pause between), so that a group of millions of hands holds SQLite's write lock for a moment at a time,
    as an import does, and other groups' phones write between; then the rest, in one. Stopped between two (the server
    stopping), the group is there with fewer games, and deleting it again ends the deletion. Each transaction takes
    the group's row first: a change of its games under way (which took it first too, hold_for_change) ends before
    the deletion goes on, and one after the end finds no group. Taken in any other order, the deletion's players
    and a change's game deadlocked on PostgreSQL. DeletionBusy when DELETIONS_AT_ONCE are under way."""
    if not DELETING.acquire(blocking=False):
        raise DeletionBusy()
    try:
        _delete_whole(group_id, pause)
    finally:
        DELETING.release()


def _delete_whole(group_id: int, pause: Callable[[float], None]) -> None:
    while batch := games_to_delete(group_id):
        _delete(delete(models.Player).where(models.Player.game_id.in_(batch)))
        _delete(delete(models.Hand).where(models.Hand.game_id.in_(batch)))
        _delete(delete(models.Game).where(models.Game.id.in_(batch)))
        with news.told(dict.fromkeys(batch, "")):  # the phones following its games hear that they are gone
            db.session.commit()
        if db.engine.dialect.name == "sqlite":
            pause(WRITES_PAUSE)
    # the group's row still held by the last look for games, which found none
    for table in (models.PlayerSummary, models.SignIn, models.Player):
        _delete(delete(table).where(table.group_id == group_id))
    games = select(models.Game.id).where(models.Game.group_id == group_id)
    gone = db.session.scalars(games).all()  # made since the last batch: a few at most
    _delete(delete(models.Hand).where(models.Hand.game_id.in_(games)))
    _delete(delete(models.Game).where(models.Game.group_id == group_id))
    _delete(delete(models.Group).where(models.Group.id == group_id))
    with news.told(dict.fromkeys(gone, "")):
        db.session.commit()
    if db.engine.dialect.name == "sqlite":  # SQLite's write-ahead log still holds the rows: written into the file
        db.session.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
        db.session.commit()


def games_to_delete(group_id: int) -> list[int]:
    """The group's row taken, its next games to delete, oldest first: GAMES_AT_ONCE at most, and as many as hold
    HANDS_AT_ONCE hands (one at least); none once it has none."""
    db.session.execute(select(models.Group.id).where(models.Group.id == group_id).with_for_update())
    first = select(models.Game.id).where(models.Game.group_id == group_id).order_by(models.Game.id)
    ids = db.session.scalars(first.limit(GAMES_AT_ONCE)).all()
    return first_holding(ids, HANDS_AT_ONCE) if ids else []


def _delete(statement: Delete) -> None:
    """Rows deleted, none of them read back: a large group's hands, fetched, took a gigabyte."""
    db.session.execute(statement, execution_options={"synchronize_session": False})


def key_of(group_id: int) -> str:
    """A group's key, for the host who asked for its link by name."""
    return db.session.scalars(select(models.Group.key).where(models.Group.id == group_id)).one()


def list_groups() -> list[GroupListed]:
    """Every group with its games, oldest first (a command's scope: every group)."""
    counted = select(models.Game.group_id, func.count().label("games")).group_by(models.Game.group_id).subquery()
    rows = db.session.execute(
        select(models.Group, func.coalesce(counted.c.games, 0))
        .outerjoin(counted, counted.c.group_id == models.Group.id)
        .order_by(models.Group.id)
    )
    return [GroupListed(group.id, group.name, games, group.created_at, group.last_used) for group, games in rows]
