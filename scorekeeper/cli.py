"""Commands for `flask --app scorekeeper …`."""

import click
from flask import Flask

from . import games


def register(app: Flask) -> None:
    @app.cli.command("rebuild-records")
    def rebuild_records() -> None:
        """Replay every game and refresh each seat's stored record from it."""
        click.echo(f"Replayed {games.rebuild_records()} games.")
