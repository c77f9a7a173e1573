"""How large a body each address takes: refused (413) before anything reads more of it.

The production server applies the same limits by a request's length, before the app (server/reading.py). It also
keeps one client address's bodies on its disk to a share, and tells the app (HELD_BACK) of a body it refused for
that: 503.
"""

import io

from flask import current_app, request
from flask_babel import format_decimal, gettext, ngettext
from werkzeug.exceptions import RequestEntityTooLarge, ServiceUnavailable
from werkzeug.wsgi import get_content_length

from .group_scope import group_path

FORM_MAX = 500 * 1024  # a page's form without a file; the import page alone takes MAX_CONTENT_LENGTH
API_MAX = 64 * 1024  # a game or a hand is a few hundred bytes
LARGE_BODIES = ("/history/import",)
IMPORT, API, FORM = "import", "api", "form"
# The production server's word to the app, in the request's ASGI scope (a2wsgi hands it on as environ["asgi.scope"]),
# which no client can send: this body was refused unread, as its address has its share of the disk in other bodies
# (SHARE_TAKEN), or as the server had no file or disk left to keep it in (NO_ROOM).
HELD_BACK = "scorekeeper.held_back"
SHARE_TAKEN, NO_ROOM = "share", "room"
HELD_BACK_SECONDS = 30  # the Retry-After of its 503: a large import takes a while to come in


def body_max(path: str, largest: int) -> int:
    """The largest body a request to ``path`` may send, at the server's root or in a group (``/g/<key>/…``):
    the production server refuses a larger one by its length, before reading it (server/reading.py), and so
    does the app.

    >>> largest = 64 * 1024 * 1024
    >>> body_max("/api/games", largest), body_max("/g/abc/history/import", largest) == largest
    (65536, True)
    >>> body_max("/games/new", largest), body_max("/g/abc/games/new", 1024)
    (512000, 1024)
    """
    kind = body_kind(path)
    return largest if kind == IMPORT else API_MAX if kind == API else min(FORM_MAX, largest)


def body_kind(path: str) -> str:
    """What a request to ``path`` sends: an import's file, the API's JSON, or a page's form.

    >>> body_kind("/g/abc/history/import"), body_kind("/api/games/7/hands"), body_kind("/api"), body_kind("/sign-in")
    ('import', 'api', 'api', 'form')
    """
    inside = group_path(path)
    path = (inside[1] or "/") if inside else path
    if path in LARGE_BODIES:
        return IMPORT
    return API if path == "/api" or path.startswith("/api/") else FORM


def limit_body() -> None:
    """Refuse a body too large for its page (413) before anything reads it: the first hook of all."""
    if why := request.environ.get("asgi.scope", {}).get(HELD_BACK):
        raise ServiceUnavailable(held_back_words(why), retry_after=HELD_BACK_SECONDS)
    request.max_content_length = body_max(request.path, current_app.config["MAX_CONTENT_LENGTH"])
    if (request.content_length or 0) > request.max_content_length:
        raise too_large(request.max_content_length)
    if get_content_length(request.environ) is None and request.environ.get("wsgi.input_terminated"):
        measure_streamed_body(request.max_content_length)


def measure_streamed_body(limit: int) -> None:
    """A body sent without a length (chunked) is read here, and refused whole if it is too large.

    Werkzeug stops reading such a body at the limit and hands over what it read
    as if it were all: an import or a game cut short, not refused. Read once
    here, a body within the limit is given a length like any other.
    """
    stream, body = request.environ["wsgi.input"], bytearray()
    while len(body) <= limit and (chunk := stream.read(min(64 * 1024, limit + 1 - len(body)))):
        body += chunk
    if len(body) > limit:
        raise too_large(limit)
    request.environ.update({"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})


def too_large(limit: int) -> RequestEntityTooLarge:
    """A 413 that names the limit the request's page keeps, in the request's language (JSON for the API)."""
    kind, most = body_kind(request.path), size_words(limit)
    if kind == API:
        said = gettext("The body is larger than the API takes: %(most)s at most (a game or a hand is a few hundred "
                       "bytes). Nothing was stored.", most=most)  # fmt: skip
    elif kind == IMPORT:
        said = gettext("The file is larger than this server imports: %(most)s at most. Nothing was stored: "
                       "import the games in smaller files.", most=most)  # fmt: skip
    else:
        said = gettext("The form sent more than a page takes: %(most)s at most. Nothing was stored.", most=most)
    return RequestEntityTooLarge(said)


def held_back_words(why: str) -> str:
    if why == NO_ROOM:
        return str(gettext("The server has no room for this file just now: nothing was stored. Send it again in a "
                           "moment."))  # fmt: skip
    return str(gettext("Other large files from your address are still on their way to the server: nothing was "
                       "stored. Send this one again once they are through."))  # fmt: skip


def size_words(size: int) -> str:
    """A size as a person reads it: bytes, then kB, then MB (of 1,024), in the request's language."""
    if size < 1024:
        return str(ngettext("%(num)d byte", "%(num)d bytes", size))
    if size < 1024 * 1024:
        return str(gettext("%(size)s kB", size=format_decimal(size / 1024, "#,##0.#")))
    return str(gettext("%(size)s MB", size=format_decimal(size / 1024 / 1024, "#,##0.#")))
