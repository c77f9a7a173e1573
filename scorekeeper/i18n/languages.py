"""The languages the app speaks, and the host's: what the `scorekeeper` command says, in the host's words.

Pages and the API speak each request's language (request.py, through Flask-Babel).
What the command prints, and what stops the app before it serves, is said where
no app or request exists yet: in the language of the host's terminal, from the
same catalogs. A third language is its catalog and one line in ``LANGUAGES``.
"""

import functools
import gettext as gettext_module
import io
import logging
import os
import struct
from collections.abc import Mapping
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import NullTranslations, Translations

from ..paths import CLONE, PACKAGE

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


def N_(message: str) -> str:  # noqa: N802  # gettext's own name for "translate later", which extraction knows
    """Mark ``message`` for the catalogs; it is translated where it is shown."""
    return message


UNREADABLE = N_("Cannot read the %(language)s catalog %(path)s (%(problem)s): pages and messages in %(language)s are "
                "shown in English. Installing the app again puts the catalog back.")  # fmt: skip


@functools.cache
def catalog(language: str) -> gettext_module.NullTranslations:
    """A language's translations, however the app was installed.

    A wheel carries each catalog compiled (``messages.mo``, by hatch_build.py). A clone, or an editable
    install (``pip install -e .``), has what ``make`` compiled, or nothing: there a ``messages.po`` with
    no ``.mo``, or newer than its ``.mo`` (edited, pulled), is compiled here, in memory. A catalog that
    cannot be read is said in one line on stderr (the log), and that language's words stay English.
    """
    if language == DEFAULT:
        return NullTranslations()  # the source language: the messages as written
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    compiled, source = folder / "messages.mo", folder / "messages.po"
    reading = source if source.is_file() and not up_to_date(compiled, source) else compiled
    try:
        with reading.open("rb") as file:
            if reading == source:
                return translations(read_po(file, locale=language, abort_invalid=True))
            return Translations(file)
    except (OSError, ValueError, LookupError, struct.error, PoFileError) as failed:
        problem = failed.strerror if isinstance(failed, OSError) and failed.strerror else str(failed)
        logging.getLogger(__name__).warning(unreadable(language, reading, problem))
        return translations(Catalog(locale=DEFAULT))  # an empty catalog: English words, English plurals


def up_to_date(compiled: Path, source: Path) -> bool:
    """Whether ``compiled`` holds ``source``'s messages: in a clone, compiled since the .po last changed.

    An installed package's .mo was compiled by the build from the .po beside it, whatever times
    the installer gave the two files.
    """
    if not compiled.is_file():
        return False
    return CLONE is None or compiled.stat().st_mtime >= source.stat().st_mtime


def translations(messages: Catalog) -> Translations:
    """A catalog as gettext reads it, compiled as the build compiles it (fuzzy translations left out)."""
    out = io.BytesIO()
    write_mo(out, messages)
    out.seek(0)
    return Translations(out)


def unreadable(language: str, path: Path, problem: str) -> str:
    """The line saying a catalog cannot be read: in the host's language, unless that is the one that cannot."""
    host = host_language(os.environ)
    said_in = host if host != language else DEFAULT
    words = catalog(said_in)
    name = Locale.parse(language).get_display_name(said_in) if language in LANGUAGES else language
    return words.gettext(UNREADABLE) % {"language": name, "path": path, "problem": problem}


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
