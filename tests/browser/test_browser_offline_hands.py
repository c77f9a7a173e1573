"""Offline on a small phone with hands waiting: the page offers nothing for the server's last hand and names the hand
the form asks for, in the tab's title too, after a reload (issue 26, point 9)."""

import re

import pytest
from browser import enter, save_button
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"], ids=["english", "german"])
def test_with_hands_waiting_no_undo_of_the_servers_last_and_the_title_follows_the_form(phone, alike, locale):
    url, _ = alike(1)
    page = phone(url, offline_ready=True, locale=locale)
    hand = "Runde" if locale == "de-DE" else "Hand"
    expect(page.locator(".hands .undo summary")).to_be_visible()  # hand 1, the server's last
    page.context.set_offline(True)
    for _number in (2, 3):
        enter(page, [5, 0, 0, 8, 0], 2)
        save_button(page).click()
        expect(page.locator("tr.waiting")).to_have_count(_number - 1)
    expect(page.locator(".hands .undo")).to_be_hidden()
    no_hand_1 = page.get_by_text(re.compile(f"{hand} 1\\b", re.IGNORECASE)).filter(visible=True)
    expect(no_hand_1).to_have_count(0)  # no "Undo hand 1" anywhere
    page.reload()
    expect(page.locator(".next-hand h1")).to_have_text(re.compile(f"^{hand} 4 · "))
    expect(page).to_have_title(re.compile(f"^{hand} 4 · Alexandra, Alexander"))
    expect(page.locator("#record")).to_have_text(re.compile("\\b4\\b"))
    expect(page.locator(".hands .undo")).to_be_hidden()
