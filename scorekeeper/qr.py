"""QR codes for the follow-along link: SVG for the page, blocks of text for the terminal."""

import functools
import io

import segno
from markupsafe import Markup


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """A QR code as inline SVG, black on white whatever the page's colours, sized by CSS."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=1, border=2, dark="#000", light="#fff", omitsize=True, svgclass="qr"))


def qr_text(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
