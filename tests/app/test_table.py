"""The table pages through the test client: plain forms, no JavaScript."""

import re

import pytest

from scorekeeper import create_app

NEW_GAME = {
    "players-0": "Ann",
    "players-1": "Ben",
    "players-2": "Cat",
    "players-3": "Dan",
    "first_dealer": "0",
    "target": "100",
    "pass_cycle": "standard",
    "moon": "choose",
    "tie": "play-on",
}


def hand_form(hearts, queen, number, **more):
    form = {f"hearts-{seat}": str(count) for seat, count in enumerate(hearts)}
    return {**form, "queen": str(queen), "number": str(number), **{k: str(v) for k, v in more.items()}}


@pytest.fixture
def game(client):
    answer = client.post("/games/new", data=NEW_GAME)
    assert answer.status_code == 302
    return answer.headers["Location"]


def test_new_game_form_explains_and_preselects_the_defaults(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert "clockwise" in page
    for default in ("target-0", "pass_cycle-0", "moon-0", "tie-0", "first_dealer-0"):
        assert f'checked id="{default}"' in page
    assert 'id="target-0" name="target" type="radio" value="100"' in page
    assert 'checked id="sun"' not in page and 'checked id="omnibus"' not in page
    assert 'id="exact_reset"' in page and 'checked id="exact_reset"' not in page
    assert 'maxlength="24"' in page and 'min="10"' in page and 'max="1000"' in page


def test_new_game_takes_every_house_rule_from_the_form(client):
    answer = client.post("/games/new", data={**NEW_GAME, "exact_reset": "y", "omnibus": "y", "target": "50"})
    assert answer.status_code == 302
    house = client.get("/api/games/1").json["rules"]
    assert (house["exact_reset"], house["omnibus"], house["sun"], house["target"]) == (True, True, False, 50)
    again = client.get("/games/new").get_data(as_text=True)  # the next game offers the same rules
    assert 'checked id="exact_reset"' in again


def test_new_game_offers_the_last_players_in_one_tap_and_fills_nothing_unasked(client, game):
    page = client.get("/games/new").get_data(as_text=True)
    assert 'value="Ann"' not in page and "Same players as last time" in page and "Ann, Ben, Cat, Dan" in page
    same = client.get("/games/new?same=players").get_data(as_text=True)  # the link, without the script
    assert 'value="Ann"' in same and 'value="Dan"' in same


def test_a_new_game_starts_at_the_table(client, game):
    page = client.get(game).get_data(as_text=True)
    assert "Hand 1" in page and '<span class="sep"> · </span>Ann deals' in page
    assert "Ann → Ben" in page and "Dan → Ann" in page
    assert "The 2♣ leads." in page


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players-1": "ann"}, "Two players are called “ann”"),
        ({"players-2": "", "players-3": ""}, "Hearts needs 3 to 5 players, not 2."),
        ({"players-3": "", "pass_cycle": "left-right-across-hold"}, "Passing across needs exactly 4 players, not 3."),
        ({"target": "custom", "custom_target": "5"}, "The target must be a whole number from 10 to 1000."),
        ({"target": "custom", "custom_target": ""}, "The target must be a whole number from 10 to 1000."),
        ({"first_dealer": "4"}, "The first dealer must be a seat from 0 to 3."),
    ],
)
def test_new_game_errors_are_shown_and_nothing_is_stored(client, change, message):
    answer = client.post("/games/new", data={**NEW_GAME, **change})
    assert answer.status_code == 422
    assert message in answer.get_data(as_text=True)
    assert client.get("/api/games").json["games"] == []


def test_recording_a_hand_updates_the_scoreboard(client, game):
    answer = client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    assert answer.status_code == 302
    page = client.get(game).get_data(as_text=True)
    assert "Hand 2" in page and 'aria-label="Pass 3 cards to the right"' in page
    assert 'data-total="1">13<' in page and 'data-total="2">9<' in page
    assert "Ann → Dan" in page


@pytest.mark.parametrize(
    "hearts, queen, message, kept",
    [
        ([4, 0, 8, 0], 1, "The hearts add up to 12, not 13: one heart missing.", 4),
        ([4, 0, 9, 1], 1, "The hearts add up to 14, not 13: one heart too many.", 4),
        ([99, 0, 0, 0], 1, "Ann&#39;s hearts must be a whole number from 0 to 13, not 99.", None),
        (["x", 0, 13, 0], 1, "Ann&#39;s hearts must be a whole number from 0 to 13, not &#39;x&#39;.", None),
        ([4, 0, 9, 0], 9, "The Q♠ must go to a seat from 0 to 3, not 9.", 4),
        ([4, 0, 9, 0], "", "Say who took the Q♠.", 4),
        ([0, 13, 0, 0], 1, "Ben shot the moon: choose add", 0),
    ],
)
def test_a_bad_hand_is_refused_and_what_was_entered_stays(client, game, hearts, queen, message, kept):
    answer = client.post(game + "/hands", data=hand_form(hearts, queen, 1))
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert message in page
    checked = [chip for chip in range(14) if f'checked name="hearts-0" type="radio" value="{chip}"' in page]
    assert checked == ([] if kept is None else [kept])  # Ann's chip as entered; none for a forged count
    assert client.get("/api/games/1").json["hands"] == []


