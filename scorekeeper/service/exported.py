"""An export read back (export.py writes them): each game checked by the rules, as if entered by hand, and not yet
stored. A RuleError names the first game and hand that breaks a rule."""

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from flask_babel import gettext

from .. import rules
from . import rows
from .export import BACKUP_VERSION, EXPORT_FORMAT

UID = re.compile(r"[0-9a-f]{32}")


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
