"""Properties that hold for every hand, not only the worked examples."""

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import Hand, HouseRules, hand_scores, make_hand, raw_points, replay


@st.composite
def valid_hands(draw, players=None, omnibus=None):
    players = players or draw(st.integers(3, 5))
    omnibus = draw(st.booleans()) if omnibus is None else omnibus
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=players - 1, max_size=players - 1)))
    hearts = [b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    queen = draw(st.integers(0, players - 1))
    jack = draw(st.integers(0, players - 1)) if omnibus else None
    option = draw(st.sampled_from(["add", "subtract"])) if hearts[queen] == 13 else None
    rules = HouseRules(pass_cycle="left-right-hold", omnibus=omnibus)
    names = [f"P{seat}" for seat in range(players)]
    return rules, make_hand(names, rules, {"hearts": hearts, "queen": queen, "jack": jack, "moon_option": option})


@given(valid_hands())
def test_raw_points_total_26_or_16(drawn):
    rules, hand = drawn
    assert sum(raw_points(hand)) == (16 if rules.omnibus else 26)


@given(valid_hands(omnibus=False), st.lists(st.integers(-30, 120), min_size=5, max_size=5))
def test_moon_options_keep_the_gaps_between_other_players(drawn, before):
    rules, hand = drawn
    prev = before[: len(hand.hearts)]
    shooter = hand.queen
    moon = Hand((0,) * len(hand.hearts), shooter)
    moon = Hand(tuple(13 * (seat == shooter) for seat in range(len(hand.hearts))), shooter)
    for option in ("add", "subtract"):
        scores, _ = hand_scores(moon, rules, prev, option)
        after = [p + s for p, s in zip(prev, scores, strict=True)]
        others = [seat for seat in range(len(prev)) if seat != shooter]
        for a in others:
            for b in others:
                assert after[a] - after[b] == prev[a] - prev[b]


@given(st.lists(valid_hands(players=4, omnibus=False), max_size=12))
def test_replay_keeps_running_totals_of_the_hand_scores(drawn):
    rules = HouseRules(target=1000)
    hands = [hand for _, hand in drawn]
    state = replay(4, rules, hands)
    assert [scored.hand for scored in state.hands] == hands
    assert [scored.number for scored in state.hands] == list(range(1, len(hands) + 1))
    running = [0, 0, 0, 0]
    for scored in state.hands:
        running = [total + score for total, score in zip(running, scored.scores, strict=True)]
        assert list(scored.totals) == running
    assert list(state.totals) == running