def test_every_new_house_rule_comes_from_the_form(client):
    rules = {"moon": "off", "subtract_floor": "False", "black_maria": "y", "pass_cycle": "right"}
    assert client.post("/games/new", data={**NEW_GAME, **rules}).status_code == 302
    house = client.get("/api/games/1").json["rules"]
    assert (house["moon"], house["subtract_floor"], house["black_maria"], house["pass_cycle"]) == (
        "off", False, True, "right")  # fmt: skip
    again = client.get("/games/new").get_data(as_text=True)  # the next game offers the same rules
    assert 'checked id="black_maria"' in again and 'checked id="subtract_floor-1"' in again


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players-4": "Eve", "pass_cycle": "left-left2-right2-right-hold", "players-3": ""}, "needs exactly 5"),
        ({"sun": "y", "moon": "off"}, "Shooting the sun needs the moon: with no moon, leave the sun off."),
        ({"subtract_floor": "maybe"}, "Not a valid choice"),
    ],
)
def test_new_house_rules_that_do_not_go_together_are_refused(client, change, message):
    answer = client.post("/games/new", data={**NEW_GAME, **change})
    assert answer.status_code == 422 and message in answer.get_data(as_text=True)
    assert client.get("/api/games").json["games"] == []


def test_a_preset_fills_the_form_without_the_script(client, game):
    page = client.get("/games/new?preset=black-maria").get_data(as_text=True)
    assert 'checked id="black_maria"' in page and 'value="right"' in page.split('checked id="pass_cycle-')[1][:60]
    assert 'value="Ann"' not in page  # players only when asked for
    classic = client.get("/games/new?preset=classic").get_data(as_text=True)
    assert 'checked id="black_maria"' not in classic and 'checked id="pass_cycle-0"' in classic


def test_a_black_maria_hand_from_the_form(client):
    client.post("/games/new", data={**NEW_GAME, "players-3": "", "black_maria": "y"})
    page = client.get("/games/1").get_data(as_text=True)
    assert "Who took the K♠ (+10)" in page and "Who took the A♠ (+7)" in page and "Who took the J♦" not in page
    missing = client.post("/games/1/hands", data=hand_form([4, 0, 9], 1, 1, king=2))
    assert missing.status_code == 422 and "Say who took the A♠ (Black Maria is on)." in missing.get_data(as_text=True)
    assert client.post("/games/1/hands", data=hand_form([4, 0, 9], 1, 1, king=2, ace=0)).status_code == 302
    assert client.get("/api/games/1").json["totals"] == [11, 13, 19]  # worked example 19


@pytest.mark.parametrize(
    "card, message",
    [
        ({"jack": 2}, "This game does not play Omnibus: leave the J♦ out."),
        ({"all_tricks": 1}, "This game does not play shooting the sun: leave “every trick” out."),
        ({"ace": 1}, "This game does not play Black Maria: leave the A♠ out."),
    ],
)
def test_cards_the_house_rules_do_not_play_are_refused_as_by_the_api(client, game, card, message):
    answer = client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1, **card))
    assert answer.status_code == 422 and message in answer.get_data(as_text=True)
    assert client.get("/api/games/1").json["hands"] == []


