"""docs/rules.md as tables: every worked example, every bad hand, passing and dealing."""

import pytest

from scorekeeper.rules import (
    GameState,
    Hand,
    HouseRules,
    RuleError,
    clean_names,
    compare,
    dealer,
    house_rules,
    make_hand,
    moon_advice,
    moon_shooter,
    outcome,
    pass_direction,
    pass_targets,
    play,
    possible_moons,
    preview,
    replay,
)

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def state_with(totals, rules=None):
    rules = rules or HouseRules()
    return GameState(len(totals), rules, (), tuple(totals), outcome(totals, rules))


def facts(hearts, queen, **more):
    return {"hearts": list(hearts), "queen": queen, **more}


RESET = {"exact_reset": True}
NO_FLOOR = {"subtract_floor": False}
MARIA = {"black_maria": True}

# (example, rules, totals before, facts, hand scores, totals after, finished, winners)
WORKED_EXAMPLES = [
    (1, {}, [0, 0, 0, 0], facts([4, 0, 9, 0], 1), [4, 13, 9, 0], [4, 13, 9, 0], False, ()),
    (2, {}, [10, 20, 30, 40], facts([0, 13, 0, 0], 1, moon_option="add"), [26, 0, 26, 26], [36, 20, 56, 66], False, ()),
    (
        3,
        {},
        [10, 20, 30, 40],
        facts([0, 13, 0, 0], 1, moon_option="subtract"),
        [0, -20, 0, 0],
        [10, 0, 30, 40],
        False,
        (),
    ),
    (
        4,
        {},
        [5, 30, 40, 50],
        facts([13, 0, 0, 0], 0, moon_option="subtract"),
        [-5, 0, 0, 0],
        [0, 30, 40, 50],
        False,
        (),
    ),
    (
        5,
        {},
        [80, 50, 60, 90],
        facts([0, 13, 0, 0], 1, moon_option="add"),
        [26, 0, 26, 26],
        [106, 50, 86, 116],
        True,
        (1,),
    ),
    (
        6,
        {},
        [90, 95, 60, 99],
        facts([13, 0, 0, 0], 0, moon_option="subtract"),
        [-26, 0, 0, 0],
        [64, 95, 60, 99],
        False,
        (),
    ),
    (7, {}, [98, 90, 90, 70], facts([3, 0, 0, 10], 1), [3, 13, 0, 10], [101, 103, 90, 80], True, (3,)),
    (8, {}, [98, 85, 90, 92], facts([5, 0, 3, 5], 1), [5, 13, 3, 5], [103, 98, 93, 97], True, (2,)),
    (9, {}, [95, 90, 80, 80], facts([6, 3, 2, 2], 1), [6, 16, 2, 2], [101, 106, 82, 82], False, ()),
    (9, {"tie": "share"}, [95, 90, 80, 80], facts([6, 3, 2, 2], 1), [6, 16, 2, 2], [101, 106, 82, 82], True, (2, 3)),
    (
        10,
        {"omnibus": True},
        [0, 0, 0, 0],
        facts([0, 13, 0, 0], 1, jack=1, moon_option="add"),
        [26, -10, 26, 26],
        [26, -10, 26, 26],
        False,
        (),
    ),
    (11, {"omnibus": True}, [0, 0, 0, 0], facts([2, 3, 4, 4], 0, jack=3), [15, 3, 4, -6], [15, 3, 4, -6], False, ()),
    (
        12,
        {"sun": True},
        [10, 10, 10, 10],
        facts([13, 0, 0, 0], 0, all_tricks=0),
        [0, 52, 52, 52],
        [10, 62, 62, 62],
        False,
        (),
    ),
    (13, {"exact_reset": True}, [90, 80, 70, 60], facts([10, 3, 0, 0], 2), [10, 3, 13, 0], [0, 83, 83, 60], False, ()),
    (
        14,
        {"exact_reset": True},
        [90, 98, 99, 80],
        facts([10, 3, 0, 0], 2),
        [10, 3, 13, 0],
        [0, 101, 112, 80],
        True,
        (0,),
    ),
    (
        15,
        RESET,
        [74, 50, 60, 90],
        facts([0, 13, 0, 0], 1, moon_option="subtract"),
        [0, -26, 0, 0],
        [74, 24, 60, 90],
        False,
        (),
    ),
    (
        16,
        NO_FLOOR,
        [10, 20, 30, 40],
        facts([0, 13, 0, 0], 1, moon_option="subtract"),
        [0, -26, 0, 0],
        [10, -6, 30, 40],
        False,
        (),
    ),
    (
        17,
        {**NO_FLOOR, "omnibus": True},
        [0, 0, 0, 0],
        facts([13, 0, 0, 0], 0, jack=0, moon_option="subtract"),
        [-36, 0, 0, 0],
        [-36, 0, 0, 0],
        False,
        (),
    ),
    (18, {"moon": "off"}, [0, 0, 0, 0], facts([13, 0, 0, 0], 0), [26, 0, 0, 0], [26, 0, 0, 0], False, ()),
    (19, MARIA, [0, 0, 0], facts([4, 0, 9], 1, king=2, ace=0), [11, 13, 19], [11, 13, 19], False, ()),
    (
        20,
        MARIA,
        [10, 20, 30],
        facts([13, 0, 0], 0, king=0, ace=0, moon_option="add"),
        [0, 43, 43],
        [10, 63, 73],
        False,
        (),
    ),
    (21, MARIA, [0, 0, 0], facts([13, 0, 0], 0, king=1, ace=0), [33, 10, 0], [33, 10, 0], False, ()),
    (
        22,
        MARIA,
        [50, 0, 0],
        facts([13, 0, 0], 0, king=0, ace=0, moon_option="subtract"),
        [-43, 0, 0],
        [7, 0, 0],
        False,
        (),
    ),
    (
        "22 with the floor on",
        MARIA,
        [30, 0, 0],
        facts([13, 0, 0], 0, king=0, ace=0, moon_option="subtract"),
        [-30, 0, 0],
        [0, 0, 0],
        False,
        (),
    ),
    (
        "sun with Black Maria",
        {**MARIA, "sun": True},
        [0, 0, 0],
        facts([13, 0, 0], 0, king=0, ace=0, all_tricks=0),
        [0, 86, 86],
        [0, 86, 86],
        False,
        (),
    ),
    (
        "13 without the rule",
        {},
        [90, 80, 70, 60],
        facts([10, 3, 0, 0], 2),
        [10, 3, 13, 0],
        [100, 83, 83, 60],
        True,
        (3,),
    ),
]


