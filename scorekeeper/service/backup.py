"""Backups a running server can take, and restoring them.

A SQLite database is copied with SQLite's online backup API: a plain copy of the
file can miss what is still in the write-ahead log. A PostgreSQL database (or any
database, when the file name ends in .json) is written as the JSON export, read in
one snapshot. Restore takes either and adds their games through the import.

Groups stay apart and whole: the JSON backup is the export of the first group's
games (what a server of one group serves; an older version reads just that), with
that group's key, name and passcode, and every other group with its own games. A
restore puts each group's games back into the group of the same key, made where
it is missing, so the groups' links go on working on the new machine.
"""

import json
import os
import re
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from flask_babel import gettext
from sqlalchemy import select, update

from .. import rules
from ..paths import MIGRATIONS
from ..store import models, scope
from ..store.db import db
from . import groups
from .every_game import UnreadableGame, all_games
from .export import BACKUP_VERSION, EXPORT_FORMAT, as_json
from .exported import ExportedGame, parsed, read_games
from .import_outcomes import ImportReport
from .loaded import LoadedGame
from .restore import check_all, store_games

SQLITE_HEADER = b"SQLite format 3\x00"
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def backup(target: Path) -> str:
    """Write a consistent copy of the database to ``target``; the kind of copy written: sqlite or json."""
    partial = target.with_name(target.name + ".partial")
    private_empty_file(partial)
    source = sqlite_file()
    if source is not None and target.suffix != ".json":
        with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(partial)) as copy:
            live.backup(copy)
        kind = "sqlite"
    else:
        partial.write_text(json.dumps(snapshot(), ensure_ascii=False, indent=1), encoding="utf-8")
        kind = "json"
    os.replace(partial, target)  # a reader of ``target`` never sees half a backup
    return kind


def private_empty_file(path: Path) -> None:
    """An empty file only its owner may read, like the database it will copy (SQLite's journal follows it)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    os.chmod(path, 0o600)  # a file left by an earlier, interrupted backup kept its own mode


def snapshot() -> dict[str, object]:
    """The JSON backup of every group and game, as one consistent moment of the database."""
    if db.engine.dialect.name == "postgresql":
        # Every batch of the export reads the same moment, whatever is written meanwhile.
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        first, *others = db.session.scalars(select(models.Group).order_by(models.Group.id)).all()
        document = {**as_json(games_of(first.id)), "version": BACKUP_VERSION, "group": group_json(first)}
        document["groups"] = [{**group_json(group), "games": as_json(games_of(group.id))["games"]} for group in others]
        return document
    finally:
        scope.see_everything()
        db.session.rollback()


def games_of(group_id: int) -> list[LoadedGame]:
    scope.limit_to(group_id)
    return list(all_games())


def group_json(group: models.Group) -> dict[str, object]:
    return {"key": group.key, "name": group.name, "passcode_hash": group.passcode_hash}


def sqlite_file() -> Path | None:
    """The file of the app's SQLite database; None for any other database."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


SqliteReader = Callable[[Path], dict[str, object]]


def restore(source: Path, read_sqlite: SqliteReader) -> ImportReport:
    """Add the groups and games of a backup (SQLite file or JSON export) to the app's database; games already here
    are skipped. Every group and game is checked first: a broken one stores nothing.

    ``read_sqlite`` gives the JSON export of a SQLite backup: the commands read it with an app of its own.
    """
    document = read_backup(source, read_sqlite)
    if isinstance(document, dict) and document.get("groups") is not None:
        if not isinstance(document["groups"], list):
            raise rules.RuleError(gettext("This backup's groups are not a list."))
    own, others = read_group(document.get("group") if isinstance(document, dict) else None), []
    for place, group in enumerate(document.get("groups") or [] if isinstance(document, dict) else [], start=1):
        try:
            games = group.get("games") if isinstance(group, dict) else None
            others.append((read_group(group), read_games({"format": EXPORT_FORMAT, "games": games})))
        except rules.RuleError as broken:
            said = gettext("Group %(place)d in the file: %(problem)s", place=place, problem=broken.message)
            raise rules.RuleError(said) from None
    first_games = read_games(document)
    reports = [into_group(first_group(own), first_games)]
    reports += [into_group(group_for(group), games) for group, games in others]
    scope.see_everything()
    return ImportReport([game for report in reports for game in report.imported],
                        sum(report.already_here for report in reports))  # fmt: skip


