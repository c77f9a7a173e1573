"""A whole game: replaying hands, moon advice and the end of the game (sections 6–8)."""

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import HEARTS, Hand, hand_points, in_play, moon_cards
from .errors import RuleError
from .hands import MOON_OPTIONS, Moon, fixed_option, hand_scores, is_sun, moon_shooter
from .house import HouseRules
from .i18n import _
from .passing import dealer, pass_direction, pass_targets

OUTCOMES = ("wins", "shares", "goes-on", "loses")  # best first, for the shooter
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
    most = most_hands(state.players, state.rules)
    if len(state.hands) >= most:
        message = _("A game to %(target)d points takes at most %(most)d hands, more than any real game needs, and "
                    "this one has them all.", target=state.rules.target, most=most)  # fmt: skip
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


@dataclass(frozen=True)
class MoonChoice:
    totals: tuple[int, ...]
    outcome: str
    scores: tuple[int, ...] = ()  # the hand's own, each seat's


@dataclass(frozen=True)
class MoonAdvice:
    shooter: int
    options: dict[str, MoonChoice]
    advice: str


def shooter_outcome(result: Outcome, shooter: int) -> str:
    """How an option ends the hand for the shooter (docs/rules.md, "Which moon option the app suggests")."""
    if not result.finished:
        return "goes-on"
    if shooter not in result.winners:
        return "loses"
    return "wins" if len(result.winners) == 1 else "shares"


def moon_advice(state: GameState, hand: Hand) -> MoonAdvice | None:
    """The options a moon offers and the one the rules advise; None when no choice applies."""
    shooter = moon_shooter(hand, state.rules)
    if shooter is None or is_sun(hand, state.rules):
        return None
    allowed = MOON_OPTIONS if state.rules.moon == "choose" else (state.rules.moon,)
    options = {}
    for option in allowed:
        after = play(state, hand, option)
        options[option] = MoonChoice(after.totals, shooter_outcome(after.outcome, shooter), after.hands[-1].scores)

    def rank(option: str) -> tuple[int, int, bool]:
        totals = options[option].totals
        margin = min(t for seat, t in enumerate(totals) if seat != shooter) - totals[shooter]
        return OUTCOMES.index(options[option].outcome), -margin, option != "add"

    return MoonAdvice(shooter, options, min(allowed, key=rank))


def possible_moons(state: GameState) -> list[tuple[Hand, int, MoonAdvice | None]]:
    """Every hand the next one could be that shoots the moon (or the sun), with its shooter and the advice it would
    get (None for a sun): what a page with no network needs to treat a moon as the server would.

    Each seat takes every heart and every card a moon needs; the cards a moon does not need go to any seat, and with
    the sun rule every trick is said taken by the shooter (with every card) or not at all.
    """
    rules = state.rules
    if rules.moon == "off" or state.finished:
        return []
    others = [card for card in in_play(rules) if not card.moon]
    moons = []
    for shooter in range(state.players):
        hearts = tuple(HEARTS if seat == shooter else 0 for seat in range(state.players))
        needed = {card.key: shooter for card in moon_cards(rules)}
        for takers in itertools.product(range(state.players), repeat=len(others)):
            rest = {card.key: taker for card, taker in zip(others, takers, strict=True)}
            for every in (None, shooter) if rules.sun else (None,):
                if every is not None and any(taker != shooter for taker in takers):
                    continue  # who takes every trick takes every card too
                hand = Hand(hearts, **needed, **rest, all_tricks=every)  # type: ignore[arg-type]
                moons.append((hand, shooter, moon_advice(state, hand)))
    return moons


def preview(state: GameState, hand: Hand) -> tuple[GameState, MoonAdvice | None]:
    """The state after ``hand`` without storing it; a missing moon choice follows the advice."""
    advice = moon_advice(state, hand)
    option = hand.moon_option or (advice.advice if advice else None)
    return play(state, hand, option), advice
