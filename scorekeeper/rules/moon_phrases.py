"""The words a player reads about shooting the moon (and the sun): the moon panel, the list of hands, the sheet's
rules box and the forms' choices. As in words.py, points come from the rules, never written here.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .i18n import N_, _, signed

if TYPE_CHECKING:
    from .hands import Moon

MOON_OPTION_WORDS = {"add": N_("add"), "subtract": N_("subtract"), "sun": N_("sun")}  # the option a moon used
OUTCOMES = {
    "wins": N_("ends the game: the shooter wins"),
    "shares": N_("ends the game: the shooter shares the win"),
    "goes-on": N_("the game goes on"),
    "loses": N_("ends the game: someone else wins"),
}


@dataclass(frozen=True)
class MoonWords:
    """What a moon does, in the words of each place that says it, for a moon worth ``points``."""

    points: int
    floor: bool  # the subtraction stops at 0
    off: int | None = None  # what subtracting really takes off a shooter, the floor's, once the shooter is known

    @property
    def plus(self) -> str:
        return signed(self.points)

    @property
    def minus(self) -> str:
        return signed(-(self.points if self.off is None else self.off))

    @property
    def options(self) -> dict[str, str]:
        """The moon panel's choices."""
        return {
            "add": _("Everyone else %(plus)s", plus=self.plus),
            "subtract": _("Shooter %(minus)s", minus=self.minus),
        }

    def mark(self, moon: "Moon") -> str:
        """A moon in the list of hands and on the sheet: what it really moved.

        It sits in the shooter's column: what the others got says so, not to be read as the shooter's score.

        >>> from .hands import Moon
        >>> [MoonWords(26, True).mark(Moon(0, option, points)) for option, points in [("add", 26), ("subtract", 19)]]
        ['others +26', '−19']
        """
        if moon.option == "sun":
            return _(MOON_OPTION_WORDS["sun"])
        if moon.option == "add":
            return _("others %(plus)s", plus=signed(moon.points))
        return signed(-moon.points)

    def house_rule(self, rule: str) -> str:
        """The moon panel under a fixed moon rule.

        >>> MoonWords(26, True, off=10).house_rule("subtract")
        'House rule: the shooter gets −10.'
        """
        if rule == "add":
            said = _("everyone else gets %(plus)s", plus=self.plus)
        else:
            said = _("the shooter gets %(minus)s", minus=self.minus)
        return _("House rule: %(rule)s.", rule=said)

    def save_label(self, option: str, shooter: str) -> str:
        """After "Save hand ·": what the option chosen does."""
        if option == "add":
            return _("others %(plus)s", plus=self.plus)
        return _("%(shooter)s %(minus)s", shooter=shooter, minus=self.minus)

    def sentence(self, rule: str) -> str:
        """The sheet's rules box."""
        values = {"plus": self.plus, "minus": signed(-self.points)}  # the rule, whoever shoots
        if rule == "add":
            return _("everyone else %(plus)s.", **values)
        if rule == "subtract" and self.floor:
            return _("the shooter %(minus)s (not below 0).", **values)
        if rule == "subtract":
            return _("the shooter %(minus)s (below 0 if need be).", **values)
        if self.floor:
            return _("the shooter chooses: everyone else %(plus)s, or the shooter %(minus)s (not below 0).", **values)
        return _(
            "the shooter chooses: everyone else %(plus)s, or the shooter %(minus)s (below 0 if need be).", **values
        )


def moon_choices(classic: int, others: dict[str, int]) -> dict[str, str]:
    """The new-game form's moon rules; ``others`` names the house rules that change the moon's worth.

    >>> moon_choices(26, {"Black Maria": 43})["add"]
    'Always: everyone else gets +26 (+43 with Black Maria)'
    """

    def worth(sign: int) -> str:
        more = _(", ").join(
            _("%(points)s with %(rule)s", points=signed(sign * points), rule=name) for name, points in others.items()
        )
        return _("%(points)s (%(more)s)", points=signed(sign * classic), more=more) if more else signed(sign * classic)

    return {
        "choose": _("The shooter chooses each time (the app advises)"),
        "add": _("Always: everyone else gets %(points)s", points=worth(1)),
        "subtract": _("Always: the shooter gets %(points)s", points=worth(-1)),
        "off": _("No moon: whoever takes every point scores them"),
    }


def sun_switch(classic: int, others: dict[str, int]) -> str:
    """The forms' switch for shooting the sun.

    >>> sun_switch(52, {"Black Maria": 86})
    'Shooting the sun: taking every trick gives everyone else 52 (86 with Black Maria)'
    """
    if not others:
        return _("Shooting the sun: taking every trick gives everyone else %(points)d", points=classic)
    more = _(", ").join(_("%(points)d with %(rule)s", points=points, rule=name) for name, points in others.items())
    return _(
        "Shooting the sun: taking every trick gives everyone else %(points)d (%(more)s)", points=classic, more=more
    )
