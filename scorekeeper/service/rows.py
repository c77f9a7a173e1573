"""Between the rules' objects and the database rows: one place that knows both.

Rows name their columns as the rules name their fields (HouseRules, Hand,
SeatRecord), so each conversion is a loop over the rules' own field list.
"""

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from datetime import datetime

from flask_babel import gettext

from .. import rules
from ..store import models, scope, uids
from . import summary

HAND_FIELDS = tuple(field.name for field in fields(rules.Hand))
SEAT_FIELDS = tuple(field.name for field in fields(rules.SeatRecord))
# What a content uid holds past its fixed set, where a game's differs from the default (uids.py).
CONTENT_EXTRAS = uids.Extras(
    house={key: value for key, value in rules.HouseRules().as_dict().items() if key not in uids.HOUSE_FIELDS},
    hand={key: None for key in HAND_FIELDS if key not in ("hearts", *uids.HAND_FIELDS)},
)


def house_rules_of(game: models.Game) -> rules.HouseRules:
    """The game's house rules, checked by the rules: a value the app never stores is a RuleError, not a crash."""
    return rules.house_rules(len(game.players), {key: getattr(game, key) for key in rules.RULE_KEYS})


def content_uid(
    names: Sequence[str], house: rules.HouseRules, hands: Iterable[rules.Hand], created: datetime | None
) -> str:
    """The uid a copy of a game without a uid is known by: every house rule and hand field in it (uids.py)."""
    return uids.content_uid(names, house.as_dict(), [asdict(hand) for hand in hands], created, CONTENT_EXTRAS)


def facts_of(hand: models.Hand) -> rules.Hand:
    columns = {key: getattr(hand, key) for key in HAND_FIELDS}
    return rules.Hand(**{**columns, "hearts": tuple(hand.hearts)})


def new_game_row(players: object, given_rules: object) -> models.Game:
    """A game checked by the rules, not yet stored."""
    names = rules.clean_names(players)
    if given_rules is not None and not isinstance(given_rules, Mapping):
        raise rules.RuleError(
            gettext("The house rules must be an object."), {"rules": gettext("An object of house rules.")}
        )
    house = rules.house_rules(len(names), given_rules)
    group = scope.group_for_new_games()
    game = models.Game(group_id=group, **house.as_dict())
    game.players = [
        models.Player(group_id=group, seat=seat, name=name, name_key=name_key(name)) for seat, name in enumerate(names)
    ]
    return game


def name_key(name: str) -> str:
    """How a player is known across games: case, surrounding spaces and Unicode's two spellings ignored.

    >>> name_key(" Jose\u0301 ") == name_key("JOSÉ"), name_key("Straße")
    (True, 'strasse')
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).strip().casefold())


def rename_players(game: models.Game, names: Sequence[str]) -> None:
    """New names for a game's seats: their records count under the new names from the next keep_records."""
    summary.forget_game(game)
    for player, name in zip(game.players, names, strict=True):
        player.name, player.name_key = name, name_key(name)
        player.total = None  # type: ignore[assignment]  # counted afresh: summary.seat_counts


def search_key(name: str) -> str | None:
    """The key to look a typed name up by; None for text no player's name can hold (a NUL, say)."""
    return None if rules.has_hidden_characters(name) or len(name) > rules.NAME_MAX * 3 else name_key(name)


def hand_row(number: int, hand: rules.Hand, game_id: int | None = None) -> models.Hand:
    """Hand ``number``'s row, of game ``game_id`` (None: of the game whose hands it is put among)."""
    return models.Hand(number=number, **({"game_id": game_id} if game_id is not None else {}), **hand_columns(hand))


def hand_columns(hand: rules.Hand) -> dict[str, object]:
    return {**{key: getattr(hand, key) for key in HAND_FIELDS}, "hearts": list(hand.hearts)}


def give_hands(game: models.Game, hands: list[rules.Hand]) -> None:
    """A new game row's hands, numbered from 1, and the records their replay gives each seat."""
    game.hands = [hand_row(number, hand) for number, hand in enumerate(hands, start=1)]
    keep_records(game, rules.replay(len(game.players), house_rules_of(game), hands))


def keep_records(game: models.Game, state: rules.GameState) -> None:
    """Refresh what the game's rows keep of its replayed state: finished, and each seat's record."""
    game.finished = state.finished
    for player, record in zip(game.players, rules.seat_records(state), strict=True):
        before = summary.seat_counts(player)
        for key in SEAT_FIELDS:  # not asdict(): it deep-copies, and an import stores thousands of seats
            setattr(player, key, getattr(record, key))
        summary.note(player, before, summary.record_counts(record))
