"""The house rules and the table's setup in words: the score sheet's rules box, the forms' choices, the pages' moon."""

from collections.abc import Callable
from dataclasses import dataclass

from . import moon_phrases, words
from .cards import (
    CARD_RULES,
    HEARTS,
    PENALTY_CARDS,
    PenaltyCard,
    hand_points,
    in_play,
    moon_cards,
    moon_points,
    rule_name,
    sun_points,
)
from .hands import moon_needs, subtracted
from .house import (
    CARDS_EACH,
    CARDS_REMOVED,
    HOUSE_RULE,
    HOUSE_RULES,
    MOON_RULES,
    OPENING_LEAD,
    PRESETS,
    SWITCHES,
    HouseRules,
    Preset,
    rule_label,
)
from .i18n import NP_, _, ngettext, pgettext, signed
from .passing import PASS_CYCLES, cycle_players, default_pass_cycle


@dataclass(frozen=True)
class TableSetup:
    """What the deck and the first lead are for a number of players (docs/rules.md, "Players and the deck")."""

    players: int
    removed: tuple[str, ...]
    cards_each: int
    leads: str

    @property
    def sentence(self) -> str:
        """How to deal for this table.

        >>> table_setup(5).sentence
        '5 players: remove the 2♣ and 2♦; 10 cards each; the holder of the 3♣ leads.'
        """
        values = {"players": self.players, "each": self.cards_each, "leads": card_name(self.leads)}
        if not self.removed:
            return _("%(players)d players: %(each)d cards each; the holder of the %(leads)s leads.", **values)
        removed = words.listed([card_name(card) for card in self.removed])
        return _("%(players)d players: remove the %(removed)s; %(each)d cards each; the holder of the %(leads)s leads.",
                 removed=removed, **values)  # fmt: skip

    @property
    def lead_line(self) -> str:
        """Under the next hand: who leads, and what comes out of the deck.

        >>> table_setup(5).lead_line, table_setup(4).lead_line
        ('The 3♣ leads; remove the 2♣ and 2♦.', 'The 2♣ leads.')
        """
        leads = card_name(self.leads)
        if not self.removed:
            return _("The %(leads)s leads.", leads=leads)
        removed = words.listed([card_name(card) for card in self.removed])
        return _("The %(leads)s leads; remove the %(removed)s.", leads=leads, removed=removed)


# The cards a table's setup names (house.CARDS_REMOVED, house.OPENING_LEAD), as words a language may spell out.
DECK_CARDS = {"2♣": NP_("deck card", "2♣"), "2♦": NP_("deck card", "2♦"), "3♣": NP_("deck card", "3♣")}


def card_name(card: str) -> str:
    """A card of the deck by its symbol ("2♣"), as the table's language writes it.

    >>> card_name("3♣")
    '3♣'
    """
    return pgettext("deck card", DECK_CARDS[card])


def table_setup(players: int) -> TableSetup:
    return TableSetup(players, CARDS_REMOVED[players], CARDS_EACH[players], OPENING_LEAD[players])


def moon_words(rules: HouseRules, before: int | None = None) -> moon_phrases.MoonWords:
    """What a moon does in this game, in the words each page says it; ``before``: the shooter's total before the
    hand, when known, for what subtracting really takes off (the floor's).

    >>> moon_words(HouseRules(black_maria=True), before=29).minus, moon_words(HouseRules(), before=-5).minus
    ('−29', '0')
    """
    return moon_phrases.MoonWords(
        moon_points(rules), rules.subtract_floor, None if before is None else subtracted(rules, before)
    )


def describe(rules: HouseRules, players: int) -> list[str]:
    """The rules of a game as sentences a table reads before it starts.

    >>> describe(HouseRules(target=50, exact_reset=True), 4)[2]
    'The game ends when someone reaches 50; the lowest total wins. A total landing exactly on 50 goes back to 0. \
A tie for the lowest: play on until one player alone is lowest.'
    >>> describe(HouseRules(pass_cycle="none"), 4)[3]
    'Passing: hold. The deal moves left each hand.'
    >>> describe(HouseRules(black_maria=True), 3)[0]
    '1 point a heart, 13 for the Q♠, 10 for the K♠ and 7 for the A♠: 43 points in every hand.'
    """
    ends = _("The game ends when someone reaches %(target)d; the lowest total wins.", target=rules.target)
    if rules.exact_reset:
        ends += " " + _("A total landing exactly on %(target)d goes back to 0.", target=rules.target)
    tie = _("A tie for the lowest: %(rule)s", rule=_(words.TIE_SENTENCES[rules.tie]))
    passing = _("Passing: %(cycle)s. The deal moves left each hand.",
                cycle=words.cycle_sentence(PASS_CYCLES[rules.pass_cycle]))  # fmt: skip
    return [_points(rules), _moon(rules), f"{ends} {tie}", passing, table_setup(players).sentence]


