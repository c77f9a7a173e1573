"""An open server: many groups, each at its own address, none reaching another's games."""

import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.security import allowances
from scorekeeper.service import groups
from scorekeeper.store.db import db
from scorekeeper.store.models import Allowance, Game, Group

from conftest import as_host

HAND = {"hearts": [4, 0, 9, 0], "queen": 1}


@pytest.fixture
def open_app(database_url):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-" + "x" * 40,
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "GROUPS_OPEN": True,
        }
    )
    yield app
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(open_app):
    return open_app.test_client()


def start_group(client, name=None, address="127.0.0.1"):
    answer = client.post("/api/groups", json={"name": name} if name else None, environ_base={"REMOTE_ADDR": address})
    assert answer.status_code == 201, answer.json
    return answer.json


def start_game(client, key, players=("Ann", "Ben", "Cat", "Dan")):
    answer = client.post(f"/g/{key}/api/games", json={"players": list(players)})
    assert answer.status_code == 201, answer.json
    return answer.json


def count_games(app):
    with as_host(app):
        found = db.session.query(Game).count()
        db.session.remove()
    return found


def test_a_group_is_started_with_a_secret_key_and_an_address_of_its_own(client):
    answer = client.post("/api/groups", json={"name": "Thursday table"})
    assert answer.status_code == 201
    group = answer.json
    assert re.fullmatch(r"[A-Za-z0-9_-]{24}", group["key"])  # 144 random bits, URL-safe
    assert group["name"] == "Thursday table"
    assert group["url"] == f"http://localhost/g/{group['key']}/" == answer.headers["Location"]
    other = start_group(client)
    assert other["key"] != group["key"] and other["name"] == ""
    assert client.get(f"/g/{group['key']}/api/group").json == {**group, "games": 0}


def test_a_group_without_a_body_or_with_a_bad_name_is_refused_or_started_as_it_should(client):
    assert client.post("/api/groups").status_code == 201  # no body at all: a group with no name
    for body, message in [({"name": 5}, "The group's name must be text."),
                          ({"name": "x" * 61}, "The group's name is too long: 60 characters at most."),
                          ({"name": "a\u202eb"}, "The group's name has an invisible or control character: type it "
                                                  "again.")]:  # fmt: skip
        answer = client.post("/api/groups", json=body)
        assert answer.status_code == 422 and answer.json["error"] == message
    assert client.post("/api/groups", data="{}", content_type="text/plain").status_code == 415


def test_each_group_sees_its_own_games_players_and_records_alone(open_app, client):
    a, b = start_group(client)["key"], start_group(client)["key"]
    game_a = start_game(client, a, ["Ann", "Ben", "Cat", "Dan"])
    start_game(client, b, ["Ann", "Zed", "Yul"])
    client.post(f"/g/{a}/api/games/{game_a['id']}/hands", json=HAND)
    listed = client.get(f"/g/{b}/api/games").json["games"]
    assert [game["players"] for game in listed] == [["Ann", "Zed", "Yul"]]
    assert client.get(f"/g/{b}/api/games/{game_a['id']}").status_code == 404
    assert "Ben" not in client.get(f"/g/{b}/players").get_data(as_text=True)
    ann_a, ann_b = client.get(f"/g/{a}/players/Ann").get_data(as_text=True), client.get(f"/g/{b}/players/Ann")
    assert "Ben" in ann_a and "Ben" not in ann_b.get_data(as_text=True)  # Ann's recent games: her group's
    assert client.get(f"/g/{b}/history/export.json").json["games"][0]["players"] == ["Ann", "Zed", "Yul"]
    assert "Ben" not in client.get(f"/g/{b}/history/export.csv").get_data(as_text=True)


@pytest.mark.parametrize(
    "path",
    ["/api/games", "/api/games/1", "/games/1", "/games/1/follow", "/history", "/players", "/f/1", "/f/1/qr.svg",
     "/games/new", "/history/export.json", "/group", "/api/group"],
)  # fmt: skip
def test_the_addresses_of_a_server_of_one_group_answer_404_on_an_open_server(client, path):
    start_game(client, start_group(client)["key"])
    answer = client.get(path)
    assert answer.status_code == 404


