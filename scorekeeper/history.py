"""Looking back: players seen, their records, and games exported and imported.

Records add up what the service layer keeps on each seat after replaying a
game (rules.seat_records), so one indexed query serves thousands of games.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Integer, case, func, select
from sqlalchemy import cast as sql_cast

from . import models, rules
from .db import db
from .games import changes_a_game
from .rows import give_hands, house_rules_of, name_key, new_game_row

EXPORT_FORMAT = "hearts-scorekeeper"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class PlayerSeen:
    name: str
    games: int


@dataclass(frozen=True)
class PlayerRecord:
    name: str
    games: int
    finished: int
    wins: int
    shared_wins: int
    points: int
    hands: int
    moons: int
    queens: int
    best: int | None
    worst: int | None

    @property
    def win_rate(self) -> float | None:
        """Outright wins per finished game; shared wins are counted apart."""
        return self.wins / self.finished if self.finished else None

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None


def players_seen() -> list[PlayerSeen]:
    """Every player name seen, once per name (case and spaces ignored), most games first."""
    rows = db.session.execute(
        select(func.min(models.Player.name), func.count())
        .group_by(models.Player.name_key)
        .order_by(func.count().desc(), func.min(models.Player.name))
    )
    return [PlayerSeen(name, count) for name, count in rows]


def player_record(name: str) -> PlayerRecord | None:
    player = models.Player
    finished_total = case((player.game_finished.is_(True), player.total))
    counts = {
        "games": func.count(),
        "finished": func.sum(sql_cast(player.game_finished, Integer)),
        "wins": func.sum(sql_cast(player.won, Integer)),
        "shared_wins": func.sum(sql_cast(player.shared_win, Integer)),
        "points": func.sum(player.total),
        "hands": func.sum(player.hands_played),
        "moons": func.sum(player.moons),
        "queens": func.sum(player.queens),
    }
    extremes = {"best": func.min(finished_total), "worst": func.max(finished_total)}
    columns = [func.min(player.name).label("name")]
    columns += [column.label(key) for key, column in {**counts, **extremes}.items()]
    row = db.session.execute(select(*columns).where(player.name_key == name_key(name))).one()._mapping
    if not row["games"]:
        return None
    return PlayerRecord(
        name=row["name"], **{key: int(row[key] or 0) for key in counts}, **{key: row[key] for key in extremes}
    )


def export_document(games: list[dict[str, object]]) -> dict[str, object]:
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "games": games}


@changes_a_game
def import_games(document: object) -> list[int]:
    """Store a copy of every game in an export; refuse the whole file at the first broken rule."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise rules.RuleError("This file is not a Hearts Scorekeeper export.")
    games = document.get("games")
    if not isinstance(games, list):
        raise rules.RuleError("This export has no list of games.")
    stored = []
    for place, exported in enumerate(games, start=1):
        try:
            stored.append(_import_game(exported))
        except rules.RuleError as broken:
            raise rules.RuleError(f"Game {place} in the file: {broken.message}", broken.errors) from None
    db.session.commit()
    return [game.id for game in stored]


def _import_game(exported: object) -> models.Game:
    if not isinstance(exported, dict):
        raise rules.RuleError("it is not a game object.")
    game = new_game_row(exported.get("players"), exported.get("rules"))
    house = house_rules_of(game)
    names = [player.name for player in game.players]
    hands_in = exported.get("hands") or []
    if not isinstance(hands_in, list):
        raise rules.RuleError("its hands are not a list.")
    hands = []
    for number, hand in enumerate(hands_in, start=1):
        try:
            hands.append(rules.make_hand(names, house, _facts_of_export(hand)))
        except rules.RuleError as broken:
            raise rules.RuleError(f"hand {number}: {broken.message}", broken.errors) from None
    give_hands(game, hands)
    game.created_at = _moment(exported.get("created_at")) or game.created_at
    game.updated_at = _moment(exported.get("updated_at")) or game.created_at  # a restore gives back the same export
    db.session.add(game)
    db.session.flush()
    return game


def _facts_of_export(hand: object) -> dict[str, object]:
    """A hand object of the API as the facts a table entered."""
    if not isinstance(hand, dict):
        raise rules.RuleError("it is not a hand object.")
    moon = hand.get("moon")
    option = moon.get("option") if isinstance(moon, dict) else None
    return {
        "hearts": hand.get("hearts"),
        "queen": hand.get("queen"),
        "jack": hand.get("jack"),
        "all_tricks": hand.get("all_tricks"),
        "moon_option": option if option in rules.MOON_OPTIONS else None,
    }


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.removesuffix("Z"))
    except ValueError:
        return None
