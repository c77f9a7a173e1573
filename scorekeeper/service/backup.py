"""Backups a running server can take, and restoring them.

A SQLite database is copied with SQLite's online backup API: a plain copy of the
file can miss what is still in the write-ahead log. A PostgreSQL database (or any
database, when the file name ends in .json) is written as the JSON export, read in
one snapshot. Restore takes either and adds their games through the import.
"""

import json
import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from flask_babel import gettext

from .. import rules
from ..db import db
from .export import as_json, parsed
from .loaded import UnreadableGame, all_games
from .restore import ImportReport, import_games

SQLITE_HEADER = b"SQLite format 3\x00"


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
    """The JSON export of every game, as one consistent moment of the database."""
    if db.engine.dialect.name == "postgresql":
        # Every batch of the export reads the same moment, whatever is written meanwhile.
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        return as_json(all_games())
    finally:
        db.session.rollback()


def sqlite_file() -> Path | None:
    """The file of the app's SQLite database; None for any other database."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def restore(source: Path) -> ImportReport:
    """Add the games of a backup (SQLite file or JSON export) to the app's database; games already here are skipped."""
    return import_games(read_backup(source))


def read_backup(source: Path) -> object:
    with source.open("rb") as file:
        if file.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
            try:
                return export_of_sqlite(source)
            except sqlite3.DatabaseError as broken:
                raise rules.RuleError(gettext("%(file)s is a damaged SQLite database (%(problem)s).", file=source,
                                              problem=broken)) from None  # fmt: skip
            except UnreadableGame as broken:
                raise rules.RuleError(gettext("%(file)s: %(problem)s", file=source, problem=broken.message)) from None
    try:
        return parsed(source.read_bytes())  # as the import page reads it
    except rules.RuleError as broken:
        raise rules.RuleError(gettext("%(file)s: %(problem)s", file=source, problem=broken.message)) from None


def export_of_sqlite(source: Path) -> dict[str, object]:
    """The JSON export of a SQLite backup, read by an app of its own on a scratch copy.

    The copy is brought up to the current schema on the way, as any older backup needs,
    and the backup file itself is left as it was.
    """
    from .. import StartupError, create_app  # the app factory imports this module's neighbours

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "backup.sqlite"
        with closing(sqlite3.connect(source)) as backup_file, closing(sqlite3.connect(copy)) as scratch_file:
            backup_file.backup(scratch_file)
            check_schema(scratch_file, source)
        try:
            app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{copy}", "SECRET_KEY": "restore"}, create=False)
        except StartupError as failed:
            raise rules.RuleError(gettext("%(file)s cannot be read as a backup: %(problem)s", file=source,
                                          problem=failed)) from None  # fmt: skip
        with app.app_context():
            document = as_json(all_games())
            db.session.remove()
            db.engine.dispose()
    return document


def check_schema(backup: sqlite3.Connection, source: Path) -> None:
    """A RuleError unless the SQLite file holds the app's tables, at a schema this version knows."""
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError

    from .. import migrate

    tables = {name for (name,) in backup.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    revision = None
    if {"games", "players", "hands", "alembic_version"} <= tables:
        revision = backup.execute("SELECT max(version_num) FROM alembic_version").fetchone()[0]
    if revision is None:
        raise rules.RuleError(gettext("%(file)s is a SQLite database, but not a backup of this app: it holds no games.",
                                      file=source))  # fmt: skip
    try:
        ScriptDirectory(migrate.directory).get_revision(revision)
    except CommandError:
        newer = gettext("%(file)s is a backup from a newer version of the app (schema %(revision)s): update this one, "
                        "then restore it.", file=source, revision=revision)  # fmt: skip
        raise rules.RuleError(newer) from None
