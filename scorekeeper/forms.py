"""WTForms for the pages. Fields only read what was sent; the rules core checks it.

A broken rule comes back as a :class:`~scorekeeper.rules.RuleError`, whose
per-field messages :func:`show_rule_errors` puts next to the fields.
"""

import functools
from collections.abc import Callable, Sequence
from typing import cast

from flask_babel import LazyString, gettext, lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, Field, Form, HiddenField, IntegerField, PasswordField, RadioField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # newer than the stubs
from wtforms.validators import Optional

from . import rules
from .form_fields import FieldList


def options(pairs: Sequence[tuple[object, str]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def said(words: Callable[[], str]) -> LazyString:
    """A label the rules core words, in the language of the request that shows it."""
    return LazyString(words)


def label(key: str) -> LazyString:
    """A house rule's question, as the rules word it (rules.HOUSE_RULES)."""
    return said(functools.partial(rules.rule_label, key))


def default(key: str) -> object:
    return rules.HOUSE_RULE[key].default


def moon_option_words(option: str) -> LazyString:
    return said(lambda: rules.words.said(rules.words.MOON_OPTION_WORDS)[option])


STANDARD_CYCLE = "standard"


# Choices the rules core words: made for each form shown, in the table's language.
def pass_cycle_choices() -> list[SelectChoice]:
    return options([(STANDARD_CYCLE, rules.words.standard_cycle()), *rules.pass_cycle_choices().items()])


def moon_choices() -> list[SelectChoice]:
    return options(list(rules.moon_choices().items()))


def tie_choices() -> list[SelectChoice]:
    return options(list(rules.words.said(rules.words.TIE_CHOICES).items()))


SEAT_CHOICES = options(
    [(seat, lazy_gettext("Player %(number)d", number=seat + 1)) for seat in range(rules.MAX_PLAYERS)]
)
TARGET_CHOICES = options(
    # Translators: a target of one's own, beside the chips "100" and "50" under "Play to".
    [(str(target), str(target)) for target in rules.TARGET_PRESETS] + [("custom", lazy_gettext("Other"))]
)


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
    _label = said(functools.partial(switch_label, _key))
    if getattr(rules.HouseRules(), _key):
        _answers = functools.partial(switch_answers, _key)
        setattr(HouseRuleFields, _key, RadioField(_label, choices=_answers, coerce=on_or_off, default=True))
    else:
        setattr(HouseRuleFields, _key, BooleanField(_label))


class NewGameForm(FlaskForm, HouseRuleFields):
    players = FieldList(
        StringField(lazy_gettext("Player"), render_kw={"maxlength": rules.NAME_MAX}),
        min_entries=rules.MAX_PLAYERS,
        max_entries=rules.MAX_PLAYERS,
        description=lazy_gettext(
            "%(least)d to %(most)d players. Leave the last boxes empty for fewer.",
            least=rules.MIN_PLAYERS,
            most=rules.MAX_PLAYERS,
        ),
    )
    target = RadioField(label("target"), choices=TARGET_CHOICES, default=str(default("target")))
    custom_target = IntegerField(
        lazy_gettext("Other target (%(least)d to %(most)d)", least=rules.MIN_TARGET, most=rules.MAX_TARGET),
        validators=[Optional()],
        render_kw={"inputmode": "numeric", "min": rules.MIN_TARGET, "max": rules.MAX_TARGET},
    )

    @staticmethod
    def data_from(players: list[str], house: rules.HouseRules) -> dict[str, object]:
        """The form's fields for a game like this one: same players, same house rules."""
        preset = str(house.target) if house.target in rules.TARGET_PRESETS else "custom"
        standard = house.pass_cycle == rules.default_pass_cycle(len(players))
        return {
            **house.as_dict(),
            "players": players + [""] * (rules.MAX_PLAYERS - len(players)),
            "target": preset,
            "custom_target": None if preset != "custom" else house.target,
            "pass_cycle": STANDARD_CYCLE if standard else house.pass_cycle,
        }

    @staticmethod
    def preset_data(preset: rules.Preset) -> dict[str, object]:
        """The house-rule fields a preset fills in: all of them but who deals first."""
        data = NewGameForm.data_from([], rules.HouseRules(**preset.rules))  # type: ignore[arg-type]
        data["pass_cycle"] = preset.rules.get("pass_cycle", STANDARD_CYCLE)
        return {key: data[key] for key in (*rules.RULE_KEYS, "custom_target") if key != "first_dealer"}

    def presets(self) -> dict[str, dict[str, object]]:
        """Each preset's fields as the page's script sets them (static/new-game.js): a box ticked, a value chosen."""
        return {
            preset.key: {
                name: value if isinstance(self[name], BooleanField) else "" if value is None else str(value)
                for name, value in self.preset_data(preset).items()
            }
            for preset in rules.PRESETS
        }

    def differences(self) -> list[str]:
        """The house rules chosen otherwise than Classic, in the form's words (static/new-game.js says them live)."""
        classic = self.presets()[rules.PRESETS[0].key]
        said = []
        for field in [self.target, *self.choices(), *self.switches()]:
            if isinstance(field, BooleanField):
                said += [str(field.label.text)] if bool(field.data) != classic[field.name] else []
                continue
            value = "" if field.data is None else str(field.data)
            if field.name == "target" and value == "custom":
                value = str(self.custom_target.data or "")
            if value != classic[field.name]:
                options = cast(RadioField, field)
                chosen = next((str(option.label.text) for option in options if option.checked), value)
                said.append(gettext("%(rule)s: %(value)s", rule=field.label.text, value=chosen))
        return said

    def names(self) -> list[str]:
        return [name for name in (entry.data or "" for entry in self.players) if name.strip()]

    def boxes_at_fault(self) -> list[int]:
        """The name boxes a refused form marks: the empty ones a table too small needs, or the name at fault."""
        if not self.players.errors:
            return []
        filled = [box for box, entry in enumerate(self.players) if (entry.data or "").strip()]
        if len(filled) < rules.MIN_PLAYERS:
            empty = [box for box in range(len(self.players)) if box not in filled]
            return empty[: rules.MIN_PLAYERS - len(filled)]
        fault = rules.name_fault([self.players[box].data for box in filled])
        return [] if fault is None else [filled[fault[0]]]

    def first_error(self) -> str | None:
        """The id of the field a refused form puts the focus on: the first at fault, in the page's order."""
        boxes = self.boxes_at_fault()
        if boxes:
            return str(self.players[boxes[0]].id)
        fields = [self.first_dealer, self.target, self.custom_target, *self.choices(), *self.switches()]
        return next((field.id for field in fields if field.errors), None)

    def refusal(self) -> str | None:
        """Why the form was refused, said beside Start: the first message, top to bottom."""
        fields = [self.players, self.first_dealer, self.target, self.custom_target, *self.choices(), *self.switches()]
        messages = [*self.form_errors, *(message for field in fields for message in field.errors)]
        return next((str(message) for message in messages if isinstance(message, str) or hasattr(message, "__html__")),
                    None)  # fmt: skip

    def target_value(self) -> object:
        if self.target.data != "custom":
            return seat_or_text(self.target.data)
        return "" if self.custom_target.data is None else self.custom_target.data  # "Other", left empty: no default


class ActionForm(FlaskForm):
    """A button that changes something: CSRF, and the hand it is about."""

    number = HiddenField()


class HandForm(FlaskForm):
    """One hand's facts; ``number`` stops two phones from recording the same hand."""

    number = HiddenField()
    hearts = FieldList(
        RadioField(
            lazy_gettext("Hearts"),
            choices=options([(count, str(count)) for count in range(rules.HEARTS + 1)]),
            coerce=seat_or_text,
            validate_choice=False,
        ),
        min_entries=rules.MIN_PLAYERS,
        max_entries=rules.MAX_PLAYERS,
    )
    # And a field for each penalty card (below), named as the rules name it.
    all_tricks = RadioField(lazy_gettext("Took every trick"), choices=[], coerce=seat_or_text, validate_choice=False)
    moon_option = RadioField(
        lazy_gettext("Moon"),
        choices=options([(option, moon_option_words(option)) for option in rules.MOON_OPTIONS]),
        validate_choice=False,
    )

    def for_table(self, players: list[str]) -> "HandForm":
        """Fit the form to the table: one hearts row a player, a choice of names."""
        # A post keeps the rows it sent, so a forged one is judged as sent.
        if not self.is_submitted():
            while len(self.hearts) < len(players):
                self.hearts.append_entry()
            for entry in self.hearts:
                entry.data = 0 if entry.data is None else entry.data
        for seat, entry in enumerate(self.hearts):
            entry.label.text = players[seat] if seat < len(players) else gettext("Seat %(seat)d", seat=seat)
        seats = list(enumerate(players))
        for card in rules.PENALTY_CARDS:
            self[card.key].choices = options(seats)
        self.all_tricks.choices = options([("", gettext("Nobody")), *seats])
        return self

    def facts(self) -> dict[str, object]:
        """What was entered, all of it: the rules refuse a card the house rules do not play."""
        return {
            "hearts": [entry.data for entry in self.hearts],
            **{card.key: self[card.key].data for card in rules.PENALTY_CARDS},
            "all_tricks": self.all_tricks.data,
            "moon_option": self.moon_option.data or None,
        }

    def first_error(self) -> str | None:
        """The first part of the form at fault, top to bottom: where a refused save returns the player."""
        if self.form_errors:
            return "form"
        return next((name for name in rules.FACT_KEYS if self.errors.get(name)), None)

    def fill(self, scored: rules.ScoredHand) -> None:
        hand = scored.hand
        for entry, count in zip(self.hearts, hand.hearts, strict=True):
            entry.data = count
        for card in rules.PENALTY_CARDS:
            self[card.key].data = hand.taker(card)
        self.all_tricks.data = hand.all_tricks if hand.all_tricks is not None else ""
        self.moon_option.data = scored.moon.option if scored.moon and scored.moon.option != "sun" else None


for _card in rules.PENALTY_CARDS:
    _question = said(functools.partial(getattr, _card, "question"))
    setattr(HandForm, _card.key, RadioField(_question, choices=[], coerce=seat_or_text, validate_choice=False))


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


class BlankSheetForm(HouseRuleFields):
    """The choices for a blank sheet, read from the query string so the sheet can be bookmarked."""

    players = RadioField(
        lazy_gettext("Players"),
        choices=options([(count, str(count)) for count in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)]),
        coerce=int,
        default=4,
    )
    paper = RadioField(
        lazy_gettext("Paper"), choices=options([("a4", "A4"), ("letter", lazy_gettext("US Letter"))]), default="a4"
    )
    names = StringField(lazy_gettext("Names, clockwise, separated by commas (optional)"))
    target = IntegerField(
        label("target"), default=rules.HouseRules().target, validators=[Optional()], render_kw={"inputmode": "numeric"}
    )

    def seats(self) -> int:
        count = self.players.data
        return count if isinstance(count, int) and rules.MIN_PLAYERS <= count <= rules.MAX_PLAYERS else 4

    def player_names(self) -> list[str]:
        names = [name.strip() for name in (self.names.data or "").split(",")][: self.seats()]
        return names + [""] * (self.seats() - len(names))


class ImportForm(FlaskForm):
    export = FileField(
        lazy_gettext("A JSON export of games"),
        validators=[FileRequired(lazy_gettext("Choose the export file to import."))],
    )


class NewGroupForm(FlaskForm):
    """An open server's home page: a group started in one tap, its name if you like."""

    name = StringField(lazy_gettext("The group's name (if you like)"))


class NameForm(FlaskForm):
    name = StringField(lazy_gettext("The group's name"))


class PasscodeForm(FlaskForm):
    passcode = PasswordField(lazy_gettext("New passcode (empty: none)"))
