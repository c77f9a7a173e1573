"""Shared pieces of the browser tests: Debian's Chromium, and the app served from a thread."""

import logging
import shutil
import threading
import time
from contextlib import contextmanager

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect
from werkzeug.serving import make_server

from scorekeeper.store.db import db

from conftest import as_host, missing

AXE_SCRIPT = Axe().axe_script  # axe-core, as axe-playwright-python ships it

# Debian's headless shell: Chromium's engine without the browser's own interface, the same pages at about two thirds
# of the processor time (the browser tests are bound by it).
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Chromium 150 gives every navigation a new document host (RenderDocument), and the document a reload brings
    # then forgets Playwright's offline emulation (navigator.onLine true, no "offline" event) while its requests
    # still fail: a phone that lost its network says it is offline after a reload too.
    "--disable-features=RenderDocument",
]

# The small phone the table page is designed for, and the names that make it hardest.
SMALL_PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
LONG_NAMES = ["Christina", "Christopher", "Alexandra", "Bartholomew", "Maximilian"]
ALIKE_NAMES = ["Alexandra", "Alexander", "Christina", "Christopher", "Maximilian"]  # two pairs alike for long
ALIKE_LONG = ["Alexandra", "Alexander", "Christina", "Christopher", "Christiane"]  # and three Christ…


def in_sight(locator: Locator) -> None:
    """Wholly inside the viewport, its first and last lines not under the sticky totals or the save bar."""
    expect(locator).to_be_in_viewport(ratio=1)
    covered = locator.evaluate(
        """el => { const r = el.getBoundingClientRect(), x = r.left + r.width / 2, inset = Math.min(r.height / 2, 12);
                   const hidden = y => !el.contains(document.elementFromPoint(x, y));
                   return hidden(r.top + inset) || hidden(r.bottom - inset); }"""
    )
    assert not covered


# The text a player sees in an element: what is only read aloud (a box of a pixel, visually hidden) left out.
SHOWN = """el => { let shown = "";
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const box = node.parentElement;
    if (box.checkVisibility() && box.getBoundingClientRect().width > 1) shown += node.textContent;
  }
  return shown.replace(/\\s+/g, " ").trim(); }"""


def shown_texts(locator: Locator) -> list[str]:
    """What a player sees in each element, found and read in one step: a page that swaps its content as it polls
    (the follow board) would otherwise leave an element found before the swap, and read after it, detached."""
    return locator.evaluate_all(f"elements => elements.map({SHOWN})")


def shown_text(locator: Locator) -> str:
    """What a player sees in one element."""
    (text,) = shown_texts(locator)
    return text


def live_form(page: Page) -> Page:
    """The page once its hand form is live (hand-form.js has started): a tap before it is the plain form's, which
    the script counts only by the chip it left (a tap on the 0 already chosen is lost). After a navigating click the
    heading can be in sight before that."""
    expect(page.locator("#hand-form[data-live=yes]")).to_have_count(1)
    return page


def hearts_row(page: Page, name: str, script: bool = True) -> Locator:
    """A player's row of hearts chips on the live hand form (on the plain one where the page runs no script)."""
    return (live_form(page) if script else page).get_by_role("group", name=f"Hearts taken by {name}")


def tap_count(row: Locator, count: int, touch: bool = False) -> None:
    """Tap ``count`` on a row of hearts chips, as a player does: the row shows half its counts at a time, so first
    its turn chip ("7+", or "0–6") where the count is in the other half. ``touch``: a finger's tap, not a click."""
    expect(row.page.locator("fieldset[inert]")).to_have_count(0)  # the form takes taps (the next hand's is in)
    chip = row.locator(f".chip-row > label:has(> input[value='{count}'])")
    for target in ([] if chip.is_visible() else [row.locator(".turn")]) + [chip]:
        target.tap() if touch else target.click()


def tap_hearts(page: Page, name: str, count: int, script: bool = True) -> None:
    tap_count(hearts_row(page, name, script), count)


def tap_queen(page: Page, seat: int) -> None:
    """Tap the Q♠ taker's chip by seat (the chips show short names)."""
    live_form(page).locator("#queen .chip-row > label").nth(seat).click()


