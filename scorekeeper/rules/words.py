"""The words a player reads about the rules, in one place (a moon's in moon_phrases.py): the forms, the pages, the
sheets and the scripts say these.

Numbers never appear here as such: a sentence that names points takes them from the rules (cards.py), so a
house rule that changes them changes the words too. Error messages stay beside the checks that raise them.
Every sentence is a message of the catalogs (i18n/request.py), whole, with its values by name: a language puts them
where its own grammar wants them.
"""

from typing import TYPE_CHECKING

from .i18n import N_, _, capitalized, ngettext, signed, total
from .i18n import listed as listed
from .passing import PASSES as PASSES

if TYPE_CHECKING:
    from .standings import Standing


ALWAYS = {"left": N_("Always pass left"), "right": N_("Always pass right")}  # the cycles of one pass


def pass_line(direction: str, cards: int) -> str:
    """What to do with the cards before a hand.

    >>> pass_line("left2", 3), pass_line("hold", 3)
    ('Pass 3 cards two seats to the left', 'Hold: no passing')
    """
    if direction == "hold":
        return _("Hold: no passing")
    where = PASSES[direction].long
    return ngettext("Pass %(num)d card %(where)s", "Pass %(num)d cards %(where)s", cards, where=where)


def standing_tag(standing: "Standing", target: int) -> str:
    """What the scoreboard says under a total: the lowest (not "leads", which a player reads as leading the first
    trick), every total past the target, and how far the total nearest the target has to go; once the game is
    over, who won.

    >>> from .standings import Standing
    >>> [standing_tag(Standing(0, total, 1, leads, closest, to_go), 100) for total, leads, closest, to_go in
    ...  [(40, True, False, 60), (93, False, True, 7), (107, False, True, None), (104, False, False, None)]]
    ['♛ lowest', '7 to go', 'past 100', 'past 100']
    >>> standing_tag(Standing(0, 40, 1, False, False, 60, wins=True), 100)
    '♛ wins'
    """
    if standing.wins:
        return _("♛ wins")
    if standing.leads:
        return _("♛ lowest")
    if standing.to_go is None:  # every total past the target says so, not the highest alone
        return _("past %(target)d", target=target)
    if not standing.closest:
        return ""
    return ngettext("%(num)d to go", "%(num)d to go", standing.to_go)


def standard_cycle() -> str:
    return _("Standard: left, right, across, hold with 4 players; left, right, hold with 3 or 5")


def hand_count(count: int) -> str:
    """A number of hands, as a player reads it: never "1 hands".

    >>> hand_count(1), hand_count(2)
    ('1 hand', '2 hands')
    """
    return ngettext("%(num)d hand", "%(num)d hands", count)


def tie_break() -> str:
    """The game goes on because the lowest total is shared: the next hand's banner, the live check before Save."""
    return _("Tie for the lowest total: play goes on until one player alone is lowest.")


def tie_break_brief() -> str:
    """The same, where it is read from across a table (the table display turned sideways)."""
    return _("Tie for the lowest: play on.")


def cycle_choice(cycle: tuple[str, ...], players: int | None) -> str:
    """A pass cycle as the new-game form offers it.

    >>> cycle_choice(("left", "left2", "right2", "right", "hold"), 5)
    'Left, 2 left, 2 right, right, hold (5 players only)'
    >>> cycle_choice(("right",), None), cycle_choice(("hold",), None)
    ('Always pass right', 'No passing')
    """
    if cycle == ("hold",):
        return _("No passing")
    if len(cycle) == 1:
        return _(ALWAYS[cycle[0]])
    listed = capitalized(_(", ").join(PASSES[direction].short for direction in cycle))
    if not players:
        return listed
    return ngettext("%(cycle)s (%(num)d player only)", "%(cycle)s (%(num)d players only)", players, cycle=listed)


def cycle_sentence(cycle: tuple[str, ...]) -> str:
    """A pass cycle on the score sheet.

    >>> cycle_sentence(("left", "right", "hold")), cycle_sentence(("right",)), cycle_sentence(("hold",))
    ('left, right, hold, again', 'right, every hand', 'hold')
    """
    listed = _(", ").join(PASSES[direction].short for direction in cycle)
    if cycle == ("hold",):
        return listed
    if len(cycle) == 1:
        return _("%(cycle)s, every hand", cycle=listed)
    return _("%(cycle)s, again", cycle=listed)


FLOOR_CHOICES = {
    True: N_("Never below 0: a shooter with fewer points goes down to 0"),
    False: N_("The full amount: a total may go below 0"),
}
TIE_CHOICES = {
    "play-on": N_("Play on until one player alone has the lowest total"),
    "share": N_("Tied lowest players share the win"),
}
TIE_SENTENCES = {
    "play-on": N_("play on until one player alone is lowest."),
    "share": N_("the tied players share the win."),
}


def in_language(messages: dict[str, str]) -> dict[str, str]:
    """A table of words above, in the table's language."""
    return {key: _(message) for key, message in messages.items()}


def card_rule_switch(name: str, cards: list[tuple[str, int]]) -> str:
    """A house rule that brings penalty cards in, on the forms; ``cards``: each card's subject form and points.

    >>> card_rule_switch("Black Maria", [("the K♠", 10), ("the A♠", 7)])
    'Black Maria: the K♠ scores 10 and the A♠ 7'
    >>> card_rule_switch("Omnibus", [("the J♦", -10)])
    'Omnibus: the J♦ scores −10 for whoever takes it'
    """
    (card, points), *more = cards
    if not more:
        return _(
            "%(rule)s: %(card)s scores %(points)s for whoever takes it", rule=name, card=card, points=worth(points)
        )
    scores = _("%(rule)s: %(card)s scores %(points)s", rule=name, card=card, points=worth(points))
    return scores + "".join(_(" and %(card)s %(points)s", card=other, points=worth(points)) for other, points in more)


def worth(points: int) -> str:
    """Points a card is worth, as said beside it.

    >>> worth(10), worth(-10)
    ('10', '−10')
    """
    return total(points)


def points_sentence(hearts: int, cards: list[tuple[str, int]], total: int) -> str:
    """What the cards of a hand are worth, on the score sheet; ``cards``: each card's object form and points.

    >>> points_sentence(13, [("the Q♠", 13), ("the K♠", 10), ("the A♠", 7)], 43)
    '1 point a heart, 13 for the Q♠, 10 for the K♠ and 7 for the A♠: 43 points in every hand.'
    """
    named = listed([_("%(points)d for %(card)s", points=points, card=card) for card, points in cards])
    if not hearts:
        return named
    return ngettext(
        "1 point a heart, %(cards)s: %(num)d point in every hand.",
        "1 point a heart, %(cards)s: %(num)d points in every hand.",
        total,
        cards=named,
    )


def bonus_sentence(name: str, card: str, points: int, total: int) -> str:
    """A card that scores for its taker, moon or not; ``card``: its subject form."""
    return " " + _(
        "%(rule)s: %(card)s scores %(points)s for whoever takes it (%(total)d a hand).",
        rule=name,
        card=card,
        points=signed(points),
        total=total,
    )
