"""The `scorekeeper` command: serve the app, back it up, restore it, look after its records."""

import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from . import rules
from .db import db


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--instance",
    type=click.Path(file_okay=False, path_type=Path),
    help="The data folder (database, secret key, config.py). Default: SCOREKEEPER_INSTANCE, else the clone's "
    "instance/ folder, else ~/.local/share/scorekeeper.",
)
@click.version_option(package_name="scorekeeper")
def main(instance: Path | None) -> None:
    """Hearts Scorekeeper: keep score for Hearts played with real cards."""
    if instance is not None:
        # The environment carries the choice into gunicorn's workers too.
        os.environ["SCOREKEEPER_INSTANCE"] = str(instance.expanduser().resolve())


@main.command()
@click.option("--bind", metavar="HOST:PORT", help="Where to listen. Default: BIND, else 0.0.0.0:5000 (every address).")
@click.option("--workers", type=click.IntRange(min=1), help="Server processes. Default: WORKERS, else 2.")
def serve(bind: str | None, workers: int | None) -> None:
    """Serve the app for the phones at the table (gunicorn), and print their address."""
    from gunicorn.app.wsgiapp import WSGIApplication

    options = ["--config", "python:scorekeeper.serving"]
    options += ["--bind", bind] if bind else []
    options += ["--workers", str(workers)] if workers else []
    sys.argv = ["scorekeeper serve", *options]  # gunicorn reads its own command line
    WSGIApplication("%(prog)s [OPTIONS]").run()


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(file: Path) -> None:
    """Write a consistent copy of every game to FILE, also while the server runs.

    SQLite databases are copied as SQLite files; PostgreSQL ones, or any one when FILE ends in .json, as the
    JSON export.
    """
    from .service.backup import backup as write_backup

    if not file.parent.is_dir():
        raise click.ClickException(f"There is no folder {file.parent} to write the backup in.")
    with app_context():
        try:
            kind = write_backup(file)
        except (OSError, sqlite3.Error) as failed:
            raise click.ClickException(f"No backup was written to {file}: {failed}") from None
    click.echo(f"Wrote a {kind} to {file}.")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def restore(file: Path) -> None:
    """Add the games of a backup or JSON export to this instance (games already here are kept once)."""
    from .service.backup import restore as read_in

    with app_context():
        try:
            report = read_in(file)
        except rules.RuleError as broken:
            raise click.ClickException(f"Nothing was restored. {broken.message}") from None
    added, here = len(report.imported), report.already_here
    already = f"; {here} {'was' if here == 1 else 'were'} already here" if here else ""
    click.echo(f"Restored {added} game{'s' if added != 1 else ''} from {file}{already}.")


@main.command("rebuild-records")
def rebuild_records() -> None:
    """Replay every game and refresh the players' records from it."""
    from .service.games import rebuild_records as rebuild

    with app_context():
        click.echo(f"Replayed {rebuild()} games.")


@main.command()
def check() -> None:
    """Check that every game replays and every stored record matches its replay."""
    from .service.upkeep import check as check_all

    with app_context():
        count, problems = check_all()
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        raise click.ClickException(f"{len(problems)} problem(s) in {count} games; `scorekeeper rebuild-records` "
                                   "fixes stored records.")  # fmt: skip
    click.echo(f"Checked {count} games: every game replays and every record matches.")


@contextmanager
def app_context() -> Iterator[None]:
    """The app on its data folder (said on stderr, so that scripts can read the answer alone)."""
    from . import create_app

    app = create_app()
    click.echo(f"Data folder: {app.instance_path}", err=True)
    with app.app_context():
        try:
            yield
        finally:
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
