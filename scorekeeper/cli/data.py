"""The commands that look after the data: back it up, restore it, list the groups, check and rebuild the records."""

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import click
from flask import Flask

from .. import rules
from ..config import StartupError
from ..i18n.languages import gettext as _
from ..i18n.languages import ngettext
from ..store import scope
from ..store.db import db


@click.command(help=_("Write a consistent copy of every game to FILE, also while the server runs.\n\nSQLite databases "
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


@click.command(help=_("Add the games of a backup or JSON export to this instance (games already here are kept once)."))
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


@click.command(help=_("List the groups: name, games, last used; never their keys. With --link NAME, the link of the "
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


@click.command("rebuild-records", help=_("Replay every game and refresh the players' records from it."))
def rebuild_records() -> None:
    from ..service.games import rebuild_records as rebuild

    with app_context(create=False):
        count, skipped = rebuild()
    for problem in skipped:
        click.echo(problem, err=True)
    click.echo(ngettext("Replayed %(num)d game.", "Replayed %(num)d games.", count))
    if skipped:
        raise click.ClickException(untouched(len(skipped)))


@click.command(help=_("Check that every game reads and replays and every stored record matches its replay."))
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


COMMANDS = (backup, restore, groups, rebuild_records, check)
