"""Render the app's icons from static/icons/*.svg with Chromium, once; the PNGs and the ICO are committed.

    python scripts/make_icons.py

icon.svg (a rounded tile) gives the 192 and 512 px icons, the 180 px Apple touch
icon and the 16/32/48 px favicon.ico (PNG images inside an ICO container, which
every current browser reads). maskable.svg keeps its heart inside the safe
circle (the middle 80 %), for launchers that cut icons into their own shape.
"""

import struct
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
PNGS = {"icon-192.png": ("icon.svg", 192), "icon-512.png": ("icon.svg", 512), "maskable-512.png": ("maskable.svg", 512)}
PNGS["apple-touch-icon.png"] = ("maskable.svg", 180)  # iOS rounds the corners itself: give it a full square
FAVICON_SIZES = (16, 32, 48)


def render(page, svg: str, size: int) -> bytes:
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(f"<style>*{{margin:0}}svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}")
    return page.screenshot(omit_background=True)


def ico(images: dict[int, bytes]) -> bytes:
    """An ICO file holding PNG images: a 6-byte header, a 16-byte entry per image, then the images."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, png in images.items():
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset + len(blobs))
        blobs += png
    return header + entries + blobs


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        for name, (svg, size) in PNGS.items():
            (ICONS / name).write_bytes(render(page, (ICONS / svg).read_text(), size))
        tile = (ICONS / "icon.svg").read_text()
        (ICONS / "favicon.ico").write_bytes(ico({size: render(page, tile, size) for size in FAVICON_SIZES}))
        browser.close()
    print("wrote", ", ".join([*PNGS, "favicon.ico"]), "in", ICONS)


if __name__ == "__main__":
    main()
