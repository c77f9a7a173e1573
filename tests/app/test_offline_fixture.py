"""The answers tests/js/offline-hands.test.mjs checks static/offline-hands.js against, given by the Python rules: the
committed fixture must be what they say today. After a change to the rules, write it again:
`.venv/bin/python tests/app/test_offline_fixture.py`."""

import json
import sys

from scorekeeper import rules
from scorekeeper.web.views.app_shell import offline_moons

from server import ROOT

FIXTURE = ROOT / "tests" / "js" / "fixtures" / "offline-hands.json"
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HOUSE = rules.HouseRules(omnibus=True, sun=True)
PLAYED = [{"hearts": [4, 0, 9, 0], "queen": 1, "jack": 2}]  # hand 1, on the server: hand 2 is next
WAITING = [
    {"hearts": [2, 3, 4, 4], "queen": 0, "jack": 3, "all_tricks": None},
    {"hearts": [0, 13, 0, 0], "queen": 1, "jack": 2, "all_tricks": None, "moon_option": "add"},
    {"hearts": [0, 13, 0, 0], "queen": 1, "jack": 2, "all_tricks": None, "moon_option": "subtract"},
    {"hearts": [0, 0, 13, 0], "queen": 2, "jack": 0, "all_tricks": None},  # no option: the advice
    {"hearts": [13, 0, 0, 0], "queen": 0, "jack": 0, "all_tricks": 0},  # the sun: scored back online
]


def made() -> dict[str, object]:
    state = rules.replay(len(PLAYERS), HOUSE, [rules.make_hand(PLAYERS, HOUSE, facts) for facts in PLAYED])
    cases = []
    for facts in WAITING:
        hand = rules.make_hand(PLAYERS, HOUSE, facts, need_option=False)
        after, advice = rules.preview(state, hand)
        moon = rules.moon_shooter(hand, HOUSE) is not None
        cases.append(
            {
                "hand": {"number": len(PLAYED) + 1, **facts},
                "raw": rules.raw_points(hand),
                "moon": moon,
                "scores": list(after.hands[-1].scores),
                "totals": list(after.totals),
                "advice": advice.advice if advice else None,
            }
        )
    cards = [{"key": card.key, "points": card.points} for card in rules.in_play(HOUSE)]
    return {
        "facts": {"next": len(PLAYED) + 1, "totals": list(state.totals), "moons": offline_moons(state)},
        "rules": {"cards": cards, "heart_points": rules.HEART_POINTS},
        "cases": cases,
        # A score as the server writes it, for static/words.js's signed and total (tests/js/words.test.mjs).
        "said": [
            {"points": points, "signed": rules.i18n.signed(points), "total": rules.i18n.total(points)}
            for points in (-43, -26, -10, -1, 0, 1, 10, 26, 52)
        ],  # fmt: skip
    }


def written() -> str:
    return json.dumps(made(), ensure_ascii=False, indent=1) + "\n"


def test_the_fixture_of_the_offline_script_is_what_the_rules_say_today():
    assert FIXTURE.read_text() == written(), "run: .venv/bin/python tests/app/test_offline_fixture.py"


if __name__ == "__main__":
    FIXTURE.write_text(written())
    sys.exit(0)