@pytest.mark.parametrize("example, given, before, entered, scores, after, finished, winners", WORKED_EXAMPLES)
def test_worked_examples(example, given, before, entered, scores, after, finished, winners):
    rules = house_rules(len(before), given)
    state = play(state_with(before, rules), make_hand(PLAYERS[: len(before)], rules, entered))
    assert list(state.hands[-1].scores) == scores
    assert list(state.totals) == after
    assert (state.finished, state.outcome.winners) == (finished, winners)


def test_play_on_tie_is_a_tie_break():
    state = play(state_with([95, 90, 80, 80]), make_hand(PLAYERS, HouseRules(), facts([6, 3, 2, 2], 1)))
    assert state.outcome.tie_break and state.next_hand.tie_break


# (example, totals before, shooter's hand, advice, outcome of each option)
ADVICE = [
    (5, [80, 50, 60, 90], facts([0, 13, 0, 0], 1), "add", {"add": "wins", "subtract": "goes-on"}),
    (6, [90, 95, 60, 99], facts([13, 0, 0, 0], 0), "subtract", {"add": "loses", "subtract": "goes-on"}),
    (2, [10, 20, 30, 40], facts([0, 13, 0, 0], 1), "add", {"add": "goes-on", "subtract": "goes-on"}),
    (
        "floor narrows subtract",
        [30, 5, 60, 70],
        facts([0, 13, 0, 0], 1),
        "add",
        {"add": "goes-on", "subtract": "goes-on"},
    ),
    ("even margins", [0, 0, 0, 0], facts([0, 13, 0, 0], 1), "add", {"add": "goes-on", "subtract": "goes-on"}),
]


