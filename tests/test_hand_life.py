"""The life of a hand leaving the table page (static/hand-life.js), and the plain parts of the outbox and the
conflict box, run in Chromium with no server: the page's requests are answered from the files in static/."""

import json

import pytest
from playwright.sync_api import Page

from server import ROOT

pytestmark = pytest.mark.browser
ORIGIN = "http://scripts.test"
HAND = {"hearts": [4, 0, 9, 0], "queen": 1}
SENT = {"number": 7, **HAND}
PREVIEW = {"facts": HAND, "totals": [40, 52, 31, 12]}
GAME = {"next_hand": {"number": 8}, "hands": [], "totals": [40, 52, 31, 12]}


@pytest.fixture
def scripts(page: Page) -> Page:
    """A blank page that can import the scripts in static/, each as written."""

    def answer(route):
        name = route.request.url.removeprefix(f"{ORIGIN}/static/")
        route.fulfill(path=ROOT / "static" / name, content_type="text/javascript")

    page.route(f"{ORIGIN}/static/*.js", answer)
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(body="<!doctype html><title>scripts</title>"))
    page.goto(f"{ORIGIN}/")
    return page


def life(page: Page, steps: str):
    """Run `steps` (JavaScript with `life` imported, ending in an expression) and give back its value."""
    return page.evaluate(f"async () => {{ const life = await import('/static/hand-life.js'); return {steps}; }}")


def js(value) -> str:
    return json.dumps(value)


ENTERING = "life.entering(7)"
SAVING = f"life.save({ENTERING}, {js(HAND)}, {js(PREVIEW)}, false).state"
SAVED = f"life.answered({SAVING}, 201, {js(GAME)}).state"
QUEUED = f"life.save({ENTERING}, {js(HAND)}, null, true).state"
CONFLICT = f"life.answered({SAVING}, 409, {{error: 'Hand 7 is not the next hand: the next is hand 8.'}}).state"
REFUSED = (
    f"life.answered({SAVING}, 422, {{error: 'Say who took the Q♠.', errors: {{queen: 'Say who took the Q♠.'}}}}).state"
)


def test_save_shows_the_totals_of_the_preview_of_this_very_hand_at_once(scripts):
    step = life(scripts, f"life.save({ENTERING}, {js(HAND)}, {js(PREVIEW)}, false)")
    assert step == {
        "state": {"phase": "saving", "number": 7, "hand": SENT, "totals": [40, 52, 31, 12]},
        "effect": "send",
    }
    other = {"facts": {**HAND, "queen": 2}, "totals": [1, 2, 3, 4]}
    assert life(scripts, f"life.save({ENTERING}, {js(HAND)}, {js(other)}, false).state.totals") is None
    assert life(scripts, f"life.save({ENTERING}, {js(HAND)}, null, false).effect") == "send"


@pytest.mark.parametrize("state", [SAVING, SAVED, QUEUED], ids=["saving", "saved", "queued"])
def test_a_second_tap_on_save_changes_nothing(scripts, state):
    """The double tap: on its way, saved, or kept on the phone, Save does nothing until the next hand is begun."""
    before = life(scripts, state)
    step = life(scripts, f"life.save({state}, {js({**HAND, 'queen': 3})}, null, false)")
    assert step == {"state": before, "effect": None}


def test_offline_or_behind_waiting_hands_a_save_is_queued_and_the_next_hand_numbered_after_it(scripts):
    step = life(scripts, f"life.save({ENTERING}, {js(HAND)}, {js(PREVIEW)}, true)")
    assert step == {"state": {"phase": "queued", "number": 8, "saved": 7, "hand": SENT}, "effect": "queue"}
    second = life(scripts, f"life.save(life.tapped({QUEUED}), {js(HAND)}, null, true).state")
    assert second["saved"] == 8 and second["number"] == 9 and second["hand"]["number"] == 8


@pytest.mark.parametrize(
    "status, body, phase, effect, field",
    [
        (201, GAME, "saved", "refresh", None),
        (200, GAME, "saved", "refresh", None),
        (409, {"error": "Hand 7 is not the next hand: the next is hand 8."}, "conflict", "compare", None),
        (422, {"error": "Say who took the Q♠.", "errors": {"queen": "Say who took the Q♠."}}, "refused", None, "queen"),
        (422, {"error": "A game takes at most …", "errors": {"hands": "…"}}, "refused", None, None),
        (0, {}, "queued", "queue", None),
        (503, {"error": "The database is busy: try again in a moment."}, "failed", None, None),
    ],
    ids=["stored", "stored-before", "conflict", "refused", "refused-no-field", "no-answer", "busy"],
)
def test_each_answer_leads_to_its_state(scripts, status, body, phase, effect, field):
    step = life(scripts, f"life.answered({SAVING}, {status}, {js(body)})")
    assert step["state"]["phase"] == phase and step["effect"] == effect
    assert step["state"].get("field") == field
    if phase in ("conflict", "refused", "failed"):  # the hand stays on the form, with why
        assert step["state"]["hand"] == SENT and step["state"]["message"] == body["error"]


def test_a_saved_hand_takes_the_servers_number_for_the_next_and_says_so_on_the_button(scripts):
    saved = life(scripts, SAVED)
    assert saved["number"] == 8 and saved["saved"] == 7 and saved["resent"] is False
    assert life(scripts, f"life.buttonWords({SAVED}, 'Save hand')") == "Hand 7 saved ✓"
    assert life(scripts, f"life.lineWords({SAVED})") == "Hand 7 saved."
    resent = f"life.answered({SAVING}, 200, {js(GAME)}).state"
    assert life(scripts, f"life.lineWords({resent})") == "Hand 7 was already saved."
    game_over = f"life.answered({SAVING}, 201, {{next_hand: null}}).state.number"
    assert life(scripts, game_over) is None


def test_an_error_without_words_says_what_to_do(scripts):
    state = life(scripts, f"life.answered({SAVING}, 500, {{}}).state")
    assert state["message"] == "The server did not answer. Your hand is kept: tap Save again."


def test_a_late_answer_changes_nothing(scripts):
    assert life(scripts, f"life.answered({ENTERING}, 201, {js(GAME)})") == {
        "state": {"phase": "entering", "number": 7},
        "effect": None,
    }


@pytest.mark.parametrize(
    "state, phase",
    [(SAVED, "entering"), (QUEUED, "entering"), (REFUSED, "entering"), (SAVING, "saving"), (ENTERING, "entering")],
    ids=["saved", "queued", "refused", "saving", "entering"],
)
def test_a_tap_on_the_form_begins_the_next_hand(scripts, state, phase):
    tapped = life(scripts, f"life.tapped({state})")
    assert tapped["phase"] == phase
    if state in (SAVED, QUEUED):
        assert tapped == {"phase": "entering", "number": 8}


def test_a_conflict_whose_comparison_fails_leaves_save_alive(scripts):
    """A 409, then nothing more (the server's game could not be fetched): the next tap on Save sends again."""
    conflict = life(scripts, CONFLICT)
    assert conflict["phase"] == "conflict" and conflict["hand"] == SENT
    assert life(scripts, f"life.busy({CONFLICT})") is False
    again = life(scripts, f"life.save(life.tapped({CONFLICT}), {js(HAND)}, null, false)")
    assert again["effect"] == "send" and again["state"]["phase"] == "saving"


def test_a_conflict_settled_either_way(scripts):
    theirs = life(scripts, f"life.settle({CONFLICT}, 'theirs', 8)")
    assert theirs == {
        "state": {"phase": "saved", "number": 8, "saved": 7, "choice": "theirs", "stale": True},
        "effect": "refresh",
    }
    assert (
        life(scripts, f"life.lineWords(life.settle({CONFLICT}, 'theirs', 8).state)")
        == "Hand 7: the other phone's kept."
    )
    mine = life(scripts, f"life.settle({CONFLICT}, 'mine')")
    assert mine["effect"] == "correct" and mine["state"]["hand"] == SENT and mine["state"]["phase"] == "saving"
    corrected = life(scripts, f"life.answered(life.settle({CONFLICT}, 'mine').state, 200, {js(GAME)}).state")
    assert corrected["phase"] == "saved" and corrected["resent"] is False and corrected["choice"] == "mine"
    assert life(scripts, f"life.lineWords({js(corrected)})") == "Hand 7: this phone's kept."
    unanswered = life(scripts, f"life.answered(life.settle({CONFLICT}, 'mine').state, 0, {{}})")
    assert unanswered["state"]["phase"] == "failed" and unanswered["effect"] is None  # a correction never waits offline
    assert life(scripts, f"life.settle({ENTERING}, 'mine').effect") is None


