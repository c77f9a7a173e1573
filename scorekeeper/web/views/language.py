"""The language switch: this phone's choice, remembered in a cookie (i18n.py reads it)."""

from flask import Blueprint, redirect, request
from werkzeug.wrappers import Response

from ...i18n.languages import LANGUAGES
from ...i18n.request import COOKIE, REMEMBERED
from ...security import guard
from ...security.group_scope import site_page
from .signing import safe_target

bp = Blueprint("language", __name__)


@bp.post("/language")
@site_page
@guard.public  # the sign-in page speaks the table's language too
def choose() -> Response:
    """Remember this phone's language, and show the page it was on again."""
    chosen = request.form.get("language", "")
    answer = redirect(safe_target(request.form.get("next")), 303)
    if chosen in LANGUAGES:
        answer.set_cookie(COOKIE, chosen, max_age=REMEMBERED, samesite="Lax", httponly=True, secure=request.is_secure)
    return answer
