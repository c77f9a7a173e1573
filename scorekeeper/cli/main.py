"""The `scorekeeper` command: serve the app, back it up, restore it, look after its records."""

import io
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from flask import Flask

from .. import rules
from ..config import StartupError
from ..i18n import click_words
from ..i18n.languages import gettext as _
from ..i18n.languages import ngettext
from ..store import scope
from ..store.db import db

if TYPE_CHECKING:
    from ..server.serving import PortInUse  # imported when serving: the other commands start without the server

click_words.speak()  # click's own words in the host's language too: before the options below are made


class Commands(click.Group):
    """What keeps the app from starting is one line for the host, and a non-zero exit: never a traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        printable(sys.stdout)
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StartupError as stopped:
            raise click.ClickException(str(stopped)) from None


def printable(stream: object) -> None:
    """An output that says what it cannot encode as "?", never stops the command with a UnicodeEncodeError.

    Windows gives a redirected or piped output its ANSI code page (cp1252 in Western Europe), which
    holds neither a QR code's blocks nor every name a data folder's path may hold.
    """
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="replace")


# What `--help` says is in the host's language too: each command's help is a message, not its docstring.
@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]},
             help=_("Hearts Scorekeeper: keep score for Hearts played with real cards."))  # fmt: skip
@click.option(
    "--instance",
    type=click.Path(file_okay=False, path_type=Path),
    help=_("The data folder (database, secret key, settings.env). Default: SCOREKEEPER_INSTANCE, else the clone's "
           "instance/ folder, else ~/.local/share/scorekeeper."),
)  # fmt: skip
@click.version_option(package_name="scorekeeper")
def main(instance: Path | None) -> None:
    if instance is not None:
        os.environ["SCOREKEEPER_INSTANCE"] = str(instance.expanduser().resolve())


@main.command(help=_("Serve the app for the phones at the table (uvicorn), and print their address."))
@click.option(
    "--bind", metavar="HOST:PORT", help=_("Where to listen. Default: BIND, else 0.0.0.0:5000 (every address).")
)
@click.option("--threads", type=click.IntRange(1, 256), help=_("Threads that run the app. Default: THREADS, else 8."))
@click.option("--workers", hidden=True)  # gone: said when given
def serve(bind: str | None, threads: int | None, workers: str | None) -> None:
    from .. import create_app
    from ..server import serving
    from .lan import banner, open_server_note

    if workers is not None:
        raise click.UsageError(_("--workers is gone: the server is one process now, and its threads (--threads) "
                                 "serve every phone. Take --workers out of the command."))  # fmt: skip
    app = create_app()
    behind_proxy = bool(app.config["BEHIND_PROXY"])
    chosen = bind or app.config["BIND"]
    where = app.config["GIVEN"].get("BIND")
    # A host who chose no port gets the next free one past a port in use (macOS's AirPlay Receiver holds 5000).
    ports = serving.PORTS if bind is None and where is None else 1
    try:
        server = serving.listening_server(app, chosen, threads or app.config["THREADS"], ports)
    except serving.PortInUse as taken:
        raise StartupError(another_port(taken, bind, where)) from None
    asked, port = serving.host_and_port(chosen)[1], server.addresses()[0][1]
    if port != asked:
        click.echo(_("Port %(taken)d is in use already (another server? On a Mac, the AirPlay Receiver): serving on "
                     "port %(port)d instead. BIND (or --bind) chooses the port.", taken=asked, port=port))  # fmt: skip
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    click.echo(banner(app, server.addresses(), behind_proxy=behind_proxy, encoding=encoding))
    if app.config["GROUPS_OPEN"]:
        click.echo(open_server_note(app))
    serving.run(server)


def another_port(taken: "PortInUse", bind: str | None, where: str | None) -> str:
    """What to do about a port in use, said the way the host chose it: --bind, `make run`'s BIND, or BIND."""
    if bind is not None:
        return str(taken)
    if "MAKELEVEL" in os.environ:  # `make run`, which takes no --bind
        return _("%(bind)s is in use already (another server?): pick another port, e.g. BIND=%(host)s:%(port)d make "
                 "run.", bind=taken.bind, host=taken.host, port=taken.port)  # fmt: skip
    if where is not None:
        return _("%(bind)s is in use already (another server?): pick another port for BIND %(where)s, e.g. "
                 "BIND=%(host)s:%(port)d.", bind=taken.bind, where=where, host=taken.host, port=taken.port)  # fmt: skip
    return str(taken)


