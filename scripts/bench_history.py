"""Time the history pages on 100 and on 10,000 seeded games.

    python scripts/bench_history.py [--large 10000] [--repeat 30] [--databases SMALL_URL LARGE_URL]

Seeds two fresh SQLite databases (or the two empty ones ``--databases`` names, PostgreSQL's say)
with scripts/seed_history.py, then times the
past-games page, the players page, a player's page (the regular with the most games) and a
game's review page through the app (no network), and prints the median of
each and the ratio large/small. Aim: every ratio at most 1.5.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seed_history import seed  # noqa: E402

from scorekeeper import create_app
from scorekeeper.service.records import players_seen  # noqa: E402
from scorekeeper.store import scope  # noqa: E402


def median_ms(client, path: str, repeat: int) -> float:
    client.get(path)  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, (path, answer.status_code)
    return statistics.median(times)


def measure(games: int, repeat: int, url: str) -> dict[str, float]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "b"})
    started = time.perf_counter()
    seed(app, games)
    print(f"seeded {games} games in {time.perf_counter() - started:.1f} s", flush=True)
    with app.app_context():
        scope.see_everything()
        regular = players_seen()[0]
    client = app.test_client()
    pages = {
        "past games": "/history",
        "past games, filtered": f"/history?player={regular.name}",
        "players": "/players",
        f"player page ({regular.games} games)": f"/players/{regular.name}",
        "review": f"/games/{games // 2}/review",
    }
    return {name.split(" (")[0]: median_ms(client, path, repeat) for name, path in pages.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--databases", nargs=2, metavar=("SMALL_URL", "LARGE_URL"), help="two empty databases")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        urls = args.databases or [f"sqlite:///{folder}/history-{games}.sqlite" for games in (args.small, args.large)]
        small = measure(args.small, args.repeat, urls[0])
        large = measure(args.large, args.repeat, urls[1])
    print(f"\n{'page':<22} {args.small:>8} games {args.large:>8} games   ratio (aim ≤ 1.5)")
    for name in small:
        ratio = large[name] / small[name]
        print(f"{name:<22} {small[name]:>11.1f} ms {large[name]:>11.1f} ms   {ratio:.2f}")


if __name__ == "__main__":
    main()
