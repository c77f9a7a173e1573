"""A game played by taps in WebKit, the engine of every iPhone browser: WebKitGTK's MiniBrowser, driven through
Selenium and Debian's WebKitWebDriver on an Xvfb display of its own, 390 px wide as an iPhone 13, against the
production server. A new game typed in, hands tapped, a moon with the option the advice did not pick, an undo, a
correction of the first hand; after every hand the totals on the page are the rules' totals of the hands the
server stored, and those are the hands that were tapped.

Selenium waits for nothing: each step waits for the page's state (an element on top where it will be tapped, a
chip checked, the next hand's form in) before it goes on."""

import glob
import os
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from scorekeeper.rules import Hand, HouseRules, moon_advice, replay

from conftest import missing
from server import call, running_server

pytestmark = [pytest.mark.browser, pytest.mark.server]

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
PHONE = (390, 844)  # an iPhone 13's screen, in CSS pixels
SECONDS = 20  # what a step may take on a busy machine
DRIVER = shutil.which("WebKitWebDriver")
BROWSERS = glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser")  # Debian puts it under the machine's multiarch name

# MiniBrowser's toolbar keeps its window at least 447 px wide; shrunk to nothing, the page gets a phone's width.
GTK_CSS = """entry, button, toolbar, headerbar, box, label, image {
  min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 1px; }
"""

# True once the element is still for an animation frame and on top at its middle: a tap there lands on it (not on
# the sticky save bar, a dialog's backdrop, or a form made inert while a hand is saved).
ON_TOP = """const [element, done] = arguments;
element.scrollIntoView({ block: "center" });
let last = "";
function frame() {
  const box = element.getBoundingClientRect(), now = [box.x, box.y, box.width, box.height].join();
  if (now !== last) { last = now; requestAnimationFrame(frame); return; }
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  if (box.width > 0 && hit !== null && element.contains(hit)) done(true);
  else done(hit ? hit.outerHTML.slice(0, 200) + " at " + JSON.stringify(box) : "nothing at " + JSON.stringify(box));
}
requestAnimationFrame(frame);"""


def need_webkit() -> None:
    """Skip on a machine without WebKitGTK's driver, but never in CI, where .ci/run installs it."""
    if DRIVER and BROWSERS and shutil.which("Xvfb"):
        return
    missing("no WebKitWebDriver, MiniBrowser or Xvfb: `apt-get install webkit2gtk-driver xvfb xauth` to run it")


@pytest.fixture(scope="module")
def display(tmp_path_factory):
    """An X display of its own (Xvfb names a free one when it is ready), and a GTK setting for a narrow window."""
    need_webkit()
    home = tmp_path_factory.mktemp("webkit-home")
    (home / "gtk-3.0").mkdir()
    (home / "gtk-3.0" / "gtk.css").write_text(GTK_CSS)
    ready, told = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(told), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=[told],
        stderr=subprocess.DEVNULL,
    )
    os.close(told)
    with os.fdopen(ready, "rb") as said:
        number = said.readline().strip().decode()  # written once the display takes clients
    if not number:
        xvfb.wait(timeout=10)
        pytest.fail(f"Xvfb did not start (exit status {xvfb.returncode})")
    xdg = {f"XDG_{kind}_HOME": str(home) for kind in ("CONFIG", "DATA", "CACHE")}  # the browser's files go here
    yield {**os.environ, "DISPLAY": f":{number}", **xdg}
    xvfb.terminate()
    xvfb.wait(timeout=10)


@pytest.fixture
def iphone(display):
    """MiniBrowser at an iPhone's width, for one test."""
    options = Options()
    options.binary_location = BROWSERS[0]
    options.add_argument("--automation")
    with warnings.catch_warnings():  # Selenium 4.51's own WebKitGTK start uses a way it deprecates
        warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
        service = Service(DRIVER, env=display, log_output=subprocess.DEVNULL)
        driver = webdriver.WebKitGTK(options=options, service=service)
    try:
        driver.set_window_size(*PHONE)
        assert driver.execute_script("return innerWidth") == PHONE[0]
        yield driver
    finally:
        driver.quit()