@main.command(help=_("Write a consistent copy of every game to FILE, also while the server runs.\n\nSQLite databases "
                     "are copied as SQLite files; PostgreSQL ones, or any one when FILE ends in .json, as the JSON "
                     "export. A FILE that is a link is written through, to the file it links to."))  # fmt: skip
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(file: Path) -> None:
    from ..service.backup import backup as write_backup
    from ..service.backup import sqlite_file

    target = backup_target(file)
    with app_context(create=False, writes=False):
        if sqlite_file() is None and target.suffix in (".sqlite", ".sqlite3", ".db"):
            raise click.ClickException(_("Nothing was written: this database's backup is a JSON export, so name it "
                                         "%(file)s.", file=file.with_suffix(".json")))  # fmt: skip
        try:
            kind = write_backup(target)
        except (OSError, sqlite3.Error) as failed:
            raise click.ClickException(_("No backup was written to %(file)s: %(problem)s", file=file,
                                         problem=failed)) from None  # fmt: skip
        except rules.RuleError as unreadable:
            raise click.ClickException(_("No backup was written to %(file)s: %(problem)s", file=file,
                                         problem=unreadable.message)) from None  # fmt: skip
    wrote = _("Wrote a SQLite database to %(file)s.", file=file) if kind == "sqlite" else None
    click.echo(wrote or _("Wrote a JSON export to %(file)s.", file=file))


def backup_target(file: Path) -> Path:
    """The file a backup goes to: a new one, or a regular file written over; through a link, what it links to."""
    target = file.resolve()
    if not target.parent.is_dir():
        raise click.ClickException(_("There is no folder %(folder)s to write the backup in.", folder=target.parent))
    if target.exists() and not target.is_file():
        raise click.ClickException(_("Nothing was written: %(file)s is not a regular file. Give the backup a file "
                                     "name of its own.", file=target))  # fmt: skip
    return target


@main.command(help=_("Add the games of a backup or JSON export to this instance (games already here are kept once)."))
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def restore(file: Path) -> None:
    from ..service.backup import restore as read_in

    with app_context():
        try:
            report = read_in(file, export_of_sqlite)
        except rules.RuleError as broken:
            raise click.ClickException(_("Nothing was restored. %(problem)s", problem=broken.message)) from None
    added, here = len(report.imported), report.already_here
    if not here:
        click.echo(ngettext("Restored %(num)d game from %(file)s.", "Restored %(num)d games from %(file)s.", added,
                            file=file))  # fmt: skip
        return
    restored = ngettext("Restored %(num)d game from %(file)s", "Restored %(num)d games from %(file)s", added, file=file)
    click.echo(ngettext("%(restored)s; %(num)d was already here.", "%(restored)s; %(num)d were already here.", here,
                        restored=restored))  # fmt: skip


@main.command(help=_("List the groups: name, games, last used; never their keys. With --link NAME, the link of the "
                     "group of that name (or of that number in the list) alone."))  # fmt: skip
@click.option("--link", "named", metavar="NAME", help=_("Print the link of this group, its key in it."))
def groups(named: str | None) -> None:
    from ..service.groups import key_of, list_groups
    from .lan import site_address

    with app_context(create=False, writes=False) as app:
        listed = list_groups()
        site = site_address(app)
        keys = {group.id: key_of(group.id) for group in listed} if named is not None else {}
    if named is None:
        for number, group in enumerate(listed, start=1):
            name = group.name or _("(no name)")
            click.echo(ngettext("%(number)d. %(name)s: %(num)d game, last used %(used)s",
                                "%(number)d. %(name)s: %(num)d games, last used %(used)s", group.games,
                                number=number, name=name, used=f"{group.last_used:%Y-%m-%d %H:%M} UTC"))  # fmt: skip
        return
    chosen = [group for number, group in enumerate(listed, start=1) if named in (group.name, str(number))]
    if len(chosen) != 1:
        said = _("No group is called “%(name)s”: `scorekeeper groups` lists them.", name=named) if not chosen else None
        raise click.ClickException(said or _("Several groups are called “%(name)s”: give the number of the one you "
                                             "mean, from `scorekeeper groups`.", name=named))  # fmt: skip
    click.echo(f"{site}g/{keys[chosen[0].id]}/")


