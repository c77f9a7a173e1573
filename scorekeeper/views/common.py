"""What every blueprint shares: template helpers, and one answer for each kind of error.

Pages get an error page, the API gets JSON (the error object of docs/api.md), whichever
view the error came from: a game deleted while a request was on its way is a
404 like any other missing game.
"""

import io
from collections.abc import Sequence
from datetime import UTC, datetime

from babel import Locale
from babel.dates import format_skeleton, format_time
from flask import Flask, current_app, jsonify, make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_date, format_decimal, format_percent, get_locale, lazy_gettext
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.local import LocalProxy
from werkzeug.wsgi import get_content_length

from .. import rules
from ..db import db, is_busy
from ..forms import ActionForm
from ..group_scope import GROUP_PATH
from ..http_words import said
from ..languages import DEFAULT
from ..service import games, restore

BUSY = lazy_gettext("The database is busy with another change (an import?): nothing was stored, try again in a moment.")
# The titles of the errors the app itself answers with (werkzeug's own are error.html's to say).
CANNOT = lazy_gettext("That cannot be done")
NOT_FOUND = lazy_gettext("Not found")
BUSY_TITLE = lazy_gettext("Busy")


def register(app: Flask) -> None:
    app.before_request_funcs.setdefault(None, []).insert(0, limit_body)  # before CSRF reads the form
    app.context_processor(page_helpers)
    app.add_template_filter(and_list)
    app.add_template_filter(day)
    app.add_template_filter(moment)
    app.add_template_filter(decimal)
    app.add_template_filter(percent)
    app.add_template_filter(rules.words.hand_count)
    app.add_template_filter(rules.i18n.signed)
    app.add_template_filter(rules.i18n.total)
    app.add_template_global(follow_link)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(rules.RuleError, rule_broken)
    app.register_error_handler(games.GameNotFound, not_found)
    app.register_error_handler(OperationalError, database_busy)
    app.register_error_handler(restore.ImportCutShort, import_cut_short)


FORM_MAX = 500 * 1024  # a page's form without a file; the import page alone takes MAX_CONTENT_LENGTH
API_MAX = 64 * 1024  # a game or a hand is a few hundred bytes
LARGE_BODIES = ("/history/import",)


def body_max(path: str, largest: int) -> int:
    """The largest body a request to ``path`` may send, at the server's root or in a group (``/g/<key>/…``):
    the production server refuses a larger one by its length, before reading it (serving.py), and so does the app.

    >>> largest = 64 * 1024 * 1024
    >>> body_max("/api/games", largest), body_max("/g/abc/history/import", largest) == largest
    (65536, True)
    >>> body_max("/games/new", largest), body_max("/g/abc/games/new", 1024)
    (512000, 1024)
    """
    inside = GROUP_PATH.fullmatch(path)
    path = (inside.group(2) or "/") if inside else path
    if path in LARGE_BODIES:
        return largest
    return API_MAX if path == "/api" or path.startswith("/api/") else min(FORM_MAX, largest)


def limit_body() -> None:
    """Refuse a body too large for its page (413) before anything reads it: the first hook of all."""
    request.max_content_length = body_max(request.path, current_app.config["MAX_CONTENT_LENGTH"])
    if (request.content_length or 0) > request.max_content_length:
        raise RequestEntityTooLarge()
    if get_content_length(request.environ) is None and request.environ.get("wsgi.input_terminated"):
        measure_streamed_body(request.max_content_length)


