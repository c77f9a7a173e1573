"""Opening the database when the app starts, or saying in one line why it cannot.

The schema is created on first start and upgraded after an update; then the app
makes sure the database takes writes, so that a read-only one stops the start
instead of failing every save later. Whatever keeps the database from opening
(a bad URL, a missing driver, a server that does not answer, a damaged file)
becomes a StartupError that names the database and what to do.
"""

import functools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from flask import Flask, current_app
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, NoSuchModuleError

from .config import SETTINGS_FILE, StartupError, database_name
from .i18n.languages import gettext as _
from .service import games, groups
from .store import scope
from .store.db import db

DAMAGED = ("file is not a database", "malformed", "disk image")
READ_ONLY = ("readonly", "read-only", "permission denied")


def open_database(app: Flask, *, create: bool, writes: bool) -> groups.GroupSeen | None:
    """Create or upgrade the schema (``create``: also in a new, empty database), then check it takes writes;
    the first group (the one a server that is one group's serves), made if there is none."""
    name = database_name(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)
    with failures(name), one_process_at_a_time():
        before = schema_revision()
        if before is None and not create and not inspect(db.engine).has_table("games"):
            raise StartupError(_("There are no games at %(name)s: the database is empty. Is DATABASE_URL the "
                                 "server's? (set it in %(path)s)", name=name,
                                 path=Path(app.instance_path, SETTINGS_FILE)))  # fmt: skip
        if before != newest_revision():
            upgrade()
        if before is not None and before != schema_revision():
            scope.see_everything()  # the records of every group, kept again under the new schema
            games.rebuild_records()
        group = groups.first_group()
        if not writes:
            return group
        take_a_write()
        if group is None:
            group = groups.start_group()
            db.session.commit()
        return group


# PostgreSQL's advisory lock of the schema's upgrade (any number the app alone uses): server processes started
# at once (by a service manager, on one machine or several) upgrade one at a time; the first does it, the others
# find it done.
SCHEMA_LOCK = 0x4EA27


@contextmanager
def one_process_at_a_time() -> Iterator[None]:
    """On PostgreSQL, hold the schema's advisory lock while the schema is made or upgraded (a session lock, on a
    connection of its own, let go when done or when the process dies)."""
    if db.engine.dialect.name != "postgresql":
        yield
        return
    with db.engine.connect() as held:
        held.execute(text("SELECT pg_advisory_lock(:lock)"), {"lock": SCHEMA_LOCK})
        held.commit()
        try:
            yield
        finally:
            held.execute(text("SELECT pg_advisory_unlock(:lock)"), {"lock": SCHEMA_LOCK})
            held.commit()


def upgrade() -> None:
    """Alembic's upgrade to the newest revision (not Flask-Migrate's, which exits the process on an error)."""
    command.upgrade(current_app.extensions["migrate"].migrate.get_config(), "head")


def newest_revision() -> str | None:
    """The revision the app's migrations end at: a database there needs no upgrade (nor Alembic's reading of every
    migration at each start)."""
    return migrations_head(current_app.extensions["migrate"].migrate.get_config().get_main_option("script_location"))


@functools.cache
def migrations_head(folder: str) -> str | None:
    return ScriptDirectory(folder).get_current_head()


def schema_revision() -> str | None:
    """The revision the database is at (None: no schema yet), read from Alembic's table as Alembic reads it."""
    with db.engine.connect() as connection:
        if not inspect(connection).has_table(VERSION_TABLE):
            return None
        return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


VERSION_TABLE = "alembic_version"  # Alembic's, with one row: the revision the schema is at


def take_a_write() -> None:
    """Write, and take it back: a database this user may only read fails here, not at the first save."""
    with db.engine.connect() as connection, connection.begin() as transaction:
        connection.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = version_num"))
        transaction.rollback()


def sqlite_file(uri: str, instance: Path, *, create: bool) -> None:
    """A SQLite database's file: made readable by its owner only when new (its -wal and -shm files follow it);
    a StartupError when it is missing and may not be made."""
    try:
        parsed = make_url(uri)
    except ArgumentError:
        return  # database_name says what is wrong with it
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    path = instance / parsed.database
    if path.exists():
        return
    if not create:
        raise StartupError(_("There is no database at %(path)s: is this the server's data folder, and its "
                             "DATABASE_URL? (settings are read from %(settings)s)", path=path,
                             settings=instance / SETTINGS_FILE))  # fmt: skip
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    except OSError as failed:
        raise StartupError(_("Cannot create the database %(path)s (%(problem)s): make its folder writable "
                             "for this user, or choose another data folder with --instance.", path=path,
                             problem=failed.strerror)) from None  # fmt: skip


@contextmanager
def failures(name: str) -> Iterator[None]:
    """What keeps the database ``name`` from opening, as a StartupError."""
    try:
        yield
    except NoSuchModuleError as unknown:
        kind = str(unknown).rpartition(":")[2]
        raise StartupError(_("DATABASE_URL names a kind of database this app does not know (%(kind)s): "
                             "use postgresql://… or sqlite:///….", kind=kind)) from None  # fmt: skip
    except ArgumentError:
        raise StartupError(_("DATABASE_URL is not a database URL: write it as postgresql://USER:PASSWORD@HOST/NAME "
                             "(or leave it out for the SQLite file in the data folder).")) from None  # fmt: skip
    except ImportError as missing:
        raise StartupError(missing_driver(missing.name or "")) from None
    except DatabaseError as failed:
        raise StartupError(database_problem(name, failed)) from None
    except CommandError as unknown:  # a revision this version does not have
        raise StartupError(_("The database %(name)s was upgraded by a newer version of the app (%(problem)s): "
                             "install that version again.", name=name, problem=unknown)) from None  # fmt: skip


def missing_driver(module: str) -> str:
    """What to install when a database driver is missing.

    >>> missing_driver("psycopg")[:59]
    'The PostgreSQL driver (psycopg) is not installed: install t'
    """
    if module.startswith("psycopg"):
        return _("The PostgreSQL driver (psycopg) is not installed: install the app with it, "
                 "pipx install --force '.[postgres]' (or pip install 'psycopg[binary]').")  # fmt: skip
    return _("The database driver %(module)s is not installed: install it, or use PostgreSQL or SQLite.", module=module)


def database_problem(name: str, failed: DatabaseError) -> str:
    """The driver's own first line, with what to do about it.

    >>> from sqlalchemy.exc import OperationalError
    >>> said = database_problem("/srv/x.sqlite", OperationalError("", {}, Exception("attempt to write a readonly db")))
    >>> said[:79]
    'The database /srv/x.sqlite is read-only for this user (attempt to write a reado'
    """
    said = (str(failed.orig).strip().splitlines() or [type(failed.orig).__name__])[0]
    if any(word in said for word in DAMAGED):
        return _("The database %(name)s is damaged (%(problem)s): restore the last backup into a new data folder, "
                 "scorekeeper --instance NEW-FOLDER restore BACKUP.", name=name, problem=said)  # fmt: skip
    if any(word in said.lower() for word in READ_ONLY):
        return _("The database %(name)s is read-only for this user (%(problem)s): let it write the file and its "
                 "folder, or choose another data folder with --instance.", name=name, problem=said)  # fmt: skip
    if "unable to open" in said:
        return _("Cannot open the database %(name)s (%(problem)s): let this user read and write the file and its "
                 "folder.", name=name, problem=said)  # fmt: skip
    return _("Cannot use the database %(name)s: %(problem)s. Check DATABASE_URL, and that the database server runs.",
             name=name, problem=said)  # fmt: skip