def until(driver, condition, message: str):
    """Wait for ``condition(driver)`` to be true (an element gone stale while the page swaps its form is a no)."""
    wait = WebDriverWait(driver, SECONDS, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException))
    return wait.until(condition, message)


def tap(driver, find) -> None:
    """Tap the element ``find(driver)`` gives once it is where a finger would find it."""
    covered = []

    def on_top(driver):
        element = find(driver)
        hit = driver.execute_async_script(ON_TOP, element)
        covered[:] = [hit]
        return element if hit is True else None

    try:
        element = until(driver, on_top, "never on top")
    except TimeoutException:
        raise AssertionError(f"never on top: {covered}") from None
    element.click()


def group(legend: str) -> str:
    """The fieldset whose legend reads ``legend``, by its words before any note (to whom the player passes, and
    "filled in" on a row the form filled)."""
    return f"//fieldset[normalize-space(concat(legend/span[@class='vh'], legend/text()[1]))='{legend}']"


def chip(driver, legend: str, value: object) -> WebElement:
    """The radio ``value`` of the group whose legend reads ``legend``."""
    return driver.find_element(By.XPATH, f"{group(legend)}//input[@value='{value}']")


def tap_chip(driver, legend: str, value: object) -> None:
    """Tap a chip (its label: the radio itself is hidden) and wait for it to be checked; on a row of hearts that
    shows the other half of its counts, its turn chip ("7+") first."""
    if not chip(driver, legend, value).find_element(By.XPATH, "..").is_displayed():
        tap(driver, lambda d: d.find_element(By.XPATH, f"{group(legend)}//label[@class='turn']"))
    tap(driver, lambda d: chip(d, legend, value).find_element(By.XPATH, ".."))
    until(driver, lambda d: chip(d, legend, value).is_selected(), f"{legend} {value} not checked")


def enter(driver, hearts: list[int], queen: int) -> None:
    """Tap each row's count where it differs from what the form shows (the last may fill itself in), then the Q♠."""
    for name, count in zip(PLAYERS, hearts, strict=True):
        if not chip(driver, f"Hearts taken by {name}", count).is_selected():
            tap_chip(driver, f"Hearts taken by {name}", count)
    tap_chip(driver, "Who took the Q♠", queen)
    for name, count in zip(PLAYERS, hearts, strict=True):
        assert chip(driver, f"Hearts taken by {name}", count).is_selected(), name


def text(driver, css: str) -> str:
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e && e.textContent", css)


def save(driver, number: int) -> None:
    """Tap Save and wait for the server's form of the next hand."""
    tap(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#hand-form .save-bar [type=submit]"))
    until(driver, lambda d: text(d, "#record") == f"Record hand {number + 1}", f"hand {number} not saved")


def fits(driver) -> None:
    """Nothing wider than the phone: the page never scrolls sideways."""
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]


def number(shown: str) -> int:
    return int(shown.strip().replace("\u2212", "-"))


def check_totals(driver, game_url: str, tapped: list[Hand]) -> None:
    """The server stored the hands tapped, and the page shows the rules' totals for them: at the top, and on every
    row of the hands table."""
    status, game = call("GET", game_url)
    assert status == 200
    stored = [Hand(tuple(h["hearts"]), h["queen"], moon_option=(h["moon"] or {}).get("option")) for h in game["hands"]]
    assert stored == tapped
    state = replay(len(PLAYERS), HouseRules(**game["rules"]), tapped)
    shown = driver.execute_script("return [...document.querySelectorAll('[data-total]')].map(e => e.textContent)")
    assert [number(total) for total in shown] == list(state.totals)
    rows = driver.execute_script(
        "return [...document.querySelectorAll('.hands tbody tr')].map(row =>"
        " [...row.querySelectorAll('td strong')].map(e => e.textContent))"
    )
    assert [[number(total) for total in row] for row in reversed(rows)] == [list(h.totals) for h in state.hands]


