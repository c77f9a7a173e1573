"""WTForms for the pages, one module for each blueprint's (``table``, ``sheets``, ``history``, ``groups``,
``signing``), and what they share here. Fields only read what was sent; the rules core checks it.

A broken rule comes back as a :class:`~scorekeeper.rules.RuleError`, whose
per-field messages :func:`show_rule_errors` puts next to the fields.
"""

from collections.abc import Callable, Sequence

from flask_babel import LazyString
from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # newer than the stubs

from ... import rules


def options(pairs: Sequence[tuple[object, str]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def lazy_words(words: Callable[[], str]) -> LazyString:
    """A label the rules core words, in the language of the request that shows it."""
    return LazyString(words)


def seat_or_text(value: object) -> object:
    """An int when the post holds one, else what was posted, for the rules to judge.

    >>> seat_or_text(" 2"), seat_or_text("²"), seat_or_text("")
    (2, '²', None)
    """
    if value in (None, ""):
        return None
    text = str(value).strip()
    digits = text.removeprefix("-")
    return int(text) if digits.isascii() and digits.isdecimal() and len(digits) < 10 else text


class ActionForm(FlaskForm):
    """A button that changes something: CSRF, and the hand it is about."""

    number = HiddenField()


FIELD_OF_RULE = {"rules.target": "custom_target", "players": "players"}


def show_rule_errors(form: FlaskForm, broken: rules.RuleError) -> None:
    """Put the rules' messages next to the fields they are about; the rest on the form."""
    placed = False
    for key, message in broken.errors.items():
        name = FIELD_OF_RULE.get(key, key.removeprefix("rules."))
        field = getattr(form, name, None)
        if field is not None:
            field.errors = [*field.errors, message] if isinstance(field.errors, list) else [message]
            placed = True
    if not placed:
        form.form_errors.append(broken.message)
