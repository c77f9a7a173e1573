"""The parts of the table page rendered once and kept: the page itself a version, the hand form's chips a game,
each row of the list of hands for all it shows. The pages of a table's phones, late in the evening, cost little."""

from flask import current_app, render_template, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ... import rules
from ...service import games
from ...service.loaded import KeptByVersion
from ...store.db import engine_number
from ..forms.table import HandForm

# The table page every phone at a table loads, kept by version with a stand-in for the form token: "<" never
# comes out of a template but in markup, so no name or number can be mistaken for it.
TABLE_PAGES: KeptByVersion[str] = KeptByVersion(64)
TOKEN = "<form token>"
# Each row of a list of hands, kept by all it shows (the hand's scores, totals and moon, the house rules, the
# game's address, the language): a hand recorded, corrected or undone is a row never seen before, while the
# rows of the hands before it, the longer part of a page late in the evening, are rendered once.
HAND_ROWS: KeptByVersion[Markup] = KeptByVersion(16384)
# An empty hand form's chips, kept by all they show (the players, the house rules, the language): the most of a
# table page's rendering, once a game.
HAND_CHIPS: KeptByVersion[Markup] = KeptByVersion(1024)


def fresh_table(loaded: games.LoadedGame, number: int) -> Markup:
    """The table page's content with an empty hand form: rendered once a version, with this phone's token."""
    token = generate_csrf() if current_app.config.get("WTF_CSRF_ENABLED", True) else TOKEN
    # The follow link is a whole address, in the group's: a page is kept for its site, group and language.
    key = (*loaded.version, request.host_url, request.script_root, str(get_locale()))
    body = TABLE_PAGES.get(key)
    if body is None:
        form = HandForm(number=number).for_table(loaded.players)
        body = TABLE_PAGES.put(key, table_body(loaded, form, chips=fresh_chips(loaded, form)).replace(token, TOKEN))
    return Markup(body.replace(TOKEN, token))


def fresh_chips(loaded: games.LoadedGame, form: HandForm) -> Markup:
    """An empty hand form's chips (table/_hand_chips.html), rendered once for all they show: the players, the
    rules, and to whom each passes this hand."""
    upcoming = loaded.state.next_hand
    key = (tuple(loaded.players), loaded.rules, upcoming and upcoming.pass_direction, str(get_locale()))
    chips = HAND_CHIPS.get(key)
    if chips is None:
        chips = HAND_CHIPS.put(key, Markup(render_template("table/_hand_chips.html", form=form, loaded=loaded)))
    return chips


def hand_rows(loaded: games.LoadedGame, hands: list[rules.ScoredHand], read_only: bool) -> Markup:
    """Rows of the list of hands (table/_hand_row.html), each rendered once for all it shows."""
    shown = (engine_number(), loaded.id, request.script_root, str(get_locale()), bool(read_only), loaded.rules)
    rows = []
    for scored in hands:
        row = HAND_ROWS.get((*shown, scored))
        if row is None:
            page = render_template("table/_hand_row.html", loaded=loaded, scored=scored, read_only=bool(read_only))
            row = HAND_ROWS.put((*shown, scored), Markup(page))
        rows.append(row)
    return Markup("").join(rows)


def table_body(
    loaded: games.LoadedGame, form: HandForm, preview: games.Preview | None = None, chips: Markup | None = None
) -> str:
    """The table page's content; ``chips``: the hand form's, rendered already (else rendered with the page)."""
    return render_template("table/_table.html", loaded=loaded, form=form, preview=preview, chips=chips)