def _points(rules: HouseRules) -> str:
    worth = [(card.object, card.points) for card in moon_cards(rules)]
    scoring = words.points_sentence(HEARTS, worth, moon_points(rules))
    for card in in_play(rules):
        if not card.moon and card.rule:
            scoring += words.bonus_sentence(rule_name(card.rule), card.subject, card.points, hand_points(rules))
    return scoring


def _moon(rules: HouseRules) -> str:
    if rules.moon == "off":
        return _("No shooting the moon: whoever takes every point scores them like any hand.")
    needs = moon_needs(HEARTS, [card.object for card in moon_cards(rules)])
    said = _("Shooting the moon (%(needs)s): %(rule)s", needs=needs, rule=moon_words(rules).sentence(rules.moon))
    if not rules.sun:
        return said
    sun = _("Shooting the sun (every trick too): everyone else %(points)s.", points=signed(sun_points(rules)))
    return f"{said} {sun}"


def _worth_elsewhere(sign: int, points: Callable[[HouseRules], int] = moon_points) -> tuple[int, dict[str, int]]:
    """A moon's (or the sun's) worth in the classic game, and in each game whose house rule changes it."""
    classic = points(HouseRules())
    others = {}
    for rule in CARD_RULES:
        worth = points(HouseRules(**{rule: True}))  # type: ignore[arg-type]
        if worth != classic:
            others[rule_name(rule)] = sign * worth
    return sign * classic, others


def moon_choices() -> dict[str, str]:
    """The new-game form's moon rules, with what each is worth."""
    classic, others = _worth_elsewhere(1)
    choices = moon_phrases.moon_choices(classic, others)
    return {rule: choices[rule] for rule in MOON_RULES}


def switch_labels() -> dict[str, str]:
    """One label for each on/off house rule, for the forms."""
    classic, others = _worth_elsewhere(1, sun_points)
    labels = {key: rule_label(key) for key in SWITCHES if HOUSE_RULE[key].label}
    labels["sun"] = moon_phrases.sun_switch(classic, others)
    for rule in CARD_RULES:
        cards = [(card.subject, card.points) for card in _brought_by(rule)]
        labels[rule] = words.card_rule_switch(rule_name(rule), cards)
    return {key: labels[key] for key in SWITCHES}


def switch_answers() -> dict[str, dict[bool, str]]:
    """The two answers of each on/off house rule that is on unless chosen (the forms ask it as a choice)."""
    return {"subtract_floor": {on: _(message) for on, message in words.FLOOR_CHOICES.items()}}


def _brought_by(rule: str) -> list[PenaltyCard]:
    return [card for card in PENALTY_CARDS if card.rule == rule]


def pass_cycle_choices() -> dict[str, str]:
    """The new-game form's pass cycles, each with the table it needs."""
    return {cycle: words.cycle_choice(passes, cycle_players(cycle)) for cycle, passes in PASS_CYCLES.items()}


def presets() -> list[tuple[Preset, str]]:
    """The presets the new-game form offers, each with a line saying what it sets.

    >>> presets()[1][1]
    '3 players · K♠ 10, A♠ 7 · Always pass right'
    """
    labels, cycles = switch_labels(), pass_cycle_choices()
    offered = []
    for preset in PRESETS:
        said = [ngettext("%(num)d player", "%(num)d players", preset.players)] if preset.players else []
        for key, value in preset.rules.items():
            if key in CARD_RULES:
                said.append(", ".join(f"{card.name} {words.worth(card.points)}" for card in _brought_by(key)))
            else:
                said.append(cycles[str(value)] if key == "pass_cycle" else labels[key])
        offered.append((preset, " · ".join(said) or _("Every house rule as it comes")))
    return offered


def differences(rules: HouseRules, players: int) -> list[str]:
    """Every house rule a game plays otherwise than Classic, as the new-game form words it (who deals first aside).

    >>> differences(HouseRules(target=50, black_maria=True, pass_cycle="right"), 3)
    ['Play to: 50', 'Passing: Always pass right', 'Black Maria: the K♠ scores 10 and the A♠ 7']
    >>> differences(HouseRules(pass_cycle="left-right-across-hold"), 4)
    []

    The moon in this game's own words (the new-game form's also says what it is worth in others):

    >>> differences(HouseRules(moon="subtract"), 4)
    ['Shooting the moon: the shooter −26 (not below 0)']
    """
    classic = HouseRules(pass_cycle=default_pass_cycle(players))
    values = {"target": str(rules.target), "pass_cycle": pass_cycle_choices()[rules.pass_cycle],
              "moon": moon_words(rules).sentence(rules.moon).rstrip("."), "tie": _(words.TIE_CHOICES[rules.tie]),
              "subtract_floor": switch_answers()["subtract_floor"][rules.subtract_floor]}  # fmt: skip
    labels = switch_labels()
    said = []
    for rule in HOUSE_RULES:
        if rule.key == "first_dealer" or getattr(rules, rule.key) == getattr(classic, rule.key):
            continue
        if rule.key in values:
            said.append(_("%(rule)s: %(value)s", rule=rule_label(rule.key), value=values[rule.key]))
        elif getattr(rules, rule.key):
            said.append(labels[rule.key])
    return said
