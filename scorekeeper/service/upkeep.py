"""Checking a database: every game replays, what its rows keep matches the replay, each
player's summary matches their seats, and no game is stored twice."""

from collections import defaultdict
from dataclasses import asdict, fields

from .. import models, rules, uids
from ..db import db
from . import summary
from .loaded import stored_games
from .rows import facts_of, hand_columns, house_rules_of


def check() -> tuple[int, list[str]]:
    """Replay every game and compare what is stored with the replay: the games seen, and each problem found."""
    problems: list[str] = []
    count = 0
    for game in stored_games():
        count += 1
        try:
            state = replay_checked(game)
        except rules.RuleError as broken:
            problems.append(f"Game {game.id} does not replay: {broken.message}")
            continue
        numbers = [hand.number for hand in game.hands]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"Game {game.id} has hands numbered {numbers}, not 1 to {len(numbers)}.")
        if game.finished != state.finished:
            problems.append(f"Game {game.id} is stored as {'finished' if game.finished else 'in progress'}.")
        for player, record in zip(game.players, rules.seat_records(state), strict=True):
            if stored_record(player, record) != asdict(record):
                problems.append(f"Game {game.id}: the stored record of {player.name} differs from the replay.")
    return count, problems + summary.mismatches() + copies()


def copies() -> list[str]:
    """Games that hold the same players, start and hands: one game stored twice (an old backup restored twice)."""
    games: dict[str, list[int]] = defaultdict(list)
    for game_id, uid in uids.stored_content_uids(db.session.connection()):
        games[uid].append(game_id)
    return [
        f"Games {', '.join(map(str, ids[:-1]))} and {ids[-1]} are one game stored {len(ids)} times (the same "
        "players, start and hands): delete all but one."
        for ids in games.values()
        if len(ids) > 1
    ]


def replay_checked(game: models.Game) -> rules.GameState:
    """The game replayed, each stored hand first checked by the rules as if the table entered it now."""
    names = [player.name for player in game.players]
    house = house_rules_of(game)
    hands = []
    for row in game.hands:
        try:
            hands.append(rules.make_hand(names, house, hand_columns(facts_of(row))))
        except rules.RuleError as broken:
            raise rules.RuleError(f"hand {row.number}: {broken.message}", broken.errors) from None
    return rules.replay(len(names), house, hands)


def stored_record(player: models.Player, record: rules.SeatRecord) -> dict[str, object]:
    """What the seat's row keeps of each field of its replayed record (rows.keep_records writes them)."""
    return {field.name: getattr(player, field.name) for field in fields(record)}
