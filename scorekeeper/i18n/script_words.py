"""The words the page scripts show, translated for the page: its words block (base.html renders it).

The scripts write their messages as gettext does, ``_("Hand %(number)d saved.", {number: 7})``
(static/words.js), and `make messages` extracts them into the catalogs with everything else.
Here they are read from the scripts once, and each page carries the translations of the
request's language: for English nothing, as the scripts show a message as written.
"""

import functools
from pathlib import Path

from babel.messages.extract import extract_from_file
from flask import current_app
from flask_babel import get_locale

from .languages import DEFAULT, catalog

KEYWORDS = {"_": None, "ngettext": (1, 2)}  # static/words.js: what the scripts call
PLURALS = 200  # the form of each count below this; past it, every language's rule repeats each hundred


@functools.cache
def messages(folder: Path) -> tuple[str | tuple[str, ...], ...]:
    """Every message of the scripts in ``folder``: a string, or a (singular, plural) pair."""
    found: dict[str | tuple[str, ...], None] = {}
    for path in sorted(folder.glob("*.js")):
        for _line, message, _comments, _context in extract_from_file("javascript", str(path), keywords=KEYWORDS):
            found[message] = None
    return tuple(found)


@functools.cache
def translated(language: str, folder: Path) -> dict[str, object]:
    """``{"messages": {message: its translation, or its plural forms}, "plural": the form of each count}``."""
    if language == DEFAULT:
        return {}  # the source language: the scripts' own words
    translations = catalog(language)
    plural = translations.plural  # type: ignore[attr-defined]  # gettext's, from the catalog's Plural-Forms
    words: dict[str, object] = {}
    for message in messages(folder):
        if isinstance(message, str):
            words[message] = translations.gettext(message)
            continue
        singular, plural_id = message[:2]
        forms = {plural(count): translations.ngettext(singular, plural_id, count) for count in range(PLURALS)}
        words[message[0]] = [forms[index] for index in sorted(forms)]
    return {"messages": words, "plural": "".join(str(plural(count)) for count in range(PLURALS))}


def script_words() -> dict[str, object]:
    """This request's words for the page scripts."""
    return translated(str(get_locale()), Path(current_app.static_folder or "static"))
