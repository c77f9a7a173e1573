"""Checking a database: every game reads and replays, what its rows keep matches the replay, each
player's summary matches their seats, and no game is stored twice."""

from collections import defaultdict
from dataclasses import asdict, dataclass, fields

from flask_babel import gettext

from .. import rules
from ..store import models
from . import summary
from .every_game import UnreadableGame, replay_checked, stored_games
from .rows import content_uid, facts_of


@dataclass(frozen=True)
class Checked:
    """What a check found, by what mends it."""

    games: int
    broken: list[str]  # games that cannot be read or replayed: an earlier backup has them as they were
    records: list[str]  # what rows keep of a replay, and differs from it: rebuild-records stores it again
    copies: list[str]  # one game stored more than once: all but one to delete

    @property
    def problems(self) -> list[str]:
        return [*self.broken, *self.records, *self.copies]


def check() -> Checked:
    """Read and replay every game and compare what is stored with the replay; every problem found, game by game."""
    broken: list[str] = []
    records: list[str] = []
    contents: dict[str, list[int]] = defaultdict(list)
    count = 0
    for game in stored_games():
        count += 1
        if isinstance(game, UnreadableGame):
            broken.append(game.message)
            continue
        try:
            state = replay_checked(game)
        except UnreadableGame as failed:
            broken.append(failed.message)
            continue
        records += record_problems(game, state)
        names = [player.name for player in game.players]
        contents[content_uid(names, state.rules, map(facts_of, game.hands), game.created_at)].append(game.id)
    return Checked(count, broken, records + summary.mismatches(), copies(contents))


def record_problems(game: models.Game, state: rules.GameState) -> list[str]:
    problems = []
    numbers = [hand.number for hand in game.hands]
    if numbers != list(range(1, len(numbers) + 1)):
        said = gettext("Game %(game)d has hands numbered %(numbers)s, not 1 to %(count)d.", game=game.id,
                       numbers=numbers, count=len(numbers))  # fmt: skip
        problems.append(said)
    if game.finished != state.finished:
        finished = gettext("Game %(game)d is stored as finished.", game=game.id)
        problems.append(finished if game.finished else gettext("Game %(game)d is stored as in progress.", game=game.id))
    for player, record in zip(game.players, rules.seat_records(state), strict=True):
        if stored_record(player, record) != asdict(record):
            said = gettext("Game %(game)d: the stored record of %(name)s differs from the replay.", game=game.id,
                           name=player.name)  # fmt: skip
            problems.append(said)
    return problems


def copies(contents: dict[str, list[int]]) -> list[str]:
    """Games with the same players, house rules, hands and start to the second: one game stored more than once
    (an old backup restored twice), never two games of one table, which start apart or play other hands."""
    return [
        gettext(
            "Games %(copies)s hold the same players, house rules, hands and start, to the second: one game "
            "stored %(times)d times. Keep game %(first)d and delete the others in the app: %(pages)s.",
            copies=", ".join(map(str, ids)),
            times=len(ids),
            first=ids[0],
            pages=", ".join(f"/games/{game_id}/delete" for game_id in ids[1:]),
        )  # fmt: skip
        for ids in contents.values()
        if len(ids) > 1
    ]


def stored_record(player: models.Player, record: rules.SeatRecord) -> dict[str, object]:
    """What the seat's row keeps of each field of its replayed record (rows.keep_records writes them)."""
    return {field.name: getattr(player, field.name) for field in fields(record)}
