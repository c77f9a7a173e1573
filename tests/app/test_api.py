"""The JSON API of docs/api.md, driven as a table would drive it."""

import pytest


def test_create_answers_201_with_location_and_the_game(client):
    answer = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]})
    assert answer.status_code == 201
    game = answer.json
    assert answer.headers["Location"].endswith(f"/api/games/{game['id']}")
    assert game["rules"] == {
        "target": 100,
        "pass_cycle": "left-right-across-hold",
        "moon": "choose",
        "sun": False,
        "omnibus": False,
        "tie": "play-on",
        "first_dealer": 0,
        "exact_reset": False,
        "subtract_floor": True,
        "black_maria": False,
    }
    assert game["places"] == [1, 1, 1, 1]
    assert (game["status"], game["winners"], game["totals"], game["hands"]) == ("in-progress", [], [0, 0, 0, 0], [])
    assert game["next_hand"] == {
        "number": 1,
        "dealer": 0,
        "pass": "left",
        "passes": [{"from": 0, "to": 1}, {"from": 1, "to": 2}, {"from": 2, "to": 3}, {"from": 3, "to": 0}],
        "tie_break": False,
        "leads": "2♣",
    }
    assert client.get(answer.headers["Location"]).json == game


def test_exact_reset_through_the_api(table):
    assert table.start_game(target=50, exact_reset=True)["rules"]["exact_reset"] is True
    table.record_hand([10, 3, 0, 0], 2)  # 10, 3, 13, 0
    advice = table.preview([0, 13, 0, 0], 1)
    assert advice["moon"]["options"]["add"]["totals"] == [36, 3, 39, 26]
    table.record_hand([13, 0, 0, 0], 3)  # 23, 3, 13, 13
    table.record_hand([12, 0, 1, 0], 2)  # 35, 3, 27, 13
    table.record_hand([13, 0, 0, 0], 2)  # 48, 3, 40, 13
    game = table.record_hand([2, 0, 0, 11], 1)  # Ann lands on 50 exactly: back to 0
    assert game["hands"][-1]["scores"] == [2, 13, 0, 11]
    assert (game["totals"], game["status"]) == ([0, 16, 40, 24], "in-progress")


def test_a_whole_game_gives_the_totals_of_the_rules(table):
    table.start_game(target=50, first_dealer=2)
    first = table.record_hand([4, 0, 9, 0], 1)
    assert first["hands"][0] == {
        "number": 1,
        "dealer": 2,
        "pass": "left",
        "hearts": [4, 0, 9, 0],
        "queen": 1,
        "jack": None,
        "all_tricks": None,
        "moon": None,
        "scores": [4, 13, 9, 0],
        "totals": [4, 13, 9, 0],
    }
    assert first["next_hand"]["passes"] == [
        {"from": 0, "to": 3},
        {"from": 1, "to": 0},
        {"from": 2, "to": 1},
        {"from": 3, "to": 2},
    ]
    advice = table.preview([0, 13, 0, 0], 1)
    assert advice["moon"]["advice"] == "add"
    assert advice["moon"]["options"]["subtract"] == {"totals": [4, 0, 9, 0], "outcome": "goes-on"}
    moon = table.record_hand([0, 13, 0, 0], 1, moon_option="add")
    assert moon["hands"][1]["moon"] == {"shooter": 1, "option": "add"}
    assert moon["totals"] == [30, 13, 35, 26]
    table.record_hand([0, 0, 13, 0], 0)
    last = table.record_hand([3, 3, 3, 4], 3, number=4)
    assert last["totals"] == [46, 16, 51, 43]
    assert (last["status"], last["winners"], last["next_hand"]) == ("finished", [1], None)


def test_preview_stores_nothing_and_follows_the_given_option(table):
    table.start_game()
    before = table.game()
    preview = table.preview([0, 13, 0, 0], 1, moon_option="subtract")
    assert preview == {
        "scores": [0, 0, 0, 0],
        "totals": [0, 0, 0, 0],
        "moon": {
            "shooter": 1,
            "options": {
                "add": {"totals": [26, 0, 26, 26], "outcome": "goes-on"},
                "subtract": {"totals": [0, 0, 0, 0], "outcome": "goes-on"},
            },
            "advice": "add",
        },
        "ends_game": False,
        "winners": [],
        "tie_break": False,
    }
    assert table.game() == before