@pytest.mark.parametrize(
    "state, inert",
    [
        (ENTERING, False),
        (SAVING, True),
        (SAVED, True),
        (f"life.refreshed({SAVED}, 8)", False),
        (f"life.refreshFailed({SAVED}).state", False),
        (QUEUED, False),
        (CONFLICT, False),
    ],  # fmt: skip
    ids=["entering", "saving", "saved", "refreshed", "refresh-failed", "queued", "conflict"],
)
def test_the_form_takes_no_tap_until_the_next_hands_form_is_in(scripts, state, inert):
    """Between the answer and the server's page, a tap on a chip would land on the hand just saved."""
    assert life(scripts, f"life.inert({state})") is inert


@pytest.mark.parametrize("state", [f"life.refreshed({SAVED}, 8)", QUEUED], ids=["saved", "queued"])
def test_the_form_takes_no_tap_for_a_moment_after_it_moved(scripts, state):
    """The next hand brought into view lies where Save was: a stray second tap must not enter a count."""
    assert life(scripts, f"life.inert(life.moved({state}))") is True
    assert life(scripts, f"life.inert(life.still(life.moved({state})))") is False
    assert life(scripts, f"life.still(life.moved({state}))") == life(scripts, state)


def test_after_the_answer_the_page_refreshes_or_starts_the_next_hand_itself(scripts):
    assert life(scripts, f"life.refreshed({SAVED}, 9)")["number"] == 9
    assert life(scripts, f"life.refreshed({SAVED}, 9).phase") == "saved"  # still inert until a chip is tapped
    assert life(scripts, f"life.refreshed({CONFLICT}, 9).phase") == "conflict"
    assert life(scripts, f"life.refreshed({REFUSED}, 9)") == {"phase": "entering", "number": 9}
    failed = life(scripts, f"life.refreshFailed({SAVED})")
    assert failed["effect"] == "reset"
    assert failed["state"]["message"] == "Hand 7 saved. The page could not refresh: reload it to see the totals."


def test_a_hand_the_outbox_could_not_take_stays_on_the_form(scripts):
    assert life(scripts, f"life.notQueued({QUEUED})") == {
        "phase": "failed",
        "number": 7,
        "hand": SENT,
        "message": "The server did not answer. Your hand is kept: tap Save again.",
        "field": None,
    }
    assert life(scripts, f"life.renumbered({QUEUED}, 12).number") == 12
    assert life(scripts, f"life.renumbered({SAVING}, 12).number") == 7


@pytest.mark.parametrize(
    "state, entered, what",
    [
        (SAVING, False, None),
        (ENTERING, False, "refresh"),
        (SAVED, False, "refresh"),
        (ENTERING, True, "notice"),
        (CONFLICT, False, "notice"),
    ],  # fmt: skip
    ids=["saving", "idle", "saved", "entered", "conflict"],
)
def test_a_change_on_another_phone_refreshes_the_page_unless_a_hand_is_in_hand(scripts, state, entered, what):
    assert life(scripts, f"life.elsewhere({state}, {js(entered)})") == what


@pytest.mark.parametrize(
    "before, after, kept, words",
    [
        (7, 8, False, "Hand 7 was saved on another phone."),
        (8, 7, False, "Hand 7 was undone on another phone."),
        (8, 8, False, "A hand was corrected on another phone."),
        (
            7,
            8,
            7,
            "Hand 7 was saved on another phone. Your hand 7 stays on the form: Save checks it against the server's.",
        ),
    ],
)
def test_what_changed_elsewhere_in_words(scripts, before, after, kept, words):
    assert life(scripts, f"life.changedWords({before}, {after}, {js(kept)})") == words