@dataclass(frozen=True)
class BackedUpGroup:
    key: str
    name: str
    passcode_hash: str | None


def read_group(group: object) -> BackedUpGroup | None:
    """A group of a backup, checked as the app would make it; None for a backup without groups (an export)."""
    if group is None:
        return None
    if not isinstance(group, dict):
        raise rules.RuleError(gettext("A group of this backup is not an object."))
    key, hashed = group.get("key"), group.get("passcode_hash")
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise rules.RuleError(gettext("A group of this backup has no key the app could have made."))
    if hashed is not None and (not isinstance(hashed, str) or len(hashed) > models.PASSCODE_HASH_MAX):
        raise rules.RuleError(gettext("A group of this backup has a passcode the app could not have stored."))
    return BackedUpGroup(key, groups.clean_name(group.get("name")), hashed)


def first_group(backed_up: BackedUpGroup | None) -> int:
    """Where the backup's own games go: the first group here. A new one (no game, no name, no passcode) becomes the
    backup's first group, its key included, so that its link works here too."""
    first = db.session.scalars(select(models.Group).order_by(models.Group.id).limit(1)).one()
    if backed_up is not None and not first.name and not first.passcode_hash and not has_games(first.id):
        if groups.find_group(backed_up.key) is None:
            first.key, first.key_digest = backed_up.key, groups.digest(backed_up.key)
            first.name, first.passcode_hash = backed_up.name, backed_up.passcode_hash
            db.session.commit()
    return first.id


def group_for(backed_up: BackedUpGroup | None) -> int:
    """The group here with the backup's group's key, made as it was if there is none."""
    assert backed_up is not None
    found = groups.find_group(backed_up.key)
    if found is not None:
        return found.id
    made = groups.start_group(backed_up.name, key=backed_up.key)
    db.session.execute(
        update(models.Group).where(models.Group.id == made.id).values(passcode_hash=backed_up.passcode_hash)
    )
    db.session.commit()
    return made.id


def has_games(group_id: int) -> bool:
    return db.session.scalar(select(models.Game.id).where(models.Game.group_id == group_id).limit(1)) is not None


def into_group(group_id: int, games: list[ExportedGame]) -> ImportReport:
    scope.limit_to(group_id)
    check_all(iter(games))
    return store_games(games)


def read_backup(source: Path, read_sqlite: SqliteReader) -> object:
    with source.open("rb") as file:
        if file.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
            try:
                return read_sqlite(source)
            except sqlite3.DatabaseError as broken:
                raise rules.RuleError(gettext("%(file)s is a damaged SQLite database (%(problem)s).", file=source,
                                              problem=broken)) from None  # fmt: skip
            except UnreadableGame as broken:
                raise rules.RuleError(gettext("%(file)s: %(problem)s", file=source, problem=broken.message)) from None
    try:
        return parsed(source.read_bytes())  # as the import page reads it
    except rules.RuleError as broken:
        raise rules.RuleError(gettext("%(file)s: %(problem)s", file=source, problem=broken.message)) from None


def check_schema(backup: sqlite3.Connection, source: Path) -> None:
    """A RuleError unless the SQLite file holds the app's tables, at a schema this version knows."""
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError

    tables = {name for (name,) in backup.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    revision = None
    if {"games", "players", "hands", "alembic_version"} <= tables:
        revision = backup.execute("SELECT max(version_num) FROM alembic_version").fetchone()[0]
    if revision is None:
        raise rules.RuleError(gettext("%(file)s is a SQLite database, but not a backup of this app: it holds no games.",
                                      file=source))  # fmt: skip
    try:
        ScriptDirectory(str(MIGRATIONS)).get_revision(revision)
    except CommandError:
        newer = gettext("%(file)s is a backup from a newer version of the app (schema %(revision)s): update this one, "
                        "then restore it.", file=source, revision=revision)  # fmt: skip
        raise rules.RuleError(newer) from None
