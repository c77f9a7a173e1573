"""The JSON API of docs/api.md: the same games, through the same service and rules."""

import json

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...security.group_scope import current_group, open_server_only, site_page, start_group
from ...service import games, groups
from ...service.serialize import game_json, preview_json, summary_json
from ..openapi import document

bp = Blueprint("api", __name__, url_prefix="/api")

DEFAULT_LIMIT, MAX_LIMIT = 20, 100


def json_body() -> dict[str, object]:
    if request.mimetype != "application/json":
        abort(415, _("Send the body as JSON, with Content-Type: application/json."))
    try:
        body = json.loads(request.get_data().decode() or "null")
    except UnicodeDecodeError:
        abort(400, _("The body is not valid JSON: send it as UTF-8."))
    except ValueError:
        abort(400, _("The body is not valid JSON."))
    except RecursionError:
        abort(400, _("The body is nested too deeply."))
    if not isinstance(body, dict):
        abort(400, _("The body must be a JSON object."))
    return body


@bp.get("/openapi.json")
@site_page
def openapi() -> Response:
    """This API described as OpenAPI 3.1 (scorekeeper/web/openapi.py; the tests check the real answers against it)."""
    return jsonify(document())


@bp.post("/groups")
@site_page
@open_server_only
def create_group() -> tuple[Response, int, dict[str, str]]:
    """A new group (an open server's): its key, name and address. The body, a name, is optional."""
    body = json_body() if request.content_length else {}
    started = start_group(body.get("name"))
    url = f"{request.host_url.rstrip('/')}{request.script_root}/g/{started.key}/"
    return jsonify({"key": started.key, "name": started.name, "url": url}), 201, {"Location": url}


@bp.get("/group")
@open_server_only
def group() -> Response:
    """The group this address is for: its name, address and games."""
    found = current_group()
    assert found is not None
    url = url_for("table.home", _external=True)
    return jsonify({"key": found.key, "name": found.name, "url": url, "games": groups.games_in_group()})


@bp.delete("/group")
@open_server_only
def delete_group() -> tuple[str, int]:
    """The group, its games and its records: gone."""
    found = current_group()
    assert found is not None
    groups.delete_group(found.id)
    return "", 204


@bp.post("/games")
def create_game() -> tuple[Response, int, dict[str, str]]:
    body = json_body()
    loaded = games.create_game(body.get("players"), body.get("rules"))
    return jsonify(game_json(loaded)), 201, {"Location": url_for(".game", game_id=loaded.id)}


@bp.get("/games")
def list_games() -> Response:
    limit = _int_arg("limit", DEFAULT_LIMIT, 1, MAX_LIMIT) or DEFAULT_LIMIT
    before = _int_arg("before", None, 1, None)
    found, more = games.list_games(limit, before)
    following = url_for(".list_games", limit=limit, before=found[-1].id) if more else None
    return jsonify({"games": [summary_json(loaded) for loaded in found], "next": following})


def _int_arg(name: str, default: int | None, low: int, high: int | None) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return default
    if (
        not (raw.isascii() and raw.isdigit() and len(raw) < 10)
        or int(raw) < low
        or (high is not None and int(raw) > high)
    ):
        if high:
            said = _("“%(name)s” must be a whole number from %(low)d to %(high)d.", name=name, low=low, high=high)
            raise rules.RuleError(said, {name: _("A whole number from %(low)d to %(high)d.", low=low, high=high)})
        said = _("“%(name)s” must be a whole number of at least %(low)d.", name=name, low=low)
        raise rules.RuleError(said, {name: _("A whole number of at least %(low)d.", low=low)})
    return int(raw)


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Response:
    return jsonify(game_json(games.load_game(game_id)))


@bp.patch("/games/<int:game_id>")
def change_game(game_id: int) -> Response:
    """The house rules or the players' names, changed while no hand is recorded."""
    return jsonify(game_json(games.change_game(game_id, json_body())))


@bp.delete("/games/<int:game_id>")
def delete_game(game_id: int) -> tuple[str, int]:
    games.delete_game(game_id)
    return "", 204


@bp.post("/games/<int:game_id>/hands")
def record_hand(game_id: int) -> tuple[Response, int]:
    recorded = games.record_hand(game_id, json_body())
    return jsonify(game_json(recorded.loaded)), 200 if recorded.resent else 201


@bp.post("/games/<int:game_id>/preview")
def preview_hand(game_id: int) -> Response:
    return jsonify(preview_json(games.preview_hand(game_id, json_body())))


@bp.put("/games/<int:game_id>/hands/<int:number>")
def correct_hand(game_id: int, number: int) -> Response:
    body = json_body()
    body.pop("number", None)
    return jsonify(game_json(games.correct_hand(game_id, number, body)))


@bp.post("/games/<int:game_id>/hands/<int:number>/preview")
def preview_correction(game_id: int, number: int) -> Response:
    body = json_body()
    body.pop("number", None)
    return jsonify(preview_json(games.correction_preview(game_id, number, body), number))


@bp.delete("/games/<int:game_id>/hands/<int:number>")
def undo_hand(game_id: int, number: int) -> Response:
    return jsonify(game_json(games.undo_hand(game_id, number)))
