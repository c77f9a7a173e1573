"""The pages a table uses during a game: start it, record hands, fix mistakes, finish."""

from datetime import datetime

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import rules
from ...security.group_scope import any_page, current_group, is_open
from ...service import games
from ..forms import ActionForm, seat_or_text, show_rule_errors
from ..forms.groups import NewGroupForm
from ..forms.table import HandForm, NewGameForm
from .table_parts import fresh_table, hand_rows, table_body
from .template_helpers import and_list, moment

bp = Blueprint("table", __name__)
bp.add_app_template_global(hand_rows)  # the list of hands of every page that shows one


@bp.get("/")
@any_page
def home() -> str | tuple[str, int]:
    """The group's games; at an open server's root, the page that starts a group."""
    if current_group() is None:
        return render_template("groups/start.html", form=NewGroupForm())
    playing, _ = games.list_games(20, finished=False)
    finished, _ = games.list_games(5, finished=True)
    cards = [(loaded, started(loaded.created_at), leader_words(loaded)) for loaded in playing]
    return render_template("table/home.html", playing=cards, finished=finished, open_server=is_open(current_app),
                           group=current_group())  # fmt: skip


def started(when: datetime) -> str:
    """When a game began, in the server's local time and the page's language: "Started Mon, Nov 30, 20:15"."""
    return str(_("Started %(when)s", when=moment(when)))


def leader_words(listed: games.ListedGame) -> str | None:
    """Who leads a game in progress, with the total: what tells five games of the same four apart. None before
    the first hand, when nobody leads."""
    leaders = listed.leaders
    if not leaders:
        return None
    names = and_list([listed.players[seat] for seat in leaders])
    total = listed.totals[leaders[0]]
    return str(ngettext("%(names)s leads with %(total)d", "%(names)s lead with %(total)d", len(leaders),
                        names=names, total=total))  # fmt: skip


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> str | Response | tuple[str, int]:
    form = NewGameForm()
    last = games.last_game()
    if not form.is_submitted():
        form.process(data=starting_data(last, request.args.get("preset"), request.args.get("same") == "players"))
    if form.validate_on_submit():
        try:
            loaded = games.create_game(form.names(), form.house_rules())
        except rules.RuleError as broken:
            show_rule_errors(form, broken)
        else:
            return redirect(url_for(".game", game_id=loaded.id))
    status = 422 if form.is_submitted() else 200
    from_last = last is not None and not form.is_submitted() and not request.args.get("preset")
    page = render_template("table/new.html", form=form, presets=rules.presets(), last=last, rules_from_last=from_last,
                           seats=seats_named(form))  # fmt: skip
    return page, status


def seats_named(form: NewGameForm) -> int | None:
    """The number of players the form names, when it makes a table: the pass cycles offered are theirs."""
    count = len(form.names())
    return count if rules.MIN_PLAYERS <= count <= rules.MAX_PLAYERS else None


@bp.route("/games/<int:game_id>/change", methods=["GET", "POST"])
def change_game(game_id: int) -> str | Response | tuple[str, int]:
    """The house rules and the players' names, changed until the first hand is recorded."""
    loaded = games.load_game(game_id)
    if loaded.state.hands:
        flash(_("The house rules and the names can be changed until the first hand is recorded: undo the hands "
                "first, or start a new game."), "error")  # fmt: skip
        return redirect(url_for(".game", game_id=game_id))
    form = NewGameForm()
    if not form.is_submitted():
        form.process(data=NewGameForm.data_from(loaded.players, loaded.rules))
    if form.validate_on_submit():
        house = form.house_rules()
        if house["pass_cycle"] is None:  # the standard cycle of the table's size
            house["pass_cycle"] = rules.default_pass_cycle(len(loaded.players))
        try:
            games.change_game(game_id, {"players": form.names(), "rules": house})
        except rules.RuleError as broken:
            show_rule_errors(form, broken)
        else:
            flash(_("The house rules and the names are changed."), "done")
            return redirect(url_for(".game", game_id=game_id))
    page = render_template("table/new.html", form=form, presets=[], last=None, changing=loaded,
                           seats=len(loaded.players))  # fmt: skip
    return page, 422 if form.is_submitted() else 200


