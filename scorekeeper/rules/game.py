"""A whole game: replaying hands and the end of the game (sections 6–8); the moon's advice is advice.py's."""

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Hand, hand_points
from .errors import RuleError
from .hands import Moon, fixed_option, hand_scores
from .house import HouseRules
from .i18n import _
from .passing import dealer, pass_direction, pass_targets

# The most hands any game takes, however long its target (most_hands): an endless game would slow every page that
# replays it, and an import of such games would hold the processor for minutes.
MAX_HANDS = 500
# A real game's length, over the hands it needs when no moon takes points back (most_hands).
LONGEST_REAL_GAME = 3
TIE_BREAK_HANDS = 10


@dataclass(frozen=True)
class Outcome:
    finished: bool
    winners: tuple[int, ...]
    tie_break: bool  # play goes on only because the lowest total is tied


@dataclass(frozen=True)
class ScoredHand:
    number: int
    dealer: int
    pass_direction: str
    hand: Hand
    moon: Moon | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class NextHand:
    number: int
    dealer: int
    pass_direction: str
    passes: tuple[tuple[int, int], ...]
    tie_break: bool


def hand_after(played: int) -> int:
    """The number of the hand after ``played`` hands: a game's hands count from 1."""
    return played + 1


@dataclass(frozen=True)
class GameState:
    players: int
    rules: HouseRules
    hands: tuple[ScoredHand, ...]
    totals: tuple[int, ...]
    outcome: Outcome

    @property
    def finished(self) -> bool:
        return self.outcome.finished

    @property
    def next_hand(self) -> NextHand | None:
        return None if self.finished else self.hand_ahead(hand_after(len(self.hands)))

    @property
    def full(self) -> bool:
        """Whether it holds the most hands a game takes (most_hands), and so takes no more, nobody at the target."""
        return len(self.hands) >= most_hands(self.players, self.rules)

    def full_words(self) -> str:
        """Why a full game takes no more hands, in the words a table reads."""
        most = most_hands(self.players, self.rules)
        return _("A game to %(target)d points takes at most %(most)d hands, more than any real game needs, and this "
                 "one has them all.", target=self.rules.target, most=most)  # fmt: skip

    def upcoming(self) -> NextHand:
        """The next hand; a finished game refuses to take one (docs/rules.md, "The end of the game")."""
        if self.next_hand is None:
            raise RuleError(_("This game is finished: it takes no more hands."), conflict=True)
        return self.next_hand

    def hands_ahead(self, count: int) -> tuple[NextHand, ...]:
        """The next ``count`` hands as they will be dealt and passed (none once finished).

        >>> [ahead.pass_direction for ahead in new_game(4, HouseRules()).hands_ahead(5)]
        ['left', 'right', 'across', 'hold', 'left']
        """
        if self.finished:
            return ()
        first = hand_after(len(self.hands))
        return tuple(self.hand_ahead(number) for number in range(first, first + count))

    def hand_ahead(self, number: int) -> NextHand:
        """Hand ``number``'s dealer and passes; a tie-break while the lowest total stays tied."""
        direction = pass_direction(self.rules, number)
        return NextHand(
            number=number,
            dealer=dealer(self.rules, self.players, number),
            pass_direction=direction,
            passes=tuple(pass_targets(direction, self.players)),
            tie_break=self.outcome.tie_break,
        )


def outcome(totals: Sequence[int], rules: HouseRules) -> Outcome:
    """Whether the game ends after a hand with these totals, and who wins.

    >>> outcome([101, 106, 82, 82], HouseRules(tie="share")).winners
    (2, 3)
    """
    if max(totals) < rules.target:
        return Outcome(False, (), False)
    lowest = min(totals)
    leaders = tuple(seat for seat, total in enumerate(totals) if total == lowest)
    if len(leaders) == 1 or rules.tie == "share":
        return Outcome(True, leaders, False)
    return Outcome(False, (), True)


def new_game(players: int, rules: HouseRules) -> GameState:
    return GameState(players, rules, (), (0,) * players, Outcome(False, (), False))


def most_hands(players: int, rules: HouseRules) -> int:
    """The most hands a game takes: three times the hands its target needs when no moon takes points back, and ten
    more for ties (docs/rules.md, "The end of the game"). No real game comes near it.

    Every hand gives out its points (26, 16 with the J♦), so by this hand some total has reached the target:

    >>> most_hands(4, HouseRules()), most_hands(5, HouseRules(omnibus=True)), most_hands(3, HouseRules(target=1000))
    (58, 106, 358)
    >>> most_hands(5, HouseRules(target=1000, omnibus=True))
    500
    """
    needed = -(-players * rules.target // hand_points(rules))  # rounded up
    return min(MAX_HANDS, LONGEST_REAL_GAME * needed + TIE_BREAK_HANDS)


def play(state: GameState, hand: Hand, option: str | None = None) -> GameState:
    """The state after one more hand; ``option`` overrides the hand's moon option."""
    upcoming = state.upcoming()
    if state.full:
        message = state.full_words()
        raise RuleError(message, {"hands": message})
    scores, moon = hand_scores(hand, state.rules, state.totals, option or fixed_option(hand, state.rules))
    totals = reset_exact(tuple(before + score for before, score in zip(state.totals, scores, strict=True)), state.rules)
    scored = ScoredHand(upcoming.number, upcoming.dealer, upcoming.pass_direction, hand, moon, tuple(scores), totals)
    return GameState(state.players, state.rules, (*state.hands, scored), totals, outcome(totals, state.rules))


def reset_exact(totals: tuple[int, ...], rules: HouseRules) -> tuple[int, ...]:
    """With ``exact_reset``, a total landing exactly on the target goes back to 0 (docs/rules.md, "Scoring a hand").

    >>> reset_exact((100, 83, 83, 60), HouseRules(exact_reset=True))
    (0, 83, 83, 60)
    >>> reset_exact((100, 83, 83, 60), HouseRules())
    (100, 83, 83, 60)
    """
    if not rules.exact_reset:
        return totals
    return tuple(0 if total == rules.target else total for total in totals)


def replay(players: int, rules: HouseRules, hands: Sequence[Hand]) -> GameState:
    """Play every recorded hand from the start; refuse a game that ends too early."""
    state = new_game(players, rules)
    for hand in hands:
        if state.finished:
            last = len(state.hands)
            raise RuleError(
                _(
                    "This would end the game at hand %(last)d, but hands up to %(recorded)d are recorded. Check "
                    "the hand again; if it is right, undo the hands after hand %(last)d first, the last one first.",
                    last=last,
                    recorded=len(hands),
                ),
                {"hands": _("The game would end at hand %(last)d.", last=last)},
                conflict=True,
            )
        state = play(state, hand)
    return state
