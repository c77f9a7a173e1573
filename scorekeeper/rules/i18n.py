"""The rules core's words in the table's language, through gettext, with no Flask here.

The core says every message with ``_`` (gettext) or ``ngettext`` and values by
name, the way a catalog wants them: whole sentences, never glued from English
pieces. The app installs the translations of the request it is answering
(``use``); without an app (a doctest, a script) the words are the English
source. Tables of words defined when a module loads mark their messages with
``N_`` and translate them where they are shown.
"""

import gettext as gettext_module
from collections.abc import Callable

Catalog = Callable[[], gettext_module.NullTranslations]
_catalog: Catalog = gettext_module.NullTranslations  # English: the messages as written


def use(catalog: Catalog) -> None:
    """Say where the translations of the moment come from (the app: the request's language)."""
    global _catalog
    _catalog = catalog


def gettext(message: str, **values: object) -> str:
    """``message`` in the table's language, with ``%(name)s`` filled from ``values``.

    >>> gettext("%(name)s deals.", name="Ann")
    'Ann deals.'
    """
    said = _catalog().gettext(message)
    return said % values if values else said


def ngettext(singular: str, plural: str, count: int, **values: object) -> str:
    """The form for ``count`` (``%(num)d`` is the count), in the table's language.

    >>> ngettext("%(num)d heart", "%(num)d hearts", 1), ngettext("%(num)d heart", "%(num)d hearts", 3)
    ('1 heart', '3 hearts')
    """
    return _catalog().ngettext(singular, plural, count) % {"num": count, **values}


def pgettext(context: str, message: str) -> str:
    """``message`` as said in ``context``, where one English phrase is several in another language.

    >>> pgettext("card as object", "the K♠")
    'the K♠'
    """
    return _catalog().pgettext(context, message)


def NP_(context: str, message: str) -> str:  # noqa: N802  # N_ with a context, for pgettext where it is shown
    """Mark ``message`` in ``context`` for the catalog; it is translated where it is shown."""
    return message


def N_(message: str) -> str:  # noqa: N802  # gettext's own name for "translate later", which extraction knows
    """Mark ``message`` for the catalog; it is translated where it is shown."""
    return message


_ = gettext


def signed(points: int) -> str:
    """Points as a player reads a change to a score.

    >>> signed(26), signed(-10), signed(0)
    ('+26', '−10', '0')
    """
    return f"+{points}" if points > 0 else total(points)


def total(points: int) -> str:
    """Points as a player reads a total, with a real minus sign (the one signed() writes).

    >>> total(26), total(-10), total(0)
    ('26', '−10', '0')
    """
    return f"−{-points}" if points < 0 else str(points)


def capitalized(words: str) -> str:
    """The first letter in capitals, the rest as it is (a German noun keeps its capital).

    >>> capitalized("hold, Tausch")
    'Hold, Tausch'
    """
    return words[:1].upper() + words[1:]


def listed(items: list[str]) -> str:
    """Ann; Ann and Ben; Ann, Ben and Cat.

    >>> listed(["Ann", "Ben", "Cat"])
    'Ann, Ben and Cat'
    """
    if len(items) < 2:
        return "".join(items)
    return _("%(first)s and %(last)s", first=_(", ").join(items[:-1]), last=items[-1])
