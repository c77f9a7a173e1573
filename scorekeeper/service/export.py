"""The export format, both ways: games written out as JSON and CSV, and an export read back in.

A JSON export is ``{"format": "hearts-scorekeeper", "version": 1, "games": [...]}``
where each game is the API's game object (serialize.py), ``uid`` included.
Reading one checks every game by the rules, as if entered by hand.
"""

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from flask_babel import gettext

from .. import rules
from ..store import scope
from ..store.db import db
from . import rows
from .loaded import LoadedGame
from .serialize import game_json, timestamp
from .turns import LONG_WORK

EXPORT_FORMAT = "hearts-scorekeeper"
EXPORT_VERSION = 1  # the games of one group
BACKUP_VERSION = 2  # a backup of a server: an export of its first group, with every other group beside it
# A column for each penalty card: 1 for the seat that took it.
CSV_COLUMNS = ["game", "date", "hand", "pass", "dealer", "seat", "player", "hearts", *rules.CARD_KEYS, "moon", "score",
               "total", "place"]  # fmt: skip
UID = re.compile(r"[0-9a-f]{32}")
TURN_MOST = 256 * 1024  # characters of an export written in one turn, at most: a few hundred games
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


def in_turns(parts: Iterator[str], wanted: Callable[[], bool], address: str | None = None) -> Iterator[str]:
    """``parts`` (an export's, a game each) while they are ``wanted``, written in turns of the long work's
    (turns.py), one at a time with the imports and the other exports: in each turn, games until TURN_MOST characters
    are written or work waiting is due the turn; then the turn is given up while the phone reads them. Nor is a
    database connection held while a turn is waited for (the pool has few). The turns' processor is counted to the
    group in scope and to the phone's ``address``."""
    turn, more = LONG_WORK.turn(scope.current(), address), True
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
        if written:
            yield "".join(written)


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


@dataclass(frozen=True)
class ExportedGame:
    """One game of an export, checked by the rules, not yet stored."""

    uid: str  # the export's, else content_uid
    content_uid: str  # the uid its facts give it (uids.py): how a copy of it without a uid is known
    players: list[str]
    house: rules.HouseRules
    hands: list[rules.Hand]
    created_at: datetime | None
    updated_at: datetime | None


def parsed(data: bytes) -> object:
    r"""An export file's JSON, as any editor saved it: UTF-8 with or without a byte-order mark, UTF-16 or UTF-32.

    >>> parsed('{"games": []}'.encode("utf-16")), parsed(b'\xef\xbb\xbf[1]')
    ({'games': []}, [1])
    """
    try:
        return json.loads(data)  # json finds the encoding and takes the byte-order mark off
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # UnicodeDecodeError is one
        raise not_json() from None


def read_games(document: object) -> list[ExportedGame]:
    """Every game of a parsed export, checked; a RuleError names the first game and hand that breaks a rule."""
    if not isinstance(document, dict):
        raise not_an_export()
    check_header(document)
    games = document.get("games")
    if not isinstance(games, list):
        raise rules.RuleError(gettext("This export has no list of games."))
    return _checked(games)


def check_header(fields: dict[str, object]) -> None:
    if fields.get("format") != EXPORT_FORMAT:
        raise not_an_export()
    version = fields.get("version")
    if isinstance(version, int | float) and not isinstance(version, bool) and version > BACKUP_VERSION:
        # A newer app's format may mean what this one cannot read: refused whole, rather than read half right.
        raise rules.RuleError(gettext("This export is in version %(version)s of the format, newer than this app reads "
                                      "(version %(known)d and older): update the app to one that reads version "
                                      "%(version)s, then import the file again.", version=version,
                                      known=BACKUP_VERSION))  # fmt: skip


def _checked(games: list[object]) -> list[ExportedGame]:
    return [checked_game(place, exported) for place, exported in enumerate(games, start=1)]


def checked_game(place: int, exported: object) -> ExportedGame:
    try:
        return _read_game(exported)
    except rules.RuleError as broken:
        raise in_game(place, broken) from None


def in_game(place: int, broken: rules.RuleError) -> rules.RuleError:
    """What a game of the file broke, said of that game."""
    said = gettext("Game %(place)d in the file: %(problem)s", place=place, problem=broken.message)
    return rules.RuleError(said, broken.errors)


def not_an_export() -> rules.RuleError:
    return rules.RuleError(gettext("This file is not a Hearts Scorekeeper export."))


def not_json() -> rules.RuleError:
    return rules.RuleError(gettext("This file is not JSON: choose a .json export of the app."))


def _too_deep() -> rules.RuleError:
    return rules.RuleError(gettext("This file nests its values too deeply to be an export of the app."))


def _read_game(exported: object) -> ExportedGame:
    if not isinstance(exported, dict):
        raise rules.RuleError(gettext("it is not a game object."))
    names = rules.clean_names(exported.get("players"))
    given = exported.get("rules")
    if given is not None and not isinstance(given, dict):
        raise rules.RuleError(
            gettext("its house rules are not an object."), {"rules": gettext("An object of house rules.")}
        )
    house = rules.house_rules(len(names), given)
    hands_in = exported.get("hands") or []
    if not isinstance(hands_in, list):
        raise rules.RuleError(gettext("its hands are not a list."))
    hands = []
    for number, hand in enumerate(hands_in, start=1):
        try:
            hands.append(rules.make_hand(names, house, _facts_of_export(hand)))
        except rules.RuleError as broken:
            said = gettext("hand %(number)d: %(problem)s", number=number, problem=broken.message)
            raise rules.RuleError(said, broken.errors) from None
    rules.replay(len(names), house, hands)  # a hand after the end, or past the most a game takes
    uid = exported.get("uid")
    if uid is not None and (not isinstance(uid, str) or not UID.fullmatch(uid)):
        raise rules.RuleError(
            gettext("its uid is not 32 hexadecimal digits."), {"uid": gettext("32 hexadecimal digits.")}
        )
    created_at = _moment(exported.get("created_at"))
    content_uid = rows.content_uid(names, house, hands, created_at)
    return ExportedGame(uid or content_uid, content_uid, names, house, hands, created_at,
                        _moment(exported.get("updated_at")))  # fmt: skip


def _facts_of_export(hand: object) -> dict[str, object]:
    """A hand object of the API as the facts a table entered."""
    if not isinstance(hand, dict):
        raise rules.RuleError(gettext("it is not a hand object."))
    moon = hand.get("moon")
    option = moon.get("option") if isinstance(moon, dict) else None
    return {
        "hearts": hand.get("hearts"),
        **{key: hand.get(key) for key in rules.CARD_KEYS},
        "all_tricks": hand.get("all_tricks"),
        "moon_option": option if isinstance(option, str) and option in rules.MOON_OPTIONS else None,
    }


# A date the pages can show in any time zone; an export with another is taken as undated.
EARLIEST, LATEST = datetime(1970, 1, 2), datetime(2999, 12, 31)


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.removesuffix("Z"))
    except ValueError:
        return None
    if not EARLIEST <= moment.replace(tzinfo=None) <= LATEST:  # also keeps astimezone in range
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment
