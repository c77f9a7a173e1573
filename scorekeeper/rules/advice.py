"""Which moon option the rules advise (docs/rules.md, "Which moon option the app suggests"), and every moon the next
hand could be, for a page with no network."""

import itertools
from dataclasses import dataclass

from .cards import HEARTS, Hand, in_play, moon_cards
from .game import GameState, Outcome, play
from .hands import MOON_OPTIONS, is_sun, moon_shooter

OUTCOMES = ("wins", "shares", "goes-on", "loses")  # best first, for the shooter


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
    if rules.moon == "off" or state.finished or state.full:
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