@pytest.mark.parametrize("example, before, entered, advice, outcomes", ADVICE)
def test_moon_advice(example, before, entered, advice, outcomes):
    state = state_with(before)
    hand = make_hand(PLAYERS, state.rules, entered, need_option=False)
    got = moon_advice(state, hand)
    assert got.advice == advice
    assert {option: choice.outcome for option, choice in got.options.items()} == outcomes


def test_moon_advice_counts_the_exact_reset():  # worked example 15
    rules = HouseRules(exact_reset=True)
    state = state_with([74, 50, 60, 90], rules)
    got = moon_advice(state, make_hand(PLAYERS, rules, facts([0, 13, 0, 0], 1), need_option=False))
    assert got.options["add"].totals == (0, 50, 86, 116) and got.options["add"].outcome == "loses"
    assert got.options["subtract"].totals == (74, 24, 60, 90) and got.options["subtract"].outcome == "goes-on"
    assert got.advice == "subtract"


def test_the_subtract_floor_uses_the_total_after_a_reset():
    rules = HouseRules(exact_reset=True, target=50)
    twice = [make_hand(PLAYERS, rules, facts([12, 0, 1, 0], 0))] * 2  # Ann: 25, then 50, back to 0
    state = replay(4, rules, twice)
    assert list(state.totals) == [0, 0, 2, 0] and not state.finished
    moon = make_hand(PLAYERS, rules, facts([13, 0, 0, 0], 0, moon_option="subtract"))
    assert play(state, moon).hands[-1].scores == (0, 0, 0, 0)  # floored at 0, the total after the reset


def test_advice_shares_beats_going_on():
    rules = HouseRules(tie="share")
    state = state_with([50, 24, 70, 80], rules)
    advice = moon_advice(state, make_hand(PLAYERS, rules, facts([13, 0, 0, 0], 0), need_option=False))
    assert advice.options["add"].outcome == "shares"  # 50, 50, 96, 106
    assert advice.options["subtract"].outcome == "goes-on"  # 24, 24, 70, 80
    assert advice.advice == "add"


def test_fixed_moon_rule_offers_one_option():
    rules = HouseRules(moon="subtract")
    state = state_with([10, 20, 30, 40], rules)
    got = moon_advice(state, make_hand(PLAYERS, rules, facts([0, 13, 0, 0], 1)))
    assert list(got.options) == ["subtract"] and got.advice == "subtract"
    assert list(play(state, make_hand(PLAYERS, rules, facts([0, 13, 0, 0], 1))).totals) == [10, 0, 30, 40]


def test_preview_follows_advice_when_no_option_given():
    state = state_with([90, 95, 60, 99])
    after, advice = preview(state, make_hand(PLAYERS, state.rules, facts([13, 0, 0, 0], 0), need_option=False))
    assert advice.advice == "subtract" and list(after.totals) == [64, 95, 60, 99]


def test_sun_is_not_a_moon_choice():
    rules = HouseRules(sun=True)
    hand = make_hand(PLAYERS, rules, facts([13, 0, 0, 0], 0, all_tricks=0, moon_option="add"))
    assert hand.moon_option is None
    assert moon_advice(state_with([0, 0, 0, 0], rules), hand) is None


def test_every_moon_the_next_hand_could_be_for_a_page_with_no_network():
    """Each seat's moon, the J♦ (no moon card) to any seat, or every trick and card to the shooter: 4 × (4 + 1)
    hands, each with the advice the server gives it; a sun gets none."""
    rules = HouseRules(omnibus=True, sun=True)
    state = state_with([40, 52, 31, 12], rules)
    moons = possible_moons(state)
    assert len(moons) == 20 and len(set(hand for hand, _, _ in moons)) == 20
    for hand, shooter, advice in moons:
        entered = facts(hand.hearts, hand.queen, jack=hand.jack, all_tricks=hand.all_tricks)
        checked = make_hand(PLAYERS, rules, entered, need_option=False)
        assert checked == hand and moon_shooter(hand, rules) == shooter
        assert advice == moon_advice(state, hand)
        assert (advice is None) == (hand.all_tricks == shooter)
    (advice,) = [advice for hand, shooter, advice in moons if (shooter, hand.jack, hand.all_tricks) == (1, 2, None)]
    assert advice.options["add"].scores == (26, 0, 16, 26)
    assert possible_moons(state_with([0, 0, 0, 0], HouseRules(moon="off"))) == []


