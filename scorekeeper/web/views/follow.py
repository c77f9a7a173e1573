"""A read-only view of a game for the other phones at the table, refreshed as hands are recorded."""

import functools

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response as WerkzeugResponse

from ...service import games
from ...store.db import engine_number
from ..qr import qr_svg

bp = Blueprint("follow", __name__)


@bp.get("/f/<int:game_id>")
def short_link(game_id: int) -> WerkzeugResponse:
    must_exist(game_id)
    return redirect(url_for(".follow", game_id=game_id))


@bp.get("/f/<int:game_id>/qr.svg")
def qr_code(game_id: int) -> Response:
    """The short link as a QR code: an image of its own, fetched only when the table opens the share box."""
    must_exist(game_id)
    url = url_for(".short_link", game_id=game_id, _external=True)
    return Response(qr_svg(url), mimetype="image/svg+xml")


def must_exist(game_id: int) -> None:
    """A 404, as for any missing game, for a game that is not (or no longer) there."""
    if games.version(game_id) is None:
        raise games.GameNotFound(_("There is no game %(game)d.", game=game_id))


@bp.get("/games/<int:game_id>/follow")
def follow(game_id: int) -> str:
    return render_template("follow/page.html", loaded=games.load_game(game_id))


@functools.lru_cache(maxsize=256)
def rendered_board(database: int, game_id: int, version: str, language: str) -> str:
    """A board is the same for every follower in a language until the game changes: render each version once."""
    return render_template("follow/_board.html", loaded=games.load_game(game_id))


@bp.get("/games/<int:game_id>/follow/board")
def board(game_id: int) -> Response:
    """The changing part of the follow page; 304 while the game has not changed."""
    version = games.version(game_id)
    if version is None:
        return deleted()
    if request.if_none_match.contains_weak(version):  # RFC 9110: If-None-Match compares weakly
        answer = Response(status=304)
    else:
        answer = Response(rendered_board(engine_number(), game_id, version, str(get_locale())))
    answer.set_etag(version)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


def deleted() -> Response:
    """What the board and the stream of a game no longer there answer: the page says so and stops asking."""
    return Response(_("This game was deleted."), status=404, mimetype="text/plain")


# The header by which the follow stream's first answer asks the production server (server/streams.py) to keep the
# stream open and tell it the game's news; the server takes it out. Any other server ends the stream after its first
# event, and the browser opens it again after RETRY_MS: a slow poll.
FOLLOWS = "X-Scorekeeper-Follows"
RETRY_MS = 3000


@bp.get("/games/<int:game_id>/follow/events")
def events(game_id: int) -> Response:
    """The game's versions as Server-Sent Events, the version of now first: a phone that follows the game fetches
    its board when told a version it does not show. Behind every check a page of the game passes (its group, its
    passcode, the host), as any page of the game; the production server answers one it has no place for 204 before
    it (server/streams.py)."""
    version = games.version(game_id)
    if version is None:
        return deleted()
    answer = Response(f"retry: {RETRY_MS}\n{event(version)}", mimetype="text/event-stream")
    answer.headers["Cache-Control"] = "no-cache"
    answer.headers[FOLLOWS] = str(game_id)
    answer.headers["X-Accel-Buffering"] = "no"  # nginx in front passes each event on as it comes
    return answer


def event(version: str) -> str:
    """One event of the follow stream: the game's version ("": deleted).

    >>> event("7-2026-12-05T10:00:00")
    'event: version\\ndata: 7-2026-12-05T10:00:00\\n\\n'
    """
    return f"event: version\ndata: {version or 'deleted'}\n\n"
