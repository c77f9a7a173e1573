"""What a hand's facts may be, and the points they score (docs/rules.md, "Recording a hand" and "Scoring a hand")."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .cards import HEART_POINTS, HEARTS, PENALTY_CARDS, Hand, in_play, moon_cards, moon_points, rule_name, sun_points
from .errors import refuse
from .house import HouseRules, is_whole
from .i18n import _, capitalized, listed, ngettext, signed

MOON_OPTIONS = ("add", "subtract")
FACT_KEYS = ("hearts", *(card.key for card in PENALTY_CARDS), "all_tricks", "moon_option")  # as the form shows them


@dataclass(frozen=True)
class Moon:
    shooter: int
    option: str  # "add", "subtract" or "sun"
    points: int = 0  # what it moved: everyone else's gain, or what really came off the shooter (the floor's)


def moon_shooter(hand: Hand, rules: HouseRules) -> int | None:
    """The seat that took every heart and every card a moon needs, if any (never, with the moon rule off).

    >>> moon_shooter(Hand(hearts=(0, 13, 0, 0), queen=1), HouseRules())
    1
    >>> moon_shooter(Hand(hearts=(0, 13, 0), queen=1, king=0, ace=1), HouseRules(black_maria=True)) is None
    True
    """
    seat = hand.queen
    if rules.moon == "off" or hand.hearts[seat] != HEARTS:
        return None
    return seat if all(hand.taker(card) == seat for card in moon_cards(rules)) else None


def is_sun(hand: Hand, rules: HouseRules) -> bool:
    return rules.sun and hand.all_tricks is not None and hand.all_tricks == moon_shooter(hand, rules)


def raw_points(hand: Hand) -> list[int]:
    """Penalty points before moon rules: the hearts, and each card to whoever took it.

    >>> raw_points(Hand(hearts=(2, 3, 4, 4), queen=0, jack=3))
    [15, 3, 4, -6]
    """
    return [
        hearts * HEART_POINTS + sum(card.points for card in PENALTY_CARDS if hand.taker(card) == seat)
        for seat, hearts in enumerate(hand.hearts)
    ]


def hand_scores(
    hand: Hand, rules: HouseRules, prev: Sequence[int], option: str | None
) -> tuple[list[int], Moon | None]:
    """The hand's scores after moon rules, given the totals before it.

    ``option`` is the moon option to apply when the hand is a moon and not a sun.
    """
    shooter = moon_shooter(hand, rules)
    if shooter is None:
        return raw_points(hand), None
    value = moon_points(rules)
    # A bonus card (the J♦) scores for whoever took it, moon or not.
    bonus = [sum(card.points for card in in_play(rules) if not card.moon and hand.taker(card) == seat)
             for seat in range(len(hand.hearts))]  # fmt: skip
    chosen = "sun" if is_sun(hand, rules) else option or "add"
    moved = sun_points(rules) if chosen == "sun" else value
    scores = [points + (0 if seat == shooter or chosen == "subtract" else moved) for seat, points in enumerate(bonus)]
    if chosen == "subtract":
        # With the floor, subtracting never takes the shooter below zero: the rule book sets such
        # a total to 0. Only a bonus card may go lower.
        moved = subtracted(rules, prev[shooter])
        scores[shooter] -= moved
    return scores, Moon(shooter, chosen, moved)


def subtracted(rules: HouseRules, before: int) -> int:
    """What subtracting takes off a shooter whose total was ``before``: with the floor, never below 0.

    >>> subtracted(HouseRules(), 19), subtracted(HouseRules(subtract_floor=False), 19)
    (19, 26)
    """
    value = moon_points(rules)
    return min(value, max(0, before)) if rules.subtract_floor else value


def fixed_option(hand: Hand, rules: HouseRules) -> str | None:
    """The option the hand must use: the stored choice, or the house rule's."""
    if moon_shooter(hand, rules) is None or is_sun(hand, rules):
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
    errors = {key: _("There is no such field in a hand.") for key in facts if key not in (*FACT_KEYS, "number")}
    errors.update(_hearts_problems(players, facts.get("hearts")))
    errors.update(_card_problems(players, rules, facts))
    every_trick = _("“every trick”")
    message = _seat_problem(players, facts.get("all_tricks"), every_trick, every_trick, needed=False)
    if message:
        errors["all_tricks"] = message
    refuse(errors)
    hand = Hand(
        hearts=tuple(facts["hearts"]),  # type: ignore[arg-type]
        **{card.key: facts.get(card.key) for card in PENALTY_CARDS},  # type: ignore[arg-type]
        all_tricks=facts.get("all_tricks"),  # type: ignore[arg-type]
    )
    refuse(_moon_problems(players, rules, hand, facts.get("moon_option"), need_option))
    option = facts.get("moon_option") if rules.moon == "choose" and not is_sun(hand, rules) else None
    return replace(hand, moon_option=option)  # type: ignore[arg-type]