def test_subtract_with_jack_can_go_below_zero():
    rules = HouseRules(omnibus=True)
    hand = make_hand(PLAYERS, rules, facts([13, 0, 0, 0], 0, jack=0, moon_option="subtract"))
    assert list(play(state_with([5, 0, 0, 0], rules), hand).totals) == [-10, 0, 0, 0]


# (what is wrong, rules, facts, the field at fault, words the message must hold)
BAD_HANDS = [
    ("12 hearts", {}, facts([4, 0, 8, 0], 1), "hearts", "add up to 12, not 13: one heart missing"),
    ("14 hearts", {}, facts([4, 0, 9, 1], 1), "hearts", "add up to 14, not 13: one heart too many"),
    ("negative hearts", {}, facts([-1, 1, 13, 0], 1), "hearts", "Ann's hearts must be a whole number from 0 to 13"),
    ("14 for one player", {}, facts([14, 0, 0, 0], 1), "hearts", "Ann's hearts must be a whole number from 0 to 13"),
    ("half a heart", {}, facts([2.5, 1.5, 9, 0], 1), "hearts", "Ann's hearts must be a whole number"),
    ("no Q♠", {}, {"hearts": [4, 0, 9, 0]}, "queen", "Say who took the Q♠"),
    ("Q♠ seat missing", {}, facts([4, 0, 9, 0], 4), "queen", "The Q♠ must go to a seat from 0 to 3"),
    ("J♦ without omnibus", {}, facts([4, 0, 9, 0], 1, jack=2), "jack", "does not play Omnibus: leave the J♦ out"),
    (
        "all tricks, not a moon",
        {"sun": True},
        facts([4, 0, 9, 0], 1, all_tricks=1),
        "all_tricks",
        "Ben cannot have taken every trick",
    ),
    (
        "every trick but not the J♦",
        {"sun": True, "omnibus": True},
        facts([13, 0, 0, 0], 0, jack=1, all_tricks=0),
        "jack",
        "Ann took every trick, so Ann took the J♦ too.",
    ),
    ("moon, no option", {}, facts([0, 13, 0, 0], 1), "moon_option", "Ben shot the moon: choose add"),
    ("omnibus, no J♦", {"omnibus": True}, facts([4, 0, 9, 0], 1), "jack", "Say who took the J♦"),
    ("option, no moon", {}, facts([4, 0, 9, 0], 1, moon_option="add"), "moon_option", "Nobody shot the moon"),
    (
        "sun off",
        {},
        facts([13, 0, 0, 0], 0, all_tricks=0, moon_option="add"),
        "all_tricks",
        "does not play shooting the sun",
    ),
    ("K♠ missing", MARIA, facts([4, 0, 9, 0], 1, ace=2), "king", "Say who took the K♠ (Black Maria is on)."),
    ("A♠ missing", MARIA, facts([4, 0, 9, 0], 1, king=2), "ace", "Say who took the A♠ (Black Maria is on)."),
    (
        "K♠ without Black Maria",
        {},
        facts([4, 0, 9, 0], 1, king=2),
        "king",
        "does not play Black Maria: leave the K♠ out",
    ),
    ("A♠ seat missing", MARIA, facts([4, 0, 9, 0], 1, king=2, ace=7), "ace", "The A♠ must go to a seat from 0 to 3"),
    (
        "Black Maria moon, no option",
        MARIA,
        facts([0, 13, 0, 0], 1, king=1, ace=1),
        "moon_option",
        "Ben shot the moon: choose add (others +43) or subtract (Ben −43).",
    ),
    (
        "Black Maria: every trick needs the spades",
        {**MARIA, "sun": True},
        facts([13, 0, 0, 0], 0, king=1, ace=0, all_tricks=0),
        "all_tricks",
        "Ann cannot have taken every trick without all 13 hearts, the Q♠, the K♠ and the A♠.",
    ),
    ("option, moon off", {"moon": "off"}, facts([13, 0, 0, 0], 0, moon_option="add"), "moon_option", "plays no moon"),
    ("hearts not a list", {}, facts("4,0,9,0", 1), "hearts", "Give the hearts taken by each of the 4 players"),
    ("three counts", {}, facts([4, 9, 0], 1), "hearts", "Give the hearts taken by each of the 4 players"),
    ("true is no seat", {}, facts([4, 0, 9, 0], True), "queen", "The Q♠ must go to a seat"),
    ("unknown option", {}, facts([0, 13, 0, 0], 1, moon_option="double"), "moon_option", "“add” or “subtract”"),
    (
        "against the house rule",
        {"moon": "add"},
        facts([0, 13, 0, 0], 1, moon_option="subtract"),
        "moon_option",
        "always uses “add”",
    ),
]


@pytest.mark.parametrize("what, given, entered, field, words", BAD_HANDS, ids=[row[0] for row in BAD_HANDS])
def test_bad_hands(what, given, entered, field, words):
    with pytest.raises(RuleError) as refused:
        make_hand(PLAYERS, house_rules(4, given), entered)
    assert field in refused.value.errors
    assert words in refused.value.errors[field]
    assert words in refused.value.message


def test_a_finished_game_takes_no_more_hands():
    state = play(state_with([98, 90, 90, 70]), make_hand(PLAYERS, HouseRules(), facts([3, 0, 0, 10], 1)))
    with pytest.raises(RuleError, match="finished") as refused:
        play(state, make_hand(PLAYERS, HouseRules(), facts([4, 0, 9, 0], 1)))
    assert refused.value.conflict


def test_replay_refuses_hands_after_the_end():
    rules = HouseRules(target=13)
    ends = Hand((4, 0, 9, 0), 1)  # 4, 13, 9, 0: ends on hand 1
    with pytest.raises(RuleError, match="end the game at hand 1, but hands up to 2") as refused:
        replay(4, rules, [ends, Hand((0, 13, 0, 0), 0)])
    assert refused.value.conflict


def test_replay_floors_subtract_on_the_total_before_the_hand():
    state = replay(4, HouseRules(), [Hand((4, 0, 9, 0), 1), Hand((13, 0, 0, 0), 0, moon_option="subtract")])
    assert list(state.totals) == [0, 13, 9, 0]
    assert [h.number for h in state.hands] == [1, 2]
    assert state.hands[1].moon.option == "subtract"


def test_a_correction_shows_the_later_hands_it_scores_otherwise():
    """Section 8: the subtract floor of a later moon follows the corrected total before it."""
    moon = Hand((13, 0, 0, 0), 0, moon_option="subtract")
    before = replay(4, HouseRules(), [Hand((4, 0, 9, 0), 1), moon, Hand((0, 0, 13, 0), 3)])
    after = replay(4, HouseRules(), [Hand((10, 0, 3, 0), 1), moon, Hand((0, 0, 13, 0), 3)])
    comparison = compare(before, after, 1)
    assert comparison.hands == [1, 2]  # hand 3 scores the same
    ann, ben, cat, _dan = comparison.changes
    assert ann.scores == [(4, 10), (-4, -10)] and ann.total == (0, 0) and ann.moved
    assert cat.scores == [(9, 3), (0, 0)] and cat.total == (22, 16) and cat.moved
    assert ben.total == (13, 13) and not ben.moved


def test_a_correction_that_breaks_a_rule_shows_nothing_after():
    before = replay(4, HouseRules(), [Hand((4, 0, 9, 0), 1)])
    comparison = compare(before, None, 1)
    assert comparison.hands == [1]
    assert [change.scores for change in comparison.changes] == [[(4, None)], [(13, None)], [(9, None)], [(0, None)]]
    assert not any(change.moved for change in comparison.changes)


