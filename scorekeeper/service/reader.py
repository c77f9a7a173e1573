"""An export file read as a stream of JSON events (ijson), a game at a time, each game checked as it is read.

Only what a game is made of is built: its players, house rules, dates, uid and each hand's facts. Everything else
(a hand's scores and totals, which the rules work out again, and any field no export of the app has) is passed over
without being built, and a value far larger than any the app writes is refused before it is. So one game at a time
is in memory, whatever the file holds, and a file of something other than games is refused at its first.
"""

from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import ijson
from flask_babel import gettext

from .. import rules
from .exported import ExportedGame, check_header, checked_game, in_game, not_an_export, not_json
from .file_bytes import CHUNK, Quoted, Readable, TooLarge, utf8

# The most games one file imports: more than the largest export fits in an import's body (MAX_CONTENT_LENGTH), so
# that a file of a million tiny games is refused, not checked to its end.
IMPORT_GAMES_MAX = 20_000
GAME_FIELDS = frozenset({"players", "rules", "uid", "created_at", "updated_at"})
HAND_FIELDS = frozenset({"hearts", *rules.CARD_KEYS, "all_tricks", "moon"})
# The most a built value may be, counted as one for each JSON event and one for each character of its texts: many
# times what the app writes (a hand of five players is about 60, a game's players and rules a few hundred).
HAND_SIZE_MAX = 500
FIELD_SIZE_MAX = 2_000
STARTS, ENDS = {"start_map", "start_array"}, {"end_map", "end_array"}


@dataclass
class ExportFile:
    """An export file, read with ``games()``; after that, what its other fields said."""

    stream: IO[bytes]
    fields: dict[str, object] = field(default_factory=dict)  # format and version
    other_groups: bool = False  # a backup of a whole server: it holds groups beside the first
    events: "Events | None" = None  # of the reading under way

    def part_read(self, objects: int) -> float:
        """How much of a file of ``objects`` (``objects_in``) the reading under way has read, by its objects."""
        return min(1.0, self.events.objects / objects) if self.events and objects else 0.0

    def games(self) -> Iterator[ExportedGame]:
        """Every game of the file, each checked by the rules as it is read; a RuleError at the first that breaks a
        rule, or at anything that makes the file no export of the app."""
        self.stream.seek(0)
        events = self.events = Events(Quoted(utf8(self.stream)))
        try:
            found = yield from self.read(events)
        except rules.RuleError:  # a ValueError too
            raise
        except TooLarge:
            raise rules.RuleError(gettext("This file holds a value far larger than any export of the app holds: it "
                                          "is not an export of the app.")) from None  # fmt: skip
        except (ijson.JSONError, ValueError):  # UnicodeDecodeError is a ValueError
            raise not_json() from None
        check_header(self.fields)
        if not found:
            raise rules.RuleError(gettext("This export has no list of games."))

    def read(self, events: "Events") -> Generator[ExportedGame, None, bool]:
        if events.next()[0] != "start_map":
            raise not_an_export()
        found = False
        while (pair := events.next())[0] == "map_key":
            key, (event, value) = pair[1], events.next()
            if key == "games" and event == "start_array":
                yield from self.read_games(events)
                found = True
            elif key in ("format", "version"):
                self.fields[key] = events.value(event, value, FIELD_SIZE_MAX)
                if key == "format" or "format" in self.fields:  # refused at once when the app's order says so
                    check_header(self.fields)
            elif key == "groups" and event == "start_array":
                event, value = events.next()
                if event != "end_array":
                    self.other_groups = True
                    events.skip(event, depth=1)
            else:
                events.skip(event)
        events.end()
        return found

    def read_games(self, events: "Events") -> Iterator[ExportedGame]:
        place = 0
        while (event := events.next())[0] != "end_array":
            place += 1
            if place > IMPORT_GAMES_MAX:
                raise rules.RuleError(gettext("This file holds more than %(most)d games: split it into several files.",
                                              most=IMPORT_GAMES_MAX))  # fmt: skip
            try:
                game = read_game(events, event[0])
            except rules.RuleError as broken:
                raise in_game(place, broken) from None
            yield checked_game(place, game)


def read_game(events: "Events", event: str) -> dict[str, object] | None:
    """A game object's fields the game is made of (None for anything but an object: not a game)."""
    if event != "start_map":
        events.skip(event)
        return None
    game: dict[str, object] = {}
    while (key := events.next())[0] == "map_key":
        name, (event, value) = key[1], events.next()
        if name == "hands" and event == "start_array":
            game["hands"] = read_hands(events)
        elif name in GAME_FIELDS:
            game[name] = events.value(event, value, FIELD_SIZE_MAX)
        else:
            events.skip(event)
    return game


def read_hands(events: "Events") -> list[object]:
    hands: list[object] = []
    while (event := events.next())[0] != "end_array":
        if len(hands) == rules.MAX_HANDS:
            raise rules.RuleError(gettext("A game takes at most %(most)d hands.", most=rules.MAX_HANDS))
        if event[0] != "start_map":
            hands.append(events.value(*event, HAND_SIZE_MAX))
            continue
        hand: dict[str, object] = {}
        while (key := events.next())[0] == "map_key":
            name, (kind, value) = key[1], events.next()
            if name in HAND_FIELDS:
                hand[name] = events.value(kind, value, HAND_SIZE_MAX)
            else:
                events.skip(kind)
        hands.append(hand)
    return hands


class Events:
    """A JSON text's events, read as they come."""

    def __init__(self, stream: Readable) -> None:
        self.events = ijson.basic_parse(stream, use_float=True, buf_size=CHUNK)
        self.objects = 0  # begun so far

    def next(self) -> tuple[str, Any]:
        try:
            event: tuple[str, Any] = next(self.events)
        except StopIteration:  # the text ends inside its value
            raise ValueError("the text ends early") from None
        self.objects += event[0] == "start_map"
        return event

    def skip(self, event: str, depth: int = 0) -> None:
        """Pass over the rest of the value ``event`` starts (inside ``depth`` more), building nothing."""
        depth += event in STARTS
        while depth:
            event = self.next()[0]
            depth += (event in STARTS) - (event in ENDS)

    def value(self, event: str, value: object, most: int) -> object:
        """The value ``event`` starts, built; TooLarge past ``most`` (events and characters of its texts)."""
        # stack: the lists and objects open, each with the key it waits for
        size, made, stack = 0, value, list[list[Any]]()
        while True:
            size += 1 + (len(value) if isinstance(value, str) else 0)
            if size > most:
                raise TooLarge()
            if event in STARTS:
                made = {} if event == "start_map" else []
                stack.append([made, None])
            elif event in ENDS:
                made = stack.pop()[0]
            elif event == "map_key":
                stack[-1][1] = value
            else:
                made = value
            if event not in STARTS and event != "map_key":
                if not stack:
                    return made
                container, key = stack[-1]
                if isinstance(container, list):
                    container.append(made)
                else:
                    container[key] = made
            event, value = self.next()

    def end(self) -> None:
        """The text ends after its value (ijson refuses anything but space after it)."""
        for _ in self.events:
            raise ValueError("more than one value")
