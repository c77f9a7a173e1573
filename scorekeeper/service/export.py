"""The export format, written: a group's games as JSON and as CSV, streamed a game at a time.

A JSON export is ``{"format": "hearts-scorekeeper", "version": 1, "games": [...]}``
where each game is the API's game object (serialize.py), ``uid`` included. Reading one back is exported.py's.
"""

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator

from .. import rules
from ..store import scope
from ..store.db import db
from .loaded import LoadedGame
from .serialize import game_json, timestamp
from .turn import Turn
from .turns import LONG_WORK

EXPORT_FORMAT = "hearts-scorekeeper"
EXPORT_VERSION = 1  # the games of one group
BACKUP_VERSION = 2  # a backup of a server: an export of its first group, with every other group beside it
# A column for each penalty card: 1 for the seat that took it.
CSV_COLUMNS = ["game", "date", "hand", "pass", "dealer", "seat", "player", "hearts", *rules.CARD_KEYS, "moon", "score",
               "total", "place"]  # fmt: skip
TURN_MOST = 256 * 1024  # characters of an export written in one turn, at most: a few hundred games
# Characters of an export sent at once, at most: the server waits a while for a phone to take each (server/sending.py,
# SEND_WAIT_SECONDS), and a phone on a weak link takes this much in that time.
SEND_MOST = 16 * 1024
# The processor an export takes, about: for each game (of no hand, written as CSV), and for each hand (a moon's).
SECONDS_PER_GAME = 0.00015
SECONDS_PER_HAND = 0.00008
# Spreadsheets run a cell starting with these as a formula: "=HYPERLINK(…)" in a name must stay text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Where a spreadsheet may start a cell inside a name: its start, and after a separator it may split on (German
# Excel splits a CSV on ";" and honours quotes only at a cell's start), with any blank between that a spreadsheet
# may pass over: spaces of every width (a no-break space too) and the invisible ones.
CELL_START = re.compile(r"(?:^|(?<=[;,|\t\r\n]))(?=[\s\u200b-\u200d\u2060\ufeff]*[=+\-@\t\r])")


def as_json(games: Iterable[LoadedGame]) -> dict[str, object]:
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "games": [game_json(loaded) for loaded in games]}


def json_parts(games: Iterable[LoadedGame]) -> Iterator[str]:
    """``as_json``'s document written out a game at a time, for a download that streams.

    >>> json.loads("".join(json_parts([])))
    {'format': 'hearts-scorekeeper', 'version': 1, 'games': []}
    """
    yield json.dumps({"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "games": []})[:-2]
    for place, loaded in enumerate(games):
        yield ("," if place else "") + "\n" + json.dumps(game_json(loaded), ensure_ascii=False)
    yield "\n]}\n"


def expected_seconds(games: int, hands: int) -> float:
    """The processor an export of ``games`` holding ``hands`` is expected to take.

    >>> expected_seconds(1_000, 50_000)
    4.15
    """
    return round(games * SECONDS_PER_GAME + hands * SECONDS_PER_HAND, 6)


def turn(address: str | None = None, expected: float = 0.0) -> Turn:
    """The turns of an export of the group in scope, for the phone at ``address``: the processor they take is counted
    to both, and the export stands by it and by the seconds it is ``expected`` to take (``expected_seconds``), as an
    import does."""
    return LONG_WORK.turn(scope.current(), address, expected)


def in_turns(parts: Iterator[str], wanted: Callable[[], bool], turn: Turn) -> Iterator[str]:
    """``parts`` (an export's, a game each) while they are ``wanted``, written in ``turn``'s turns of the long work
    (turns.py), one at a time with the imports and the other exports: in each turn, games until TURN_MOST characters
    are written or work waiting is due the turn; then the turn is given up while the phone reads them, SEND_MOST
    characters at a time. Nor is a database connection held while a turn is waited for (the pool has few)."""
    more = True
    while more and wanted():
        written: list[str] = []
        with turn.step(db.session.commit):
            more, size = False, 0
            for part in parts:
                written.append(part)
                size += len(part)
                if size >= TURN_MOST or turn.due() or not wanted():
                    more = True
                    break
        text = "".join(written)
        for start in range(0, len(text), SEND_MOST):
            yield text[start : start + SEND_MOST]


def csv_parts(games: Iterable[LoadedGame]) -> Iterator[str]:
    """The CSV export, a game at a time: a row for each seat of each hand, every text cell quoted.

    Quoted, a name stays one cell in a spreadsheet that splits rows on ``;`` or ``,``
    (German Excel splits on ``;``), so no part of it is read as a cell of its own.
    """
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(CSV_COLUMNS)
    for loaded in games:
        for scored in loaded.state.hands:
            moon, places = scored.moon, rules.places(scored.totals)
            for seat, name in enumerate(loaded.players):
                writer.writerow(
                    [
                        loaded.id,
                        timestamp(loaded.created_at),
                        scored.number,
                        scored.pass_direction,
                        cell_text(loaded.players[scored.dealer]),
                        seat,
                        cell_text(name),
                        scored.hand.hearts[seat],
                        *(int(scored.hand.taker(card) == seat) for card in rules.PENALTY_CARDS),
                        moon.option if moon and moon.shooter == seat else "",
                        scored.scores[seat],
                        scored.totals[seat],
                        places[seat],
                    ]
                )
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


def cell_text(text: str) -> str:
    """A name as a spreadsheet shows it, never runs it: wherever a cell could start (at the start, and after
    any character a spreadsheet may split cells on), a formula's first character is kept text by a ``'``.

    >>> cell_text("Ann"), cell_text("=HYPERLINK(1)"), cell_text("a;=1+1;"), cell_text("Jean-Luc, -2")
    ('Ann', "'=HYPERLINK(1)", "a;'=1+1;", "Jean-Luc,' -2")
    >>> cell_text("x;\u00a0=1+1"), cell_text("\u3000+1"), cell_text("Ann Lee")
    ("x;'\xa0=1+1", "'\u3000+1", 'Ann Lee')
    """
    return CELL_START.sub("'", text)