def measure_streamed_body(limit: int) -> None:
    """A body sent without a length (chunked) is read here, and refused whole if it is too large.

    Werkzeug stops reading such a body at the limit and hands over what it read
    as if it were all: an import or a game cut short, not refused. Read once
    here, a body within the limit is given a length like any other.
    """
    stream, body = request.environ["wsgi.input"], bytearray()
    while len(body) <= limit and (chunk := stream.read(min(64 * 1024, limit + 1 - len(body)))):
        body += chunk
    if len(body) > limit:
        raise RequestEntityTooLarge()
    request.environ.update({"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})


def page_helpers() -> dict[str, object]:
    # The buttons' form is made when a template first uses it: making it mints a CSRF token, and so
    # a session, which an error page must never do (it would sign out a phone that a cross-site
    # request reached without its cookie). formdata=None: reading the request here would read a body
    # too large for the error page that says so (413), and fail again.
    return {
        # What the templates say about the rules, in the rules' own words (rules/words.py).
        "OUTCOME_WORDS": rules.words.said(rules.words.OUTCOMES),
        "PASSES": rules.words.PASSES,
        "MOON_OPTION_WORDS": LocalProxy(lambda: rules.words.said(rules.words.MOON_OPTION_WORDS)),
        "tie_break": rules.words.tie_break,
        "PENALTY_CARDS": rules.PENALTY_CARDS,
        "moon_words": rules.moon_words,
        "pass_line": pass_line,
        "standing_tag": rules.words.standing_tag,
        "hand_rules": hand_rules,
        "subtract_words": subtract_words,
        "rule_differences": rules.differences,
        "cycle_players": rules.house.cycle_players,
        "action": LocalProxy(lambda: ActionForm(formdata=None)),
    }


def pass_line(direction: str) -> str:
    return rules.words.pass_line(direction, rules.PASS_CARDS)


def subtract_words(house: rules.HouseRules, before: Sequence[int]) -> list[str]:
    """The moon panel's subtract option for each seat that may shoot, the floor's amount in it."""
    return [rules.moon_words(house, total).options["subtract"] for total in before]


def hand_rules(house: rules.HouseRules, before: Sequence[int] | None = None) -> dict[str, object]:
    """What the hand form's scripts know of the rules: no number of their own, these facts (static/table.js).

    ``before``: the totals before the hand; with the floor, subtracting takes off what each seat has, said seat by seat.
    """
    moon = rules.moon_words(house)
    said: dict[str, str | list[str]] = {key: moon.save_label(key, "{shooter}") for key in rules.MOON_OPTIONS}
    if before is not None and house.subtract_floor:
        said["subtract"] = [rules.moon_words(house, total).save_label("subtract", "{shooter}") for total in before]
    return {
        "hearts": rules.HEARTS,
        "cards": [
            {"key": card.key, "name": card.name, "points": card.points, "moon": card.moon, "ask": card.ask}
            for card in rules.in_play(house)
        ],
        "heart_points": rules.HEART_POINTS,
        "moon": None if house.moon == "off" else said,
        "tie_break": rules.words.tie_break(),
    }


def and_list(names: list[str]) -> str:
    """Ann; Ann and Ben; Ann, Ben and Cat: as the table's language lists them (rules.words.listed)."""
    return rules.words.listed(names)


def local(when: datetime) -> datetime:
    """A stored moment (UTC, without a zone) in the server's local time: the server sits at the table."""
    return when.replace(tzinfo=UTC).astimezone() if when.tzinfo is None else when.astimezone()


def day(when: datetime, form: str = "full") -> str:
    """The day of a stored moment as the page's language writes it: "Montag, 30. November 2026" (``full``),
    "30. November 2026" (``long``), "Mo., 30. Nov. 2026" (``short``)."""
    if form == "short":
        there = local(when)
        return str(format_skeleton("yMMMEd", there, tzinfo=there.tzinfo, locale=str(get_locale() or DEFAULT)))
    return str(format_date(local(when).date(), form))


def moment(when: datetime) -> str:
    """A stored moment's day and time, in the page's language: "Mo., 30. Nov., 20:15"."""
    there, locale = local(when), Locale.parse(str(get_locale() or DEFAULT))
    day_part = format_skeleton("MMMEd", there, tzinfo=there.tzinfo, locale=locale)
    time_part = format_time(there, "short", tzinfo=there.tzinfo, locale=locale)
    return str(locale.datetime_formats["short"].format(time_part, day_part))


def decimal(number: float) -> str:
    """One decimal, as the page's language writes it: 12.5, 12,5."""
    return str(format_decimal(number, "#,##0.0"))


def percent(share: float) -> str:
    """A share as a whole percentage, as the page's language writes it: 50%, 50 %."""
    return str(format_percent(share))


def follow_link(game_id: int) -> dict[str, object]:
    """The short address other phones open to follow a game, and its QR code."""
    url = url_for("follow.short_link", game_id=game_id, _external=True)
    return {"url": url, "qr": url_for("follow.qr_code", game_id=game_id)}


def json_error(status: int, message: str, errors: dict[str, str] | None = None) -> ResponseReturnValue:
    body: dict[str, object] = {"error": message}
    if errors:
        body["errors"] = errors
    return jsonify(body), status


def error_answer(status: int, title: str, message: str, errors: dict[str, str] | None = None) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        return json_error(status, message, errors)
    return render_template("error.html", title=title, message=message), status


def http_error(problem: HTTPException) -> ResponseReturnValue:
    title, description = said(problem.name), said(problem.description or problem.name)
    answer = make_response(error_answer(problem.code or 500, title, description))
    for header, value in problem.get_headers():  # a 405's Allow, a 401's WWW-Authenticate: the answer's own type
        if header.lower() != "content-type":
            answer.headers[header] = value
    return answer


def rule_broken(broken: rules.RuleError) -> ResponseReturnValue:
    status = 409 if broken.conflict else 422
    return error_answer(status, str(CANNOT), broken.message, broken.errors)


def not_found(missing: games.GameNotFound) -> ResponseReturnValue:
    return error_answer(404, str(NOT_FOUND), str(missing))


def database_busy(problem: OperationalError) -> ResponseReturnValue:
    """SQLite's write lock held past the busy timeout (a long import): nothing was stored, come back soon."""
    if not is_busy(problem):
        raise problem
    return busy(str(BUSY))


def import_cut_short(stopped: restore.ImportCutShort) -> ResponseReturnValue:
    return busy(stopped.message)


def busy(message: str) -> ResponseReturnValue:
    db.session.rollback()
    answer = make_response(error_answer(503, str(BUSY_TITLE), message))
    answer.headers["Retry-After"] = "2"
    return answer
