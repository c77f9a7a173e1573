"""The pages a table uses during a game."""

from flask import Blueprint, render_template
from werkzeug.exceptions import HTTPException

from .. import games

bp = Blueprint("table", __name__)


def http_error(problem: HTTPException) -> tuple[str, int]:
    return render_template("error.html", problem=problem), problem.code or 500


@bp.get("/")
def home() -> str:
    playing, _ = games.list_games(50, finished=False)
    return render_template("table/home.html", playing=playing)
