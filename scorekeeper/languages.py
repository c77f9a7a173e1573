"""The languages the app speaks, and the host's: what the `scorekeeper` command says, in the host's words.

Pages and the API speak each request's language (i18n.py, through Flask-Babel).
What the command prints, and what stops the app before it serves, is said where
no app or request exists yet: in the language of the host's terminal, from the
same catalogs. A third language is its catalog and one line in ``LANGUAGES``.
"""

import functools
import gettext as gettext_module
import os
from collections.abc import Mapping

from babel import Locale
from babel.support import Translations

from .paths import PACKAGE

LANGUAGES = {"en": "English", "de": "Deutsch"}  # each but English (the source) has a catalog
DEFAULT = "en"
TRANSLATIONS = PACKAGE / "translations"


def host_language(environment: Mapping[str, str]) -> str:
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


@functools.cache
def catalog(language: str) -> gettext_module.NullTranslations:
    return Translations.load(str(TRANSLATIONS), [language])


def gettext(message: str, **values: object) -> str:
    """``message`` in the host's language, with ``%(name)s`` filled from ``values``.

    >>> gettext("%(path)s is not a regular file.", path="/dev/full")
    '/dev/full is not a regular file.'
    """
    said = catalog(host_language(os.environ)).gettext(message)
    return said % values if values else said


def ngettext(singular: str, plural: str, count: int, **values: object) -> str:
    """The form for ``count`` (``%(num)d``) in the host's language."""
    return catalog(host_language(os.environ)).ngettext(singular, plural, count) % {"num": count, **values}
