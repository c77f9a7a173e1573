"""Looking back: past games, one game's review, players' records, export and import."""

import threading
from collections.abc import Callable, Iterable, Iterator

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, stream_with_context, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ... import rules
from ...security.guesses import client_key
from ...security.sites import from_own_pages
from ...service import export, games, records, restore
from ...service.places import Places
from ...store import scope
from ...store.db import db
from ...store.models import ROW_NUMBER_MAX
from ..chart import totals_chart
from ..forms import ActionForm, seat_or_text
from ..forms.history import ImportForm
from .errors import busy

bp = Blueprint("history", __name__)

PAGE = 20
RECENT = 10  # games on a player's page
# Exports of one group (and of one address) written at once by this process; another is refused (503): each one
# replays every game it writes. Each group has its own, so no group's exports make another's wait; a phone that stops
# reading one is cut off by the server (server/sending.py, SEND_WAIT_SECONDS). The production server writes them on
# threads of their own, EXPORTS_MOST at once (and those waiting for a place: service/places.py), never on the pages'
# threads (server/asgi.py), and their games in turns with the imports, one export or import working at a time
# (service/turns.py). Past EXPORTS_MOST, an export waits for a place, the one that stands first in the turns first.
EXPORTS_AT_ONCE = 2
EXPORTS_MOST = 16
# Of those, the last few are for small exports alone (expected to take SMALL_EXPORT_SECONDS of processor at most: a
# group's evenings of a year): a small one is written in a turn and its place is free again, so exports that take
# long, however many addresses ask for them, never keep a group's small one out.
SMALL_PLACES = 4
SMALL_EXPORT_SECONDS = 0.25
EXPORT_NAME = "export."  # the last part of an export's address: export.json, export.csv
# Set by the production server once an answer's client has left (a threading.Event in the request's ASGI scope).
CLIENT_LEFT = "scorekeeper.client_left"


EXPORTING = Places(EXPORTS_AT_ONCE, EXPORTS_MOST, SMALL_PLACES)


def is_export(path: str) -> bool:
    """Whether ``path`` asks for an export, of every game or of one, at the server's root or in a group.

    >>> is_export("/g/abc/history/export.json"), is_export("/games/7/export.csv"), is_export("/history")
    (True, True, False)
    """
    return path.rpartition("/")[2].startswith(EXPORT_NAME)


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


@bp.get(f"/history/{EXPORT_NAME}<kind>")
@from_own_pages
def export_all(kind: str) -> ResponseReturnValue:
    return download(kind, games.all_games, "hearts-games", games.size_of_all())


@bp.get(f"/games/<int:game_id>/{EXPORT_NAME}<kind>")
@from_own_pages
def export_game(game_id: int, kind: str) -> ResponseReturnValue:
    found = games.load_game(game_id)
    return download(kind, lambda: [found], f"hearts-game-{game_id}", (1, len(found.state.hands)))


WRITERS = {"json": (export.json_parts, "application/json"), "csv": (export.csv_parts, "text/csv")}


def download(
    kind: str, found: Callable[[], Iterable[games.LoadedGame]], stem: str, size: tuple[int, int]
) -> ResponseReturnValue:
    """The export streamed a game at a time, while the phone downloading it is there to take it; ``size``: its games
    and their hands."""
    if kind not in WRITERS:
        abort(404, _("Games export as .json or .csv."))
    group, address, expected = scope.current(), client_key(request.remote_addr), export.expected_seconds(*size)
    left = request.environ.get("asgi.scope", {}).get(CLIENT_LEFT)  # the production server's word (server/asgi.py)

    def wanted() -> bool:
        return left is None or not left.is_set()

    turn = export.turn(address, expected)
    if not EXPORTING.take(group, address, expected <= SMALL_EXPORT_SECONDS, turn.standing, wanted, db.session.commit):
        return busy(_("Other exports are being written: try again in a moment."))
    writer, mimetype = WRITERS[kind]
    done = Once(lambda: EXPORTING.give_back(group, address))

    def written() -> Iterator[str]:
        try:  # once the phone went away, the rest is for nobody
            yield from export.in_turns(writer(found()), wanted, turn)
        finally:
            done()

    headers = {"Content-Disposition": f'attachment; filename="{stem}.{kind}"'}
    answer = Response(stream_with_context(written()), mimetype=mimetype, headers=headers)
    answer.call_on_close(done)  # also when the phone went away: the server stops writing the rest
    return answer


class Once:
    """A function called once, however many times it is asked to be."""

    def __init__(self, function: Callable[[], object]) -> None:
        self.function, self.lock, self.called = function, threading.Lock(), False

    def __call__(self) -> None:
        with self.lock:
            if self.called:
                return
            self.called = True
        self.function()


@bp.route("/history/import", methods=["GET", "POST"])
def import_games() -> ResponseReturnValue:
    form = ImportForm()
    if form.validate_on_submit():
        try:
            report = restore.import_games(form.export.data.stream, client_key(request.remote_addr))
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
