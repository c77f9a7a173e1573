"""Properties that hold for every hand, not only the worked examples, under every house rule that scores."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import (
    HEARTS,
    Hand,
    HouseRules,
    hand_points,
    hand_scores,
    in_play,
    make_hand,
    moon_points,
    moon_shooter,
    raw_points,
    replay,
)

TOTALS = st.lists(st.integers(-60, 120), min_size=5, max_size=5)


@st.composite
def house(draw, players=None, moon=None):
    """Any house rules that change a hand's points, for a table of ``players``."""
    players = players or draw(st.integers(3, 5))
    moon = moon or draw(st.sampled_from(["choose", "add", "subtract", "off"]))
    rules = HouseRules(
        pass_cycle="left-right-hold",
        moon=moon,
        omnibus=draw(st.booleans()),
        black_maria=draw(st.booleans()),
        subtract_floor=draw(st.booleans()),
        sun=moon != "off" and draw(st.booleans()),
    )
    return players, rules


@st.composite
def valid_hands(draw, players=None, moon=None, rules=None):
    """A hand a table could enter, with the house rules it is entered under (``rules`` when given)."""
    players, drawn = draw(house(players, moon))
    rules = rules or drawn
    cuts = sorted(draw(st.lists(st.integers(0, HEARTS), min_size=players - 1, max_size=players - 1)))
    hearts = [b - a for a, b in zip([0, *cuts], [*cuts, HEARTS], strict=True)]
    facts: dict[str, object] = {"hearts": hearts}
    for card in in_play(rules):
        facts[card.key] = draw(st.integers(0, players - 1))
    names = [f"P{seat}" for seat in range(players)]
    hand = make_hand(names, rules, facts, need_option=False)
    if moon_shooter(hand, rules) is not None and rules.moon == "choose":
        facts["moon_option"] = draw(st.sampled_from(["add", "subtract"]))
    return rules, make_hand(names, rules, facts)


@given(valid_hands())
def test_raw_points_add_up_to_the_hands_points(drawn):
    rules, hand = drawn
    assert sum(raw_points(hand)) == hand_points(rules)  # 26, 16 with omnibus, 43 with black_maria, 33 with both


@st.composite
def moons(draw):
    """A moon shot by one seat: every heart and every card a moon needs; a bonus card anywhere."""
    players, rules = draw(house(moon="choose"))
    shooter = draw(st.integers(0, players - 1))
    cards = {card.key: shooter if card.moon else draw(st.integers(0, players - 1)) for card in in_play(rules)}
    hearts = tuple(HEARTS * (seat == shooter) for seat in range(players))
    return rules, Hand(hearts, **cards)


def bonuses(rules, hand):
    """What the bonus cards (the J♦) give each seat, moon or not."""
    return [
        sum(card.points for card in in_play(rules) if not card.moon and hand.taker(card) == seat)
        for seat in range(len(hand.hearts))
    ]


@given(moons(), TOTALS)
def test_moon_options_keep_the_gaps_between_other_players(drawn, before):
    rules, moon = drawn
    prev, bonus = before[: len(moon.hearts)], bonuses(rules, moon)
    others = [seat for seat in range(len(prev)) if seat != moon.queen]
    for option in ("add", "subtract"):
        scores, _ = hand_scores(moon, rules, prev, option)
        after = [total + score - extra for total, score, extra in zip(prev, scores, bonus, strict=True)]
        for a in others:
            for b in others:
                assert after[a] - after[b] == prev[a] - prev[b]


@given(moons(), TOTALS)
def test_a_moon_moves_the_others_or_the_shooter_by_the_moons_worth(drawn, before):
    rules, moon = drawn
    shooter, value = moon.queen, moon_points(rules)  # 26, or 43 with black_maria
    prev, bonus = before[: len(moon.hearts)], bonuses(rules, moon)
    added, scored = hand_scores(moon, rules, prev, "add")
    assert scored.shooter == shooter
    assert [score - extra for score, extra in zip(added, bonus, strict=True)] == [
        value * (seat != shooter) for seat in range(len(prev))
    ]
    subtracted, _ = hand_scores(moon, rules, prev, "subtract")
    lost = bonus[shooter] - subtracted[shooter]
    assert lost == (min(value, max(0, prev[shooter])) if rules.subtract_floor else value)
    assert all(subtracted[seat] == bonus[seat] for seat in range(len(prev)) if seat != shooter)


@given(valid_hands(moon="off"), TOTALS)
def test_with_the_moon_off_every_hand_scores_its_raw_points(drawn, before):
    rules, hand = drawn
    scores, moon = hand_scores(hand, rules, before[: len(hand.hearts)], None)
    assert moon is None and scores == raw_points(hand)


@given(house(players=4).flatmap(lambda table: st.lists(valid_hands(players=4, rules=table[1]), max_size=12)))
def test_replay_keeps_running_totals_of_the_hand_scores(drawn):
    rules = replace(drawn[0][0], target=1000) if drawn else HouseRules(target=1000)
    hands = [hand for _, hand in drawn]
    state = replay(4, rules, hands)
    assert [scored.hand for scored in state.hands] == hands
    assert [scored.number for scored in state.hands] == list(range(1, len(hands) + 1))
    running = [0, 0, 0, 0]
    for scored in state.hands:
        running = [total + score for total, score in zip(running, scored.scores, strict=True)]
        assert list(scored.totals) == running
    assert list(state.totals) == running
    if rules.subtract_floor and not rules.omnibus:  # only a bonus card takes a total below 0 with the floor
        assert min(running) >= 0