def test_preview_says_when_a_hand_leads_to_a_tie_break(table):
    table.start_game(target=13)
    tied = table.preview([13, 0, 0, 0], 1)  # 13, 13, 0, 0: Cat and Dan share the lowest total, play goes on
    assert tied["tie_break"] is True and tied["ends_game"] is False
    alone = table.preview([10, 1, 2, 0], 0)  # 23, 1, 2, 0: Dan alone is lowest
    assert alone["tie_break"] is False and alone["ends_game"] is True
    assert table.game()["hands"] == []


def test_a_correction_previewed_stores_nothing(table):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([0, 2, 3, 8], 3)
    before = table.game()
    answer = table.client.post(f"/api/games/{table.game_id}/hands/1/preview", json={"hearts": [0, 4, 0, 9], "queen": 3})
    assert answer.status_code == 200
    assert answer.json == {
        "scores": [0, 4, 0, 22],
        "totals": [0, 6, 3, 43],
        "moon": None,
        "ends_game": False,
        "winners": [],
        "tie_break": False,
    }
    assert table.game() == before


def test_a_correction_previewed_gives_a_moons_options_at_its_hand(table):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([0, 2, 3, 8], 3)
    preview = table.client.post(
        f"/api/games/{table.game_id}/hands/2/preview", json={"hearts": [13, 0, 0, 0], "queen": 0}
    )
    moon = preview.json["moon"]
    assert moon["shooter"] == 0 and moon["advice"] == "add"
    assert moon["options"]["add"]["totals"] == [4, 39, 35, 26]  # right after hand 2
    assert preview.json["totals"] == [4, 39, 35, 26] and preview.json["scores"] == [0, 26, 26, 26]


@pytest.mark.parametrize(
    "number, hand, status",
    [(3, {"hearts": [4, 0, 9, 0], "queen": 1}, 404), (1, {"hearts": [4, 0, 9], "queen": 1}, 422)],
    ids=["no-such-hand", "broken-hand"],
)
def test_a_correction_previewed_is_refused_as_the_correction_would_be(table, number, hand, status):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([0, 2, 3, 8], 3)
    answer = table.client.post(f"/api/games/{table.game_id}/hands/{number}/preview", json=hand)
    assert answer.status_code == status and answer.json["error"]


def test_a_correction_that_would_end_the_game_early_says_what_to_do(table):
    table.start_game(target=13)
    table.record_hand([0, 6, 7, 0], 2)  # 0, 6, 20, 0: past the target, the lowest tied: play goes on
    table.record_hand([0, 1, 12, 0], 2)  # 0, 7, 45, 0
    answer = table.client.post(f"/api/games/{table.game_id}/hands/1/preview", json={"hearts": [1, 6, 6, 0], "queen": 2})
    assert answer.status_code == 409
    assert answer.json["error"] == (
        "This would end the game at hand 1, but hands up to 2 are recorded. "
        "Check the hand again; if it is right, undo the hands after hand 1 first, the last one first."
    )


def test_preview_with_a_fixed_moon_rule_offers_that_option(table):
    table.start_game(moon="subtract")
    preview = table.preview([0, 13, 0, 0], 1)
    assert list(preview["moon"]["options"]) == ["subtract"]
    assert preview["moon"]["advice"] == "subtract"


@pytest.mark.parametrize(
    "rules, hand, totals",
    [
        ({"omnibus": True}, {"hearts": [0, 13, 0, 0], "queen": 1, "jack": 1, "moon_option": "add"}, [26, -10, 26, 26]),
        ({"omnibus": True}, {"hearts": [2, 3, 4, 4], "queen": 0, "jack": 3}, [15, 3, 4, -6]),
        ({"sun": True}, {"hearts": [13, 0, 0, 0], "queen": 0, "all_tricks": 0}, [0, 52, 52, 52]),
        (
            {"subtract_floor": False},
            {"hearts": [0, 13, 0, 0], "queen": 1, "moon_option": "subtract"},
            [0, -26, 0, 0],
        ),
        ({"moon": "off"}, {"hearts": [13, 0, 0, 0], "queen": 0}, [26, 0, 0, 0]),
        ({"black_maria": True}, {"hearts": [4, 0, 9, 0], "queen": 1, "king": 2, "ace": 0}, [11, 13, 19, 0]),
    ],
)
def test_worked_examples_from_a_new_game(table, rules, hand, totals):
    table.start_game(**rules)
    answer = table.record_hand(**hand)
    assert answer["totals"] == totals


