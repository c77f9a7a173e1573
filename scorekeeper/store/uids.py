"""The uid of a game from before uids, made from what it holds: the same game gets the same uid wherever it is read.

A game without a uid (in an old JSON export, an old SQLite backup, or a database
upgraded from before uids) gets one hashed from its facts: the players' names,
the house rules and hand fields below, by name, and the minute and second it
started. That set is fixed for good. A house rule or hand field added later is
in it only where a game's differs from its default (``Extras``): a game that
does not use it, as no game from before it can, keeps the uid it had, so an
update never changes the uid of an old game and restoring an old backup or
export after an update finds its games already here; and two games that differ
only in it are two games.

The migrations 0005 and 0006 keep a frozen copy of it (they
give no extras: their databases have no column past the fixed set).
"""

import hashlib
import json
import unicodedata
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

# The house rules of the version that gave games uids, in that version's order, each read as its type.
HOUSE_FIELDS: dict[str, Callable[[Any], object]] = {
    "target": int,
    "pass_cycle": str,
    "moon": str,
    "sun": bool,
    "omnibus": bool,
    "tie": str,
    "first_dealer": int,
    "exact_reset": bool,
}
HAND_FIELDS = ("queen", "jack", "all_tricks", "moon_option")  # after each seat's hearts


@dataclass(frozen=True)
class Extras:
    """The house rules and hand fields past the fixed set, each with its default (the rules' own, given by the app)."""

    house: Mapping[str, object] = field(default_factory=dict)
    hand: Mapping[str, object] = field(default_factory=dict)


def content_uid(
    names: Sequence[str],
    house: Mapping[Any, Any],
    hands: Iterable[Mapping[Any, Any]],
    created: datetime | None,
    extras: Extras = Extras(),
) -> str:
    """A game's uid from its facts: 32 hexadecimal digits, as a random uid has.

    >>> house = {"target": 50, "pass_cycle": "left-right-across-hold", "moon": "choose", "sun": False,
    ...          "omnibus": False, "tie": "play-on", "first_dealer": 0, "exact_reset": False}
    >>> hand = {"hearts": [4, 0, 9, 0], "queen": 1, "jack": None, "all_tricks": None, "moon_option": None}
    >>> content_uid(["Ann", "Ben", "Cat", "Dan"], house, [hand], datetime(2025, 3, 1, 20, 0))
    '18550a0e5db04d2bac031de972837e9b'
    >>> later = Extras(house={"black_maria": False}, hand={"king": None})
    >>> content_uid(["Ann", "Ben", "Cat", "Dan"], {**house, "black_maria": False}, [hand], datetime(2025, 3, 1, 20, 0),
    ...             later)
    '18550a0e5db04d2bac031de972837e9b'
    """
    played = []
    for hand in hands:
        fixed = [*map(int, hand["hearts"]), *(hand.get(name) for name in HAND_FIELDS)]
        more = changed(hand, extras.hand)
        played.append([*fixed, more] if more else fixed)
    facts = [
        [unicodedata.normalize("NFC", name).strip() for name in names],
        {**{key: read(house[key]) for key, read in HOUSE_FIELDS.items()}, **changed(house, extras.house)},
        played,
        created.replace(microsecond=0).isoformat() if created else None,  # as precise as an export says it
    ]
    return digest_uid(json.dumps(facts, ensure_ascii=False))


def changed(facts: Mapping[Any, Any], defaults: Mapping[str, object]) -> dict[str, object]:
    """The facts of ``defaults``' names that differ from their defaults, in the defaults' order.

    >>> changed({"black_maria": True, "subtract_floor": True}, {"subtract_floor": True, "black_maria": False})
    {'black_maria': True}
    """
    return {name: facts[name] for name, default in defaults.items() if facts.get(name, default) != default}


def copy_uid(uid: str, copy: int) -> str:
    """The uid of the ``copy``-th game (from 2) with the same facts in one database: one uid per game, still
    the same each time the database is read."""
    return digest_uid(f"{uid} copy {copy}")


def digest_uid(text: str) -> str:
    return uuid.UUID(bytes=hashlib.sha256(text.encode()).digest()[:16], version=4).hex


def stored_content_uids(connection: sa.Connection) -> list[tuple[int, str]]:
    """Each stored game's id and content uid, in the order of the ids, read from the columns of the fixed fields.

    Copies of one game share a content uid here; ``one_each`` tells them apart.
    """
    games = sa.table("games", sa.column("id"), sa.column("created_at", sa.DateTime()), *map(sa.column, HOUSE_FIELDS))
    players = sa.table("players", sa.column("game_id"), sa.column("seat"), sa.column("name"))
    hands = sa.table("hands", sa.column("game_id"), sa.column("number"), sa.column("hearts", sa.JSON()),
                     *map(sa.column, HAND_FIELDS))  # fmt: skip
    names: dict[int, list[str]] = defaultdict(list)
    for game_id, name in connection.execute(sa.select(players.c.game_id, players.c.name).order_by("game_id", "seat")):
        names[game_id].append(name)
    played: dict[int, list[Mapping[Any, Any]]] = defaultdict(list)
    for hand in connection.execute(sa.select(hands).order_by("game_id", "number")).mappings():
        played[hand["game_id"]].append(hand)
    return [
        (game["id"], content_uid(names[game["id"]], game, played[game["id"]], game["created_at"]))
        for game in connection.execute(sa.select(games).order_by("id")).mappings()
    ]


def one_each(stored: list[tuple[int, str]]) -> dict[int, str]:
    """A uid for each game: its content uid, and for a second copy of the same game ``copy_uid``.

    >>> one_each([(1, "a" * 32), (2, "b" * 32), (3, "a" * 32)]) == {1: "a" * 32, 2: "b" * 32, 3: copy_uid("a" * 32, 2)}
    True
    """
    copies: Counter[str] = Counter()
    chosen = {}
    for game_id, uid in stored:
        copies[uid] += 1
        chosen[game_id] = uid if copies[uid] == 1 else copy_uid(uid, copies[uid])
    return chosen


def fill(connection: sa.Connection, column: str) -> None:
    """Write each stored game's content uid (``one_each``) in its ``column``."""
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column(column, sa.String(32)))
    chosen = one_each(stored_content_uids(connection))
    if chosen:
        change = games.update().where(games.c.id == sa.bindparam("game")).values({column: sa.bindparam("made")})
        connection.execute(change, [{"game": game, "made": uid} for game, uid in chosen.items()])