def test_the_hands_waiting_are_read_whatever_the_storage_holds(scripts):
    storage = "{getItem: key => ({'outbox:1': '[{\"number\": 3}]', 'outbox:2': 'broken'})[key] || null}"
    assert life(scripts, f"life.waitingIn({storage}, 'outbox:1')") == [{"number": 3}]
    assert life(scripts, f"life.waitingIn({storage}, 'outbox:2')") == []
    assert life(scripts, f"life.waitingIn({storage}, 'outbox:3')") == []


def offline(page: Page, expression: str):
    return page.evaluate(
        f"async () => {{ const offline = await import('/static/offline-table.js'); return {expression}; }}"
    )


@pytest.mark.parametrize(
    "expression, words",
    [
        ("offline.sentWords(1)", "1 hand sent"),
        ("offline.sentWords(2)", "2 hands sent"),
        ("offline.waitingWords(1, false)", "offline · 1 hand waiting"),
        ("offline.waitingWords(2, true)", "not sent yet · 2 hands waiting"),
        ("offline.waitingWords(0, false)", "offline"),
        ("offline.nextNumber([{number: 7}, {number: 8}], 7)", 9),
        ("offline.nextNumber([], 7)", 7),
    ],
)
def test_the_outbox_in_words(scripts, expression, words):
    assert offline(scripts, expression) == words


def test_the_one_difference_between_two_versions_of_a_hand(scripts):
    cards = [{"key": "queen"}, {"key": "jack"}]
    mine = {"number": 3, "hearts": [4, 0, 9, 0], "queen": 1, "jack": 2, "all_tricks": None}
    theirs = {"number": 3, "hearts": [4, 0, 8, 1], "queen": 1, "jack": 0, "all_tricks": None, "moon": None}
    found = scripts.evaluate(
        f"async () => (await import('/static/conflict.js')).differences({js(mine)}, {js(theirs)}, {js(cards)})"
    )
    assert found == [[["hearts", 2], 9, 8], [["hearts", 3], 0, 1], ["jack", 2, 0]]


def test_offline_then_online_two_hands_waiting_go_in_order_and_say_how_many(scripts):
    """outbox.js against answers the test gives (no server): two hands waiting, then the network is back."""
    posted = []

    def record(route):
        posted.append(route.request.post_data_json["number"])
        route.fulfill(status=201, json=GAME)

    scripts.route(f"{ORIGIN}/api/games/1/hands", record)
    waiting = [{"number": 7, **HAND}, {"number": 8, **HAND}]
    result = scripts.evaluate(
        f"""async () => {{
            localStorage.setItem("outbox:1", {js(json.dumps(waiting))});
            const outbox = await import("/static/outbox.js");
            const game = {{id: 1, key: "outbox:1", gameUrl: "/api/games/1", hands: "/api/games/1/hands"}};
            const done = await outbox.flush(game);
            return [done, outbox.waiting(game)];
        }}"""
    )
    assert posted == [7, 8]
    assert result == [{"outcome": "saved", "sent": 2}, []]


def test_a_hand_being_entered_is_kept_for_its_own_number_only(scripts):
    """static/draft.js: the taps of hand 7 come back for hand 7; asked for hand 8, they are dropped."""
    kept = scripts.evaluate(
        """async () => { const draft = await import('/static/draft.js');
           draft.keep(localStorage, '/games/1', 7, {hearts: [4, 0, 0, 0], touched: [0]});
           const again = draft.kept(localStorage, '/games/1', 7), other = draft.kept(localStorage, '/games/2', 7);
           const stale = draft.kept(localStorage, '/games/1', 8), after = draft.kept(localStorage, '/games/1', 7);
           localStorage.setItem('hand-being-entered:/games/3', '{broken');
           return [again, other, stale, after, draft.kept(localStorage, '/games/3', 1)]; }"""
    )
    assert kept == [{"hearts": [4, 0, 0, 0], "touched": [0]}, None, None, None, None]
