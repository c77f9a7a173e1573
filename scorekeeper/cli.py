"""Commands for `flask --app scorekeeper …` (the `scorekeeper` command has them too)."""

import click
from flask import Flask

from .upkeep import rebuild_records as rebuild


def register(app: Flask) -> None:
    @app.cli.command("rebuild-records")
    def rebuild_records() -> None:
        """Replay every game and refresh each seat's stored record from it."""
        click.echo(f"Replayed {rebuild()} games.")