def enter(page: Page, counts: list[int], queen: int) -> None:
    """Tap each seat's count of hearts on the table page (the last row may have filled itself in), then who took
    the Q♠."""
    live_form(page)
    for seat, count in enumerate(counts):
        row = page.locator(f"#hearts-{seat}")
        if not row.locator(f"input[value='{count}']").is_checked():
            tap_count(row, count)
    tap_queen(page, queen)


def save_button(page: Page) -> Locator:
    return page.locator(".save-bar [type=submit]")


def keep_a_hand_offline(page: Page) -> None:
    """With the network gone, hand 4 of a five-player game saved: kept on the phone, to send when back."""
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_have_text("offline")
    enter(page, [5, 0, 0, 8, 0], 2)
    save_button(page).click()
    expect(save_button(page)).to_have_text("Hand 4 kept ✓")


def need_chromium() -> None:
    """Skip on a machine without Chromium, but never in CI, where .ci/run installs it."""
    if shutil.which(CHROMIUM):
        return
    missing(f"no {CHROMIUM}: install it with `apt-get install chromium-headless-shell` to run the browser tests")


def buffered(app):
    """The app with each answer read whole, its file closed, before a byte is sent.

    Werkzeug's development server skips closing an answer whose client hangs up at the wrong
    moment (a browser closed while the service worker still fetches the icons), and the open
    file then turns into a ResourceWarning in whichever test runs next.
    """

    def answer(environ, start_response):
        body = app(environ, start_response)
        try:
            return [b"".join(body)]
        finally:
            if hasattr(body, "close"):
                body.close()

    return answer


@contextmanager
def served(app):
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = make_server("127.0.0.1", 0, buffered(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        given_back(app)


def given_back(app, seconds: float = 30) -> None:
    """Wait for requests still running on the server's threads (a page's poll) to return their connections.

    One returned after the test has closed its engine would be left to the garbage collector, and a
    PostgreSQL connection collected open is a ResourceWarning, an error in whichever test runs then.
    """
    if "sqlalchemy" not in getattr(app, "extensions", {}):
        return  # an app of no database (another site's page)
    with as_host(app):
        engine = db.engine
    deadline = time.monotonic() + seconds
    while engine.pool.checkedout() and time.monotonic() < deadline:
        time.sleep(0.01)


def with_wake_lock(page, present: bool) -> list:
    """Give ``page`` a screen wake lock that records each request in ``window.asked`` (or none at all, as a
    browser without one); the errors the page raises are collected in the list given back."""
    errors: list = []
    page.on("pageerror", lambda error: errors.append(error))
    lock = "{ request: kind => { window.asked.push(kind); return Promise.resolve({}); } }" if present else "undefined"
    page.add_init_script(f"window.asked = []; Object.defineProperty(navigator, 'wakeLock', {{ value: {lock} }});")
    return errors


# The axe rules that read colours: the only ones a switch of scheme can change, since the schemes differ in their
# colours alone (test_browser_access.py holds the stylesheets to that).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def serious_in_both_schemes(page: Page) -> dict[str, list[str]]:
    """Axe's serious and critical violations on the page as loaded, light and dark: each violation's id and its
    first nodes, by scheme. Axe is injected once; the page is judged in the scheme it was loaded in by every rule,
    then switched in place to the other (the schemes are CSS only: no script reads them) and judged by the rules
    that read colours, and left in that one.

    A transition or animation started by the switch would have axe judge colours halfway: none may run."""
    page.evaluate(AXE_SCRIPT)
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found = {}
    for scheme, rules in zip(("dark", "light") if dark else ("light", "dark"), (None, COLOUR_RULES), strict=True):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        assert page.evaluate("document.getAnimations().length") == 0, "the switch started an animation"
        only = {"runOnly": {"type": "rule", "values": rules}} if rules else {}
        violations = page.evaluate("only => axe.run({...only, resultTypes: ['violations']})", only)["violations"]
        found[scheme] = [
            f"{violation['id']}: {[node['target'] for node in violation['nodes']][:3]}"
            for violation in violations
            if violation["impact"] in ("serious", "critical")
        ]
    return found


def tap_hand(page, names, hearts, queen: int) -> None:
    """Enter a hand as a player does: tap each row's count where it differs from what the form shows, then the
    Q♠ taker's chip (by seat: the chips show short names)."""
    for name, count in zip(names, hearts, strict=True):
        row = hearts_row(page, name)
        if not row.locator(f"input[value='{count}']").is_checked():
            tap_count(row, count)
    tap_queen(page, queen)
