"""Looking back: past games, one game's review, players' records, export and import."""

import json
from collections.abc import Iterable

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import rules
from ..chart import totals_chart
from ..forms import ActionForm, ImportForm, seat_or_text
from ..models import ROW_NUMBER_MAX
from ..service import export, games, records, restore

bp = Blueprint("history", __name__)

PAGE = 20
RECENT = 10  # games on a player's page


@bp.get("/history")
def past_games() -> str:
    player = request.args.get("player", "").strip()
    before = seat_or_text(request.args.get("before"))
    below = before if isinstance(before, int) and 0 < before <= ROW_NUMBER_MAX else None
    found, more = games.list_games(PAGE, below, player=player or None)
    following = url_for(".past_games", player=player or None, before=found[-1].id) if more else None
    return render_template("history/list.html", games=found, player=player, following=following)


@bp.get("/games/<int:game_id>/review")
def review(game_id: int) -> str:
    loaded = games.load_game(game_id)
    state = loaded.state
    chart = totals_chart(loaded.players, [scored.totals for scored in state.hands], state.rules.target)
    seats, queens = rules.most_queens(rules.seat_records(state))
    queen_takers = [loaded.players[seat] for seat in seats]
    return render_template("history/review.html", loaded=loaded, chart=chart, queen_takers=queen_takers, queens=queens)


@bp.get("/players")
def players() -> str:
    return render_template("history/players.html", players=records.players_seen())


@bp.get("/players/<path:name>")
def player(name: str) -> str:
    record = records.player_record(name)
    if record is None:
        abort(404, _("No game has a player called “%(name)s”.", name=name))
    return render_template("history/player.html", record=record, recent=games.list_games(RECENT, player=name)[0])


@bp.get("/history/export.<kind>")
def export_all(kind: str) -> Response:
    return download(kind, games.all_games(), "hearts-games")


@bp.get("/games/<int:game_id>/export.<kind>")
def export_game(game_id: int, kind: str) -> Response:
    return download(kind, [games.load_game(game_id)], f"hearts-game-{game_id}")


def download(kind: str, found: Iterable[games.LoadedGame], stem: str) -> Response:
    if kind == "json":
        body, mimetype = json.dumps(export.as_json(found), ensure_ascii=False, indent=1), "application/json"
    elif kind == "csv":
        body, mimetype = export.as_csv(found), "text/csv"
    else:
        abort(404, _("Games export as .json or .csv."))
    headers = {"Content-Disposition": f'attachment; filename="{stem}.{kind}"'}
    return Response(body, mimetype=mimetype, headers=headers)


@bp.route("/history/import", methods=["GET", "POST"])
def import_games() -> ResponseReturnValue:
    form = ImportForm()
    if form.validate_on_submit():
        try:
            report = restore.import_games(export.parsed(form.export.data.stream.read()))
        except rules.RuleError as broken:
            form.export.errors = [_("Nothing was imported. %(problem)s", problem=broken.message)]
        else:
            flash(report.message, "done")
            return redirect(url_for(".past_games"))
    status = 422 if form.is_submitted() else 200
    return render_template("history/import.html", form=form), status


@bp.route("/games/<int:game_id>/delete", methods=["GET", "POST"])
def delete_game(game_id: int) -> ResponseReturnValue:
    loaded = games.load_game(game_id)
    form = ActionForm()
    if form.validate_on_submit():
        games.delete_game(game_id)
        flash(_("The game of %(names)s was deleted.", names=", ".join(loaded.players)), "done")
        return redirect(url_for(".past_games"))
    return render_template("history/delete.html", loaded=loaded)
