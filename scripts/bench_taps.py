"""Count the taps a player needs to record worked example 1 and a moon, and weigh the table page.

    python scripts/bench_taps.py [--as-written]

Opens a new 4-player game in headless Chromium at phone size, records hearts
4,0,9,0 with the Q♠ to seat 1, tapping only what differs from what the form
already shows (a chip already chosen, or a row the page fills in itself, costs
nothing), saves, checks the totals, and prints the count. Then hand 2, Ben
shooting the moon with the advice taken (hearts 0,13,0,0, Q♠ to Ben), the same
way. Then prints the bytes of HTML, CSS and JS the table page transfers on first
load, the service worker script included. Not counted: what the page loads when
it is first wanted (the save pipeline when a hand is begun, save.js and
hand-life.js; a moon's panel, Undo, a conflict, and the outbox when offline),
which the worker keeps for later. The scripts and stylesheets are weighed as a
host's install serves them: the wheel is built (hatch_build.py minifies them)
and its static/ served; with --as-written, the clone's own.
"""

import gzip
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from browser import CHROMIUM, CHROMIUM_ARGS, served  # noqa: E402

from scorekeeper import create_app  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
EXAMPLE_1 = ([4, 0, 9, 0], 1, ["4", "13", "9", "0"])
MOON_ADVICE_TAKEN = ([0, 13, 0, 0], 1, ["30", "13", "35", "26"])  # adding is advised: everyone else +26


def record(page, hand) -> int:
    """Tap what differs from what the form shows, save, and wait for the totals the hand gives and the server's
    word that it has it (the totals show at once: the next hand's form comes with the answer)."""
    hearts, queen, totals = hand
    number = int(re.search(r"\d+", page.locator("#record").inner_text()).group())
    taps = 0
    for name, count in zip(PLAYERS, hearts, strict=True):
        row = page.get_by_role("group", name=f"Hearts taken by {name}")
        if not row.locator(f"input[value='{count}']").is_checked():
            chip = row.locator(f".chip-row > label:has(> input[value='{count}'])")
            if not chip.is_visible():  # the row shows the other half of its counts: its turn chip first
                row.locator(".turn").click()
                taps += 1
            chip.click()
            taps += 1
    page.get_by_role("group", name="Who took the Q♠").get_by_text(PLAYERS[queen], exact=True).click()
    taps += 1
    page.get_by_role("button", name="Save hand").click()
    for seat, total in enumerate(totals):
        expect(page.locator(f'[data-total="{seat}"]')).to_have_text(total)
    expect(page.locator("#record")).to_have_text(f"Record hand {number + 1}")  # the next hand's form is in
    return taps


def shipped_static(folder: Path) -> Path:
    """The static/ folder of a wheel built from this clone, unpacked into folder."""
    root = Path(__file__).resolve().parent.parent
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", str(folder), str(root)], check=True
    )
    (wheel,) = folder.glob("scorekeeper-*.whl")
    with zipfile.ZipFile(wheel) as built:
        built.extractall(folder, [name for name in built.namelist() if name.startswith("scorekeeper/static/")])
    return folder / "scorekeeper" / "static"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite", "SECRET_KEY": "bench"})
        if "--as-written" not in sys.argv:
            app.static_folder = str(shipped_static(Path(tmp)))
        game = app.test_client().post("/api/games", json={"players": PLAYERS}).json
        with served(app) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(**pw.devices["iPhone 13"])
            page = context.new_page()
            weights: dict[str, tuple[int, int]] = {}

            def weigh(response):
                kind = response.request.resource_type
                if kind in ("document", "stylesheet", "script") and response.request.method == "GET":
                    body = response.body()
                    weights[response.url] = (len(body), len(gzip.compress(body)))

            page.on("response", weigh)
            page.goto(f"{base}/games/{game['id']}")
            page.wait_for_load_state("networkidle")
            first_load = dict(weights)
            worker = page.request.get(f"{base}/sw.js").body()  # fetched by the browser beside the page
            first_load[f"{base}/sw.js"] = (len(worker), len(gzip.compress(worker)))
            page.remove_listener("response", weigh)
            taps = record(page, EXAMPLE_1)
            moon_taps = record(page, MOON_ADVICE_TAKEN)
            browser.close()
    raw = sum(size for size, _ in first_load.values())
    packed = sum(size for _, size in first_load.values())
    print(f"taps to record worked example 1: {taps} + save (aim: at most 4 + save)")
    print(f"taps to record a moon with the advice taken: {moon_taps} + save (aim: at most 3 + save)")
    for url, (size, zipped) in first_load.items():
        print(f"  {url.split('/', 3)[-1] or '/':<24} {size:>7,} B  ({zipped:,} B gzipped)")
    print(f"table page transfer: {raw:,} B ({raw / 1024:.1f} KB; {packed / 1024:.1f} KB gzipped; aim: under 30 KB)")


if __name__ == "__main__":
    main()
