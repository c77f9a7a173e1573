"""Connection state is visible: the follow view says since when its numbers are old; the table page says offline."""

import re

import pytest
from playwright.sync_api import Page, expect

from server import call, running_server

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
