"""Time a tap on Save to the new totals on screen, beside the time to fetch a small static file.

    python scripts/bench_totals.py [--hands 12] [--cpu 4]

Starts the production server (`scorekeeper serve`, as `make run` does) on loopback with a database of its
own, opens a game's table page in headless Chromium at phone size with its CPU slowed down (`--cpu` times,
Chrome's own throttling), and records `--hands` hands. For each, it taps the chips, waits for the live check
to show the preview ("This hand: …"), then taps Save and measures, in the page, from the tap (the pointer
event's time):

- totals: until the scoreboard shows the new totals, at the next frame (what the player sees);
- confirmed: until the server's answer is in and its page swapped in (Save says "Hand N saved ✓");

and, in the same run, the time the page takes to fetch a small static file (/static/once.js, not cached) from
the same server. The aim: the totals on screen within one static fetch of the tap. Prints medians and the
slowest of each.
"""

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS, SMALL_PHONE, tap_hand  # noqa: E402

from server import call, running_server  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
HANDS = [([4, 0, 9, 0], 1), ([0, 2, 3, 8], 3), ([5, 5, 3, 0], 0), ([1, 1, 1, 10], 2)]

# Installed in the page before its scripts: the time of each pointer press on Save, and a promise of the time
# from it to the first frame in which `check()` holds.
WATCH = """
window.bench = { tapped: null };
document.addEventListener("pointerdown", event => {
  if (event.target.closest(".save-bar [type=submit]")) window.bench.tapped = event.timeStamp;
}, true);
window.after = check => new Promise(done => {
  const look = () => check() && (requestAnimationFrame(() => done(performance.now() - window.bench.tapped)) || true);
  if (look()) return;
  const watcher = new MutationObserver(() => look() && watcher.disconnect());
  watcher.observe(document.body, { subtree: true, childList: true, characterData: true });
});
window.staticFetch = async () => {
  const started = performance.now();
  await (await fetch("/static/once.js", { cache: "no-store" })).text();
  return performance.now() - started;
};
"""
TOTALS = "() => [...document.querySelectorAll('[data-total]')].map(total => total.textContent).join() === {!r}"
SAVED = "() => document.querySelector('.save-bar [type=submit]').textContent === {!r}"


def record(page, hearts: list[int], queen: int, number: int, totals: list[int]) -> tuple[float, float]:
    """Enter one hand, tap Save, and give back (tap to totals, tap to confirmed) in ms."""
    tap_hand(page, PLAYERS, hearts, queen)
    expect(page.locator("#live-check")).to_have_text(re.compile("^This hand: "))
    # Each promise is wrapped in an object: a handle to a promise itself would wait for it before the tap.
    shown = page.evaluate_handle(f"({{ time: window.after({TOTALS.format(','.join(map(str, totals)))}) }})")
    saved = page.evaluate_handle(f"({{ time: window.after({SAVED.format(f'Hand {number} saved ✓')}) }})")
    page.locator(".save-bar [type=submit]").click()
    to_totals = page.evaluate("shown => shown.time", shown)
    to_confirmed = page.evaluate("saved => saved.time", saved)
    return to_totals, to_confirmed


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--hands", type=int, default=12)
    options.add_argument("--cpu", type=float, default=4, help="how many times slower the phone's CPU is")
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as data, running_server(f"sqlite:///{data}/bench.sqlite") as server:
        _, game = call("POST", f"{server.base}/api/games", {"players": PLAYERS, "rules": {"target": 1000}})
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(**SMALL_PHONE)
            context.add_init_script(WATCH)
            page = context.new_page()
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
            page.goto(f"{server.base}/games/{game['id']}")
            totals, confirmed, fetches = [], [], []
            for number in range(1, args.hands + 1):
                hearts, queen = HANDS[(number - 1) % len(HANDS)]
                _, after = call(
                    "POST", f"{server.base}/api/games/{game['id']}/preview", {"hearts": hearts, "queen": queen}
                )
                shown, done = record(page, hearts, queen, number, after["totals"])
                totals.append(shown)
                confirmed.append(done)
                fetches.append(page.evaluate("window.staticFetch()"))
            browser.close()
    print(f"{args.hands} hands, CPU {args.cpu:g}x slower, `scorekeeper serve` on loopback (median, slowest):")
    for label, times in [("tap -> new totals on screen", totals), ("tap -> saved, server's page in", confirmed),
                         ("static file fetch (/static/once.js)", fetches)]:  # fmt: skip
        print(f"  {label:<38} {statistics.median(times):6.1f} ms  {max(times):6.1f} ms")
    ratio = statistics.median(totals) / statistics.median(fetches)
    print(f"new totals on screen in {ratio:.2f} static-fetch times (aim: 1 or less)")


if __name__ == "__main__":
    main()