def test_a_hand_lists_the_cards_its_game_plays(table):
    table.start_game()
    classic = table.record_hand([4, 0, 9, 0], 1)["hands"][0]
    assert (classic["jack"], "king" in classic, "ace" in classic) == (None, False, False)  # as before Black Maria
    table.start_game(players=["Ann", "Ben", "Cat"], black_maria=True)
    hand = table.record_hand([13, 0, 0], 0, king=0, ace=0, moon_option="add")["hands"][0]
    assert (hand["king"], hand["ace"], hand["moon"], hand["scores"]) == (0, 0, {"shooter": 0, "option": "add"},
                                                                        [0, 43, 43])  # fmt: skip
    preview = table.preview([0, 13, 0], 1, king=1, ace=1)
    assert preview["moon"]["options"]["subtract"]["totals"] == [0, 0, 43]  # the floor: 43 off 43 gives 0


def test_places_share_equal_totals_and_skip_the_next(table):
    table.start_game()
    assert table.record_hand([6, 3, 2, 2], 1)["places"] == [3, 4, 1, 1]  # 6, 16, 2, 2


def finished_game(table):
    table.start_game(target=13)
    table.record_hand([4, 0, 9, 0], 1)
    assert table.game()["status"] == "finished"


# (what docs/rules.md calls a bad hand, house rules, body, status, field at fault, words in the message)
BAD_HANDS = [
    ("12 hearts", {}, {"hearts": [4, 0, 8, 0], "queen": 1}, 422, "hearts", "12, not 13: one heart missing"),
    ("14 hearts", {}, {"hearts": [4, 0, 9, 1], "queen": 1}, 422, "hearts", "14, not 13: one heart too many"),
    ("-1 hearts", {}, {"hearts": [-1, 1, 13, 0], "queen": 1}, 422, "hearts", "Ann's hearts must be a whole number"),
    ("14 for one", {}, {"hearts": [14, 0, 0, 0], "queen": 1}, 422, "hearts", "from 0 to 13, not 14"),
    ("2.5 hearts", {}, {"hearts": [2.5, 1.5, 9, 0], "queen": 1}, 422, "hearts", "not 2.5"),
    ("no Q♠", {}, {"hearts": [4, 0, 9, 0]}, 422, "queen", "Say who took the Q♠"),
    ("Q♠ seat 7", {}, {"hearts": [4, 0, 9, 0], "queen": 7}, 422, "queen", "a seat from 0 to 3, not 7"),
    (
        "J♦ off",
        {},
        {"hearts": [4, 0, 9, 0], "queen": 1, "jack": 0},
        422,
        "jack",
        "does not play Omnibus: leave the J♦ out",
    ),
    ("all tricks", {"sun": True}, {"hearts": [4, 0, 9, 0], "queen": 1, "all_tricks": 2}, 422, "all_tricks", "Cat"),
    ("no option", {}, {"hearts": [0, 13, 0, 0], "queen": 1}, 422, "moon_option", "Ben shot the moon"),
    ("K♠ off", {}, {"hearts": [4, 0, 9, 0], "queen": 1, "king": 0}, 422, "king", "does not play Black Maria"),
    (
        "no A♠",
        {"black_maria": True},
        {"hearts": [4, 0, 9, 0], "queen": 1, "king": 0},
        422,
        "ace",
        "Say who took the A♠",
    ),
    (
        "option, no moon",
        {"moon": "off"},
        {"hearts": [13, 0, 0, 0], "queen": 0, "moon_option": "add"},
        422,
        "moon_option",
        "This game plays no moon",
    ),
    ("wrong number", {}, {"hearts": [4, 0, 9, 0], "queen": 1, "number": 3}, 409, None, "the next is hand 1"),
    ("number 'one'", {}, {"hearts": [4, 0, 9, 0], "queen": 1, "number": "one"}, 422, "number", "whole number"),
    ("unknown field", {}, {"hearts": [4, 0, 9, 0], "queen": 1, "spades": 1}, 422, "spades", "no such field"),
]


@pytest.mark.parametrize("what, rules, body, status, field, words", BAD_HANDS, ids=[row[0] for row in BAD_HANDS])
def test_bad_hands_are_refused_and_store_nothing(table, client, what, rules, body, status, field, words):
    table.start_game(**rules)
    before = table.game()
    answer = client.post(f"/api/games/{table.game_id}/hands", json=body)
    assert answer.status_code == status
    assert words in answer.json["error"]
    if field:
        assert words in answer.json["errors"][field]
    assert table.game() == before


