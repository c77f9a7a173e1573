"""Where the cards go each hand: the passes, the cycles a table plays them in, who passes to whom, who deals."""

from dataclasses import dataclass
from typing import Protocol

from .i18n import N_, _


class Seating(Protocol):
    """What of a game's house rules (house.HouseRules) the passes and the deal follow."""

    @property
    def pass_cycle(self) -> str: ...

    @property
    def first_dealer(self) -> int: ...


@dataclass(frozen=True)
class PassWords:
    arrow: str
    short_message: str
    long_message: str

    @property
    def short(self) -> str:
        """A score sheet's narrow column, the next hand's line: "left", "2 right"."""
        return _(self.short_message)

    @property
    def long(self) -> str:
        """Where the cards go, as a sentence says it: "to the left", "two seats to the right"."""
        return _(self.long_message)


PASSES = {
    "left": PassWords("←", N_("left"), N_("to the left")),
    "right": PassWords("→", N_("right"), N_("to the right")),
    "across": PassWords("↑", N_("across"), N_("across")),
    "left2": PassWords("⇇", N_("2 left"), N_("two seats to the left")),
    "right2": PassWords("⇉", N_("2 right"), N_("two seats to the right")),
    "hold": PassWords("✕", N_("hold"), N_("nowhere")),
}


PASS_CYCLES: dict[str, tuple[str, ...]] = {
    "left-right-across-hold": ("left", "right", "across", "hold"),
    "left-across-right-hold": ("left", "across", "right", "hold"),
    "left-right-hold": ("left", "right", "hold"),
    "left-right-left2-right2-hold": ("left", "right", "left2", "right2", "hold"),
    "left-left2-right2-right-hold": ("left", "left2", "right2", "right", "hold"),
    "left": ("left",),
    "right": ("right",),
    "none": ("hold",),
}
PASS_STEPS = {"left": 1, "right": -1, "across": 2, "left2": 2, "right2": -2, "hold": 0}  # seats on, clockwise
SEATS_NEEDED = {"across": 4, "left2": 5, "right2": 5}  # a pass that needs exactly this many players


def cycle_players(cycle: str) -> int | None:
    """The number of players a pass cycle needs, if it needs a number.

    >>> cycle_players("left-right-across-hold"), cycle_players("left-left2-right2-right-hold"), cycle_players("none")
    (4, 5, None)
    """
    return next((SEATS_NEEDED[d] for d in PASS_CYCLES[cycle] if d in SEATS_NEEDED), None)


def default_pass_cycle(players: int) -> str:
    """The pass cycle a table of this size plays unless it says otherwise.

    >>> default_pass_cycle(3)
    'left-right-hold'
    """
    return "left-right-across-hold" if players == 4 else "left-right-hold"


def pass_direction(rules: Seating, number: int) -> str:
    """The pass of hand ``number`` (from 1).

    >>> from .house import HouseRules
    >>> [pass_direction(HouseRules(), k) for k in range(1, 6)]
    ['left', 'right', 'across', 'hold', 'left']
    """
    cycle = PASS_CYCLES[rules.pass_cycle]
    return cycle[(number - 1) % len(cycle)]


def pass_targets(direction: str, players: int) -> list[tuple[int, int]]:
    """Who passes to whom, as (from, to) seats; empty on a hold hand.

    >>> pass_targets("right", 4), pass_targets("left2", 5)
    ([(0, 3), (1, 0), (2, 1), (3, 2)], [(0, 2), (1, 3), (2, 4), (3, 0), (4, 1)])
    """
    step = PASS_STEPS[direction]
    return [(seat, (seat + step) % players) for seat in range(players)] if step else []


def dealer(rules: Seating, players: int, number: int) -> int:
    """The seat that deals hand ``number``: the deal moves left each hand.

    >>> from .house import HouseRules
    >>> dealer(HouseRules(first_dealer=3), 4, 2)
    0
    """
    return (rules.first_dealer + number - 1) % players
