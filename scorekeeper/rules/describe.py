"""The house rules and the table's setup in words: the score sheet's rules box, the forms' choices, the pages' moon."""

from dataclasses import dataclass

from . import words
from .cards import CARD_RULES, HEARTS, PENALTY_CARDS, PenaltyCard, hand_points, in_play, moon_cards, moon_points
from .house import (
    CARDS_EACH,
    CARDS_REMOVED,
    MOON_RULES,
    OPENING_LEAD,
    PASS_CYCLES,
    PRESETS,
    SWITCHES,
    HouseRules,
    Preset,
    cycle_players,
)


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
        remove = f"remove the {' and '.join(self.removed)}; " if self.removed else ""
        return f"{self.players} players: {remove}{self.cards_each} cards each; the holder of the {self.leads} leads."

    @property
    def lead_line(self) -> str:
        """Under the next hand: who leads, and what comes out of the deck.

        >>> table_setup(5).lead_line, table_setup(4).lead_line
        ('The 3♣ leads; remove the 2♣ and 2♦.', 'The 2♣ leads.')
        """
        remove = f"; remove the {' and '.join(self.removed)}" if self.removed else ""
        return f"The {self.leads} leads{remove}."


def table_setup(players: int) -> TableSetup:
    return TableSetup(players, CARDS_REMOVED[players], CARDS_EACH[players], OPENING_LEAD[players])


def moon_words(rules: HouseRules) -> words.MoonWords:
    """What a moon does in this game, in the words each page says it."""
    return words.MoonWords(moon_points(rules), rules.subtract_floor)


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
    reset = f" A total landing exactly on {rules.target} goes back to 0." if rules.exact_reset else ""
    return [
        _points(rules),
        _moon(rules),
        f"The game ends when someone reaches {rules.target}; the lowest total wins.{reset} "
        f"A tie for the lowest: {words.TIE_SENTENCES[rules.tie]}",
        f"Passing: {words.cycle_sentence(PASS_CYCLES[rules.pass_cycle])}. The deal moves left each hand.",
        table_setup(players).sentence,
    ]


def _points(rules: HouseRules) -> str:
    worth = [(card.name, card.points) for card in moon_cards(rules)]
    scoring = words.points_sentence(HEARTS, worth, moon_points(rules))
    for card in in_play(rules):
        if not card.moon and card.rule:
            scoring += words.bonus_sentence(CARD_RULES[card.rule], card.name, card.points, hand_points(rules))
    return scoring


def _moon(rules: HouseRules) -> str:
    if rules.moon == "off":
        return "No shooting the moon: whoever takes every point scores them like any hand."
    needs = words.moon_needs(HEARTS, [card.name for card in moon_cards(rules)])
    sun = f" Shooting the sun (every trick too): everyone else {words.signed(2 * moon_points(rules))}."
    return f"Shooting the moon ({needs}): {moon_words(rules).sentence(rules.moon)}{sun if rules.sun else ''}"


def _worth_elsewhere(sign: int, times: int = 1) -> tuple[int, dict[str, int]]:
    """A moon's worth in the classic game, and in each game whose house rule changes it (for the form)."""
    classic = moon_points(HouseRules())
    others = {}
    for rule, name in CARD_RULES.items():
        worth = moon_points(HouseRules(**{rule: True}))  # type: ignore[arg-type]
        if worth != classic:
            others[name] = sign * times * worth
    return sign * times * classic, others


def moon_choices() -> dict[str, str]:
    """The new-game form's moon rules, with what each is worth."""
    classic, others = _worth_elsewhere(1)
    choices = words.moon_choices(classic, others)
    return {rule: choices[rule] for rule in MOON_RULES}


def switch_labels() -> dict[str, str]:
    """One label for each on/off house rule, for the forms."""
    classic, others = _worth_elsewhere(1, 2)
    labels = {"sun": words.sun_switch(classic, others), "exact_reset": words.EXACT_RESET,
              "subtract_floor": words.FLOOR_LEGEND}  # fmt: skip
    for rule, name in CARD_RULES.items():
        labels[rule] = words.card_rule_switch(name, [(card.name, card.points) for card in _brought_by(rule)])
    return {key: labels[key] for key in SWITCHES}


def switch_answers() -> dict[str, dict[bool, str]]:
    """The two answers of each on/off house rule that is on unless chosen (the forms ask it as a choice)."""
    return {"subtract_floor": words.FLOOR_CHOICES}


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
        said = [f"{preset.players} players"] if preset.players else []
        for key, value in preset.rules.items():
            if key in CARD_RULES:
                said.append(", ".join(f"{card.name} {words.worth(card.points)}" for card in _brought_by(key)))
            else:
                said.append(cycles[str(value)] if key == "pass_cycle" else labels[key])
        offered.append((preset, " · ".join(said) or "Every house rule as it comes"))
    return offered
