"""The table's language: the one chosen on this phone, else the browser's, else English.

Every word a player or host reads is a message of the catalogs in
``scorekeeper/translations/`` (gettext, through Flask-Babel); the rules core gets
the request's translations handed in (``rules.i18n.use``). A third language is
its catalog there and one line in ``LANGUAGES``.
"""

import os
from datetime import timedelta

from babel import Locale
from flask import Blueprint, Flask, has_request_context, redirect, request
from flask_babel import Babel, get_locale, get_translations
from werkzeug.wrappers import Response

from . import guard, rules
from .paths import PACKAGE

LANGUAGES = {"en": "English", "de": "Deutsch"}  # each but English (the source) has a catalog
DEFAULT = "en"
COOKIE = "language"
REMEMBERED = timedelta(days=400)  # as long as a browser keeps a cookie: the phone's own choice
TRANSLATIONS = PACKAGE / "translations"

bp = Blueprint("language", __name__)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=language, default_translation_directories=str(TRANSLATIONS))
    rules.i18n.use(get_translations)
    app.register_blueprint(bp)
    app.context_processor(lambda: {"language": str(get_locale()), "languages": LANGUAGES})
    app.after_request(vary)


def language() -> str:
    """This request's language: the phone's choice, then its browser's Accept-Language; a command: the host's."""
    if not has_request_context():
        return host_language(os.environ)
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, DEFAULT)


def host_language(environment: dict[str, str] | os._Environ[str]) -> str:
    """The language of the host's terminal, as the locale settings name it (LC_ALL, LC_MESSAGES, LANG).

    >>> host_language({"LANG": "de_AT.UTF-8"}), host_language({"LC_ALL": "C"}), host_language({})
    ('de', 'en', 'en')
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        setting = environment.get(name, "").split(".")[0]
        if setting:
            try:
                code = Locale.parse(setting).language
            except (ValueError, TypeError):
                return DEFAULT  # "C", "POSIX": no language asked for
            return code if code in LANGUAGES else DEFAULT
    return DEFAULT


@bp.post("/language")
@guard.public  # the sign-in page speaks the table's language too
def choose() -> Response:
    """Remember this phone's language, and show the page it was on again."""
    chosen = request.form.get("language", "")
    answer = redirect(guard.safe_target(request.form.get("next")), 303)
    if chosen in LANGUAGES:
        answer.set_cookie(COOKIE, chosen, max_age=REMEMBERED, samesite="Lax", httponly=True, secure=request.is_secure)
    return answer


def vary(response: Response) -> Response:
    """A page depends on the language asked for: no cache may give one phone's page to another."""
    response.vary.update(("Accept-Language", "Cookie"))
    return response