def test_a_game_by_taps_in_webkit(iphone, database_url, tmp_path):
    driver = iphone
    shots = Path(os.environ.get("WEBKIT_SHOTS", tmp_path))  # where to look at the screens afterwards
    with running_server(database_url) as server:
        # A new game, the names typed in
        driver.get(server.base + "/games/new")
        for seat, name in enumerate(PLAYERS):
            tap(driver, lambda d, seat=seat: d.find_element(By.CSS_SELECTOR, f"#players input[data-seat='{seat}']"))
            driver.switch_to.active_element.send_keys(name)
        until(driver, lambda d: text(d, "[data-dealer-label='3']") == "Dan", "the dealer chips never named Dan")
        tap(driver, lambda d: d.find_element(By.CSS_SELECTOR, "form.new-game .save-bar [type=submit]"))
        until(driver, lambda d: text(d, "#record") == "Record hand 1", "the game did not start")
        assert text(driver, ".next-hand h1").startswith("Hand 1 · Ann deals")
        game_url = server.base + "/api" + driver.execute_script("return location.pathname")
        fits(driver)
        driver.save_screenshot(str(shots / "1-new-game.png"))

        tapped: list[Hand] = []
        for hearts, queen in [([4, 0, 9, 0], 1), ([2, 3, 4, 4], 3)]:
            enter(driver, hearts, queen)
            save(driver, len(tapped) + 1)
            tapped.append(Hand(tuple(hearts), queen))
            check_totals(driver, game_url, tapped)

        # Cat shoots the moon: the advice is chosen, and the table takes the other option
        enter(driver, [0, 0, 13, 0], 2)
        advice = moon_advice(replay(len(PLAYERS), HouseRules(), tapped), Hand((0, 0, 13, 0), 2))
        assert advice is not None
        until(driver, lambda d: chip(d, "Choose the moon option", advice.advice).is_selected(), "no advice chosen")
        other = next(option for option in advice.options if option != advice.advice)
        tap_chip(driver, "Choose the moon option", other)
        driver.save_screenshot(str(shots / "2-moon.png"))
        save(driver, 3)
        tapped.append(Hand((0, 0, 13, 0), 2, moon_option=other))
        check_totals(driver, game_url, tapped)

        # Hand 4, undone after the dialog's question, and saved again with the Q♠ where it went
        enter(driver, [5, 0, 0, 8], 0)
        save(driver, 4)
        check_totals(driver, game_url, [*tapped, Hand((5, 0, 0, 8), 0)])
        tap(driver, lambda d: d.find_element(By.XPATH, "//button[@aria-label='Undo hand 4…']"))
        yes = "//dialog//button[normalize-space()='Yes, undo hand 4']"
        until(driver, lambda d: d.find_element(By.XPATH, yes).is_displayed(), "undo asked nothing")
        driver.save_screenshot(str(shots / "3-undo-asked.png"))
        tap(driver, lambda d: d.find_element(By.XPATH, yes))
        until(driver, lambda d: text(d, "#record") == "Record hand 4", "hand 4 not undone")
        until(driver, lambda d: text(d, "#live-check") == "Hand 4 undone: change it and save again.", "no word")
        check_totals(driver, game_url, tapped)
        driver.save_screenshot(str(shots / "4-undone.png"))
        enter(driver, [5, 0, 0, 8], 3)
        save(driver, 4)
        tapped.append(Hand((5, 0, 0, 8), 3))
        check_totals(driver, game_url, tapped)

        # Hand 1 corrected from the hands table: Ann took 9 hearts, Cat 4
        tap(driver, lambda d: d.find_element(By.CSS_SELECTOR, "a.fix[aria-label='Correct hand 1']"))
        until(driver, lambda d: text(d, "h1") == "Correct hand 1", "no correction page")
        tap_chip(driver, "Hearts taken by Ann", 9)
        tap_chip(driver, "Hearts taken by Cat", 4)
        until(driver, lambda d: "→" in text(d, "#correction tbody"), "no before and after")
        driver.save_screenshot(str(shots / "5-correction.png"))
        fits(driver)
        tap(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#hand-form .save-bar [type=submit]"))
        until(driver, lambda d: text(d, "#record") == "Record hand 5", "the correction did not return to the table")
        tapped[0] = Hand((9, 0, 4, 0), 1)
        check_totals(driver, game_url, tapped)

        enter(driver, [0, 6, 3, 4], 1)
        save(driver, 5)
        tapped.append(Hand((0, 6, 3, 4), 1))
        check_totals(driver, game_url, tapped)
        fits(driver)
        driver.save_screenshot(str(shots / "6-hand-5.png"))
