"""QR codes for the follow-along link: an SVG image for the page, blocks of text for the terminal."""

import functools
import io

import segno


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> bytes:
    """A QR code as an SVG image, black on white whatever the page's colours, sized by CSS."""
    out = io.BytesIO()
    code = segno.make(url, error="m")
    code.save(out, kind="svg", scale=1, border=2, dark="#000", light="#fff", omitsize=True, xmldecl=False)
    return out.getvalue()


def qr_text(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
