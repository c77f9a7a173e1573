"""Connection state is visible: the follow view says since when its numbers are old; the table page says offline."""

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.server import streams

from server import call, running_server, served_here

STALE = re.compile(r"^not updated since \d\d:\d\d$")


@pytest.mark.browser
@pytest.mark.server
def test_the_follow_view_says_when_the_server_went_away_and_clears_when_it_is_back(page: Page, database_url):
    with running_server(database_url) as server:
        _, game = call("POST", server.base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
        page.goto(f"{server.base}/games/{game['id']}/follow")
        expect(page.locator('[data-total="0"]')).to_have_text("0")
        expect(page.locator("#stale")).to_be_hidden()
        port = server.base.rsplit(":", 1)[1]
        server.kill()
        expect(page.locator("#stale")).to_have_text(STALE)  # the page gives up on a server after 4 s
        expect(page.locator("#stale")).to_be_visible()
    with running_server(database_url, extra_env={"BIND": f"127.0.0.1:{port}"}) as again:
        call("POST", f"{again.base}/api/games/{game['id']}/hands", {"hearts": [4, 0, 9, 0], "queen": 1})
        expect(page.locator("#stale")).to_be_hidden()
        expect(page.locator('[data-total="1"]')).to_have_text("13")


@pytest.mark.browser
@pytest.mark.server
def test_a_follow_page_the_server_has_no_stream_for_still_shows_each_hand(page: Page, app, monkeypatch):
    """Twentieth probe, F: a process past its streams answers a new one 204, and the page asks instead, every five
    seconds (sixty phones asking every second slowed their own table), and for a stream again a minute later."""
    monkeypatch.setattr(streams, "STREAMS_MOST", 0)  # every stream refused
    with served_here(app) as base:
        _, game = call("POST", base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
        with page.expect_response(lambda answer: answer.url.endswith("/follow/events")) as stream:
            page.goto(f"{base}/games/{game['id']}/follow")
        assert stream.value.status == streams.NO_STREAM
        expect(page.locator('[data-total="0"]')).to_have_text("0")
        call("POST", f"{base}/api/games/{game['id']}/hands", {"hearts": [4, 0, 9, 0], "queen": 1})
        expect(page.locator('[data-total="1"]')).to_have_text("13", timeout=10_000)  # within its next ask
        expect(page.locator("#stale")).to_be_hidden()
