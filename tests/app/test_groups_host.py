"""The host's side of an open server: the groups listed, backed up and restored whole, a server of one group
opened to many."""

import json

from click.testing import CliRunner

from scorekeeper.cli.main import main

from server import call, running_server


def scorekeeper(*arguments, instance, database_url=None, groups="open"):
    env = {"SCOREKEEPER_INSTANCE": str(instance), "DATABASE_URL": database_url, "SCOREKEEPER_GROUPS": groups,
           "SECRET_KEY": "host-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc", "BIND": "127.0.0.1:5000"}  # fmt: skip
    return CliRunner().invoke(main, list(arguments), env=env, catch_exceptions=False)


def play(base, players, hands=1):
    status, game = call("POST", f"{base}api/games", {"players": players})
    assert status == 201, game
    for _ in range(hands):
        assert call("POST", f"{base}api/games/{game['id']}/hands", {"hearts": [4, 0, 9, 0], "queen": 1})[0] == 201
    return game


def test_a_server_of_one_group_opened_to_many_keeps_its_games_in_a_first_group(database_url):
    with running_server(database_url) as server:
        play(server.base + "/", ["Ann", "Ben", "Cat", "Dan"])
    with running_server(database_url, extra_env={"SCOREKEEPER_GROUPS": "open"}) as server:
        said = server.said()
        assert "Open to many groups" in said
        link = said.split("The game from before the server was open is in the first group: ")[1].split()[0]
        key = link.split("/g/")[1].strip("/")
        status, listed = call("GET", f"{server.base}/g/{key}/api/games")
        assert status == 200 and [game["players"] for game in listed["games"]] == [["Ann", "Ben", "Cat", "Dan"]]
        assert call("GET", f"{server.base}/api/games")[0] == 404


def test_the_host_lists_the_groups_without_their_keys_and_gets_one_link_by_name(database_url, tmp_path):
    with running_server(database_url, extra_env={"SCOREKEEPER_GROUPS": "open"}) as server:
        thursday = call("POST", f"{server.base}/api/groups", {"name": "Thursday"})[1]
        friday = call("POST", f"{server.base}/api/groups", {"name": "Friday"})[1]
        play(thursday["url"].replace("http://localhost", server.base), ["Ann", "Ben", "Cat", "Dan"])
    listed = scorekeeper("groups", instance=tmp_path, database_url=database_url)
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert [line.split(", last used")[0] for line in lines] == [
        "1. (no name): 0 games", "2. Thursday: 1 game", "3. Friday: 0 games"]  # fmt: skip
    assert thursday["key"] not in listed.output and friday["key"] not in listed.output
    link = scorekeeper("groups", "--link", "Thursday", instance=tmp_path, database_url=database_url)
    assert link.stdout.strip().endswith(f"/g/{thursday['key']}/") and friday["key"] not in link.output
    by_number = scorekeeper("groups", "--link", "3", instance=tmp_path, database_url=database_url)
    assert by_number.stdout.strip().endswith(f"/g/{friday['key']}/")
    missing = scorekeeper("groups", "--link", "Sunday", instance=tmp_path, database_url=database_url)
    assert missing.exit_code == 1 and "No group is called “Sunday”" in missing.output


def test_a_backup_keeps_the_groups_apart_and_whole_and_a_restore_brings_back_their_links(database_url, tmp_path):
    with running_server(database_url, extra_env={"SCOREKEEPER_GROUPS": "open"}) as server:
        a = call("POST", f"{server.base}/api/groups", {"name": "A"})[1]
        b = call("POST", f"{server.base}/api/groups", {"name": "B"})[1]
        play(f"{server.base}/g/{a['key']}/", ["Ann", "Ben", "Cat", "Dan"], hands=2)
        play(f"{server.base}/g/{b['key']}/", ["Eve", "Fay", "Gus"] + ["Hal"], hands=1)
    target = tmp_path / "backup.json"
    assert scorekeeper("backup", str(target), instance=tmp_path, database_url=database_url).exit_code == 0
    backup = json.loads(target.read_text())
    assert backup["games"] == [] and [group["name"] for group in backup["groups"]] == ["A", "B"]
    assert [len(group["games"]) for group in backup["groups"]] == [1, 1]

    fresh = tmp_path / "fresh"
    restored = scorekeeper("restore", str(target), instance=fresh)
    assert restored.exit_code == 0 and "Restored 2 games" in restored.output, restored.output
    open_server = {"SCOREKEEPER_GROUPS": "open"}
    with running_server(f"sqlite:///{fresh / 'scorekeeper.sqlite'}", extra_env=open_server) as server:
        games_a = call("GET", f"{server.base}/g/{a['key']}/api/games")[1]["games"]
        games_b = call("GET", f"{server.base}/g/{b['key']}/api/games")[1]["games"]
    assert [game["players"] for game in games_a] == [["Ann", "Ben", "Cat", "Dan"]] and games_a[0]["hands"] == 2
    assert [game["players"] for game in games_b] == [["Eve", "Fay", "Gus", "Hal"]]
    again = scorekeeper("restore", str(target), instance=fresh)
    assert "Restored 0 games" in again.output and "2 were already here" in again.output
