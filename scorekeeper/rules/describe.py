"""The house rules and the table's setup in words, for the score sheet's rules box."""

from dataclasses import dataclass

from .house import CARDS_EACH, CARDS_REMOVED, OPENING_LEAD, PASS_CYCLES, HouseRules

MOON_WORDS = {
    "choose": "the shooter chooses: everyone else +26, or the shooter −26 (not below 0).",
    "add": "everyone else +26.",
    "subtract": "the shooter −26 (not below 0).",
}
TIE_WORDS = {
    "play-on": "play on until one player alone is lowest.",
    "share": "the tied players share the win.",
}


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


def table_setup(players: int) -> TableSetup:
    return TableSetup(players, CARDS_REMOVED[players], CARDS_EACH[players], OPENING_LEAD[players])


def describe(rules: HouseRules, players: int) -> list[str]:
    """The rules of a game as sentences a table reads before it starts.

    >>> describe(HouseRules(target=50, exact_reset=True), 4)[2]
    'The game ends when someone reaches 50; the lowest total wins. A total landing exactly on 50 goes back to 0. \
A tie for the lowest: play on until one player alone is lowest.'
    >>> describe(HouseRules(pass_cycle="none"), 4)[3]
    'Passing: hold. The deal moves left each hand.'
    """
    omnibus = " Omnibus: the J♦ scores −10 for whoever takes it (16 a hand)." if rules.omnibus else ""
    sun = " Shooting the sun (every trick too): everyone else +52." if rules.sun else ""
    reset = f" A total landing exactly on {rules.target} goes back to 0." if rules.exact_reset else ""
    again = ", again" if rules.pass_cycle != "none" else ""
    return [
        f"1 point a heart, 13 for the Q♠: 26 points in every hand.{omnibus}",
        f"Shooting the moon (all 13 hearts and the Q♠): {MOON_WORDS[rules.moon]}{sun}",
        f"The game ends when someone reaches {rules.target}; the lowest total wins.{reset} "
        f"A tie for the lowest: {TIE_WORDS[rules.tie]}",
        f"Passing: {', '.join(PASS_CYCLES[rules.pass_cycle])}{again}. The deal moves left each hand.",
        table_setup(players).sentence,
    ]