def starting_data(last: games.LoadedGame | None, preset_key: str | None, same_players: bool) -> dict[str, object]:
    """The new-game form's first fields: the last game's rules (its players only when asked for: the page offers
    them in one tap, and a box filled unasked gets typed onto), or a preset's rules."""
    data = NewGameForm.data_from(last.players, last.rules) if last else {}
    if not same_players:
        data.pop("players", None)
    preset = next((preset for preset in rules.PRESETS if preset.key == preset_key), None)
    return {**data, **NewGameForm.preset_data(preset)} if preset else data


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    loaded = games.load_game(game_id)
    upcoming = loaded.state.next_hand
    if upcoming is None:
        return render_template("table/over.html", loaded=loaded)
    session.permanent = True  # the form's token lives as long as the session: a whole evening
    return render_template("table/game.html", loaded=loaded, body=fresh_table(loaded, upcoming.number))


@bp.post("/games/<int:game_id>/hands")
def record_hand(game_id: int) -> str | Response | tuple[str, int]:
    loaded = games.load_game(game_id)
    form = HandForm().for_table(loaded.players)
    if form.validate_on_submit():
        number = seat_or_text(form.number.data)
        try:
            recorded = games.record_hand(game_id, {**form.facts(), "number": number})
        except rules.RuleError as broken:
            if broken.conflict:
                flash(broken.message, "error")
                return redirect(url_for(".game", game_id=game_id))
            show_rule_errors(form, broken)
        else:
            saved = number if recorded.resent else len(recorded.loaded.state.hands)
            said = _("Hand %(number)d was already saved.", number=saved) if recorded.resent else None
            flash(said or _("Hand %(number)d saved.", number=saved), "done")
            return redirect(url_for(".game", game_id=game_id))
    status = refused_token(form) or 422
    body = Markup(table_body(loaded, form, try_preview(loaded, form)))
    return render_template("table/game.html", loaded=loaded, body=body), status


def refused_token(form: HandForm) -> int | None:
    """400 when the form's token was refused; the page then shows the hand entered, ready to save again."""
    if not form.errors.get("csrf_token"):
        return None
    form.form_errors.append(_("This page's form had expired. Your hand is kept: tap Save again."))
    return 400


@bp.route("/games/<int:game_id>/hands/<int:number>", methods=["GET", "POST"])
def correct_hand(game_id: int, number: int) -> str | Response | tuple[str, int]:
    """Correct a hand; "Show the new totals" (or the script, as taps come) compares before saving."""
    loaded = games.load_game(game_id)
    if not 1 <= number <= len(loaded.state.hands):
        abort(404, _("Game %(game)d has no hand %(number)d.", game=game_id, number=number))
    form = HandForm().for_table(loaded.players)
    after: rules.GameState | None = loaded.state
    status = 200
    if not form.is_submitted():
        form.fill(loaded.state.hands[number - 1])
    elif form.validate_on_submit():
        try:
            after = games.correction_preview(game_id, number, form.facts()).state
            if not request.form.get("preview"):
                games.correct_hand(game_id, number, form.facts())
                flash(_("Hand %(number)d corrected; the totals after it are recomputed.", number=number), "done")
                return redirect(url_for(".game", game_id=game_id))
        except rules.RuleError as broken:
            show_rule_errors(form, broken)
            after, status = None, 422
    else:
        after, status = None, refused_token(form) or 422
    changes = rules.compare(loaded.state, after, number)
    before = loaded.state.hands[number - 2].totals if number > 1 else (0,) * len(loaded.players)
    page = render_template(
        "table/correct.html", loaded=loaded, form=form, number=number, changes=changes, before=before
    )
    return page, status


@bp.post("/games/<int:game_id>/undo")
def undo_hand(game_id: int) -> Response:
    form = ActionForm()
    if form.validate_on_submit():
        number = seat_or_text(form.number.data)
        if not isinstance(number, int):
            flash(_("Say which hand to undo: nothing was undone."), "error")
            return redirect(url_for(".game", game_id=game_id))
        try:
            games.undo_hand(game_id, number)
            flash(_("Hand %(number)d was undone.", number=number), "done")
        except rules.RuleError as broken:
            flash(broken.message, "error")
    return redirect(url_for(".game", game_id=game_id))


@bp.post("/games/<int:game_id>/rematch")
def rematch(game_id: int) -> Response:
    loaded = games.load_game(game_id)
    if not ActionForm().validate_on_submit():
        abort(400, _("The form expired: go back and try again."))
    again = games.create_game(loaded.players, loaded.rules.as_dict())
    return redirect(url_for(".game", game_id=again.id))


def try_preview(loaded: games.LoadedGame, form: HandForm) -> games.Preview | None:
    """What the entered hand would give, to show a moon's options; None if it breaks a rule."""
    try:
        return games.preview_hand(loaded.id, form.facts())
    except rules.RuleError:
        return None
