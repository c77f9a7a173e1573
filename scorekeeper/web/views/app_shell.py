"""What makes the app installable and keeps it opening offline: the manifest, the icons, the service worker.

The service worker's cache is named after a hash of the static files and of the
worker itself, computed once at start: a deploy that changes any of them changes
the worker's bytes, so browsers install the new worker, which drops the old cache.
"""

import functools
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, send_from_directory, url_for
from flask.blueprints import BlueprintSetupState
from flask.sansio.app import App
from flask_babel import get_locale, gettext
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from ... import rules
from ...i18n import script_words
from ...rules.describe import card_name
from ...security import guard
from ...security.group_scope import any_page, site_page
from ...service import games, serialize
from .template_helpers import way_words

bp = Blueprint("app_shell", __name__)
bp.add_app_template_global(script_words.script_words)

LIGHT = {"background": "#f7f5f0", "theme": "#f7f5f0"}  # app.css --bg
DARK = {"background": "#121212", "theme": "#121212"}
HANDS_AHEAD = 8  # an evening's worth of hands recorded offline still say who deals and passes next
SHELL_FILES = (
    *(
        "app.css",
        "pages.css",
        "offline.css",
        "display.css",
        "table.js",
        "hand-form.js",
        "hand-entry.js",
        "save.js",
        "hand-life.js",
        "draft.js",
        "moon.js",
        "follow.js",
        "offline.js",
        "outbox.js",
        "offline-table.js",
        "offline-hands.js",
        "conflict.js",
        "words.js",
        "groups.js",
    ),
    "icons/icon-192.png",
)


@bp.record_once
def remember_version(state: BlueprintSetupState) -> None:
    state.app.extensions["app_shell_version"] = shell_version(state.app)


def shell_version(app: App) -> str:
    """A short hash of every static file and of the worker's template."""
    static = Path(app.static_folder or "static")
    worker = Path(app.template_folder or "templates") / "app_shell" / "sw.js"
    stats = ((path, path.stat()) for path in sorted([*static.rglob("*"), worker]) if path.is_file())
    return hashed(tuple((path, stat.st_mtime_ns, stat.st_size) for path, stat in stats))


@functools.lru_cache(maxsize=8)
def hashed(files: tuple[tuple[Path, int, int], ...]) -> str:
    """The hash of the files, read once in a process for each version of them (their times and sizes name it)."""
    digest = hashlib.sha256()
    for path, _, _ in files:
        digest.update(str(path.relative_to(path.parents[1])).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/manifest.webmanifest")
@guard.public
@any_page
def manifest() -> Response:
    """Installed from a group's page, the app opens that group: its home is the app's start and scope."""
    icon = "/static/icons/"
    home = url_for("table.home")
    answer = jsonify(
        {
            "id": home,
            "name": "Hearts Scorekeeper",
            "short_name": "Hearts",
            "description": gettext("Keeps score for Hearts played with real cards."),
            "lang": str(get_locale()),
            "start_url": home,
            "scope": home,
            "display": "standalone",
            "orientation": "any",
            "background_color": LIGHT["background"],
            "theme_color": LIGHT["theme"],  # dark pages say theirs in <meta name="theme-color" media=…>
            "icons": [
                {"src": icon + "icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": icon + "icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {"src": icon + "maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            ],
        }
    )
    answer.mimetype = "application/manifest+json"
    return answer


@bp.get("/favicon.ico")
@guard.public
@site_page
def favicon() -> Response:
    return send_from_directory(Path(current_app.static_folder or "static") / "icons", "favicon.ico")


@bp.get("/apple-touch-icon.png")
@guard.public
@site_page
def apple_touch_icon() -> Response:
    return send_from_directory(Path(current_app.static_folder or "static") / "icons", "apple-touch-icon.png")


@bp.app_context_processor
def shell_colours() -> dict[str, object]:
    return {"shell_colours": {"light": LIGHT["theme"], "dark": DARK["theme"]}}


@bp.app_template_global()
def offline_facts(loaded: games.LoadedGame) -> dict[str, object]:
    """What the table page needs to keep going with no network, worked out here while online.

    The page gets no second copy of the rules: the next hands' dealers and passes come
    precomputed by the rules core, and so does every moon the next hand could be (``moons``: the
    hand's facts, its shooter, and the options, totals, scores and advice it would get), which the
    page looks up by the facts entered; the one sum it may do is a hand's raw points, with the cards'
    points the hand form carries (views/template_helpers.hand_rules).
    """
    return {
        "game": loaded.id,
        "players": loaded.players,
        "totals": list(loaded.state.totals),
        "leads": loaded.setup.leads,
        "removed": list(loaded.setup.removed),
        "lead": card_name(loaded.setup.leads),  # the two above in the table's words
        "removed_words": rules.words.listed([card_name(card) for card in loaded.setup.removed]),
        "lead_line": loaded.setup.lead_line,
        "ahead": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "pass": rules.words.pass_line(hand.pass_direction, rules.PASS_CARDS),
                "passes": hand.passes,
                # The next hand's heading in the words the server's page has (templates/table/_next_hand.html).
                "deals": gettext("%(name)s deals", name=loaded.players[hand.dealer]),
                "way": way_words(hand.pass_direction, bool(hand.passes)).unescape(),  # as text
            }
            for hand in loaded.state.hands_ahead(HANDS_AHEAD)
        ],
        "next": rules.hand_after(len(loaded.state.hands)),  # the hand the moons' answers are for
        "moons": offline_moons(loaded.state),
        "record": url_for("api.record_hand", game_id=loaded.id),
        "game_url": url_for("api.game", game_id=loaded.id),
    }


def offline_moons(state: rules.GameState) -> list[dict[str, object]]:
    """Every moon the next hand could be, as the table page looks it up offline: the hand's facts as the form gives
    them, its shooter, and its options (totals, scores, outcome) and advice, None for a sun."""
    house = state.rules
    card_keys = [card.key for card in rules.in_play(house)]
    return [
        {
            "hand": {
                "hearts": list(hand.hearts),
                **{key: getattr(hand, key) for key in card_keys},
                **({"all_tricks": hand.all_tricks} if house.sun else {}),
            },
            "shooter": shooter,
            "moon": serialize.moon_json(advice, scores=True),
        }
        for hand, shooter, advice in rules.possible_moons(state)
    ]


@bp.app_template_filter()
def compact_json(value: object) -> Markup:
    """Like tojson, without the spaces: the table page carries these on every load.

    Escaped as tojson is (<, >, & and ' as \\u escapes): safe in a <script> and in a single-quoted attribute.
    """
    return htmlsafe_json_dumps(value, dumps=functools.partial(json.dumps, separators=(",", ":")))


@bp.app_template_global()
def rendered_at() -> str:
    """When a page was made, for a page that may later be shown from the cache: "not updated since …"."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@bp.get("/sw.js")
@guard.public
@site_page
def service_worker() -> Response:
    """The worker lives at the root so its scope is the whole app; browsers always revalidate it."""
    shell = [url_for("static", filename=name) for name in SHELL_FILES] + [url_for(".offline")]
    version = current_app.extensions["app_shell_version"]
    sign_in = url_for("signing.sign_in")
    language = str(get_locale())
    worker = render_template("app_shell/sw.js", version=version, shell=shell, sign_in=sign_in, language=language)
    answer = Response(worker, mimetype="text/javascript")
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/offline")
@guard.public
@site_page
def offline() -> str:
    return render_template("app_shell/offline.html")
