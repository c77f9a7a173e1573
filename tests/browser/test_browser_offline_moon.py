"""A moon entered offline on a small phone is no blind choice: the page carries, from the server, what each moon the
next hand could be would give, so the panel shows the advice, each option's totals and the advised option chosen,
as online; the waiting hand shows its scores and the totals after it, and no words are cut (issue 26, point 6)."""

import pytest
from browser import enter, save_button
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
SHOOTER = 3  # Christopher
MOON = [0, 0, 0, 13, 0]


def cut(page: Page, selector: str) -> list[str]:
    """The text of each element under ``selector`` wider than its box (cut off or spilling out)."""
    return page.eval_on_selector_all(
        selector, "cells => cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)"
    )


def test_a_moon_entered_offline_shows_the_advice_the_totals_and_the_advised_option(phone, alike, client):
    url, api = alike(1)
    online = client.post(f"{api}/preview", json={"hearts": MOON, "queen": SHOOTER}).json["moon"]
    page = phone(url, offline_ready=True)
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_have_text("offline")
    enter(page, MOON, SHOOTER)
    panel = page.locator("#moon-panel")
    expect(panel).to_be_visible()
    advised = online["advice"]
    expect(panel.locator(f'[data-advised="{advised}"]')).to_be_visible()
    expect(panel.locator(f'input[name="moon_option"][value="{advised}"]')).to_be_checked()
    for option, choice in online["options"].items():
        expect(panel.locator(f'[data-moon-totals="{option}"]')).to_contain_text(f" {choice['totals'][0]}, ")
    expect(panel.locator("[data-moon-detail]").first).to_be_visible()
    save_button(page).click()
    expect(page.locator("tr.waiting")).to_have_count(1)
    totals = online["options"][advised]["totals"]
    for seat, total in enumerate(totals):
        expect(page.locator(f'[data-total="{seat}"]')).to_have_text(str(total))
    assert cut(page, "tr.waiting td, tr.waiting-note td") == []
    enter(page, MOON, SHOOTER)  # a second moon, after a hand still waiting: the server scores it
    expect(panel).to_be_visible()
    expect(panel.locator("[data-moon-detail]").first).to_be_hidden()
    panel.locator("label.moon-choice").first.click()
    save_button(page).click()
    expect(page.locator("tr.waiting")).to_have_count(2)
    expect(page.locator("tr.waiting-note").first).to_have_text(
        "Hand 3: waiting to be sent · moon: scored when back online"
    )
    assert cut(page, "tr.waiting td, tr.waiting-note td") == []
    page.context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0)
    assert client.get(api).json["hands"][1]["moon"] == {"shooter": SHOOTER, "option": advised}
