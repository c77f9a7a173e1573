"""The list of hands: each row rendered once for what it shows, and again as soon as that changes."""

import re

import pytest
from flask import template_rendered


@pytest.fixture
def rows_rendered(app):
    """How many rows of a list of hands were rendered (not taken as kept) since the test began."""
    rendered = []

    def note(_sender, template, context, **_more):
        if template.name == "table/_hand_row.html":
            rendered.append(context["scored"].number)

    template_rendered.connect(note, app)
    yield rendered
    template_rendered.disconnect(note, app)


def totals_of(page: str, number: int) -> list[int]:
    """The totals hand ``number``'s row of the page shows, seat by seat."""
    row = re.search(rf'<tr>\s*<th scope="row">{number}<br>(.*?)</tr>', page, re.DOTALL)
    assert row, page
    return [int(total.replace("−", "-")) for total in re.findall(r"<strong>([^<]*)</strong>", row.group(1))]


def test_rows_already_shown_are_not_rendered_again_but_a_correction_and_an_undo_show_at_once(
    table, client, rows_rendered
):
    table.start_game()
    page_url = f"/games/{table.game_id}"
    for hearts, queen in [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2), ([2, 3, 4, 4], 0)]:
        table.record_hand(hearts, queen)
    client.get(page_url)
    assert sorted(rows_rendered) == [1, 2, 3]
    rows_rendered.clear()
    table.record_hand([1, 1, 1, 10], 3)
    page = client.get(page_url).get_data(as_text=True)
    assert rows_rendered == [4]  # the new hand's row alone
    stored = [hand["totals"] for hand in table.game()["hands"]]
    assert [totals_of(page, number) for number in (1, 2, 3, 4)] == stored

    rows_rendered.clear()
    table.correct(2, [4, 0, 9, 0], 1)  # the same scores as hand 1: hands 2, 3 and 4 now show other totals
    page = client.get(page_url).get_data(as_text=True)
    assert sorted(rows_rendered) == [2, 3, 4]
    corrected = [hand["totals"] for hand in table.game()["hands"]]
    assert corrected[1:] != stored[1:] and [totals_of(page, number) for number in (1, 2, 3, 4)] == corrected

    table.undo(4)
    page = client.get(page_url).get_data(as_text=True)
    assert '<th scope="row">4<br>' not in page and totals_of(page, 3) == corrected[2]
    board = client.get(f"/games/{table.game_id}/follow/board").get_data(as_text=True)
    assert totals_of(board, 3) == corrected[2] and "Fix" not in board  # the follow board's rows: read-only


@pytest.fixture
def chips_rendered(app):
    """How many times an empty hand form's chips were rendered (not taken as kept) since the test began."""
    rendered = []

    def note(_sender, template, context, **_more):
        if template.name == "table/_hand_chips.html":
            rendered.append(context["loaded"].id)

    template_rendered.connect(note, app)
    yield rendered
    template_rendered.disconnect(note, app)


def test_an_empty_forms_chips_are_rendered_once_a_game_way_to_pass_and_language_and_the_page_is_as_rendered_whole(
    table, client, chips_rendered
):
    from scorekeeper.web.views import table_parts

    table.start_game(players=("Ann", "Ben", "Cat", "Dan", "Eve"), omnibus=True, pass_cycle="none")
    page_url = f"/games/{table.game_id}"
    client.get(page_url)
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([0, 4, 0, 9, 0], 2)]:
        table.record_hand(hearts, queen, jack=3)
        page = client.get(page_url).get_data(as_text=True)
    assert chips_rendered == [table.game_id]  # once, for the three versions of the page (no passing in any)
    german = client.get(page_url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert chips_rendered == [table.game_id] * 2 and "Herzen" in german  # the other language's own
    # Each row says to whom its player passes: a game with passing renders its chips once for each way
    table.start_game(players=("Kim", "Lou", "Max", "Ned"))  # names no other test's chips were kept for
    for hearts, queen in [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2)]:
        client.get(f"/games/{table.game_id}")
        client.get(f"/games/{table.game_id}")
        table.record_hand(hearts, queen)
    assert chips_rendered[2:] == [table.game_id] * 2  # left, then right
    assert "passes to Kim" in client.get(f"/games/{table.game_id}").get_data(as_text=True)  # across: Max to Kim

    for kept in (table_parts.HAND_CHIPS, table_parts.TABLE_PAGES):
        kept._kept.clear()
    assert client.get(page_url).get_data(as_text=True) == page  # the same page, rendered whole
    assert page.count('name="hearts-4"') == 14 and page.count('name="jack"') == 5  # 0 to 13; a name each


def test_a_refused_hand_shows_its_chips_as_entered_with_the_problem_not_the_kept_ones(table, client):
    table.start_game()
    page_url = f"/games/{table.game_id}"
    client.get(page_url)
    refused = client.post(f"{page_url}/hands", data={"number": "1", "hearts-0": "13", "hearts-1": "13",
                                                     "hearts-2": "13", "hearts-3": "0", "queen": "0"})  # fmt: skip
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert re.search(r'checked name="hearts-0" type="radio" value="13"', page)
    assert 'class="error"' in page
    kept = client.get(page_url).get_data(as_text=True)
    assert 'checked name="hearts-0" type="radio" value="13"' not in kept  # the kept chips stay empty
