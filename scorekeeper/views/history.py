"""Past games."""

from flask import Blueprint, render_template

from .. import games

bp = Blueprint("history", __name__)


@bp.get("/history")
def past_games() -> str:
    found, _ = games.list_games(100)
    return render_template("history/list.html", games=found)
