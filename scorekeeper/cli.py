"""Commands for `flask --app scorekeeper …`."""

import click
from flask import Flask

from .db import db
from .export import all_games
from .rows import keep_records


def register(app: Flask) -> None:
    @app.cli.command("rebuild-records")
    def rebuild_records() -> None:
        """Replay every game and refresh each seat's stored record from it."""
        count = 0
        for loaded in all_games():
            keep_records(loaded.game, loaded.state)
            count += 1
        db.session.commit()
        click.echo(f"Replayed {count} games.")