def test_undo_without_a_hand_number_undoes_nothing(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    for number in ("abc", "", "²"):
        page = client.post(game + "/undo", data={"number": number}, follow_redirects=True).get_data(as_text=True)
        assert "Say which hand to undo: nothing was undone." in page and "was undone" not in page.replace(
            "nothing was undone", ""
        )
    assert len(client.get("/api/games/1").json["hands"]) == 1


@pytest.mark.parametrize(
    "method, address",
    [
        ("get", "/games/9/hands/1"),
        ("post", "/games/9/hands"),
        ("post", "/games/9/undo"),
        ("post", "/games/9/rematch"),
        ("get", "/games/9/sheet"),
        ("get", "/games/9/review"),
        ("get", "/games/9/follow"),
        ("get", "/games/9/export.json"),
    ],
)
def test_a_missing_game_is_a_404_page_everywhere(client, method, address):
    answer = getattr(client, method)(address, data={"number": "1"})
    assert answer.status_code == 404 and "There is no game 9." in answer.get_data(as_text=True)


def test_a_moon_shows_both_options_with_advice_then_records_the_choice(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    answer = client.post(game + "/hands", data=hand_form([0, 13, 0, 0], 1, 2))
    page = answer.get_data(as_text=True)
    assert "Ben</span> shot the moon!" in page
    assert "Ann 30, Ben 13, Cat 35, Dan 26" in page  # add
    assert "Ann 4, Ben 0, Cat 9, Dan 0" in page  # subtract
    assert "Shooter −13" in page  # what the floor really takes off Ben
    assert 'data-advised="subtract" hidden' in page and 'data-advised="add" hidden' not in page
    client.post(game + "/hands", data=hand_form([0, 13, 0, 0], 1, 2, moon_option="subtract"))
    assert client.get("/api/games/1").json["totals"] == [4, 0, 9, 0]
    assert '☾ <span class="mark">−13</span>' in client.get(game).get_data(as_text=True)  # the floor: 13 off, not 26


def test_a_double_tap_saves_once_and_says_so(client, game):
    first = client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1), follow_redirects=True)
    assert "Hand 1 saved." in first.get_data(as_text=True)
    again = client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1), follow_redirects=True)
    page = again.get_data(as_text=True)
    assert again.status_code == 200 and "Hand 1 was already saved." in page and 'class="flash error"' not in page
    assert len(client.get("/api/games/1").json["hands"]) == 1


