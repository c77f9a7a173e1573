"""Printable score sheets: a blank one for pen and paper, and a filled one for any game."""

from dataclasses import dataclass

from flask import Blueprint, Response, abort, render_template, request
from flask_babel import force_locale
from flask_babel import gettext as _

from ... import rules
from ...i18n.languages import LANGUAGES
from ...security.group_scope import site_page
from ...service import games
from ...service.names import shown_names
from ..forms.sheets import BlankSheetForm

bp = Blueprint("sheets", __name__)

SHEET_ROWS = 20  # a normal game to 100 takes 12 to 18 hands
PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class Row:
    """One line of the sheet: a hand played (scores filled in) or one still to play."""

    number: int
    pass_direction: str
    dealer: int
    scored: rules.ScoredHand | None = None


def sheet_rows(state: rules.GameState, at_least: int) -> list[Row]:
    played = [Row(hand.number, hand.pass_direction, hand.dealer, hand) for hand in state.hands]
    ahead = state.hands_ahead(max(0, at_least - len(state.hands)))
    return played + [Row(hand.number, hand.pass_direction, hand.dealer) for hand in ahead]


def paper() -> str:
    chosen = request.args.get("paper", "a4")
    return chosen if chosen in PAPERS else "a4"


@bp.get("/sheets/blank")
@site_page
def blank() -> tuple[str, int]:
    form = BlankSheetForm(request.args)
    form.validate()
    names = form.player_names()
    try:
        house = rules.house_rules(form.seats(), form.house_rules())
        if any(names):
            rules.clean_names([name or _("Player %(number)d", number=seat + 1) for seat, name in enumerate(names)])
    except rules.RuleError as broken:
        form.form_errors.append(broken.message)
        house = rules.house_rules(form.seats())
    state = rules.new_game(form.seats(), house)
    page = render_template(
        "sheets/blank.html",
        form=form,
        names=names,
        shown_names=shown_names(names),
        house=house,
        rules_text=rules.describe(house, form.seats()),
        rows=sheet_rows(state, SHEET_ROWS),
        paper=paper(),
    )
    return page, 422 if form.form_errors or form.errors else 200


@bp.get("/games/<int:game_id>/sheet")
def game_sheet(game_id: int) -> str:
    loaded = games.load_game(game_id)
    state = loaded.state
    at_least = len(state.hands) if state.finished else max(SHEET_ROWS, rules.hand_after(len(state.hands)))
    return render_template(
        "sheets/game.html",
        loaded=loaded,
        names=loaded.players,
        shown_names=loaded.names,
        house=state.rules,
        rules_text=rules.describe(state.rules, len(loaded.players)),
        rows=sheet_rows(state, at_least),
        paper=paper(),
    )


@bp.get("/sheets/<language>/pages.css")
@site_page
def page_margins(language: str) -> Response:
    """What each printed page says in its margins, in ``language``: a style sheet of its own, as the page's
    policy takes no inline style, and one a cache keeps for each language."""
    if language not in LANGUAGES:
        abort(404)
    with force_locale(language):
        numbered = css_text(_("page %(page)s of %(pages)s"), page="counter(page)", pages="counter(pages)")
        continued = css_text(_("Hearts score sheet (continued)"))
    sheet = f"@page {{ @bottom-right {{ content: {numbered}; }} }}\n@page {{ @top-left {{ content: {continued}; }} }}\n"
    answer = Response(sheet + "@page :first { @top-left { content: none; } }\n", mimetype="text/css")
    answer.cache_control.max_age = 3600
    return answer


def css_text(message: str, **counters: str) -> str:
    """A message as a CSS content value, with CSS counters where it has their names.

    >>> css_text('Seite %(page)s von %(pages)s', page="counter(page)", pages="counter(pages)")
    '"Seite " counter(page) " von " counter(pages) ""'
    """
    quoted = '"' + message.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'
    return quoted % {name: f'" {counter} "' for name, counter in counters.items()}
