"""The table's forms: a new game, a hand recorded or corrected."""

import functools
from typing import cast

from flask_babel import LazyString, gettext, lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, RadioField, StringField
from wtforms.validators import Optional

from ... import rules
from . import lazy_words, options, seat_or_text
from .fields import FieldList
from .house import STANDARD_CYCLE, TARGET_CHOICES, HouseRuleFields, default, label


def moon_option_words(option: str) -> LazyString:
    return lazy_words(lambda: rules.words.in_language(rules.moon_phrases.MOON_OPTION_WORDS)[option])


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
    _question = lazy_words(functools.partial(getattr, _card, "question"))
    setattr(HandForm, _card.key, RadioField(_question, choices=[], coerce=seat_or_text, validate_choice=False))
