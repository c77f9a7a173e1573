"""Commands for `flask --app scorekeeper …`."""

import click
from flask import Flask

from .records import rebuild_records


def register(app: Flask) -> None:
    @app.cli.command("rebuild-records")
    def rebuild_records_command() -> None:
        """Replay every game and refresh each seat's stored record and each player's summary from them."""
        click.echo(f"Replayed {rebuild_records()} games.")
