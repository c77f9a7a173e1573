"""The house rules' fields, which the new-game form and the blank sheet's both offer."""

import functools

from flask_babel import LazyString, lazy_gettext
from wtforms import BooleanField, Field, Form, RadioField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # newer than the stubs

from ... import rules
from . import lazy_words, options, seat_or_text


def label(key: str) -> LazyString:
    """A house rule's question, as the rules word it (rules.HOUSE_RULES)."""
    return lazy_words(functools.partial(rules.rule_label, key))


def default(key: str) -> object:
    return rules.HOUSE_RULE[key].default


STANDARD_CYCLE = "standard"


# Choices the rules core words: made for each form shown, in the table's language.
def pass_cycle_choices() -> list[SelectChoice]:
    return options([(STANDARD_CYCLE, rules.words.standard_cycle()), *rules.pass_cycle_choices().items()])


def moon_choices() -> list[SelectChoice]:
    return options(list(rules.moon_choices().items()))


def tie_choices() -> list[SelectChoice]:
    return options(list(rules.words.in_language(rules.words.TIE_CHOICES).items()))


SEAT_CHOICES = options(
    [(seat, lazy_gettext("Player %(number)d", number=seat + 1)) for seat in range(rules.MAX_PLAYERS)]
)
TARGET_CHOICES = options(
    # Translators: a target of one's own, beside the chips "100" and "50" under "Play to".
    [(str(target), str(target)) for target in rules.TARGET_PRESETS] + [("custom", lazy_gettext("Other"))]
)


def on_or_off(value: object) -> object:
    """A house rule asked as a choice of two (True or False), from the form's own values; anything else as sent,
    for the field to refuse as no choice of its own.

    >>> on_or_off("True"), on_or_off(False), on_or_off("maybe")
    (True, False, 'maybe')
    """
    return {"True": True, "False": False}.get(value, value) if isinstance(value, str) else value


class HouseRuleFields(Form):
    """The house rules both forms offer, one field for each key of rules.HouseRules but the target.

    The target differs (presets on the new-game form, a number on the blank
    sheet), so each form brings its own and says what it holds in ``target_value``.
    An on/off rule that is on unless chosen is asked as a choice of two, not a box
    to tick: a blank sheet's old address, which leaves it out, keeps it on.
    """

    first_dealer = RadioField(label("first_dealer"), choices=SEAT_CHOICES, coerce=seat_or_text, validate_choice=False,
                              default=default("first_dealer"))  # fmt: skip
    pass_cycle = RadioField(label("pass_cycle"), choices=pass_cycle_choices, default=STANDARD_CYCLE)
    moon = RadioField(label("moon"), choices=moon_choices, default=default("moon"))
    tie = RadioField(label("tie"), choices=tie_choices, default=default("tie"))

    def target_value(self) -> object:
        """The target as the form's own ``target`` field holds it (the new-game form reads its presets)."""
        return self["target"].data

    def switches(self) -> list[Field]:
        """The boxes to tick."""
        return [self[key] for key in rules.SWITCHES if isinstance(self[key], BooleanField)]

    def choices(self) -> list[Field]:
        """The rules chosen among a few answers, in the order of rules.HouseRules."""
        return [self[key] for key in rules.RULE_KEYS if key not in CHOSEN_APART and isinstance(self[key], RadioField)]

    def house_rules(self) -> dict[str, object]:
        """The house rules the fields chose, for the rules core to check."""
        chosen = {key: self[key].data for key in rules.RULE_KEYS if key != "target"}
        chosen.update({key: bool(chosen[key]) for key in rules.SWITCHES})
        if chosen["pass_cycle"] == STANDARD_CYCLE:
            chosen["pass_cycle"] = None  # the rules pick the standard cycle for the table's size
        return {**chosen, "target": self.target_value()}


CHOSEN_APART = ("target", "first_dealer")  # each form shows these its own way


def switch_label(key: str) -> str:
    return rules.switch_labels()[key]


def switch_answers(key: str) -> list[SelectChoice]:
    return options(list(rules.switch_answers()[key].items()))


for _key in rules.SWITCHES:
    _label = lazy_words(functools.partial(switch_label, _key))
    if getattr(rules.HouseRules(), _key):
        _answers = functools.partial(switch_answers, _key)
        setattr(HouseRuleFields, _key, RadioField(_label, choices=_answers, coerce=on_or_off, default=True))
    else:
        setattr(HouseRuleFields, _key, BooleanField(_label))
