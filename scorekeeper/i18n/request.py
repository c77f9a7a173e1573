"""The table's language: the one chosen on this phone, else the browser's, else English.

Every word a player or host reads is a message of the catalogs in
``scorekeeper/translations/`` (gettext, through Flask-Babel); the rules core gets
the request's translations handed in (``rules.i18n.use``). Which languages there
are, and the host's (for the command), is languages.py's to say.
"""

import gettext
import os
from datetime import timedelta
from typing import Any

from flask import Flask, g, has_app_context, has_request_context, request
from flask_babel import Babel, Domain, get_locale, get_translations
from werkzeug.wrappers import Response

from .. import rules
from .languages import DEFAULT, LANGUAGES, TRANSLATIONS, catalog, host_language

COOKIE = "language"
REMEMBERED = timedelta(days=400)  # as long as a browser keeps a cookie: the phone's own choice


def init_app(app: Flask) -> None:
    babel = Babel(app, locale_selector=language, default_translation_directories=str(TRANSLATIONS))
    babel.domain_instance = Catalogs()
    for code in LANGUAGES:
        catalog(code)  # a catalog that cannot be read is said when the app starts, not at its language's first page
    rules.i18n.use(translations)
    # As Flask-Babel installs them (jinja2.ext.i18n adds the method), through translations().
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().gettext(s),
        ngettext=lambda s, p, n: translations().ngettext(s, p, n),
        pgettext=lambda c, s: translations().pgettext(c, s),
        npgettext=lambda c, s, p, n: translations().npgettext(c, s, p, n),
        newstyle=True,
    )
    app.context_processor(lambda: {"language": str(get_locale()), "languages": LANGUAGES})
    app.after_request(vary)


class Catalogs(Domain):  # type: ignore[misc]  # Flask-Babel ships no types
    """Flask-Babel's translations taken from languages.catalog, as the command's are.

    Flask-Babel alone reads the compiled catalogs only, and where nothing compiled them
    (a clone, an editable install) every page would be English whatever its lang says.
    """

    def get_translations(self) -> gettext.NullTranslations:
        locale = get_locale()
        return catalog(str(locale) if locale else DEFAULT)


def translations() -> gettext.NullTranslations:
    """The translations of the moment, as Flask-Babel's get_translations gives them, in fewer steps: a page asks
    for them at each of its hundred words. Once Flask-Babel has chosen the language of the moment (it keeps it in
    ``g._flask_babel.babel_locale``, force_locale too), that language's catalog, kept beside it; before, Flask-Babel's
    own answer.
    """
    kept: Any = getattr(g, "_flask_babel", None) if has_app_context() else None
    chosen = getattr(kept, "babel_locale", None)
    if chosen is None:
        found: gettext.NullTranslations = get_translations()
        return found
    last = getattr(kept, "scorekeeper_catalog", None)  # (the language, its catalog) asked for last
    if last is None or last[0] is not chosen:
        last = kept.scorekeeper_catalog = (chosen, catalog(str(chosen)))
    return last[1]


def language() -> str:
    """This request's language: the phone's choice, then its browser's Accept-Language; a command: the host's."""
    if not has_request_context():
        return host_language(os.environ)
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, DEFAULT)


def vary(response: Response) -> Response:
    """A page depends on the language asked for: no cache may give one phone's page to another."""
    response.vary.update(("Accept-Language", "Cookie"))
    return response
