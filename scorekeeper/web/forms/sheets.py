"""The blank sheet's choices."""

from flask_babel import lazy_gettext
from wtforms import IntegerField, RadioField, StringField
from wtforms.validators import Optional

from ... import rules
from . import options
from .house import HouseRuleFields, label


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
