"""Looking after a database: refresh the stored seat records, and check that everything adds up."""

from dataclasses import astuple

from . import models, rules
from .db import db
from .export import all_games, stored_games
from .rows import facts_of, house_rules_of, keep_records


def rebuild_records() -> int:
    """Replay every game and refresh each seat's stored record from it; the number of games."""
    count = 0
    for loaded in all_games():
        keep_records(loaded.game, loaded.state)
        count += 1
    db.session.commit()
    return count


def check() -> tuple[int, list[str]]:
    """Replay every game and compare what is stored with the replay: the games seen, and each problem found."""
    problems: list[str] = []
    count = 0
    for game in stored_games():
        count += 1
        try:
            state = rules.replay(len(game.players), house_rules_of(game), [facts_of(hand) for hand in game.hands])
        except rules.RuleError as broken:
            problems.append(f"Game {game.id} does not replay: {broken.message}")
            continue
        numbers = [hand.number for hand in game.hands]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"Game {game.id} has hands numbered {numbers}, not 1 to {len(numbers)}.")
        if game.finished != state.finished:
            problems.append(f"Game {game.id} is stored as {'finished' if game.finished else 'in progress'}.")
        for player, record in zip(game.players, rules.seat_records(state), strict=True):
            if stored_record(player) != astuple(record):
                problems.append(f"Game {game.id}: the stored record of {player.name} differs from the replay.")
    return count, problems


def stored_record(player: models.Player) -> tuple[object, ...]:
    """A seat's stored record, in the order of rules.SeatRecord's fields."""
    return (
        player.total,
        player.hands_played,
        player.game_finished,
        player.won,
        player.shared_win,
        player.moons,
        player.queens,
    )