def test_an_unknown_key_answers_as_a_missing_game_does(client):
    key = start_group(client)["key"]
    game = start_game(client, key)
    other = start_group(client)["key"]
    unknown = client.get("/g/" + "A" * 24 + f"/api/games/{game['id']}")
    elsewhere = client.get(f"/g/{other}/api/games/{game['id']}")
    missing = client.get(f"/g/{key}/api/games/999")
    assert unknown.status_code == elsewhere.status_code == missing.status_code == 404
    assert elsewhere.json == {"error": f"There is no game {game['id']}."}
    assert unknown.json["error"] and unknown.mimetype == missing.mimetype == "application/json"
    assert client.get("/g/" + "A" * 24 + "/").status_code == 404  # a page, too


def test_the_site_pages_are_served_at_the_root_alone(client):
    key = start_group(client)["key"]
    for path in ["/rules", "/sheets/blank", "/static/app.css", "/api/openapi.json", "/docs/api", "/sw.js"]:
        assert client.get(path).status_code == 200, path
        assert client.get(f"/g/{key}{path}").status_code == 404, path
    page = client.get(f"/g/{key}/").get_data(as_text=True)
    assert 'href="/static/app.css' in page and f'href="/g/{key}/games/new"' in page and 'href="/rules"' in page


def test_the_group_address_without_its_slash_goes_to_the_group(client):
    key = start_group(client)["key"]
    answer = client.get(f"/g/{key}?x=1")
    assert answer.status_code == 308 and answer.headers["Location"] == f"/g/{key}/?x=1"


def test_the_home_page_starts_a_group_in_one_tap_and_takes_the_phone_to_it(open_app, client):
    home = client.get("/").get_data(as_text=True)
    assert "Start a group" in home and "Games in progress" not in home
    answer = client.post("/groups", data={"name": "Friday"})
    assert answer.status_code == 303
    key = re.fullmatch(r"/g/([A-Za-z0-9_-]{24})/group\?new=1", answer.headers["Location"]).group(1)
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Your group is ready" in page and f"http://localhost/g/{key}/" in page and "Friday" in page
    assert client.get(f"/g/{key}/group/qr.svg").mimetype == "image/svg+xml"
    assert client.post("/groups", data={"name": "\u202e"}).status_code == 422
    with as_host(open_app):
        assert db.session.query(Group).filter_by(name="Friday").count() == 1


def test_a_group_is_renamed_and_locked_with_a_passcode_of_its_own(open_app, client):
    key = start_group(client, "Old name")["key"]
    other = start_group(client)["key"]
    assert client.post(f"/g/{key}/group/name", data={"name-name": "New name"}).status_code == 302
    assert client.get(f"/g/{key}/api/group").json["name"] == "New name"
    weak = client.post(f"/g/{key}/group/passcode", data={"code-passcode": "1234"})
    assert weak.status_code == 422 and "too easy to guess" in weak.get_data(as_text=True)
    assert client.post(f"/g/{key}/group/passcode", data={"code-passcode": "queen of spades"}).status_code == 302
    stranger = open_app.test_client()
    assert stranger.get(f"/g/{key}/").headers["Location"].startswith(f"/g/{key}/sign-in")
    refused = stranger.get(f"/g/{key}/api/games")
    assert refused.status_code == 401 and refused.json["error"] == (
        "This group needs its own passcode: send Authorization: Bearer <the group's passcode>."
    )
    bearer = {"Authorization": "Bearer queen of spades"}
    assert stranger.get(f"/g/{key}/api/games", headers=bearer).status_code == 200
    assert stranger.get(f"/g/{other}/api/games").status_code == 200  # another group needs only its key
    wrong = stranger.post(f"/g/{key}/sign-in", data={"passcode": "jack of hearts"})
    assert wrong.status_code == 401
    elsewhere = {"REMOTE_ADDR": "10.0.0.2"}  # the address that guessed wrong waits now
    signed = stranger.post(f"/g/{key}/sign-in", data={"passcode": "queen of spades"}, environ_base=elsewhere)
    assert signed.status_code == 302
    assert stranger.get(f"/g/{key}/").status_code == 200


