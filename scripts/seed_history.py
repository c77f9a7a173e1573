"""Fill a database with finished games, as a group that plays every week for years would.

    .venv/bin/python scripts/seed_history.py --games 10000 --database out/history.sqlite

Every game is played through the rules core (random hands, moons decided by
the advice) until it ends, then stored with the seats' records, as the
service layer stores a game.
"""

import argparse
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app, rules
from scorekeeper.config import database_name  # noqa: E402
from scorekeeper.paths import instance_folder  # noqa: E402
from scorekeeper.service.rows import give_hands, house_rules_of, new_game_row  # noqa: E402
from scorekeeper.store import models, scope  # noqa: E402
from scorekeeper.store.db import db  # noqa: E402

REGULARS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
BATCH = 500
MAX_HANDS = 60


def random_hand(rng: random.Random, players: int) -> rules.Hand:
    if rng.random() < 0.04:  # a moon now and then
        shooter = rng.randrange(players)
        return rules.Hand(tuple(rules.HEARTS * (seat == shooter) for seat in range(players)), shooter)
    cuts = sorted(rng.randint(0, rules.HEARTS) for _ in range(players - 1))
    hearts = tuple(b - a for a, b in zip([0, *cuts], [*cuts, rules.HEARTS], strict=True))
    queen = rng.randrange(players)
    if hearts[queen] == rules.HEARTS:
        queen = (queen + 1) % players
    return rules.Hand(hearts, queen)


def play_a_game(rng: random.Random, names: list[str], house: rules.HouseRules) -> list[rules.Hand]:
    state = rules.new_game(len(names), house)
    hands = []
    while not state.finished and len(hands) < MAX_HANDS:
        hand = random_hand(rng, len(names))
        advice = rules.moon_advice(state, hand)
        if advice:
            hand = rules.Hand(hand.hearts, hand.queen, moon_option=advice.advice)
        state = rules.play(state, hand)
        hands.append(hand)
    return hands


def seed(app, games: int, seed_value: int = 1) -> None:
    rng = random.Random(seed_value)
    start = datetime(2020, 1, 3, 20, 0)
    with app.app_context():
        scope.see_everything()  # the host's script: its games go into the first group
        for first in range(0, games, BATCH):
            for number in range(first, min(games, first + BATCH)):
                names = rng.sample(REGULARS, 4 if rng.random() < 0.7 else rng.choice([3, 5]))
                game = new_game_row(names, {"first_dealer": rng.randrange(len(names))})
                house = house_rules_of(game)
                hands = play_a_game(rng, names, house)
                give_hands(game, hands)
                game.created_at = game.updated_at = start + timedelta(days=number // 3, minutes=number % 3 * 50)
                db.session.add(game)
            db.session.commit()
            db.session.expunge_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument(
        "--database",
        default=str(instance_folder() / "history.sqlite"),
        help="a SQLite file (default: history.sqlite in the data folder) or a SQLAlchemy URL",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    url = args.database
    if "://" not in url:
        # A bare path is a SQLite file where the shell says, not in the instance folder as a relative URL would be.
        file = Path(url).resolve()
        file.parent.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{file}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    seed(app, args.games, args.seed)
    with app.app_context():
        scope.see_everything()
        stored = db.session.query(models.Game).count()
        hands = db.session.query(models.Hand).count()
    where = database_name(url, app.instance_path)
    print(f"{stored} games, {hands} hands ({hands / max(1, stored):.1f} a game) in {where}")


if __name__ == "__main__":
    main()
