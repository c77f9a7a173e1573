"""Every page of the app in one registry: the crawls (axe in both languages and schemes, the 44 px ruler, the German
reading) open the pages it lists, and tests/app/test_pages.py fails on a page route it does not know, so that no crawl
misses a page added later."""

from browser import LONG_NAMES

THREE = ["Anna", "Bernd", "Carla"]

# Every page a server that is one group's shows, by name: its endpoint, and its address in an evening's data.
PAGES = {
    "home": ("table.home", "/"),
    "new game": ("table.new_game", "/games/new"),
    "game in progress": ("table.game", "/games/{five}"),
    "correct a hand": ("table.correct_hand", "/games/{five}/hands/2"),
    "finished game": ("table.game", "/games/{over}"),
    "game not begun": ("table.game", "/games/{fresh}"),
    "change the rules": ("table.change_game", "/games/{fresh}/change"),
    "Black Maria game": ("table.game", "/games/{maria}"),
    "past games": ("history.past_games", "/history"),
    "review": ("history.review", "/games/{five}/review"),
    "delete": ("history.delete_game", "/games/{five}/delete"),
    "import": ("history.import_games", "/history/import"),
    "players": ("history.players", "/players"),
    "a player": ("history.player", "/players/" + LONG_NAMES[0]),
    "blank sheet": ("sheets.blank", "/sheets/blank?players=5"),
    "filled sheet": ("sheets.game_sheet", "/games/{five}/sheet"),
    "follow": ("follow.follow", "/games/{five}/follow"),
    "offline": ("app_shell.offline", "/offline"),
    "rules": ("docs.rules", "/rules"),
    "API": ("docs.api", "/docs/api"),
}
# The page a server with a passcode shows a phone not signed in.
SIGN_IN = ("signing.sign_in", "/sign-in")
# The pages only a server open to many groups shows ({key}: a group's key).
OPEN_SERVER_PAGES = {
    "the open server's home": ("table.home", "/"),
    "a new group": ("groups.group", "/g/{key}/group?new=1"),
    "the group's home": ("table.home", "/g/{key}/"),
    "deleting the group": ("groups.delete", "/g/{key}/group/delete"),
}
# What every other address a browser may GET is, instead of a page a player reads.
NOT_PAGES = {
    "api.": "the JSON API (tests/app/test_api.py, tests/app/test_openapi.py)",
    "app_shell.apple_touch_icon": "an icon",
    "app_shell.favicon": "an icon",
    "app_shell.manifest": "the web app's manifest",
    "app_shell.service_worker": "the service worker's script",
    "follow.board": "a part of the follow page, fetched as the game changes",
    "follow.events": "the follow page's stream of the game's versions (Server-Sent Events)",
    "follow.qr_code": "a QR code",
    "follow.short_link": "a redirect to the follow page",
    "groups.qr_code": "a QR code",
    "history.export_all": "a download",
    "history.export_game": "a download",
    "sheets.page_margins": "a style sheet",
    "static": "scripts, styles and icons",
}


def evening(client) -> dict[str, int]:
    """A realistic evening: a game of five in progress (a moon in it), a finished game, a Black Maria game, and a
    game with house rules of its own not begun (its rules may still change)."""
    five = client.post("/api/games", json={"players": LONG_NAMES}).json["id"]
    for hand in [
        {"hearts": [4, 0, 9, 0, 0], "queen": 1},
        {"hearts": [0, 13, 0, 0, 0], "queen": 1, "moon_option": "add"},
        {"hearts": [2, 3, 4, 4, 0], "queen": 4},
    ]:
        assert client.post(f"/api/games/{five}/hands", json=hand).status_code == 201
    over = client.post("/api/games", json={"players": THREE, "rules": {"target": 20}}).json["id"]
    assert client.post(f"/api/games/{over}/hands", json={"hearts": [4, 0, 9], "queen": 1}).status_code == 201
    maria = client.post("/api/games", json={"players": THREE, "rules": {"black_maria": True}}).json["id"]
    hand = {"hearts": [4, 0, 9], "queen": 1, "king": 2, "ace": 0}
    assert client.post(f"/api/games/{maria}/hands", json=hand).status_code == 201
    fresh = client.post("/api/games", json={"players": THREE, "rules": {"omnibus": True, "target": 50}}).json["id"]
    return {"five": five, "over": over, "maria": maria, "fresh": fresh}


def addresses(pages: dict[str, tuple[str, str]], **found: object) -> dict[str, str]:
    """Each page's address, its games (or group) filled in."""
    return {name: path.format(**found) for name, (_endpoint, path) in pages.items()}