def test_the_language_switch_inside_a_group_stays_in_the_group(client):
    """It sent the phone to /history, at the site's root: a 404 on an open server."""
    key = start_group(client)["key"]
    page = client.get(f"/g/{key}/history?player=Ann").get_data(as_text=True)
    action, come_back = re.search(r'<form method="post" action="([^"]+)" class="languages"><input type="hidden" '
                                  r'name="next" value="([^"]+)">', page).groups()  # fmt: skip
    chosen = client.post(action, data={"language": "de", "next": come_back.replace("&amp;", "&")})
    assert chosen.status_code == 303 and chosen.headers["Location"] == f"/g/{key}/history?player=Ann"
    assert 'lang="de"' in client.get(chosen.headers["Location"]).get_data(as_text=True)


def test_a_boards_304_answers_for_the_groups_own_games_alone_and_never_past_its_passcode(open_app, client):
    """The follow board's 304 (answered before the app) keeps to the address's group: another group's game, or
    a wrong key, is a 404 even with the right tag; a group's passcode is asked for first."""
    a, b = start_group(client)["key"], start_group(client)["key"]
    game = start_game(client, b)["id"]
    board = f"/games/{game}/follow/board"
    tag = client.get(f"/g/{b}{board}").headers["ETag"]
    assert client.get(f"/g/{b}{board}", headers={"If-None-Match": tag}).status_code == 304
    assert client.get(f"/g/{a}{board}", headers={"If-None-Match": tag}).status_code == 404
    assert client.get(f"/g/{'x' * 24}{board}", headers={"If-None-Match": tag}).status_code == 404
    assert client.get(board, headers={"If-None-Match": tag}).status_code == 404
    assert client.post(f"/g/{b}/group/passcode", data={"code-passcode": "queen of spades"}).status_code == 302
    stranger = open_app.test_client()
    locked = stranger.get(f"/g/{b}{board}", headers={"If-None-Match": tag})
    assert locked.status_code == 302 and locked.headers["Location"].startswith(f"/g/{b}/sign-in")
    stranger.post(f"/g/{b}/sign-in", data={"passcode": "queen of spades"})
    assert stranger.get(f"/g/{b}{board}", headers={"If-None-Match": tag}).status_code == 304


@contextmanager
def statements_written(app):
    """The statements that write (or would take SQLite's write lock) run meanwhile, as a list."""
    written = []
    with as_host(app):
        engine = db.engine

    def note(_connection, _cursor, statement, *_rest):
        if not statement.lstrip().upper().startswith(("SELECT", "BEGIN", "COMMIT", "ROLLBACK", "PRAGMA")):
            written.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield written
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_a_groups_request_writes_nothing_while_its_last_use_is_recent(open_app, client):
    key = start_group(client)["key"]
    game = start_game(client, key)["id"]
    with statements_written(open_app) as written:
        for path in ("/", f"/games/{game}", f"/games/{game}/follow/board", "/api/games"):
            assert client.get(f"/g/{key}{path}").status_code == 200
    assert written == []


def test_a_sign_in_of_one_group_is_worth_nothing_in_another(open_app):
    phone = open_app.test_client()
    a, b = start_group(phone)["key"], start_group(phone)["key"]
    for key in (a, b):
        phone.post(f"/g/{key}/group/passcode", data={"code-passcode": f"queen of spades {key[:4]}"})
    phone.post(f"/g/{a}/sign-in", data={"passcode": f"queen of spades {a[:4]}"})
    cookie = phone.get_cookie("scorekeeper-group", path=f"/g/{a}/")
    assert cookie is not None and cookie.path == f"/g/{a}/"  # the browser sends it to group a alone
    assert phone.get(f"/g/{a}/").status_code == 200
    other = open_app.test_client()
    other.set_cookie("scorekeeper-group", cookie.value, path=f"/g/{b}/")  # copied by hand into group b
    assert other.get(f"/g/{b}/").status_code == 302  # still asks for b's passcode