def _card_problems(players: Sequence[str], rules: HouseRules, facts: Mapping[str, object]) -> dict[str, str]:
    """Each card the game plays needs the seat that took it; a card it does not play is refused."""
    playing = in_play(rules)
    errors = {}
    for card in PENALTY_CARDS:
        seat = facts.get(card.key)
        if card.rule is not None and card not in playing and seat is not None:
            errors[card.key] = _(
                "This game does not play %(rule)s: leave %(card)s out.", rule=rule_name(card.rule), card=card.object
            )
            continue
        message = _seat_problem(players, seat, card.subject, card.object, needed=card in playing)
        if message and seat is None and card.rule is not None:
            message = _("Say who took %(card)s (%(rule)s is on).", card=card.object, rule=rule_name(card.rule))
        if message:
            errors[card.key] = message
    return errors


def _hearts_problems(players: Sequence[str], hearts: object) -> dict[str, str]:
    if not isinstance(hearts, Sequence) or isinstance(hearts, str) or len(hearts) != len(players):
        return {
            "hearts": ngettext(
                "Give the hearts taken by each of the %(num)d player.",
                "Give the hearts taken by each of the %(num)d players.",
                len(players),
            )
        }
    for name, count in zip(players, hearts, strict=True):
        if not is_whole(count) or not 0 <= count <= HEARTS:
            message = _("%(name)s's hearts must be a whole number from 0 to %(hearts)d, not %(count)s.",
                        name=name, hearts=HEARTS, count=repr(count))  # fmt: skip
            return {"hearts": message}
    total = sum(hearts)
    if total < HEARTS:
        return {"hearts": ngettext("The hearts add up to %(total)d, not %(hearts)d: one heart missing.",
                                   "The hearts add up to %(total)d, not %(hearts)d: %(num)d hearts missing.",
                                   HEARTS - total, total=total, hearts=HEARTS)}  # fmt: skip
    if total > HEARTS:
        return {"hearts": ngettext("The hearts add up to %(total)d, not %(hearts)d: one heart too many.",
                                   "The hearts add up to %(total)d, not %(hearts)d: %(num)d hearts too many.",
                                   total - HEARTS, total=total, hearts=HEARTS)}  # fmt: skip
    return {}


def _seat_problem(players: Sequence[str], seat: object, subject: str, object_: str, *, needed: bool) -> str | None:
    if seat is None:
        return _("Say who took %(card)s.", card=object_) if needed else None
    if not is_whole(seat) or not 0 <= seat < len(players):
        return _("%(card)s must go to a seat from 0 to %(last)d, not %(seat)s.",
                 card=capitalized(subject), last=len(players) - 1, seat=repr(seat))  # fmt: skip
    return None


def _moon_problems(
    players: Sequence[str], rules: HouseRules, hand: Hand, option: object, need_option: bool
) -> dict[str, str]:
    shooter = moon_shooter(hand, rules)
    errors = _sun_problems(players, rules, hand, shooter)
    if option is not None and option not in MOON_OPTIONS:
        errors["moon_option"] = _("The moon option is “add” or “subtract”.")
    elif option is not None and rules.moon == "off":
        errors["moon_option"] = _("This game plays no moon: leave the moon option out.")
    elif option is not None and shooter is None:
        errors["moon_option"] = _("Nobody shot the moon in this hand: leave the moon option out.")
    elif option is not None and rules.moon != "choose" and option != rules.moon:
        errors["moon_option"] = _("This game always uses “%(option)s” for a moon.", option=rules.moon)
    elif option is None and need_option and shooter is not None and rules.moon == "choose" and not is_sun(hand, rules):
        errors["moon_option"] = choose_words(players[shooter], moon_points(rules))
    return errors


def _sun_problems(players: Sequence[str], rules: HouseRules, hand: Hand, shooter: int | None) -> dict[str, str]:
    """Every trick: only with the sun on, only the moon's shooter, who then took every bonus card too."""
    if hand.all_tricks is None:
        return {}
    name = players[hand.all_tricks]
    if not rules.sun:
        return {"all_tricks": _("This game does not play shooting the sun: leave “every trick” out.")}
    if hand.all_tricks != shooter:
        needs = moon_needs(HEARTS, [card.object for card in moon_cards(rules)])
        return {"all_tricks": _("%(name)s cannot have taken every trick without %(needs)s.", name=name, needs=needs)}
    return {
        card.key: _("%(name)s took every trick, so %(name)s took %(card)s too.", name=name, card=card.object)
        for card in in_play(rules)
        if not card.moon and hand.taker(card) != hand.all_tricks
    }


def choose_words(shooter: str, points: int) -> str:
    """A moon with no option chosen."""
    return _(
        "%(shooter)s shot the moon: choose add (others %(plus)s) or subtract (%(shooter)s %(minus)s).",
        shooter=shooter,
        plus=signed(points),
        minus=signed(-points),
    )


def moon_needs(hearts: int, cards: list[str]) -> str:
    """What the shooter of a moon takes; ``cards``: each card's object form.

    >>> moon_needs(13, ["the Q♠", "the K♠", "the A♠"])
    'all 13 hearts, the Q♠, the K♠ and the A♠'
    """
    return listed([ngettext("all %(num)d heart", "all %(num)d hearts", hearts), *cards])