PASSES = [
    ("left-right-across-hold", 4, ["left", "right", "across", "hold", "left"]),
    ("left-across-right-hold", 4, ["left", "across", "right", "hold", "left"]),
    ("left-right-hold", 3, ["left", "right", "hold", "left", "right"]),
    ("left-right-hold", 5, ["left", "right", "hold", "left", "right"]),
    ("none", 4, ["hold"] * 5),
    ("left-right-left2-right2-hold", 5, ["left", "right", "left2", "right2", "hold"]),
    ("left-left2-right2-right-hold", 5, ["left", "left2", "right2", "right", "hold"]),
    ("left", 3, ["left"] * 5),
    ("right", 4, ["right"] * 5),
]


@pytest.mark.parametrize("cycle, players, directions", PASSES)
def test_pass_direction(cycle, players, directions):
    rules = house_rules(players, {"pass_cycle": cycle})
    assert [pass_direction(rules, k) for k in range(1, 6)] == directions


@pytest.mark.parametrize(
    "direction, players, targets",
    [
        ("left", 4, [(0, 1), (1, 2), (2, 3), (3, 0)]),
        ("right", 4, [(0, 3), (1, 0), (2, 1), (3, 2)]),
        ("across", 4, [(0, 2), (1, 3), (2, 0), (3, 1)]),
        ("left", 3, [(0, 1), (1, 2), (2, 0)]),
        ("right", 5, [(0, 4), (1, 0), (2, 1), (3, 2), (4, 3)]),
        ("left2", 5, [(0, 2), (1, 3), (2, 4), (3, 0), (4, 1)]),
        ("right2", 5, [(0, 3), (1, 4), (2, 0), (3, 1), (4, 2)]),
        ("hold", 4, []),
    ],
)
def test_pass_targets(direction, players, targets):
    assert pass_targets(direction, players) == targets


def test_next_hand_two_passes_right():
    state = replay(4, HouseRules(), [Hand((4, 0, 9, 0), 1)])
    assert state.next_hand.pass_direction == "right"
    assert state.next_hand.passes == ((0, 3), (1, 0), (2, 1), (3, 2))
    assert state.next_hand.dealer == 1


@pytest.mark.parametrize("first, players, number, seat", [(0, 4, 1, 0), (0, 4, 5, 0), (2, 3, 2, 0), (4, 5, 3, 1)])
def test_dealer_moves_left(first, players, number, seat):
    assert dealer(HouseRules(first_dealer=first), players, number) == seat


BAD_RULES = [
    (3, {"pass_cycle": "left-right-across-hold"}, "rules.pass_cycle", "Passing across needs exactly 4 players, not 3"),
    (5, {"pass_cycle": "left-across-right-hold"}, "rules.pass_cycle", "needs exactly 4 players, not 5"),
    (4, {"target": 9}, "rules.target", "from 10 to 1000"),
    (4, {"target": 1001}, "rules.target", "from 10 to 1000"),
    (4, {"target": "100"}, "rules.target", "whole number"),
    (4, {"moon": "double"}, "rules.moon", "choose, add, subtract"),
    (4, {"tie": "coin"}, "rules.tie", "play-on, share"),
    (4, {"sun": "yes"}, "rules.sun", "on (true) or off (false)"),
    (4, {"exact_reset": 1}, "rules.exact_reset", "on (true) or off (false)"),
    (4, {"first_dealer": 4}, "rules.first_dealer", "seat from 0 to 3"),
    (4, {"targte": 50}, "rules.targte", "no such house rule"),
    (
        4,
        {"pass_cycle": "left-right-left2-right2-hold"},
        "rules.pass_cycle",
        "two seats to the left needs exactly 5 players, not 4",
    ),
    (3, {"pass_cycle": "left-left2-right2-right-hold"}, "rules.pass_cycle", "needs exactly 5 players, not 3"),
    (4, {"sun": True, "moon": "off"}, "rules.sun", "Shooting the sun needs the moon"),
    (4, {"black_maria": "yes"}, "rules.black_maria", "on (true) or off (false)"),
    (4, {"subtract_floor": None, "moon": "sideways"}, "rules.moon", "choose, add, subtract, off"),
]