def test_a_form_token_of_one_group_is_refused_in_another(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-" + "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url,
                      "GROUPS_OPEN": True})  # fmt: skip
    phone = app.test_client()
    a, b = start_group(phone)["key"], start_group(phone)["key"]
    page = phone.get(f"/g/{a}/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "players-0": "Ann", "players-1": "Ben", "players-2": "Cat"}
    phone.get(f"/g/{b}/games/new")  # b's own session, with a token of its own
    assert phone.post(f"/g/{b}/games/new", data=form).status_code == 400  # the token is refused
    carried = app.test_client()  # a's session cookie and token, both carried into b by hand (the probe's way)
    cookie = phone.get_cookie("scorekeeper-group", path=f"/g/{a}/")
    carried.set_cookie("scorekeeper-group", cookie.value, path=f"/g/{b}/")
    assert carried.post(f"/g/{b}/games/new", data=form).status_code == 400  # a's session is no session in b
    assert carried.post(f"/g/{b}/group/name", data={"csrf_token": token, "name-name": "renamed"}).status_code == 400
    assert phone.post(f"/g/{a}/games/new", data=form).status_code == 302
    with as_host(app):
        assert db.session.query(Game).count() == 1 and not db.session.query(Group).filter_by(name="renamed").count()
        db.session.remove()
        db.engine.dispose()


def test_a_group_is_deleted_after_asking_with_its_export_offered(open_app, client):
    key = start_group(client, name="Zebulon's table")["key"]
    start_game(client, key, players=("Zebulon", "Ben", "Cat"))
    kept = start_group(client)["key"]
    start_game(client, kept)
    asks = client.get(f"/g/{key}/group/delete").get_data(as_text=True)
    assert "Delete this group?" in asks and f"/g/{key}/history/export.json" in asks
    assert count_games(open_app) == 2  # asking deleted nothing
    answer = client.post(f"/g/{key}/group/delete")
    assert answer.status_code == 303 and answer.headers["Location"] == "/?deleted=1"
    assert client.get(f"/g/{key}/").status_code == 404
    assert count_games(open_app) == 1
    with as_host(open_app):  # nor are its names left in SQLite's write-ahead log
        wal = db.engine.url.database and Path(db.engine.url.database + "-wal")
        assert not wal or not wal.exists() or b"Zebulon" not in wal.read_bytes()
    assert client.delete(f"/g/{kept}/api/group").status_code == 204
    assert count_games(open_app) == 0 and client.get(f"/g/{kept}/api/games").status_code == 404


def test_groups_started_from_one_address_are_limited_to_twenty_a_day(open_app, client):
    for _ in range(20):
        start_group(client, address="198.51.100.7")
    refused = client.post("/api/groups", environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 23 * 3600
    assert "20 groups were started from this address today" in refused.json["error"]
    start_group(client, address="198.51.100.8")  # another address starts its own
    with as_host(open_app):
        assert db.session.query(Group).count() == 1 + 21  # the first group, and no 22nd from the refusal
        db.session.remove()


def test_wrong_keys_from_one_address_are_limited_and_slow_nobody_else(client):
    key = start_group(client)["key"]
    guesser = {"REMOTE_ADDR": "198.51.100.9"}
    answers = [client.get(f"/g/guess{n:04d}/api/games", environ_base=guesser).status_code for n in range(31)]
    assert answers == [404] * 30 + [429]
    assert client.get(f"/g/{key}/api/games", environ_base=guesser).status_code == 200  # a right key still works
    assert client.get("/g/guess9999/api/games").status_code == 404  # another address is not slowed


def spend(app, limit, addresses):
    """Each address has used all of a limit, as a flood of its requests would have."""
    with as_host(app):
        db.session.add_all(Allowance(kind=limit.kind, address=address, used=limit.most) for address in addresses)
        db.session.commit()
        db.session.remove()


def test_a_guess_flood_past_the_limit_writes_nothing(open_app, client):
    """128 addresses guessing keys wrote a row each guess, 429 or not, and held a group's own phone from the database
    (7 ms became 150-190 ms): past its limit, a wrong key is told so from a read alone."""
    key = start_group(client)["key"]
    game = start_game(client, key)["id"]
    guessers = [f"198.51.{n // 100}.{n % 100 + 1}" for n in range(128)]
    spend(open_app, allowances.WRONG_KEYS, guessers)
    with statements_written(open_app) as written:
        answers = {client.get(f"/g/guess{n:04d}/api/games", environ_base={"REMOTE_ADDR": address}).status_code
                   for n, address in enumerate(guessers * 2)}  # fmt: skip
        assert client.get(f"/g/{key}/games/{game}").status_code == 200  # the group's phone, in the flood
    assert answers == {429} and written == []
    assert client.get("/g/guess9999/api/games").status_code == 404  # an address with tries left is counted


def test_a_group_asked_for_past_the_days_limit_writes_nothing(open_app, client):
    spend(open_app, allowances.GROUPS_STARTED, ["198.51.100.7"])
    with statements_written(open_app) as written:
        refused = client.post("/api/groups", environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert refused.status_code == 429 and written == []


def test_a_group_keeps_at_most_its_games_and_stores_nothing_past_them(open_app, client, monkeypatch):
    monkeypatch.setattr(groups, "GAMES_MAX", 2)
    key = start_group(client)["key"]
    start_game(client, key)
    start_game(client, key)
    refused = client.post(f"/g/{key}/api/games", json={"players": ["Ann", "Ben", "Cat"]})
    assert refused.status_code == 409 and "keeps 2 games at most" in refused.json["error"]
    export = client.get(f"/g/{key}/history/export.json").json
    other = start_group(client)["key"]
    start_game(client, other)
    imported = client.post(f"/g/{other}/history/import", data={"export": (export_file(export), "export.json")})
    assert imported.status_code == 422 and "keeps 2 games at most" in imported.get_data(as_text=True)
    assert count_games(open_app) == 3


def export_file(document):
    import io
    import json

    return io.BytesIO(json.dumps(document).encode())


def test_an_import_of_another_groups_games_makes_copies_and_leaves_theirs_alone(open_app, client):
    a, b = start_group(client)["key"], start_group(client)["key"]
    game = start_game(client, a)
    export = client.get(f"/g/{a}/history/export.json").json
    answer = client.post(f"/g/{b}/history/import", data={"export": (export_file(export), "export.json")})
    assert answer.status_code == 302
    copies = client.get(f"/g/{b}/api/games").json["games"]
    assert len(copies) == 1 and copies[0]["id"] != game["id"]
    assert client.delete(f"/g/{b}/api/games/{copies[0]['id']}").status_code == 204
    assert client.get(f"/g/{a}/api/games/{game['id']}").status_code == 200


def test_a_server_of_one_group_has_no_group_addresses(app):
    client = app.test_client()
    assert client.post("/api/groups").status_code == 404
    assert client.get("/api/group").status_code == 404 and client.get("/group").status_code == 404
    with as_host(app):
        key = db.session.query(Group).first().key
    assert client.get(f"/g/{key}/api/games").status_code == 404
    assert client.get("/api/games").status_code == 200


def test_on_an_open_server_with_a_passcode_starting_a_group_needs_it_and_a_group_needs_only_its_key(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-" + "x" * 40, "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database_url, "GROUPS_OPEN": True,
                      "PASSCODE": "the club's own passcode"})  # fmt: skip
    client = app.test_client()
    assert client.post("/api/groups").status_code == 401
    assert client.get("/").headers["Location"].startswith("/sign-in")
    bearer = {"Authorization": "Bearer the club's own passcode"}
    key = client.post("/api/groups", headers=bearer).json["key"]
    assert client.get(f"/g/{key}/api/games").status_code == 200
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


# What a request through every route sends, so that a route reaching the other group's game would change it.
PAGE_FORM = {"hearts-0": "13", "hearts-1": "0", "hearts-2": "0", "hearts-3": "0", "queen": "0", "number": "2",
             "name-name": "Taken", "code-passcode": "queen of spades", "players-0": "Ann", "players-1": "Ben",
             "players-2": "Cat"}  # fmt: skip
API_BODY = {"hearts": [13, 0, 0, 0], "queen": 0, "moon_option": "add", "number": 2, "players": ["Ann", "Ben", "Cat"]}
B_NAMES = ("Bertilda", "Brunhild", "Bonifaz", "Berenike")


def address(rule, game_id):
    """The rule's path for the other group's game: its id, its hand 1, its player's name, a JSON export."""
    values = {"game_id": game_id, "number": 1, "name": B_NAMES[0], "kind": "json", "language": "en",
              "filename": "app.css"}  # fmt: skip
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda found: str(values[found.group(1)]), rule.rule)


def test_no_route_reaches_another_groups_game_through_a_groups_address(open_app, client):
    """Every route the app has, with every method it takes, asked through group A's address for group B's game:
    nothing of B's is answered, and B's game and group are as they were."""
    b = start_group(client)["key"]
    game_b = start_game(client, b, B_NAMES)
    client.post(f"/g/{b}/api/games/{game_b['id']}/hands", json=HAND)
    before = client.get(f"/g/{b}/api/games/{game_b['id']}").json
    covered = []
    for rule in open_app.url_map.iter_rules():
        path = address(rule, game_b["id"])
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            # A group of its own for each: a route may lock or delete group A, never group B.
            a = start_group(client, address=f"10.0.{len(covered) // 200}.{len(covered) % 200 + 1}")["key"]
            start_game(client, a)
            body = {"json": API_BODY} if path.startswith("/api/") else {"data": PAGE_FORM}
            answer = client.open(f"/g/{a}{path}", method=method, **body)
            said = answer.get_data()
            unsaid = [name for name in B_NAMES if name not in path]  # a 404 may say which player it did not find
            assert not any(name.encode() in said for name in unsaid), (method, rule.rule, said[:200])
            if rule.arguments & {"game_id", "name"}:
                assert answer.status_code == 404, (method, rule.rule, answer.status_code)
            covered.append(f"{method} {rule.rule}")
            assert client.get(f"/g/{b}/api/games/{game_b['id']}").json == before, (method, rule.rule)
            assert client.get(f"/g/{b}/api/group").status_code == 200, (method, rule.rule)
    assert len(covered) == sum(len(rule.methods - {"HEAD", "OPTIONS"}) for rule in open_app.url_map.iter_rules())
    assert len(covered) > 50


def test_no_route_at_the_site_root_reaches_a_groups_game(open_app, client):
    """On an open server the addresses of a server of one group reach no group's game either."""
    b = start_group(client)["key"]
    game_b = start_game(client, b, B_NAMES)
    before = client.get(f"/g/{b}/api/games/{game_b['id']}").json
    for rule in open_app.url_map.iter_rules():
        path = address(rule, game_b["id"])
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            body = {"json": API_BODY} if path.startswith("/api/") else {"data": PAGE_FORM}
            answer = client.open(path, method=method, **body)
            unsaid = [name for name in B_NAMES if name not in path]
            assert not any(name.encode() in answer.get_data() for name in unsaid), (method, rule.rule)
            if rule.arguments & {"game_id", "name"}:
                assert answer.status_code == 404, (method, rule.rule, answer.status_code)
    assert client.get(f"/g/{b}/api/games/{game_b['id']}").json == before
