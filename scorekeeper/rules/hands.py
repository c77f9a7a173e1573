"""What a hand's facts may be, and the points they score (docs/rules.md, "Recording a hand" and "Scoring a hand")."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import refuse
from .house import HouseRules, is_whole

HEARTS = 13
QUEEN_POINTS = 13
JACK_POINTS = -10
MOON_POINTS = 26
SUN_POINTS = 52
MOON_OPTIONS = ("add", "subtract")
FACT_KEYS = ("hearts", "queen", "jack", "all_tricks", "moon_option")


@dataclass(frozen=True)
class Hand:
    """What each seat captured in one hand, and the moon choice if one was made."""

    hearts: tuple[int, ...]
    queen: int
    jack: int | None = None
    all_tricks: int | None = None
    moon_option: str | None = None


@dataclass(frozen=True)
class Moon:
    shooter: int
    option: str  # "add", "subtract" or "sun"


def moon_shooter(hand: Hand) -> int | None:
    """The seat that took all 13 hearts and the Q♠, if any.

    >>> moon_shooter(Hand(hearts=(0, 13, 0, 0), queen=1))
    1
    """
    seat = hand.queen
    return seat if hand.hearts[seat] == HEARTS else None


def is_sun(hand: Hand, rules: HouseRules) -> bool:
    return rules.sun and hand.all_tricks is not None and hand.all_tricks == moon_shooter(hand)


def raw_points(hand: Hand) -> list[int]:
    """Penalty points before moon rules.

    >>> raw_points(Hand(hearts=(2, 3, 4, 4), queen=0, jack=3))
    [15, 3, 4, -6]
    """
    return [
        hearts + QUEEN_POINTS * (seat == hand.queen) + JACK_POINTS * (seat == hand.jack)
        for seat, hearts in enumerate(hand.hearts)
    ]


def hand_scores(
    hand: Hand, rules: HouseRules, prev: Sequence[int], option: str | None
) -> tuple[list[int], Moon | None]:
    """The hand's scores after moon rules, given the totals before it.

    ``option`` is the moon option to apply when the hand is a moon and not a sun.
    """
    shooter = moon_shooter(hand)
    if shooter is None:
        return raw_points(hand), None
    jack = [JACK_POINTS * (seat == hand.jack) for seat in range(len(hand.hearts))]
    if is_sun(hand, rules):
        moon, others = Moon(shooter, "sun"), SUN_POINTS
    else:
        moon, others = Moon(shooter, option or "add"), MOON_POINTS * (option != "subtract")
    scores = [bonus + (0 if seat == shooter else others) for seat, bonus in enumerate(jack)]
    if moon.option == "subtract":
        # Subtracting never takes the shooter below zero: the rule book sets such
        # a total to 0. Only the J♦ bonus may go lower.
        scores[shooter] -= min(MOON_POINTS, max(0, prev[shooter]))
    return scores, moon


def fixed_option(hand: Hand, rules: HouseRules) -> str | None:
    """The option the hand must use: the stored choice, or the house rule's."""
    if moon_shooter(hand) is None or is_sun(hand, rules):
        return None
    return hand.moon_option if rules.moon == "choose" else rules.moon


def make_hand(
    players: Sequence[str],
    rules: HouseRules,
    facts: Mapping[str, object],
    *,
    need_option: bool = True,
) -> Hand:
    """Check a hand as entered (any types, as from JSON or a form) and build it.

    ``need_option`` is off for a preview, where the advice stands in for a
    missing moon option.
    """
    errors = {key: "There is no such field in a hand." for key in facts if key not in (*FACT_KEYS, "number")}
    errors.update(_hearts_problems(players, facts.get("hearts")))
    for key, card in (("queen", "Q♠"), ("jack", "J♦"), ("all_tricks", "every trick")):
        message = _seat_problem(players, facts.get(key), card, needed=key == "queen")
        if message:
            errors[key] = message
    if facts.get("jack") is not None and not rules.omnibus:
        errors["jack"] = "This game does not play the Omnibus J♦: leave the J♦ out."
    elif facts.get("jack") is None and rules.omnibus:
        errors["jack"] = "Say who took the J♦ (Omnibus is on)."
    refuse(errors)
    hand = Hand(
        hearts=tuple(facts["hearts"]),  # type: ignore[arg-type]
        queen=facts["queen"],  # type: ignore[arg-type]
        jack=facts.get("jack"),  # type: ignore[arg-type]
        all_tricks=facts.get("all_tricks"),  # type: ignore[arg-type]
    )
    refuse(_moon_problems(players, rules, hand, facts.get("moon_option"), need_option))
    option = facts.get("moon_option") if rules.moon == "choose" and not is_sun(hand, rules) else None
    return Hand(hand.hearts, hand.queen, hand.jack, hand.all_tricks, option)  # type: ignore[arg-type]


def _hearts_problems(players: Sequence[str], hearts: object) -> dict[str, str]:
    if not isinstance(hearts, Sequence) or isinstance(hearts, str) or len(hearts) != len(players):
        return {"hearts": f"Give the hearts taken by each of the {len(players)} players."}
    for name, count in zip(players, hearts, strict=True):
        if not is_whole(count) or not 0 <= count <= HEARTS:
            return {"hearts": f"{name}'s hearts must be a whole number from 0 to 13, not {count!r}."}
    total = sum(hearts)
    if total < HEARTS:
        missing = HEARTS - total
        return {"hearts": f"The hearts add up to {total}, not 13: {_hearts(missing)} missing."}
    if total > HEARTS:
        extra = total - HEARTS
        return {"hearts": f"The hearts add up to {total}, not 13: {_hearts(extra)} too many."}
    return {}


def _hearts(count: int) -> str:
    return "one heart" if count == 1 else f"{count} hearts"


def _seat_problem(players: Sequence[str], seat: object, card: str, *, needed: bool) -> str | None:
    if seat is None:
        return f"Say who took the {card}." if needed else None
    if not is_whole(seat) or not 0 <= seat < len(players):
        return f"The {card} must go to a seat from 0 to {len(players) - 1}, not {seat!r}."
    return None


def _moon_problems(
    players: Sequence[str], rules: HouseRules, hand: Hand, option: object, need_option: bool
) -> dict[str, str]:
    shooter = moon_shooter(hand)
    errors: dict[str, str] = {}
    if hand.all_tricks is not None:
        if not rules.sun:
            errors["all_tricks"] = "This game does not play shooting the sun: leave “every trick” out."
        elif hand.all_tricks != shooter:
            name = players[hand.all_tricks]
            errors["all_tricks"] = f"{name} cannot have taken every trick without all 13 hearts and the Q♠."
        elif hand.jack is not None and hand.jack != hand.all_tricks:
            name = players[hand.all_tricks]
            errors["jack"] = f"{name} took every trick, so {name} took the J♦ too."
    if option is not None and option not in MOON_OPTIONS:
        errors["moon_option"] = "The moon option is “add” or “subtract”."
    elif option is not None and shooter is None:
        errors["moon_option"] = "Nobody shot the moon in this hand: leave the moon option out."
    elif option is not None and rules.moon != "choose" and option != rules.moon:
        errors["moon_option"] = f"This game always uses “{rules.moon}” for a moon."
    elif option is None and need_option and shooter is not None and rules.moon == "choose" and not is_sun(hand, rules):
        name = players[shooter]
        errors["moon_option"] = f"{name} shot the moon: choose add (others +26) or subtract ({name} −26)."
    return errors
