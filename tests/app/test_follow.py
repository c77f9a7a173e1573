"""The follow-along view: a short link, a QR code, and a board that changes only when the game does."""

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import create_app
from scorekeeper.store.db import db

from conftest import as_host


def test_the_table_page_shows_the_short_link_and_its_qr_code(table, client):
    table.start_game()
    page = client.get(f"/games/{table.game_id}").get_data(as_text=True)
    assert f'<a href="http://localhost/f/{table.game_id}">' in page
    assert f'<img class="qr" src="/f/{table.game_id}/qr.svg"' in page
    image = client.get(f"/f/{table.game_id}/qr.svg")
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    assert image.data.startswith(b"<svg") and b'xmlns="http://www.w3.org/2000/svg"' in image.data


def test_the_short_link_opens_the_follow_view(table, client):
    table.start_game()
    answer = client.get(f"/f/{table.game_id}")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/games/{table.game_id}/follow"
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    forms = re.findall(r'<form[^>]*action="([^"]*)"', page)
    assert "Hand 1" in page and forms == ["/language"]  # read-only: nothing to record or undo, a language to choose


def test_the_board_is_304_until_a_hand_is_recorded(table, client):
    table.start_game()
    url = f"/games/{table.game_id}/follow/board"
    first = client.get(url)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and 'data-total="1">0<' in first.get_data(as_text=True)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    table.record_hand([4, 0, 9, 0], 1)
    changed = client.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert 'data-total="1">13<' in changed.get_data(as_text=True)
    assert "Fix" not in changed.get_data(as_text=True)


def test_a_weak_tag_of_the_board_is_304_too(table, client):
    """RFC 9110: If-None-Match compares weakly, so a proxy or browser that weakens the tag (W/"…") still gets 304."""
    table.start_game()
    url = f"/games/{table.game_id}/follow/board"
    tag = client.get(url).headers["ETag"]
    for sent in (f"W/{tag}", f'"other", W/{tag}', "*"):
        assert client.get(url, headers={"If-None-Match": sent}).status_code == 304, sent
    assert client.get(url, headers={"If-None-Match": 'W/"other"'}).status_code == 200


def test_a_board_and_a_stream_locked_by_the_passcode_ask_for_it(database_url):
    config = {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url}
    open_one, locked_one = create_app(config), create_app({**config, "PASSCODE": "queen of spades"})
    try:
        locked = locked_one.test_client()
        bearer = {"Authorization": "Bearer queen of spades"}
        game = locked.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}, headers=bearer).json["id"]
        tag = open_one.test_client().get(f"/games/{game}/follow/board").headers["ETag"]
        answer = locked.get(f"/games/{game}/follow/board", headers={"If-None-Match": tag})
        assert answer.status_code == 302 and "/sign-in" in answer.headers["Location"]
        assert locked.get(f"/games/{game}/follow/board", headers={"If-None-Match": tag, **bearer}).status_code == 302
        stream = locked.get(f"/games/{game}/follow/events")
        assert stream.status_code == 302 and "/sign-in" in stream.headers["Location"]
    finally:
        for made in (open_one, locked_one):
            with as_host(made):
                db.session.remove()
                db.engine.dispose()


def test_a_deleted_game_tells_the_followers(table, client):
    table.start_game()
    client.delete(f"/api/games/{table.game_id}")
    assert client.get(f"/games/{table.game_id}/follow/board").status_code == 404


@pytest.mark.browser
def test_the_follow_view_updates_by_itself(page: Page, live_server: str, table):
    table.start_game()
    page.goto(f"{live_server}/f/{table.game_id}")
    expect(page.locator('[data-total="2"]')).to_have_text("0")
    page.evaluate("window.stillTheSamePage = true")
    changed = page.expect_response(lambda answer: answer.url.endswith("/follow/board") and answer.status == 200)
    with changed:  # the next poll after the hand brings the new board (304 until then)
        table.record_hand([4, 0, 9, 0], 1)
    expect(page.locator('[data-total="2"]')).to_have_text("9")
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage") is True  # updated in place, not reloaded