@pytest.mark.parametrize("players, given, field, words", BAD_RULES)
def test_bad_house_rules(players, given, field, words):
    with pytest.raises(RuleError) as refused:
        house_rules(players, given)
    assert words in refused.value.errors[field]


def test_house_rule_defaults():
    assert house_rules(4) == HouseRules()
    assert house_rules(4).subtract_floor and not house_rules(4).black_maria
    assert house_rules(5).pass_cycle == "left-right-hold"
    assert house_rules(4, {"target": 50, "moon": None}).target == 50


BAD_NAMES = [
    (["Ann", "Ben"], "3 to 5 players, not 2"),
    (["A", "B", "C", "D", "E", "F"], "3 to 5 players, not 6"),
    (["Ann", "ann ", "Cat"], "Two players are called “ann”"),
    (["Ann", "  ", "Cat"], "Player 2 needs a name"),
    (["Ann", "B" * 25, "Cat"], "too long: 24 characters at most"),
    (["Ann", 7, "Cat"], "Player 2 needs a name"),
    ("Ann,Ben,Cat", "List the players"),
    # Look-alikes of a name already at the table: Cyrillic А, Greek Α, fullwidth, invisible marks after it.
    *[(["Ann", alike, "Cat"], f"Two players are called “{alike}”")
      for alike in ["\u0410nn", "\u0391NN", "\uff21nn", "Ann\u034f", "Ann\ufe0f", "An\u034fn", "\uff41\uff4e\uff4e"]],
    (["Ben", "\u0412en", "Cat"], "Two players are called “\u0412en”"),  # Cyrillic В
    # Names that show nothing: Hangul fillers, the blank Braille pattern, marks alone, invisible marks alone.
    *[(["Ann", blank, "Cat"], "Player 2's name shows nothing: type letters, digits or emoji")
      for blank in ["\u3164", "\u2800", "\u115f", "\u3164\u3164 \u3164", "\u0301\u0301", "\u034f", "\uffa0"]],
    (["Ann", "A\u2028nn", "Cat"], "Player 2's name is on two lines: keep it on one"),
    (["Ann", "A\u2029nn", "Cat"], "Player 2's name is on two lines"),
    (["Ann", "Max" + "\u0301" * 24, "Cat"], "Player 2's name has 24 marks on one letter: 3 at most"),
    *[(["Ann", hidden, "Cat"], "Player 2's name has an invisible or control character: type it again")
      for hidden in ["B\u200bob", "\u202eBob", "Bo\u200db", "Bo\u200cb", "\u200dBob", "Bob\u200d", "Bo\u2066b",
                     "B\u00adob", "Bob\U000e0067"]],
]  # fmt: skip


@pytest.mark.parametrize("names, words", BAD_NAMES)
def test_bad_names(names, words):
    with pytest.raises(RuleError, match=words):
        clean_names(names)


@pytest.mark.parametrize(
    "name", ["👩\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👩🏽\u200d💻", "❤\ufe0f\u200d🔥", "1\ufe0f\u20e3",
             "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland's flag
             "می\u200cخواهم", "क्\u200dष", "क्\u200cष", "ญี่ปุ่น", "שָׁלוֹם", "Zoë", "Nguyễn", "Ольга", "Ελένη"],
)  # fmt: skip
def test_names_that_need_joiners_or_marks_are_kept(name):
    assert clean_names([name, "Ann", "Ben"]) == [name, "Ann", "Ben"]


@pytest.mark.parametrize("names", [["Zoë", "Zoe", "Zoé"], ["Ольга", "Olga", "Оля"], ["Nikos", "Νίκος", "Nico"]])
def test_names_that_only_share_letters_are_different_players(names):
    assert clean_names(names) == names


def test_names_are_trimmed():
    assert clean_names(["  Ann ", "B" * 24, "Cat"]) == ["Ann", "B" * 24, "Cat"]