def test_a_finished_game_takes_no_more_hands(table, client):
    finished_game(table)
    before = table.game()
    answer = client.post(f"/api/games/{table.game_id}/hands", json={"hearts": [4, 0, 9, 0], "queen": 1})
    assert answer.status_code == 409
    assert answer.json["error"] == "This game is finished: it takes no more hands."
    assert (
        client.post(f"/api/games/{table.game_id}/preview", json={"hearts": [4, 0, 9, 0], "queen": 1}).status_code == 409
    )
    assert table.game() == before


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"players": ["Ann", "Ben"]}, 422, "Hearts needs 3 to 5 players, not 2."),
        ({"players": ["Ann", "ANN", "Cat"]}, 422, "Two players are called “ANN”: make the names different."),
        ({}, 422, "List the players' names."),
        ({"players": ["A", "B", "C"], "rules": {"pass_cycle": "left-right-across-hold"}}, 422, "exactly 4 players"),
        ({"players": ["A", "B", "C"], "rules": "classic"}, 422, "The house rules must be an object."),
        ({"players": ["A", "B", "C", "D"], "rules": {"target": 5}}, 422, "from 10 to 1000"),
        ({"players": ["A", "B", "C", "D"], "rules": {"sun": True, "moon": "off"}}, 422, "Shooting the sun needs"),
        ({"players": ["A", "B", "C", "D"], "rules": {"pass_cycle": "left-right-left2-right2-hold"}}, 422, "exactly 5"),
    ],
)
def test_bad_games_are_refused(client, body, status, message):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == status
    assert message in answer.json["error"]
    assert client.get("/api/games").json["games"] == []


@pytest.mark.parametrize(
    "data, message",
    [
        ("{not json", "The body is not valid JSON."),
        ("[1, 2]", "The body must be a JSON object."),
        (b'{"players": ["Ann", "Ben", "Jos\xe9"]}', "The body is not valid JSON: send it as UTF-8."),  # Latin-1
    ],
)
def test_a_body_that_is_not_a_json_object_is_400(client, data, message):
    answer = client.post("/api/games", data=data, content_type="application/json")
    assert (answer.status_code, answer.json) == (400, {"error": message})


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/api/games/999"),
        ("delete", "/api/games/999"),
        ("post", "/api/games/999/hands"),
        ("put", "/api/games/1/hands/3"),
        ("delete", "/api/games/1/hands/3"),
        ("get", "/api/nowhere"),
    ],
)
def test_missing_games_and_hands_are_404_in_json(table, client, method, path):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    answer = getattr(client, method)(path, json={"hearts": [4, 0, 9, 0], "queen": 1})
    assert answer.status_code == 404
    assert answer.is_json and answer.json["error"]


def test_a_wrong_method_is_json_too_and_says_which_methods_are_allowed(client):
    answer = client.patch("/api/games")
    assert answer.status_code == 405 and answer.json["error"]
    assert set(answer.headers["Allow"].split(", ")) >= {"GET", "POST"}
    page = client.put("/games/new")
    assert page.status_code == 405 and {"GET", "POST"} <= set(page.headers["Allow"].split(", "))


def test_correcting_a_hand_replays_the_later_ones(table):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([13, 0, 0, 0], 0, moon_option="subtract")
    assert table.game()["totals"] == [0, 13, 9, 0]
    corrected = table.correct(1, [9, 0, 4, 0], 1)
    assert corrected["hands"][0]["scores"] == [9, 13, 4, 0]
    # the subtract floor follows the corrected total before hand 2
    assert corrected["totals"] == [0, 13, 4, 0]


def test_a_correction_that_would_end_the_game_early_is_409(table):
    table.start_game(target=23)
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([0, 0, 4, 9], 2)
    before = table.game()
    refused = table.correct(1, [1, 2, 10, 0], 2, expect=409)  # 1, 2, 23, 0: the end, at hand 1
    assert "end the game at hand 1" in refused["error"]
    assert table.game() == before


def test_undo_only_the_last_hand_and_it_reopens_a_finished_game(table):
    finished_game(table)
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([0, 4, 0, 9], 2)
    assert "Only the last hand (hand 2)" in table.undo(1, expect=409)["error"]
    assert table.undo(2)["totals"] == [4, 13, 9, 0]

    table.start_game(target=13)
    table.record_hand([4, 0, 9, 0], 1)
    reopened = table.undo(1)
    assert (reopened["status"], reopened["hands"], reopened["next_hand"]["number"]) == ("in-progress", [], 1)


def test_delete_a_game(table, client):
    table.start_game()
    assert client.delete(f"/api/games/{table.game_id}").status_code == 204
    assert client.get(f"/api/games/{table.game_id}").status_code == 404


