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
