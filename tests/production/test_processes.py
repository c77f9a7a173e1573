"""Several `scorekeeper serve` processes on one PostgreSQL database, started at once as a service manager does:
none fails to start, and tables played through both agree on everything."""

import pytest

from server import call, started_at_once

pytestmark = pytest.mark.server

HANDS = [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1), ([3, 3, 3, 4], 0), ([13, 0, 0, 0], 0)]


@pytest.fixture
def new_postgres(empty_database_url):
    if not empty_database_url.startswith("postgresql"):
        pytest.skip("several processes share a PostgreSQL database (DATABASE_URL); SQLite is one machine's")
    return empty_database_url


@pytest.mark.parametrize("attempt", range(4))
def test_servers_started_at_once_on_a_new_database_all_start(new_postgres, attempt):
    with started_at_once(new_postgres, 4) as servers:
        for server in servers:
            assert server.process.poll() is None, server.said()
            assert call("GET", f"{server.base}/api/openapi.json")[0] == 200


def test_tables_played_through_two_processes_agree_on_everything(new_postgres):
    with started_at_once(new_postgres, 2) as (one, two):
        keys = [call("POST", f"{server.base}/api/groups", {"name": f"Table {n}"})[1]["key"]
                for n, server in enumerate((one, two, one, two))]  # fmt: skip
        games = {key: call("POST", f"{two.base}/g/{key}/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})[1]
                 for key in keys}  # fmt: skip
        for number, (hearts, queen) in enumerate(HANDS, start=1):
            for n, key in enumerate(keys):
                server = (one, two)[(n + number) % 2]  # each hand through the other process
                body = {"hearts": hearts, "queen": queen, "number": number}
                if 13 in hearts:
                    body["moon_option"] = "add"
                status, game = call("POST", f"{server.base}/g/{key}/api/games/{games[key]['id']}/hands", body)
                assert status == 201, game
                again = call("POST", f"{(two, one)[(n + number) % 2].base}/g/{key}/api/games/{game['id']}/hands", body)
                assert again[0] == 200  # the same hand sent again to the other process: stored once
        for key in keys:
            seen = [call("GET", f"{server.base}/g/{key}/api/games/{games[key]['id']}")[1] for server in (one, two)]
            assert seen[0] == seen[1] and seen[0]["totals"] == [46, 42, 64, 56]
        undone = call("DELETE", f"{one.base}/g/{keys[0]}/api/games/{games[keys[0]]['id']}/hands/4")
        assert undone[0] == 200
        assert call("GET", f"{two.base}/g/{keys[0]}/api/games/{games[keys[0]]['id']}")[1]["hands"] == undone[1]["hands"]
        assert call("GET", f"{two.base}/g/{keys[1]}/api/games/{games[keys[0]]['id']}")[0] == 404
