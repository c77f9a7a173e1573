"""The pages a table uses during a game: start it, record hands, fix mistakes, finish."""

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import games, rules
from ..forms import ActionForm, HandForm, NewGameForm, seat_or_text, show_rule_errors

bp = Blueprint("table", __name__)


@bp.get("/")
def home() -> str:
    playing, _ = games.list_games(20, finished=False)
    finished, _ = games.list_games(5, finished=True)
    return render_template("table/home.html", playing=playing, finished=finished)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> str | Response | tuple[str, int]:
    form = NewGameForm()
    last = games.last_game()
    if last is not None and not form.is_submitted():
        form.process(data=NewGameForm.data_from(last.players, last.rules))
    if form.validate_on_submit():
        try:
            loaded = games.create_game(form.names(), form.house_rules())
        except rules.RuleError as broken:
            show_rule_errors(form, broken)
        else:
            return redirect(url_for(".game", game_id=loaded.id))
    status = 422 if form.is_submitted() else 200
    return render_template("table/new.html", form=form), status


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    loaded = games.load_game(game_id)
    upcoming = loaded.state.next_hand
    if upcoming is None:
        return render_template("table/over.html", loaded=loaded)
    form = HandForm(number=upcoming.number).for_table(loaded.players)
    return render_template("table/game.html", loaded=loaded, form=form)


@bp.post("/games/<int:game_id>/hands")
def record_hand(game_id: int) -> str | Response | tuple[str, int]:
    loaded = games.load_game(game_id)
    form = HandForm().for_table(loaded.players)
    if form.validate_on_submit():
        try:
            games.record_hand(game_id, {**form.facts(), "number": seat_or_text(form.number.data)})
        except rules.RuleError as broken:
            if broken.conflict:
                flash(broken.message, "error")
                return redirect(url_for(".game", game_id=game_id))
            show_rule_errors(form, broken)
        else:
            return redirect(url_for(".game", game_id=game_id))
    return render_template("table/game.html", loaded=loaded, form=form, preview=try_preview(loaded, form)), 422


@bp.route("/games/<int:game_id>/hands/<int:number>", methods=["GET", "POST"])
def correct_hand(game_id: int, number: int) -> str | Response | tuple[str, int]:
    loaded = games.load_game(game_id)
    if not 1 <= number <= len(loaded.state.hands):
        abort(404, f"Game {game_id} has no hand {number}.")
    form = HandForm().for_table(loaded.players)
    if not form.is_submitted():
        form.fill(loaded.state.hands[number - 1])
    elif form.validate_on_submit():
        try:
            games.correct_hand(game_id, number, form.facts())
        except rules.RuleError as broken:
            show_rule_errors(form, broken)
        else:
            flash(f"Hand {number} corrected; the totals after it are recomputed.", "done")
            return redirect(url_for(".game", game_id=game_id))
    status = 422 if form.is_submitted() else 200
    return render_template("table/correct.html", loaded=loaded, form=form, number=number), status


@bp.post("/games/<int:game_id>/undo")
def undo_hand(game_id: int) -> Response:
    form = ActionForm()
    if form.validate_on_submit():
        number = seat_or_text(form.number.data)
        if not isinstance(number, int):
            flash("Say which hand to undo: nothing was undone.", "error")
            return redirect(url_for(".game", game_id=game_id))
        try:
            games.undo_hand(game_id, number)
            flash(f"Hand {number} was undone.", "done")
        except rules.RuleError as broken:
            flash(broken.message, "error")
    return redirect(url_for(".game", game_id=game_id))


@bp.post("/games/<int:game_id>/rematch")
def rematch(game_id: int) -> Response:
    loaded = games.load_game(game_id)
    if not ActionForm().validate_on_submit():
        abort(400, "The form expired: go back and try again.")
    again = games.create_game(loaded.players, loaded.rules.as_dict())
    return redirect(url_for(".game", game_id=again.id))


def try_preview(loaded: games.LoadedGame, form: HandForm) -> games.Preview | None:
    """What the entered hand would give, to show a moon's options; None if it breaks a rule."""
    try:
        return games.preview_hand(loaded.id, form.facts())
    except rules.RuleError:
        return None