def test_games_are_listed_newest_first_in_pages(table, client):
    for _ in range(25):
        table.start_game()
    seen, url = [], "/api/games?limit=10"
    while url:
        page = client.get(url).json
        assert len(page["games"]) <= 10
        seen += [summary["id"] for summary in page["games"]]
        url = page["next"]
    assert seen == sorted(seen, reverse=True) and len(seen) == 25
    summary = client.get("/api/games?limit=1").json["games"][0]
    assert set(summary) == {"id", "players", "status", "winners", "hands", "totals", "places", "created_at",
                            "updated_at"}  # fmt: skip
    assert len(client.get("/api/games").json["games"]) == 20


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "limit=ten", "before=-1"])
def test_bad_page_arguments_are_422(client, query):
    answer = client.get(f"/api/games?{query}")
    assert answer.status_code == 422 and answer.json["error"]


MOON_HAND = {"hearts": [0, 13, 0, 0], "queen": 1, "moon_option": "subtract"}


@pytest.mark.parametrize(
    "resend",
    [
        {"number": 1, "hearts": [4, 0, 9, 0], "queen": 1},
        {"number": 1, "hearts": [4, 0, 9, 0], "queen": 1, "jack": None, "all_tricks": None},
        {"number": 2, **MOON_HAND},
    ],
    ids=["plain", "with empty keys", "moon"],
)
def test_a_resent_hand_answers_200_and_stores_nothing(table, client, resend):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1, number=1)
    table.record_hand(**MOON_HAND, number=2)
    before = table.game()
    answer = client.post(f"/api/games/{table.game_id}/hands", json=resend)
    assert answer.status_code == 200
    assert answer.json == before  # updated_at included: a follower sees no change
    assert table.game() == before


@pytest.mark.parametrize(
    "resend, words",
    [
        ({"number": 1, "hearts": [4, 0, 8, 1], "queen": 1}, "Hand 1 is not the next hand"),
        ({"number": 1, "hearts": [4, 0, 9, 0], "queen": 2}, "Hand 1 is not the next hand"),
        ({"number": 2, **MOON_HAND, "moon_option": "add"}, "Hand 2 is not the next hand"),
        ({"number": 1, "hearts": [4, 0, 8, 0], "queen": 1}, "Hand 1 is not the next hand"),
        ({"hearts": [4, 0, 9, 0], "queen": 1}, None),  # no number: a new hand 3, stored
    ],
)
def test_other_facts_for_a_stored_number_are_409(table, client, resend, words):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand(**MOON_HAND)
    answer = client.post(f"/api/games/{table.game_id}/hands", json=resend)
    if words is None:
        assert answer.status_code == 201 and len(answer.json["hands"]) == 3
        return
    assert answer.status_code == 409 and words in answer.json["error"]
    assert len(table.game()["hands"]) == 2


def test_resending_the_hand_that_ended_the_game_is_no_error(table, client):
    finished_game(table)
    answer = client.post(f"/api/games/{table.game_id}/hands", json={"number": 1, "hearts": [4, 0, 9, 0], "queen": 1})
    assert answer.status_code == 200 and answer.json["status"] == "finished"
    answer = client.post(f"/api/games/{table.game_id}/hands", json={"number": 2, "hearts": [4, 0, 9, 0], "queen": 1})
    assert answer.status_code == 409 and answer.json["error"] == "This game is finished: it takes no more hands."


def test_a_game_s_rules_and_names_change_until_its_first_hand(client, table):
    game = table.start_game(("Ann", "Benn", "Cat", "Dan"))
    fixed = {"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 50, "black_maria": False}}
    changed = client.patch(f"/api/games/{game['id']}", json=fixed)
    assert changed.status_code == 200
    assert changed.json["players"] == ["Ann", "Ben", "Cat", "Dan"] and changed.json["rules"]["target"] == 50
    assert changed.json["rules"]["pass_cycle"] == game["rules"]["pass_cycle"]  # the rules not given stay
    assert client.get("/players/Benn").status_code == 404 and client.get("/players/Ben").status_code == 200
    for body, status in [({"players": ["Ann", "Ben", "Cat"]}, 422), ({"rules": {"target": 5}}, 422),
                         ({"rules": {"moon": "sometimes"}}, 422), ({"players": ["Ann", "Ann", "Cat", "Dan"]}, 422),
                         ({"colour": "red"}, 422), ({"rules": [1]}, 422)]:  # fmt: skip
        answer = client.patch(f"/api/games/{game['id']}", json=body)
        assert answer.status_code == status and answer.json["error"], body
    assert client.get(f"/api/games/{game['id']}").json == changed.json  # nothing stored by a refusal
    table.record_hand([4, 0, 9, 0], 1)
    late = client.patch(f"/api/games/{game['id']}", json={"rules": {"target": 100}})
    assert late.status_code == 409 and "until the first hand is recorded" in late.json["error"]
    assert client.patch("/api/games/99", json={}).status_code == 404