def test_a_stale_form_from_a_second_phone_is_not_recorded_twice(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    answer = client.post(game + "/hands", data=hand_form([9, 0, 4, 0], 1, 1), follow_redirects=True)
    assert "Hand 1 is not the next hand: the next is hand 2." in answer.get_data(as_text=True)
    assert client.get("/api/games/1").json["hands"][0]["hearts"] == [4, 0, 9, 0]


def test_undo_the_last_hand(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    assert "Undo hand 1" in client.get(game).get_data(as_text=True)
    answer = client.post(game + "/undo", data={"number": "1"}, follow_redirects=True)
    assert "Hand 1 was undone." in answer.get_data(as_text=True)
    assert client.get("/api/games/1").json["hands"] == []


def test_undo_of_a_hand_that_is_not_the_last_is_refused(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 2))
    answer = client.post(game + "/undo", data={"number": "1"}, follow_redirects=True)
    assert "Only the last hand (hand 2) can be undone" in answer.get_data(as_text=True)
    assert len(client.get("/api/games/1").json["hands"]) == 2


def test_correct_a_hand_opens_the_filled_form_and_recomputes(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    client.post(game + "/hands", data=hand_form([13, 0, 0, 0], 0, 2, moon_option="subtract"))
    page = client.get(game + "/hands/1").get_data(as_text=True)
    assert (
        'checked name="hearts-0" type="radio" value="4"' in page
        and 'checked name="queen" type="radio" value="1"' in page
    )
    answer = client.post(game + "/hands/1", data=hand_form([9, 0, 4, 0], 1, 1), follow_redirects=True)
    assert "Hand 1 corrected" in answer.get_data(as_text=True)
    assert client.get("/api/games/1").json["totals"] == [0, 13, 4, 0]
    assert client.get(game + "/hands/7").status_code == 404


def test_what_a_save_says_waits_for_the_page_opened_and_not_for_a_scripts_fetch(client, game):
    """The service worker keeping a page for offline use, or a correction's preview still on its way, may be
    answered between the save and the page it leads to: they leave the line for that page."""
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    client.post(game + "/hands/1", data=hand_form([9, 0, 4, 0], 1, 1))
    for fetched in (game + "/hands/1", game):
        assert 'class="flash' not in client.get(fetched, headers={"Sec-Fetch-Mode": "cors"}).get_data(as_text=True)
    opened = client.get(game, headers={"Sec-Fetch-Mode": "navigate"}).get_data(as_text=True)
    assert "Hand 1 corrected" in opened
    assert "Hand 1 corrected" not in client.get(game).get_data(as_text=True)  # said once


def test_a_correction_shows_every_later_hand_it_scores_otherwise(client, game):
    """Hand 2's moon is floored at Ann's total: correcting hand 1 changes what hand 2 took off, and the page says so."""
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    client.post(game + "/hands", data=hand_form([13, 0, 0, 0], 0, 2, moon_option="subtract"))
    page = client.post(game + "/hands/1", data={**hand_form([9, 0, 4, 0], 1, 1), "preview": "1"})
    said = page.get_data(as_text=True)
    table = said[said.index('id="correction"') :]
    heads = re.findall(r'<th scope="col">([^<]*)</th>', table)
    assert heads == ["Player", "Hand 1", "Hand 2", "Total now"]
    assert "The correction also changes what a later hand scores: hand 2." in said
    ann = re.search(r'<tr class="moved"><th scope="row">Ann</th>(.*?)</tr>', table, re.DOTALL).group(1)
    assert re.findall(r"<td>(.*?)</td>", ann) == ["<del>4</del> → <ins>9</ins>", "<del>−4</del> → <ins>−9</ins>",
                                                  "0"]  # fmt: skip
    unchanged = client.post(game + "/hands/1", data={**hand_form([4, 0, 9, 0], 1, 1), "preview": "1"})
    assert re.findall(r'<th scope="col">([^<]*)</th>', unchanged.get_data(as_text=True)) == [
        "Player", "Hand 1", "Total now"]  # fmt: skip


def test_a_bad_correction_keeps_the_hand(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    answer = client.post(game + "/hands/1", data=hand_form([4, 0, 8, 0], 1, 1))
    assert answer.status_code == 422 and "one heart missing" in answer.get_data(as_text=True)
    assert client.get("/api/games/1").json["totals"] == [4, 13, 9, 0]


def finish(client):
    game = client.post("/games/new", data={**NEW_GAME, "target": "custom", "custom_target": "13"}).headers["Location"]
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    return game


def test_game_over_shows_the_winner_places_and_rematch(client):
    game = finish(client)
    page = client.get(game).get_data(as_text=True)
    assert "Dan wins!" in page
    assert page.index(">Dan<") < page.index(">Ann<") < page.index(">Cat<") < page.index(">Ben<")
    rematch = client.post(game + "/rematch")
    assert rematch.status_code == 302
    again = client.get("/api/games").json["games"][0]
    assert again["players"] == ["Ann", "Ben", "Cat", "Dan"] and again["hands"] == 0
    assert client.get(f"/api/games/{again['id']}").json["rules"]["target"] == 13


def test_a_shared_win_names_every_winner(client):
    data = {**NEW_GAME, "target": "custom", "custom_target": "13", "tie": "share"}
    game = client.post("/games/new", data=data).headers["Location"]
    client.post(game + "/hands", data=hand_form([13, 0, 0, 0], 1, 1))  # 13, 13, 0, 0
    page = client.get(game).get_data(as_text=True)
    assert "Cat and Dan share the win!" in page


def test_the_tie_break_banner(client):
    game = client.post("/games/new", data={**NEW_GAME, "target": "custom", "custom_target": "13"}).headers["Location"]
    client.post(game + "/hands", data=hand_form([13, 0, 0, 0], 1, 1))  # 13, 13, 0, 0
    page = client.get(game).get_data(as_text=True)
    assert "Tie for the lowest total" in page


def test_unknown_pages_are_friendly_404s(client):
    answer = client.get("/games/999")
    assert answer.status_code == 404 and "There is no game 999." in answer.get_data(as_text=True)


def test_forms_need_the_csrf_token(tmp_path):
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}", "SECRET_KEY": "t"})
    client = app.test_client()
    answer = client.post("/games/new", data=NEW_GAME)
    assert answer.status_code == 400 and "CSRF" in answer.get_data(as_text=True)
    assert client.get("/api/games").json["games"] == []


def test_the_scoreboard_marks_the_leader_and_who_is_closest_to_the_target(client, game):
    page = client.get(game).get_data(as_text=True)
    assert "♛ lowest" not in page and "to go" not in page  # nobody leads before the first hand
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))  # 4, 13, 9, 0
    page = client.get(game).get_data(as_text=True)
    tiles = re.findall(
        r'<li class="([^"]*)">\s*<span class="name">(\w+)</span>.*?<span class="tag">(.*?)</span>', page, re.S
    )
    assert [(name, css.split(), tag) for css, name, tag in tiles] == [
        ("Ann", [], ""),
        ("Ben", ["closest"], "87 to go"),
        ("Cat", [], ""),
        ("Dan", ["leader"], "♛ lowest"),
    ]


