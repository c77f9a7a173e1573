"""The live view's lag over a whole game: from a hand's Save to its totals on the phones that follow.

    python scripts/bench_follow.py [--games 2] [--pause 3]

Starts the production server (`scorekeeper serve`, as `make run` does, on a fresh SQLite file), opens the game
on two following phones in headless Chromium (the follow page at 360 x 740, and the table display turned
sideways at 740 x 360), and plays a whole four-player game to 100 through the API, as the scoring phone's Save
does, with a pause between hands as a table has (``--pause`` seconds). For each hand and follower it takes the
time from the moment the hand was posted to the moment the follower's page showed the hand's totals (a
MutationObserver in the page stamps it). Prints the lags' p50, p95 and most, and the server's processor time
over the game. The promise the docs make: within a second at p95.
"""

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS, SMALL_PHONE  # noqa: E402

from server import SERVE, serving  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
# A whole game: hands that spread the points, a moon now and then, until someone passes 100.
HANDS = [([4, 0, 9, 0], 1), ([2, 3, 4, 4], 0), ([0, 0, 1, 12], 3), ([13, 0, 0, 0], 0), ([3, 5, 2, 3], 2),
         ([1, 1, 10, 1], 1), ([0, 6, 4, 3], 3), ([5, 0, 0, 8], 0), ([2, 2, 2, 7], 2), ([6, 1, 6, 0], 1)]  # fmt: skip
# Stamps, in the page's clock (the machine's, as Python's), each time the totals shown change.
STAMP = """() => {
  window.seen = [];
  const totals = () => [...document.querySelectorAll("[data-total]")].map(t => t.textContent.trim()).join(",");
  new MutationObserver(() => window.seen.push([totals(), Date.now()]))
    .observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def processor_seconds(pid: int) -> float:
    """User and system time of a process (Linux's /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(base: str, browser, pause: float) -> list[float]:
    game = post(base + "/api/games", {"players": PLAYERS})["id"]
    followers = []
    for shape in (SMALL_PHONE, {**SMALL_PHONE, "viewport": {"width": 740, "height": 360}}):
        page = browser.new_context(**shape).new_page()
        page.goto(f"{base}/games/{game}/follow")
        page.wait_for_selector("[data-total]")
        page.evaluate(STAMP)
        followers.append(page)
    lags = []
    hands = iter(HANDS * 3)
    while True:
        hearts, queen = next(hands)
        posted = time.time() * 1000
        moon = {"moon_option": "add"} if hearts[queen] == 13 else {}
        answer = post(f"{base}/api/games/{game}/hands", {"hearts": hearts, "queen": queen, **moon})
        shown = ",".join(str(total) for total in answer["totals"])
        for page in followers:
            page.wait_for_function("shown => window.seen.some(([t]) => t === shown)", arg=shown, timeout=30000)
            stamp = page.evaluate("shown => window.seen.find(([t]) => t === shown)[1]", shown)
            lags.append(stamp - posted)
        if answer["status"] != "in-progress":
            break
        time.sleep(pause)  # the table plays the next hand
    for page in followers:
        page.context.close()
    return lags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--pause", type=float, default=3.0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {"SCOREKEEPER_INSTANCE": data, "DATABASE_URL": f"sqlite:///{data}/bench.sqlite",
               "SECRET_KEY": "bench-follow-" + os.urandom(16).hex()}  # fmt: skip
        with serving(SERVE, env=env, path="/rules") as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            before, started = processor_seconds(server.process.pid), time.monotonic()
            lags = [lag for _ in range(arguments.games) for lag in play(server.base, browser, arguments.pause)]
            used, took = processor_seconds(server.process.pid) - before, time.monotonic() - started
            browser.close()
    lags.sort()
    p95 = lags[min(len(lags) - 1, math.ceil(0.95 * len(lags)) - 1)]
    print(f"{len(lags)} hands seen by a follower ({arguments.games} games, two followers each)")
    print(f"from Save to the totals on a following phone: p50 {statistics.median(lags):.0f} ms, "
          f"p95 {p95:.0f} ms, most {lags[-1]:.0f} ms (the promise: within 1,000 ms at p95)")  # fmt: skip
    print(f"the server's processor: {used:.2f} s over {took:.0f} s ({used / took:.1%} of a core)")


if __name__ == "__main__":
    main()
