"""Importing an export (or restoring a backup): every game not already here, a batch at a time.

The whole file is checked first, so a broken one stores nothing: an import reads the file twice, a game at a time
(reader.py), once to check every game and once to store them, so that it never holds more than a batch in memory. A
game already stored is skipped (``Known``), so importing the same file twice is harmless, and so is an old export or
backup whose games had no uid. Each batch is its own short transaction, and on SQLite the import pauses between
batches, so phones keep recording hands during a long import. Imports work in turns (turns.py): however many groups
import at once, one works at a time, for a few seconds of processor, and the one expected to take least goes first
(by its file's size, then by the games and hands read so far); a group (and an address) imports one file at a time,
and an import with no place in the turns waits for one, a minute at most (``ImportBusy`` then).
"""

import functools
import io
import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from flask import current_app
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

from .. import rules
from ..store import models, scope
from ..store.db import WRITES_PAUSE, db, is_busy
from . import groups
from .change import changes_a_game
from .exported import ExportedGame
from .file_bytes import objects_in
from .import_outcomes import GroupFilled, ImportBusy, ImportCutShort, ImportReport
from .reader import ExportFile
from .rows import give_hands, new_game_row
from .turns import LONG_WORK, AddressHasOne, OwnerHasOne, TooManyWaiting

BATCH = 200  # games stored in one transaction at most
BATCH_HANDS = 1_000  # and their hands: a quarter of a second of work, the longest an export beside it waits a step
# The processor an import takes, about: for each MB of its file (the app's own exports, a moon every hand), and at
# least for each game (read twice and stored: a game of three names and no hand) and each hand it holds.
SECONDS_PER_MB = 1.0
SECONDS_PER_GAME = 0.0007
SECONDS_PER_HAND = 0.00025


@dataclass(frozen=True)
class Known:
    """The games stored (or met earlier in the file), by their uids and content uids.

    A game is one of them when its uid is one of their uids or content uids (a copy from before
    uids: its uid is its content uid), or when its content uid is the very uid of one (a game first
    stored from a copy without a uid). Two games with other uids are two games, even with the same facts.
    """

    uids: set[str | None]
    content_uids: set[str | None]

    def knows(self, game: ExportedGame) -> bool:
        return game.uid in self.uids or game.uid in self.content_uids or game.content_uid in self.uids


def import_games(stream: IO[bytes], address: str | None = None) -> ImportReport:
    """Store every game of an export file that is not here yet; a RuleError if any game breaks a rule, ImportBusy
    if it cannot have its turn: its group's or its ``address``'s last import is still under way (at once), or the
    turns are full and it waited for a place in vain.

    The games go into the group in scope. A backup of a whole server, which holds other groups too, is the
    host's to restore (`scorekeeper restore`): an import stores no group's games in another.
    """
    export, size, objects = ExportFile(stream), stream.seek(0, io.SEEK_END), objects_in(stream)
    db.session.commit()  # an import waiting for its turn holds none of the database's few connections
    try:
        with LONG_WORK.taken(scope.current(), address, expected_seconds(size)) as turn:
            share = functools.partial(turn.share, db.session.commit)

            def counted(games: int, hands: int) -> None:
                turn.expect(expected_seconds(size, games, hands, export.part_read(objects)))

            check_all(export.games(), share, counted)
            if export.other_groups:
                raise rules.RuleError(gettext("This file is a backup of a whole server, with several groups in it: "
                                              "the host restores it with `scorekeeper restore`."))  # fmt: skip
            turn.keep_place()  # what it stores, it stores to the end
            return store_games(export.games(), share, functools.partial(turn.rest, before_waiting=db.session.commit))
    except OwnerHasOne:
        said = gettext("An import of this group is under way: nothing was imported from this file. Import it again "
                       "once that one is done; the games already here are skipped.")  # fmt: skip
        raise ImportBusy(said) from None
    except AddressHasOne:
        said = gettext("Another import from your network is under way: nothing was imported from this file. Import "
                       "it again once that one is done.")  # fmt: skip
        raise ImportBusy(said) from None
    except TooManyWaiting:
        said = gettext("The server is busy with the imports of other groups: nothing was imported. Try again in a "
                       "moment.")  # fmt: skip
        raise ImportBusy(said) from None


