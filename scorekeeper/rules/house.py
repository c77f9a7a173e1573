"""Players, house rules and the table facts that follow from the player count (passing.py: where the cards go)."""

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import TypeGuard

from .errors import RuleError, refuse
from .i18n import N_, _, ngettext
from .names import name_problem, skeleton
from .passing import PASS_CYCLES, PASSES, SEATS_NEEDED, default_pass_cycle

MIN_PLAYERS, MAX_PLAYERS = 3, 5
NAME_MAX = 24
MIN_TARGET, MAX_TARGET = 10, 1000
TARGET_PRESETS = (100, 50)


CARDS_REMOVED: dict[int, tuple[str, ...]] = {3: ("2♦",), 4: (), 5: ("2♣", "2♦")}
CARDS_EACH = {3: 17, 4: 13, 5: 10}
OPENING_LEAD = {3: "2♣", 4: "2♣", 5: "3♣"}


@dataclass(frozen=True)
class HouseRules:
    """The options a table fixes when the game starts (docs/rules.md, "House rules")."""

    target: int = 100
    pass_cycle: str = "left-right-across-hold"
    moon: str = "choose"
    subtract_floor: bool = True  # the moon's subtraction never takes the shooter below 0
    sun: bool = False
    omnibus: bool = False  # the J♦ scores (cards.PENALTY_CARDS)
    tie: str = "play-on"
    first_dealer: int = 0
    exact_reset: bool = False  # a total landing exactly on the target goes back to 0
    black_maria: bool = False  # the K♠ and the A♠ score too

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class HouseRule:
    """What one house rule may be, and its words; the value a game plays is its field of HouseRules."""

    key: str
    kind: str  # "choice" (one of ``choices``), "switch" (on or off), "number" (least to most) or "seat"
    wrong: str  # the refusal of a value it cannot be
    label: str | None = None  # how the forms ask for it; None: worded from the points it changes (describe.py)
    choices: tuple[str, ...] = ()
    least: int = 0
    most: int = 0

    @property
    def default(self) -> object:
        """What a game plays unless it says otherwise.

        >>> HOUSE_RULE["target"].default, HOUSE_RULE["moon"].default
        (100, 'choose')
        """
        return getattr(HouseRules(), self.key)

    def problem(self, value: object, players: int) -> str | None:
        """Why ``value`` cannot be this rule at a table of ``players``, if it cannot.

        >>> HOUSE_RULE["tie"].problem("share", 4), HOUSE_RULE["first_dealer"].problem(4, 4)
        (None, 'The first dealer must be a seat from 0 to 3.')
        """
        if self.kind == "switch":
            return None if isinstance(value, bool) else _(self.wrong, rule=self.key)
        if self.kind == "choice" and not isinstance(value, str):
            return _("The %(rule)s rule must be given as text.", rule=self.key.replace("_", " "))
        if self.kind == "choice":
            return None if value in self.choices else _(self.wrong, values=", ".join(self.choices))
        least, most = (0, players - 1) if self.kind == "seat" else (self.least, self.most)
        return None if is_whole(value) and least <= value <= most else _(self.wrong, least=least, most=most, last=most)


SWITCH_WRONG = N_("The %(rule)s rule is on (true) or off (false).")
# The house rules, in the order of HouseRules' fields: the checks, the forms and the API's document follow it.
HOUSE_RULES = (
    HouseRule("target", "number", N_("The target must be a whole number from %(least)d to %(most)d."), N_("Play to"),
              least=MIN_TARGET, most=MAX_TARGET),
    HouseRule("pass_cycle", "choice", N_("The pass cycle must be one of: %(values)s."), N_("Passing"),
              tuple(PASS_CYCLES)),
    HouseRule("moon", "choice", N_("The moon rule must be one of: %(values)s."), N_("Shooting the moon"),
              ("choose", "add", "subtract", "off")),
    HouseRule("subtract_floor", "switch", SWITCH_WRONG, N_("When the shooter subtracts")),
    HouseRule("sun", "switch", SWITCH_WRONG),
    HouseRule("omnibus", "switch", SWITCH_WRONG),
    HouseRule("tie", "choice", N_("The tie rule must be one of: %(values)s."),
              N_("A tie for the lowest total at the end"), ("play-on", "share")),
    HouseRule("first_dealer", "seat", N_("The first dealer must be a seat from 0 to %(last)d."), N_("Who deals first")),
    HouseRule("exact_reset", "switch", SWITCH_WRONG,
              N_("Exact reset: a total landing exactly on the target goes back to 0")),
    HouseRule("black_maria", "switch", SWITCH_WRONG),
)  # fmt: skip
HOUSE_RULE = {rule.key: rule for rule in HOUSE_RULES}
RULE_KEYS = tuple(rule.key for rule in HOUSE_RULES)
assert RULE_KEYS == tuple(f.name for f in fields(HouseRules)), "HOUSE_RULES lists the fields of HouseRules, in order"
SWITCHES = tuple(rule.key for rule in HOUSE_RULES if rule.kind == "switch")  # the on/off rules
MOON_RULES = HOUSE_RULE["moon"].choices
TIE_RULES = HOUSE_RULE["tie"].choices


