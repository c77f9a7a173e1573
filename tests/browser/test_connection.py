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
def test_a_follow_page_the_server_has_no_stream_for_asks_every_five_seconds_and_for_a_stream_a_minute_later(
    page: Page, app, monkeypatch
):
    """Twentieth probe, F: a process past its streams answers a new one 204, and the page asked for the board every
    second instead, for good: a club's sixty phones so asking slowed their own table. Now it asks every five seconds
    (the hands still show), and for a stream again a minute later."""
    monkeypatch.setattr(streams, "STREAMS_MOST", 0)  # every stream refused
    boards = []
    page.on("response", lambda answer: boards.append(answer.status) if "/follow/board" in answer.url else None)
    with served_here(app) as base:
        _, game = call("POST", base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
        page.clock.install()
        with page.expect_response(lambda answer: answer.url.endswith("/follow/events")) as stream:
            page.goto(f"{base}/games/{game['id']}/follow")
        assert stream.value.status == streams.NO_STREAM
        while len(boards) < 2:  # its first ask, and the one as the stream was refused
            page.wait_for_event("response", lambda answer: "/follow/board" in answer.url)
        page.clock.run_for(2_000)  # on the page's own clock: every second, it would have asked twice
        page.evaluate("0")  # what the page did meanwhile is heard
        assert len(boards) == 2 and set(boards) == {304}  # the version it shows
        with page.expect_request(lambda asked: "/follow/board" in asked.url):
            page.clock.run_for(3_500)
        with page.expect_request(lambda asked: asked.url.endswith("/follow/events")):
            page.clock.run_for(60_000)
        call("POST", f"{base}/api/games/{game['id']}/hands", {"hearts": [4, 0, 9, 0], "queen": 1})
        page.clock.run_for(5_000)
        expect(page.locator('[data-total="1"]')).to_have_text("13")
        expect(page.locator("#stale")).to_be_hidden()