def test_every_total_past_the_target_says_so_not_the_highest_alone(client):
    """Issue 40, point 6: two players past the target while a tie at the bottom plays on; "past 20" showed under
    one of them only."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 20}}).json
    for hearts, queen in [([0, 0, 9, 4], 2), ([0, 0, 3, 10], 3)]:  # 0, 0, 25, 27: Ann and Ben tie at the bottom
        client.post(f"/api/games/{made['id']}/hands", json={"hearts": hearts, "queen": queen})
    page = client.get(f"/games/{made['id']}").get_data(as_text=True)
    tags = dict(re.findall(r'<span class="name">(\w+)</span>.*?<span class="tag">(.*?)</span>', page, re.S))
    assert tags == {"Ann": "♛ lowest", "Ben": "♛ lowest", "Cat": "past 20", "Dan": "past 20"}


@pytest.fixture
def guarded(tmp_path):
    """A client of an app that checks CSRF tokens, as a real server does."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}", "SECRET_KEY": "t"})
    client = app.test_client()
    client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]})
    return client


def token_of(page: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def test_a_form_loaded_hours_ago_still_saves(guarded, monkeypatch):
    import itsdangerous.timed

    hours_ago = itsdangerous.timed.TimestampSigner.get_timestamp(None) - 5 * 3600
    with monkeypatch.context() as clock:  # the page was loaded five hours ago
        clock.setattr(itsdangerous.timed.TimestampSigner, "get_timestamp", lambda self: hours_ago)
        token = token_of(guarded.get("/games/1").get_data(as_text=True))
    answer = guarded.post("/games/1/hands", data={**hand_form([4, 0, 9, 0], 1, 1), "csrf_token": token})
    assert answer.status_code == 302
    assert guarded.get("/api/games/1").json["totals"] == [4, 13, 9, 0]


def test_a_refused_token_keeps_the_hand_for_a_second_tap(guarded):
    guarded.get("/games/1")
    answer = guarded.post("/games/1/hands", data={**hand_form([4, 0, 9, 0], 1, 1), "csrf_token": "forged"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "Your hand is kept: tap Save again." in page
    assert (
        'checked name="hearts-0" type="radio" value="4"' in page
        and 'checked name="queen" type="radio" value="1"' in page
    )
    assert guarded.get("/api/games/1").json["hands"] == []
    retry = guarded.post("/games/1/hands", data={**hand_form([4, 0, 9, 0], 1, 1), "csrf_token": token_of(page)})
    assert retry.status_code == 302 and guarded.get("/api/games/1").json["totals"] == [4, 13, 9, 0]


def test_home_tells_games_of_the_same_players_apart_by_start_and_leader(client, table):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)  # Dan leads with 0
    table.start_game()
    table.record_hand([0, 4, 9, 0], 1)  # Ann and Dan lead with 0
    table.start_game()
    page = client.get("/").get_data(as_text=True)
    assert page.count("Started ") == 3
    assert "♛ Dan leads with 0" in page and "♛ Ann and Dan lead with 0" in page
    assert "Not begun: no hand played yet" in page
    assert "No hand yet" not in page and "0 / 0 / 0 / 0" not in page


def test_the_correct_page_shows_before_and_after_and_stores_nothing_until_saved(client, game):
    client.post(game + "/hands", data=hand_form([4, 0, 9, 0], 1, 1))
    client.post(game + "/hands", data=hand_form([2, 3, 4, 4], 0, 2))  # totals 19, 16, 13, 4
    page = client.get(game + "/hands/1").get_data(as_text=True)
    assert "<del>" not in page and "Show the new totals" in page
    answer = client.post(game + "/hands/1", data={**hand_form([9, 0, 4, 0], 1, 1), "preview": "1"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    row = r'<tr( class="moved")?><th scope="row">(\w+)</th>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*</tr>'
    rows = re.findall(row, page)
    assert rows == [
        (' class="moved"', "Ann", "<del>4</del> → <ins>9</ins>", "<del>19</del> → <ins>24</ins>"),
        ("", "Ben", "13", "16"),
        (' class="moved"', "Cat", "<del>9</del> → <ins>4</ins>", "<del>13</del> → <ins>8</ins>"),
        ("", "Dan", "0", "4"),
    ]
    assert client.get("/api/games/1").json["totals"] == [19, 16, 13, 4]


def test_a_score_below_zero_reads_with_a_real_minus_on_every_page(table, client):
    table.start_game(omnibus=True)
    table.record_hand([4, 0, 9, 0], 1, jack=3)  # Dan took the J♦ and no heart: −10
    pages = {
        address: client.get(address).get_data(as_text=True)
        for address in [
            f"/games/{table.game_id}",
            f"/games/{table.game_id}/review",
            f"/games/{table.game_id}/sheet",
            "/history",
        ]
    }
    for address, page in pages.items():
        shown = re.sub(r"<script.*?</script>|<[^>]*>", " ", page, flags=re.S)  # the words, not the scripts' data
        assert "−10" in shown, address
        assert not re.search(r"(?<![\w-])-10\b", shown), address
