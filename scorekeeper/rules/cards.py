"""The cards that score, and a hand's facts: who took how many hearts and who took each penalty card.

One table says what each penalty card is worth, which house rule puts it in
play, whether a moon needs it, and how the hand form asks who took it. The
hand's fields, the forms, the pages, the API and the exports all follow it.
"""

from dataclasses import dataclass, fields

from .house import HouseRules
from .i18n import N_, NP_, _, pgettext, signed

HEARTS = 13  # no heart ever leaves the deck: every hand has all of them, one point each
HEART_POINTS = 1
PASS_CARDS = 3  # each player passes this many cards


@dataclass(frozen=True)
class PenaltyCard:
    key: str  # the hand's field that names the seat that took it (and its column, and its JSON key)
    points: int
    rule: str | None  # the on/off house rule that puts it in play; None: every game plays it
    moon: bool  # shooting the moon takes it with every heart; a bonus card (moon False) scores for its taker anyway
    listed: bool = False  # an API hand lists its key even when the game does not play it (null), as it always has

    @property
    def name(self) -> str:
        """The card alone, where room is short: a column head, a hand in review ("Q♠")."""
        return pgettext("card", CARD_NAMES[self.key])

    @property
    def subject(self) -> str:
        """The card as a sentence's subject: "the Q♠ scores 13" (languages with cases say it apart)."""
        return pgettext("card as subject", CARD_SUBJECTS[self.key])

    @property
    def object(self) -> str:
        """The card as a sentence's object: "who took the Q♠"."""
        return pgettext("card as object", CARD_OBJECTS[self.key])

    @property
    def question(self) -> str:
        """How the hand form asks for it: the points show when a house rule brought the card in.

        >>> PENALTY_CARDS[1].question
        'Who took the J♦ (−10)'
        """
        if self.rule:
            return _("Who took %(card)s (%(points)s)", card=self.object, points=signed(self.points))
        return _("Who took %(card)s", card=self.object)

    @property
    def ask(self) -> str:
        """The question when the card is all a hand still lacks."""
        return _("Who took %(card)s?", card=self.object)


PENALTY_CARDS = (
    PenaltyCard("queen", 13, None, moon=True, listed=True),
    PenaltyCard("jack", -10, "omnibus", moon=False, listed=True),
    PenaltyCard("king", 10, "black_maria", moon=True),
    PenaltyCard("ace", 7, "black_maria", moon=True),
)
# Each card's words, by key: whole phrases, so that a language with cases and genders says each rightly.
CARD_NAMES = {"queen": NP_("card", "Q♠"), "jack": NP_("card", "J♦"), "king": NP_("card", "K♠"),
              "ace": NP_("card", "A♠")}  # fmt: skip
CARD_SUBJECTS = {"queen": NP_("card as subject", "the Q♠"), "jack": NP_("card as subject", "the J♦"),
                 "king": NP_("card as subject", "the K♠"), "ace": NP_("card as subject", "the A♠")}  # fmt: skip
CARD_OBJECTS = {"queen": NP_("card as object", "the Q♠"), "jack": NP_("card as object", "the J♦"),
                "king": NP_("card as object", "the K♠"), "ace": NP_("card as object", "the A♠")}  # fmt: skip
CARD_RULES = {"omnibus": N_("Omnibus"), "black_maria": N_("Black Maria")}  # the house rules that bring cards in


def rule_name(rule: str) -> str:
    """The name of a house rule that brings cards in, as the table's language says it."""
    return _(CARD_RULES[rule])


CARD_KEYS = tuple(card.key for card in PENALTY_CARDS)


@dataclass(frozen=True)
class Hand:
    """What each seat captured in one hand, and the moon choice if one was made.

    Each penalty card of the table has a field of its own name: the seat that took it, None when not in play.
    """

    hearts: tuple[int, ...]
    queen: int
    jack: int | None = None
    king: int | None = None
    ace: int | None = None
    all_tricks: int | None = None
    moon_option: str | None = None

    def taker(self, card: PenaltyCard) -> int | None:
        taken: int | None = getattr(self, card.key)
        return taken


HAND_FIELDS = tuple(field.name for field in fields(Hand))


def in_play(rules: HouseRules) -> tuple[PenaltyCard, ...]:
    """The penalty cards this game plays, in the table's order.

    >>> [card.name for card in in_play(HouseRules(black_maria=True))]
    ['Q♠', 'K♠', 'A♠']
    """
    return tuple(card for card in PENALTY_CARDS if card.rule is None or getattr(rules, card.rule))


def moon_cards(rules: HouseRules) -> tuple[PenaltyCard, ...]:
    return tuple(card for card in in_play(rules) if card.moon)


def hand_points(rules: HouseRules) -> int:
    """The points every hand gives out.

    >>> hand_points(HouseRules()), hand_points(HouseRules(omnibus=True)), hand_points(HouseRules(black_maria=True))
    (26, 16, 43)
    """
    return HEARTS * HEART_POINTS + sum(card.points for card in in_play(rules))


def moon_points(rules: HouseRules) -> int:
    """What shooting the moon is worth: every heart and every moon card.

    >>> moon_points(HouseRules()), moon_points(HouseRules(omnibus=True)), moon_points(HouseRules(black_maria=True))
    (26, 26, 43)
    """
    return HEARTS * HEART_POINTS + sum(card.points for card in moon_cards(rules))


def sun_points(rules: HouseRules) -> int:
    """Shooting the sun gives everyone else twice the moon."""
    return 2 * moon_points(rules)