@main.command("rebuild-records", help=_("Replay every game and refresh the players' records from it."))
def rebuild_records() -> None:
    from ..service.games import rebuild_records as rebuild

    with app_context(create=False):
        count, skipped = rebuild()
    for problem in skipped:
        click.echo(problem, err=True)
    click.echo(ngettext("Replayed %(num)d game.", "Replayed %(num)d games.", count))
    if skipped:
        raise click.ClickException(untouched(len(skipped)))


@main.command(help=_("Check that every game reads and replays and every stored record matches its replay."))
def check() -> None:
    from ..service.upkeep import check as check_all

    with app_context(create=False, writes=False):
        checked = check_all()
    for problem in checked.problems:
        click.echo(problem, err=True)
    if not checked.problems:
        click.echo(ngettext("Checked %(num)d game: it replays and every record matches.",
                            "Checked %(num)d games: every game replays and every record matches.",
                            checked.games))  # fmt: skip
        return
    found = [ngettext("%(num)d problem (games checked: %(games)d).", "%(num)d problems (games checked: %(games)d).",
                      len(checked.problems), games=checked.games)]  # fmt: skip
    if checked.broken:
        found.append(untouched(len(checked.broken)))
    if checked.records:
        found.append(_("`scorekeeper rebuild-records` stores the records again from the hands."))
    if checked.copies:
        found.append(_("A game stored twice stays so until its copies are deleted: rebuild-records keeps both."))
    raise click.ClickException(" ".join(found))


def untouched(count: int) -> str:
    return ngettext(
        "The game that cannot be read or replayed is left as it is: a backup from before it was damaged has it whole.",
        "The games that cannot be read or replayed are left as they are: a backup from before they were damaged has "
        "them whole.",
        count,
    )


@contextmanager
def app_context(*, create: bool = True, writes: bool = True) -> Iterator[Flask]:
    """The app on its data folder and database (said on stderr, so that scripts can read the answer alone).

    ``create``: a new database may be made (a restore into a new data folder); else there must be one.
    """
    from .. import create_app
    from ..config import database_name

    app = create_app(create=create, writes=writes)
    click.echo(_("Data folder: %(path)s", path=app.instance_path), err=True)
    name = database_name(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)
    click.echo(_("Database: %(name)s", name=name), err=True)
    with app.app_context():
        scope.see_everything()  # the host's command: every group's games
        try:
            yield app
        finally:
            db.session.remove()
            db.engine.dispose()


def export_of_sqlite(source: Path) -> dict[str, object]:
    """The JSON export of a SQLite backup, read by an app of its own on a scratch copy.

    The copy is brought up to the current schema on the way, as any older backup needs,
    and the backup file itself is left as it was.
    """
    from .. import create_app
    from ..service.backup import check_schema, snapshot

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "backup.sqlite"
        with closing(sqlite3.connect(source)) as backup_file, closing(sqlite3.connect(copy)) as scratch_file:
            backup_file.backup(scratch_file)
            check_schema(scratch_file, source)
        try:
            app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{copy}", "SECRET_KEY": "restore"}, create=False)
        except StartupError as failed:
            raise rules.RuleError(_("%(file)s cannot be read as a backup: %(problem)s", file=source,
                                    problem=failed)) from None  # fmt: skip
        with app.app_context():
            scope.see_everything()  # the backup's every group
            document = snapshot()
            db.session.remove()
            db.engine.dispose()
    return document


if __name__ == "__main__":
    main()
