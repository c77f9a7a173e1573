"""The words a player reads about the rules, in one place: the forms, the pages, the sheets and the scripts say these.

Numbers never appear here as such: a sentence that names points takes them from the rules (cards.py), so a
house rule that changes them changes the words too. Error messages stay beside the checks that raise them.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .standings import Standing


@dataclass(frozen=True)
class PassWords:
    arrow: str
    short: str  # a score sheet's narrow column, the next hand's line
    long: str  # "pass 3 cards …"


PASSES = {
    "left": PassWords("←", "left", "to the left"),
    "right": PassWords("→", "right", "to the right"),
    "across": PassWords("↑", "across", "across"),
    "left2": PassWords("⇇", "2 left", "two seats to the left"),
    "right2": PassWords("⇉", "2 right", "two seats to the right"),
    "hold": PassWords("✕", "hold", "nowhere"),
}


def pass_line(direction: str, cards: int) -> str:
    """What to do with the cards before a hand.

    >>> pass_line("left2", 3), pass_line("hold", 3)
    ('Pass 3 cards two seats to the left', 'Hold: no passing')
    """
    return "Hold: no passing" if direction == "hold" else f"Pass {cards} cards {PASSES[direction].long}"


def standing_tag(standing: "Standing", target: int) -> str:
    """What the scoreboard says under a total: who leads, and how far the total nearest the target has to go.

    >>> from .standings import Standing
    >>> [standing_tag(Standing(0, total, 1, leads, closest, to_go), 100)
    ...  for total, leads, closest, to_go in [(40, True, False, 60), (93, False, True, 7), (107, False, True, None)]]
    ['♛ leads', '7 to go', 'past 100']
    """
    if standing.leads:
        return "♛ leads"
    if not standing.closest:
        return ""
    return f"past {target}" if standing.to_go is None else f"{standing.to_go} to go"


STANDARD_CYCLE = "Standard: left, right, across, hold with 4 players; left, right, hold with 3 or 5"


def cycle_choice(cycle: tuple[str, ...], players: int | None) -> str:
    """A pass cycle as the new-game form offers it.

    >>> cycle_choice(("left", "left2", "right2", "right", "hold"), 5)
    'Left, 2 left, 2 right, right, hold (5 players only)'
    >>> cycle_choice(("right",), None), cycle_choice(("hold",), None)
    ('Always pass right', 'No passing')
    """
    if cycle == ("hold",):
        return "No passing"
    if len(cycle) == 1:
        return f"Always pass {PASSES[cycle[0]].short}"
    only = f" ({players} players only)" if players else ""
    return ", ".join(PASSES[direction].short for direction in cycle).capitalize() + only


def cycle_sentence(cycle: tuple[str, ...]) -> str:
    """A pass cycle on the score sheet.

    >>> cycle_sentence(("left", "right", "hold")), cycle_sentence(("right",)), cycle_sentence(("hold",))
    ('left, right, hold, again', 'right, every hand', 'hold')
    """
    if cycle == ("hold",):
        return "hold"
    again = ", every hand" if len(cycle) == 1 else ", again"
    return ", ".join(PASSES[direction].short for direction in cycle) + again


def signed(points: int) -> str:
    """Points as a player reads a change to a score.

    >>> signed(26), signed(-10), signed(0)
    ('+26', '−10', '0')
    """
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


@dataclass(frozen=True)
class MoonWords:
    """What a moon does, in the words of each place that says it, for a moon worth ``points``."""

    points: int
    floor: bool  # the subtraction stops at 0

    @property
    def plus(self) -> str:
        return signed(self.points)

    @property
    def minus(self) -> str:
        return signed(-self.points)

    @property
    def options(self) -> dict[str, str]:
        """The moon panel's choices."""
        return {"add": f"Everyone else {self.plus}", "subtract": f"Shooter {self.minus}"}

    def marks(self) -> dict[str, str]:
        """A moon in the list of hands and on the sheet."""
        return {"add": self.plus, "subtract": self.minus, "sun": "sun"}

    def house_rule(self, rule: str) -> str:
        """The moon panel under a fixed moon rule."""
        return {"add": f"everyone else gets {self.plus}", "subtract": f"the shooter gets {self.minus}"}[rule]

    def save_label(self, option: str, shooter: str) -> str:
        """After "Save hand ·": what the option chosen does."""
        return f"others {self.plus}" if option == "add" else f"{shooter} {self.minus}"

    def choose(self, shooter: str) -> str:
        """A moon with no option chosen."""
        return f"{shooter} shot the moon: choose add (others {self.plus}) or subtract ({shooter} {self.minus})."

    def sentence(self, rule: str) -> str:
        """The sheet's rules box."""
        below = " (not below 0)" if self.floor else " (below 0 if need be)"
        add, subtract = f"everyone else {self.plus}", f"the shooter {self.minus}{below}"
        said = {"choose": f"the shooter chooses: {add}, or {subtract}", "add": add, "subtract": subtract}
        return said[rule] + "."


