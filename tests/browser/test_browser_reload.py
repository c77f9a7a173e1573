"""A half-entered hand survives a reload on a small phone (a phone that drops the tab in a pocket), until it is
saved or the form starts afresh; one kept for another hand is dropped (issue 26, point 5)."""

import re

import pytest
from browser import enter, keep_a_hand_offline, save_button, tap_count
from playwright.sync_api import Page, expect
from test_browser_next_hand import NAMES, hearts, untouched

pytestmark = pytest.mark.browser


def tap(page: Page, name: str, count: int) -> None:
    tap_count(hearts(page, name), count)


def shows(page: Page, name: str, count: int) -> None:
    expect(hearts(page, name).get_by_role("radio", name=str(count), exact=True)).to_be_checked()


def test_a_half_entered_hand_comes_back_after_a_reload(phone, alike):
    url, _ = alike(3)
    page = phone(url)
    tap(page, "Alexandra", 4)
    tap(page, "Christopher", 1)
    page.locator("#queen .chip-row > label").nth(3).click()
    page.reload()
    shows(page, "Alexandra", 4)
    shows(page, "Christopher", 1)
    expect(page.locator("#queen input:checked")).to_have_value("3")
    expect(page.locator("#live-check")).to_have_text("5 of 13 hearts: 8 missing")
    # The rows tapped are remembered: the last one left still fills itself in
    tap(page, "Alexander", 0)
    tap(page, "Christina", 0)
    shows(page, "Christiane", 8)
    save_button(page).click()
    expect(save_button(page)).to_have_text("Hand 4 saved ✓")
    page.reload()  # saved: the next hand starts clean
    untouched(page)


def test_a_hand_kept_for_another_hand_is_dropped(phone, alike, client):
    url, api = alike(3)
    page = phone(url)
    tap(page, "Alexandra", 4)
    other = client.post(api + "/hands", json={"hearts": [0, 5, 0, 8, 0], "queen": 1})  # hand 4, on another phone
    assert other.status_code == 201
    page.reload()
    expect(page.locator(".next-hand h1")).to_contain_text("Hand 5")
    untouched(page)


def test_offline_a_half_entered_hand_after_the_hands_waiting_comes_back(phone, alike):
    url, _ = alike(3)
    page = phone(url, offline_ready=True)
    keep_a_hand_offline(page)
    tap(page, "Alexander", 6)  # hand 5, half entered
    page.reload()
    expect(page.locator("#connection")).to_have_text("offline · 1 hand waiting")
    shows(page, "Alexander", 6)
    expect(page.locator(".next-hand h1")).to_have_text(re.compile(r"^Hand 5 · "))
    assert NAMES[1] == "Alexander"


def test_a_saved_hand_is_not_kept_even_when_it_is_undone_elsewhere(phone, alike, client):
    url, api = alike(3)
    page = phone(url)
    enter(page, [5, 0, 0, 8, 0], 2)
    save_button(page).click()
    expect(page.locator("#record")).to_have_text("Record hand 5")  # the server's page is in
    assert client.delete(api + "/hands/4").status_code == 200  # another phone undoes it: hand 4 is next again
    page.reload()
    expect(page.locator(".next-hand h1")).to_contain_text("Hand 4")
    untouched(page)
