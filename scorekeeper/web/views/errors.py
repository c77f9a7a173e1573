"""One answer for each kind of error, whichever view it came from.

Pages get an error page, the API gets JSON (the error object of docs/api.md): a game
deleted while a request was on its way is a 404 like any other missing game.
"""

from flask import Flask, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from ... import rules
from ...i18n.http_words import said
from ...service import games, groups, import_outcomes
from ...store.db import db, is_busy

BUSY = lazy_gettext("The database is busy with another change (an import?): nothing was stored, try again in a moment.")
# The titles of the errors the app itself answers with (werkzeug's own are error.html's to say).
CANNOT = lazy_gettext("That cannot be done")
NOT_FOUND = lazy_gettext("Not found")
BUSY_TITLE = lazy_gettext("Busy")


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(rules.RuleError, rule_broken)
    app.register_error_handler(games.GameNotFound, not_found)
    app.register_error_handler(OperationalError, database_busy)
    app.register_error_handler(import_outcomes.ImportCutShort, import_stopped)
    app.register_error_handler(import_outcomes.ImportBusy, import_stopped)
    app.register_error_handler(import_outcomes.GroupFilled, group_filled)
    app.register_error_handler(groups.DeletionBusy, deletion_busy)


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


def import_stopped(stopped: import_outcomes.ImportCutShort | import_outcomes.ImportBusy) -> ResponseReturnValue:
    """An import stopped partway, or refused before it began: 503, come back soon."""
    return busy(stopped.message)


def group_filled(filled: import_outcomes.GroupFilled) -> ResponseReturnValue:
    """An import stopped partway by the group's room: 409, as a game refused for it."""
    db.session.rollback()
    return error_answer(409, str(CANNOT), filled.message)


def deletion_busy(refused: groups.DeletionBusy) -> ResponseReturnValue:
    """A group's deletion refused before it began: 503, come back soon."""
    return busy(refused.message)


def busy(message: str) -> ResponseReturnValue:
    db.session.rollback()
    answer = make_response(error_answer(503, str(BUSY_TITLE), message))
    answer.headers["Retry-After"] = "2"
    return answer