def moon_choices(classic: int, others: dict[str, int]) -> dict[str, str]:
    """The new-game form's moon rules; ``others`` names the house rules that change the moon's worth.

    >>> moon_choices(26, {"Black Maria": 43})["add"]
    'Always: everyone else gets +26 (+43 with Black Maria)'
    """

    def worth(sign: int) -> str:
        more = ", ".join(f"{signed(sign * points)} with {name}" for name, points in others.items())
        return signed(sign * classic) + (f" ({more})" if more else "")

    return {
        "choose": "The shooter chooses each time (the app advises)",
        "add": f"Always: everyone else gets {worth(1)}",
        "subtract": f"Always: the shooter gets {worth(-1)}",
        "off": "No moon: whoever takes every point scores them",
    }


FLOOR_CHOICES = {
    True: "Never below 0: a shooter with fewer points goes down to 0",
    False: "The full amount: a total may go below 0",
}
FLOOR_LEGEND = "When the shooter subtracts"
TIE_CHOICES = {
    "play-on": "Play on until one player alone has the lowest total",
    "share": "Tied lowest players share the win",
}
TIE_SENTENCES = {
    "play-on": "play on until one player alone is lowest.",
    "share": "the tied players share the win.",
}
OUTCOMES = {
    "wins": "ends the game: the shooter wins",
    "shares": "ends the game: the shooter shares the win",
    "goes-on": "the game goes on",
    "loses": "ends the game: someone else wins",
}
EXACT_RESET = "Exact reset: a total landing exactly on the target goes back to 0"


def sun_switch(classic: int, others: dict[str, int]) -> str:
    """The forms' switch for shooting the sun.

    >>> sun_switch(52, {"Black Maria": 86})
    'Shooting the sun: taking every trick gives everyone else 52 (86 with Black Maria)'
    """
    more = ", ".join(f"{points} with {name}" for name, points in others.items())
    return f"Shooting the sun: taking every trick gives everyone else {classic}" + (f" ({more})" if more else "")


def card_rule_switch(name: str, cards: list[tuple[str, int]]) -> str:
    """A house rule that brings penalty cards in, on the forms.

    >>> card_rule_switch("Black Maria", [("K♠", 10), ("A♠", 7)])
    'Black Maria: the K♠ scores 10 and the A♠ 7'
    >>> card_rule_switch("Omnibus", [("J♦", -10)])
    'Omnibus: the J♦ scores −10 for whoever takes it'
    """
    (card, points), *more = cards
    first = f"{name}: the {card} scores {worth(points)}"
    if not more:
        return f"{first} for whoever takes it"
    return first + "".join(f" and the {other} {worth(points)}" for other, points in more)


def worth(points: int) -> str:
    """Points a card is worth, as said beside it.

    >>> worth(10), worth(-10)
    ('10', '−10')
    """
    return signed(points).removeprefix("+")


def points_sentence(hearts: int, cards: list[tuple[str, int]], total: int) -> str:
    """What the cards of a hand are worth, on the score sheet.

    >>> points_sentence(13, [("Q♠", 13), ("K♠", 10), ("A♠", 7)], 43)
    '1 point a heart, 13 for the Q♠, 10 for the K♠ and 7 for the A♠: 43 points in every hand.'
    """
    named = [f"{points} for the {card}" for card, points in cards]
    listed = ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else "".join(named)
    return f"1 point a heart, {listed}: {total} points in every hand." if hearts else listed


def bonus_sentence(name: str, card: str, points: int, total: int) -> str:
    """A card that scores for its taker, moon or not."""
    return f" {name}: the {card} scores {signed(points)} for whoever takes it ({total} a hand)."


def moon_needs(hearts: int, cards: list[str]) -> str:
    """What the shooter of a moon takes.

    >>> moon_needs(13, ["Q♠", "K♠", "A♠"])
    'all 13 hearts, the Q♠, the K♠ and the A♠'
    """
    named = [f"all {hearts} hearts", *(f"the {card}" for card in cards)]
    return ", ".join(named[:-1]) + " and " + named[-1]