def expected_seconds(size: int, games: int = 0, hands: int = 0, part: float = 0.0) -> float:
    """The processor an import of a file of ``size`` bytes is expected to take, by its size until it has read
    ``games`` and ``hands`` in ``part`` of the file: a file of many small games takes more than its size says.

    >>> expected_seconds(2_000_000), expected_seconds(100_000, games=1000, part=0.5)
    (2.0, 1.4)
    """
    by_size = size / 1e6 * SECONDS_PER_MB
    return max(by_size, (games * SECONDS_PER_GAME + hands * SECONDS_PER_HAND) / part) if part else by_size


def check_all(
    games: Iterator[ExportedGame],
    share: Callable[[], None] = lambda: None,
    counted: Callable[[int, int], None] = lambda games, hands: None,
) -> None:
    """Read every game, each checked by the rules; on an open server, a RuleError (409) as soon as the games not yet
    here would take the group past the most it keeps. Between batches, ``counted`` is told the games and hands read
    so far, then ``share`` is called."""
    room = groups.GAMES_MAX - groups.games_in_group() if current_app.config.get("GROUPS_OPEN") else None
    seen, new, read, hands = Known(set(), set()), 0, 0, 0
    for batch in _batches(games):
        read, hands = read + len(batch), hands + sum(len(game.hands) for game in batch)
        counted(read, hands)
        share()
        if room is None:
            continue
        stored = _stored(batch)
        for game in batch:
            if not seen.knows(game) and not stored.knows(game):
                new += 1
            seen.uids.add(game.uid)
            seen.content_uids.add(game.content_uid)
        if new > room:
            groups.room_for(new)


def store_games(
    games: Iterable[ExportedGame],
    share: Callable[[], None] = lambda: None,
    pause: Callable[[float], None] = time.sleep,
) -> ImportReport:
    """Store the games read from an export that are not here yet, into the group in scope; ``share`` is called
    between batches (to give the processor to other imports), and on SQLite ``pause`` (a phone's write goes
    between them)."""
    imported: list[int] = []
    seen, read = Known(set(), set()), 0
    for number, batch in enumerate(_batches(iter(games))):
        if number:
            share()
            if db.engine.dialect.name == "sqlite":
                pause(WRITES_PAUSE)
        read += len(batch)
        new = []
        for game in batch:  # a game twice in the file is stored once
            if not seen.knows(game):
                seen.uids.add(game.uid)
                seen.content_uids.add(game.content_uid)
                new.append(game)
        try:
            imported += _store_batch(new)
        except OperationalError as problem:
            if imported and is_busy(problem):
                raise ImportCutShort(len(imported)) from problem
            raise
        except rules.RuleError:  # the group is full: another process imported into it too
            if imported:
                raise GroupFilled(len(imported)) from None
            raise
    return ImportReport(imported, read - len(imported))


def _batches(games: Iterator[ExportedGame]) -> Iterator[list[ExportedGame]]:
    """The games in batches of at most BATCH games and about BATCH_HANDS hands."""
    while True:
        batch, hands = [], 0
        for game in itertools.islice(games, BATCH):
            batch.append(game)
            hands += len(game.hands)
            if hands >= BATCH_HANDS:
                break
        if not batch:
            return
        yield batch


def _stored(batch: list[ExportedGame]) -> Known:
    """The games of the group in scope that are one of ``batch``'s, by uid or content uid."""
    asked = [uid for game in batch for uid in (game.uid, game.content_uid)]
    return Known(
        set(db.session.scalars(select(models.Game.uid).where(models.Game.uid.in_(asked)))),
        set(db.session.scalars(select(models.Game.content_uid).where(models.Game.content_uid.in_(asked)))),
    )


@changes_a_game
def _store_batch(batch: list[ExportedGame]) -> list[int]:
    """The batch's games not stored yet, stored; the group's room looked at again with its row held, since another
    process may import into it too (the room the check found is one process's)."""
    for _attempt in range(2):
        groups.hold_for_change(scope.current())
        stored = _stored(batch)
        rows = [_game_row(game) for game in batch if not stored.knows(game)]
        groups.room_for(len(rows))
        db.session.add_all(rows)
        try:
            db.session.flush()
            ids = [row.id for row in rows]  # read before the commit expires them (a query each after)
            db.session.commit()
        except IntegrityError:  # the same file imported at the same moment elsewhere: look again
            db.session.rollback()
            continue
        return ids
    raise RuntimeError("Another import kept storing the same games at the same time.")


def _game_row(exported: ExportedGame) -> models.Game:
    game = new_game_row(exported.players, exported.house.as_dict())
    game.uid, game.content_uid = exported.uid, exported.content_uid
    give_hands(game, exported.hands)
    game.created_at = exported.created_at or models.utcnow()
    game.updated_at = exported.updated_at or game.created_at  # a restore gives back the same export
    return game
