"""Games written out as JSON (the API's game objects) and as CSV, a row per hand per player."""

import csv
import io
from collections.abc import Iterable

from .games import LoadedGame
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
