"""A walk through every game of the group, in batches (an export, a backup, a check of the stored games, the
records rebuilt), each game checked by the rules as the table would have entered it; and what cannot be read.

A batch holds about BATCH_HANDS hands, so a walk through a club's ten thousand games takes a few megabytes at a
time, and (for an export written to a slow phone) lets its database connection go between batches.
"""

from collections.abc import Iterator, Sequence

from flask_babel import gettext
from sqlalchemy import func, select

from .. import rules
from ..store import models
from ..store.db import db
from .loaded import WHOLE_GAME, LoadedGame, game_row, replayed
from .rows import facts_of, hand_columns, house_rules_of

# What reading a value the app never writes raises: a date that is no date, hearts that are not JSON.
READ_ERRORS = (ValueError, TypeError, LookupError)
BATCH_HANDS = 2_000  # hands loaded at once in a walk through every game (an export): a few megabytes


class UnreadableGame(rules.RuleError):
    """A stored game the app cannot read or replay: its rows hold what the app never writes (a damaged database,
    a hand edited in it); the message names the game."""


def all_games(batch: int = 500) -> Iterator[LoadedGame]:
    """Every game, oldest first, each hand checked by the rules as if the table entered it now (an export must
    import again); an UnreadableGame names the first one that cannot be read. Each batch is let go of the session
    once read: an export written to a slow phone holds a database connection only while it reads a batch."""
    for game in stored_games(batch, let_go=True):
        if isinstance(game, UnreadableGame):
            raise game
        yield replayed(game, replay_checked(game), keep_it=False)


def size_of_all() -> tuple[int, int]:
    """The games of the group in scope and their hands, as their rows keep them: what a walk through them takes."""
    first_seats = select(func.count(), func.coalesce(func.sum(models.Player.hands_played), 0))
    games, hands = db.session.execute(first_seats.where(models.Player.seat == 0)).one()
    return int(games), int(hands)


def first_holding(game_ids: Sequence[int], hands: int) -> list[int]:
    """The first of ``game_ids`` that hold ``hands`` hands at most together, as their rows say (one game at least)."""
    counted = select(models.Hand.game_id, func.count()).where(models.Hand.game_id.in_(game_ids))
    held = {game_id: count for game_id, count in db.session.execute(counted.group_by(models.Hand.game_id))}
    first: list[int] = []
    total = 0
    for game_id in game_ids:
        total += held.get(game_id, 0)
        if first and total > hands:
            break
        first.append(game_id)
    return first


def stored_games(batch: int = 500, let_go: bool = False) -> Iterator[models.Game | UnreadableGame]:
    """Every game row with its players and hands, oldest first, loaded ``batch`` games at a time and about
    BATCH_HANDS hands (a game of hundreds of hands comes with few others); an UnreadableGame in the place of a game
    whose rows cannot be read, and the others go on. ``let_go``: each batch's rows are taken out of the session (read
    whole, to be read only) and its transaction ended, so that its connection goes back to the pool before the
    games are handed on."""
    after = 0
    while True:
        next_ids = db.session.scalars(
            select(models.Game.id).where(models.Game.id > after).order_by(models.Game.id).limit(batch)
        ).all()
        if not next_ids:
            return
        ids = first_holding(next_ids, BATCH_HANDS)
        found = games_by_id(ids)
        if let_go:
            db.session.expunge_all()
            db.session.commit()
        yield from found
        after = ids[-1]


def games_by_id(ids: Sequence[int]) -> list[models.Game | UnreadableGame]:
    """The games of ``ids`` in one query each for games, players and hands; one by one when one of them fails."""
    query = select(models.Game).where(models.Game.id.in_(ids)).order_by(models.Game.id)
    db.session.flush()  # what a walk through the games changed so far is kept when the session is cleared below
    try:
        return list(db.session.scalars(query.options(*WHOLE_GAME)).all())
    except READ_ERRORS:
        db.session.expunge_all()
    return [readable_game(game_id) for game_id in ids]


def readable_game(game_id: int) -> models.Game | UnreadableGame:
    """The game, or which of its rows cannot be read and why."""
    parts = [
        ("game", select(models.Game).where(models.Game.id == game_id)),
        ("players", select(models.Player).where(models.Player.game_id == game_id)),
        ("hands", select(models.Hand).where(models.Hand.game_id == game_id)),
    ]
    for part, query in parts:
        try:
            db.session.scalars(query).all()
        except READ_ERRORS as failed:
            db.session.expunge_all()
            return unreadable(game_id, part, str(failed)[:100])
    return game_row(game_id)


def unreadable(game_id: int, part: str, error: str) -> UnreadableGame:
    if part == "game":
        said = gettext("Game %(game)d cannot be read: its row holds a value the app never writes (%(error)s).",
                       game=game_id, error=error)  # fmt: skip
    elif part == "players":
        said = gettext("Game %(game)d cannot be read: a player's row holds a value the app never writes "
                       "(%(error)s).", game=game_id, error=error)  # fmt: skip
    else:
        said = gettext("Game %(game)d cannot be read: a hand's row holds a value the app never writes (%(error)s).",
                       game=game_id, error=error)  # fmt: skip
    return UnreadableGame(str(said))


def replay_checked(game: models.Game) -> rules.GameState:
    """The game replayed, its house rules and each stored hand first checked by the rules as if entered now."""
    names = [player.name for player in game.players]
    try:
        house = house_rules_of(game)
        hands = []
        for row in game.hands:
            try:
                hands.append(rules.make_hand(names, house, hand_columns(facts_of(row))))
            except rules.RuleError as broken:
                raise rules.RuleError(
                    gettext("hand %(number)d: %(problem)s", number=row.number, problem=broken.message), broken.errors
                ) from None
        return rules.replay(len(names), house, hands)
    except (rules.RuleError, *READ_ERRORS) as broken:
        problem = broken.message if isinstance(broken, rules.RuleError) else str(broken)[:100]
        raise UnreadableGame(
            str(gettext("Game %(game)d does not replay: %(problem)s", game=game.id, problem=problem))
        ) from None