def rule_label(key: str) -> str:
    """How the forms ask for a house rule of fixed words, in the table's language."""
    label = HOUSE_RULE[key].label
    assert label is not None, key
    return _(label)


@dataclass(frozen=True)
class Preset:
    """A named set of house rules that fills the new-game form; a game stores the rules, never the preset."""

    key: str
    name_message: str
    rules: Mapping[str, object]
    players: int | None = None  # the table it is usually played at, as the form says

    @property
    def name(self) -> str:
        return _(self.name_message)


PRESETS = (
    Preset("classic", N_("Classic"), {}),
    Preset("black-maria", N_("Black Maria"), {"black_maria": True, "pass_cycle": "right"}, players=3),
)


def is_whole(value: object) -> TypeGuard[int]:
    """True for an int that is not a bool (JSON's true is no number of hearts)."""
    return isinstance(value, int) and not isinstance(value, bool)


def clean_names(names: object) -> list[str]:
    """Trim and check the players' names, listed clockwise.

    >>> clean_names([" Ann", "Ben ", "Cat"])
    ['Ann', 'Ben', 'Cat']
    """
    if not isinstance(names, Sequence) or isinstance(names, str):
        raise RuleError(_("List the players' names."), {"players": _("A list of names.")})
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        message = ngettext("Hearts needs %(least)d to %(most)d players, not %(num)d.",
                           "Hearts needs %(least)d to %(most)d players, not %(num)d.",
                           len(names), least=MIN_PLAYERS, most=MAX_PLAYERS)  # fmt: skip
        raise RuleError(message, {"players": message})
    fault = name_fault(names)
    if fault is not None:
        raise RuleError(fault[1], {"players": fault[1]})
    return [trimmed(name) for name in names if isinstance(name, str)]  # every one, once name_fault found none


def trimmed(name: str) -> str:
    return unicodedata.normalize("NFC", name).strip()  # "José" typed as one letter or as e + accent


def name_fault(names: Sequence[object]) -> tuple[int, str] | None:
    """The first seat whose name cannot stand, and why: the form marks that box.

    >>> name_fault(["Ann", "Ben", " ann "]), name_fault(["Ann", "", "Cat"]), name_fault(["Ann", "Ben"])
    ((2, 'Two players are called “ann”: make the names different.'), (1, 'Player 2 needs a name.'), None)
    """
    seen: set[str] = set()
    for seat, name in enumerate(names):
        if isinstance(name, str):
            name = trimmed(name)
        if not isinstance(name, str) or not name:
            message = _("Player %(seat)d needs a name.", seat=seat + 1)
        elif problem := name_problem(name, seat + 1):
            message = problem
        elif len(name) > NAME_MAX:
            message = _("“%(start)s…” is too long: %(most)d characters at most.", start=name[:NAME_MAX], most=NAME_MAX)
        elif skeleton(name) in seen:  # "Ann" and "Аnn" look the same
            message = _("Two players are called “%(name)s”: make the names different.", name=name)
        else:
            seen.add(skeleton(name))
            continue
        return seat, message
    return None


def house_rules(players: int, given: Mapping[str, object] | None = None) -> HouseRules:
    """Fill in the defaults for ``players`` and check every rule given.

    >>> house_rules(3).pass_cycle
    'left-right-hold'
    """
    given = dict(given or {})
    chosen = HouseRules(pass_cycle=default_pass_cycle(players)).as_dict()
    errors = {f"rules.{key}": _("There is no such house rule.") for key in given if key not in RULE_KEYS}
    for key in RULE_KEYS:
        if key in given and given[key] is not None:
            message = _rule_problem(key, given[key], players)
            if message:
                errors[f"rules.{key}"] = message
            else:
                chosen[key] = given[key]
    if chosen["sun"] and chosen["moon"] == "off" and "rules.sun" not in errors:
        errors["rules.sun"] = _("Shooting the sun needs the moon: with no moon, leave the sun off.")
    refuse(errors)
    return HouseRules(**chosen)  # type: ignore[arg-type]


def _rule_problem(key: str, value: object, players: int) -> str | None:
    problem = HOUSE_RULE[key].problem(value, players)
    if problem or key != "pass_cycle":
        return problem
    for direction in PASS_CYCLES[str(value)]:
        needed = SEATS_NEEDED.get(direction, players)
        if players != needed:
            return ngettext("Passing %(where)s needs exactly %(num)d players, not %(players)d.",
                            "Passing %(where)s needs exactly %(num)d players, not %(players)d.",
                            needed, where=PASSES[direction].long, players=players)  # fmt: skip
    return None
