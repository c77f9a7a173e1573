"""Games written out as JSON (the API's game objects) and as CSV, a row per hand per player."""

import csv
import io
from collections.abc import Iterable, Iterator

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from . import models
from .db import db
from .games import LoadedGame, replayed
from .history import export_document
from .serialize import game_json, timestamp

CSV_COLUMNS = [
    "game",
    "date",
    "hand",
    "pass",
    "dealer",
    "seat",
    "player",
    "hearts",
    "queen",
    "jack",
    "moon",
    "score",
    "total",
]
BATCH = 500


def all_games() -> Iterator[LoadedGame]:
    """Every game, oldest first, replayed."""
    return (replayed(game) for game in stored_games())


def stored_games() -> Iterator[models.Game]:
    """Every game row with its players and hands, oldest first, loaded a batch at a time."""
    after = 0
    while True:
        query = (
            select(models.Game)
            .where(models.Game.id > after)
            .order_by(models.Game.id)
            .limit(BATCH)
            .options(selectinload(models.Game.players), selectinload(models.Game.hands))
        )
        batch = db.session.scalars(query).all()
        if not batch:
            return
        yield from batch
        after = batch[-1].id


def as_json(games: Iterable[LoadedGame]) -> dict[str, object]:
    return export_document([game_json(loaded) for loaded in games])


def as_csv(games: Iterable[LoadedGame]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for loaded in games:
        for scored in loaded.state.hands:
            moon = scored.moon
            for seat, name in enumerate(loaded.players):
                writer.writerow(
                    [
                        loaded.id,
                        timestamp(loaded.game.created_at),
                        scored.number,
                        scored.pass_direction,
                        loaded.players[scored.dealer],
                        seat,
                        name,
                        scored.hand.hearts[seat],
                        int(scored.hand.queen == seat),
                        int(scored.hand.jack == seat),
                        moon.option if moon and moon.shooter == seat else "",
                        scored.scores[seat],
                        scored.totals[seat],
                    ]
                )
    return out.getvalue()
