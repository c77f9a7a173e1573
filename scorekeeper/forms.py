"""WTForms for the pages. Fields only read what was sent; the rules core checks it.

A broken rule comes back as a :class:`~scorekeeper.rules.RuleError`, whose
per-field messages :func:`show_rule_errors` puts next to the fields.
"""

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, FieldList, Form, HiddenField, IntegerField, RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from . import rules


def options(pairs: list[tuple[object, str]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


STANDARD_CYCLE = "standard"
PASS_CYCLE_CHOICES = options(
    [
        (STANDARD_CYCLE, "Standard: left, right, across, hold with 4 players; left, right, hold with 3 or 5"),
        ("left-right-across-hold", "Left, right, across, hold (4 players only)"),
        ("left-across-right-hold", "Left, across, right, hold (4 players only)"),
        ("left-right-hold", "Left, right, hold"),
        ("none", "No passing"),
    ]
)
MOON_CHOICES = options(
    [
        ("choose", "The shooter chooses each time (the app advises)"),
        ("add", "Always: everyone else gets +26"),
        ("subtract", "Always: the shooter gets −26"),
    ]
)
TIE_CHOICES = options(
    [
        ("play-on", "Play on until one player alone has the lowest total"),
        ("share", "Tied lowest players share the win"),
    ]
)
SEAT_CHOICES = options([(seat, f"Player {seat + 1}") for seat in range(rules.MAX_PLAYERS)])
TARGET_CHOICES = options([("100", "100"), ("50", "50"), ("custom", "Other")])


def seat_or_text(value: object) -> object:
    """An int when the post holds one, else what was posted, for the rules to judge."""
    if value in (None, ""):
        return None
    text = str(value).strip()
    digits = text.removeprefix("-")
    # ASCII digits only ("²" passes isdigit() but is no number), and few enough to be a seat or a hand.
    return int(text) if digits.isascii() and digits.isdigit() and len(digits) < 10 else text


def chosen_rules(form: Form, target: object) -> dict[str, object]:
    """The house rules a form's fields chose, for the rules core to check."""
    return {
        "target": target,
        "pass_cycle": None if form.pass_cycle.data == STANDARD_CYCLE else form.pass_cycle.data,
        "moon": form.moon.data,
        "sun": bool(form.sun.data),
        "omnibus": bool(form.omnibus.data),
        "tie": form.tie.data,
        "first_dealer": form.first_dealer.data,
    }


class NewGameForm(FlaskForm):
    players = FieldList(StringField("Player"), min_entries=rules.MAX_PLAYERS, max_entries=rules.MAX_PLAYERS)
    first_dealer = RadioField(
        "Who deals first",
        choices=SEAT_CHOICES,
        coerce=seat_or_text,
        validate_choice=False,
        default=0,
    )
    target = RadioField("Play to", choices=TARGET_CHOICES, default="100")
    custom_target = IntegerField("Other target", validators=[Optional()])
    pass_cycle = RadioField("Passing", choices=PASS_CYCLE_CHOICES, default=STANDARD_CYCLE)
    moon = RadioField("Shooting the moon", choices=MOON_CHOICES, default="choose")
    sun = BooleanField("Shooting the sun: taking every trick gives everyone else 52")
    omnibus = BooleanField("Omnibus: the J♦ scores −10 for whoever takes it")
    tie = RadioField("A tie for the lowest total at the end", choices=TIE_CHOICES, default="play-on")

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

    def names(self) -> list[str]:
        return [name for name in (entry.data or "" for entry in self.players) if name.strip()]

    def house_rules(self) -> dict[str, object]:
        target = self.custom_target.data if self.target.data == "custom" else int(self.target.data or 100)
        return chosen_rules(self, target)


class ActionForm(FlaskForm):
    """A button that changes something: CSRF, and the hand it is about."""

    number = HiddenField()


class HandForm(FlaskForm):
    """One hand's facts; ``number`` stops two phones from recording the same hand."""

    number = HiddenField()
    hearts = FieldList(
        RadioField(
            "Hearts",
            choices=options([(count, str(count)) for count in range(rules.HEARTS + 1)]),
            coerce=seat_or_text,
            validate_choice=False,
        ),
        min_entries=rules.MIN_PLAYERS,
        max_entries=rules.MAX_PLAYERS,
    )
    queen = RadioField("Who took the Q♠", choices=[], coerce=seat_or_text, validate_choice=False)
    jack = RadioField("Who took the J♦", choices=[], coerce=seat_or_text, validate_choice=False)
    all_tricks = RadioField("Took every trick", choices=[], coerce=seat_or_text, validate_choice=False)
    moon_option = RadioField("Moon", choices=options([("add", "add"), ("subtract", "subtract")]), validate_choice=False)

    def for_table(self, players: list[str]) -> "HandForm":
        """Fit the form to the table: one hearts row a player, a choice of names."""
        # A post keeps the rows it sent, so a forged one is judged as sent.
        if not self.is_submitted():
            while len(self.hearts) < len(players):
                self.hearts.append_entry()
            for entry in self.hearts:
                entry.data = 0 if entry.data is None else entry.data
        for seat, entry in enumerate(self.hearts):
            entry.label.text = players[seat] if seat < len(players) else f"Seat {seat}"
        seats = list(enumerate(players))
        self.queen.choices = options(seats)
        self.jack.choices = options(seats)
        self.all_tricks.choices = options([("", "Nobody"), *seats])
        return self

    def facts(self, house: rules.HouseRules) -> dict[str, object]:
        return {
            "hearts": [entry.data for entry in self.hearts],
            "queen": self.queen.data,
            "jack": self.jack.data if house.omnibus else None,
            "all_tricks": self.all_tricks.data if house.sun else None,
            "moon_option": self.moon_option.data or None,
        }

    def moon_shooter(self) -> int | None:
        """The seat the entered hearts and Q♠ say shot the moon, if they are well formed."""
        try:
            return rules.moon_shooter(rules.Hand(tuple(entry.data for entry in self.hearts), self.queen.data))
        except (IndexError, TypeError):
            return None

    def fill(self, scored: rules.ScoredHand) -> None:
        hand = scored.hand
        for entry, count in zip(self.hearts, hand.hearts, strict=True):
            entry.data = count
        self.queen.data, self.jack.data = hand.queen, hand.jack
        self.all_tricks.data = hand.all_tricks if hand.all_tricks is not None else ""
        self.moon_option.data = scored.moon.option if scored.moon and scored.moon.option != "sun" else None


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


class BlankSheetForm(Form):
    """The choices for a blank sheet, read from the query string so the sheet can be bookmarked."""

    players = RadioField("Players", choices=options([(3, "3"), (4, "4"), (5, "5")]), coerce=int, default=4)
    paper = RadioField("Paper", choices=options([("a4", "A4"), ("letter", "US Letter")]), default="a4")
    names = StringField("Names, clockwise, separated by commas (optional)")
    first_dealer = RadioField("Who deals first", choices=SEAT_CHOICES, coerce=seat_or_text, default=0)
    target = IntegerField("Play to", default=100, validators=[Optional()])
    pass_cycle = RadioField("Passing", choices=PASS_CYCLE_CHOICES, default=STANDARD_CYCLE)
    moon = RadioField("Shooting the moon", choices=MOON_CHOICES, default="choose")
    tie = RadioField("A tie for the lowest total", choices=TIE_CHOICES, default="play-on")
    sun = BooleanField("Shooting the sun")
    omnibus = BooleanField("Omnibus J♦")

    def seats(self) -> int:
        return self.players.data if self.players.data in (3, 4, 5) else 4

    def player_names(self) -> list[str]:
        names = [name.strip() for name in (self.names.data or "").split(",")][: self.seats()]
        return names + [""] * (self.seats() - len(names))

    def house_rules(self) -> dict[str, object]:
        return chosen_rules(self, self.target.data)


class ImportForm(FlaskForm):
    export = FileField("A JSON export of games", validators=[FileRequired("Choose the export file to import.")])
