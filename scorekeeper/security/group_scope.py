"""Which group a request is for, decided in one place before any view runs.

On an open server (``SCOREKEEPER_GROUPS=open``) every group lives under its own
address, ``/g/<key>``: the key moves from the path into the app's root
(``SCRIPT_NAME``), so the routes are the same for every group and every address
the app builds inside a group's page stays in that group. The group is then
looked up once, and the queries of the request keep to it (scope.py). A server
that is one group's serves its first group at the site's root, as always.

Each view says where it is served (``site_page``, ``any_page``; by default a
group's page): the site's own pages (the rule book, blank sheets, icons) are
served at the root alone, a group's pages inside a group alone; on an open
server a group's page asked for at the root is a 404, as is any address under
an unknown key.
"""

import re
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, NoReturn, TypeVar

from flask import Flask, abort, current_app, g, has_request_context, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

from ..service import groups
from ..service.change import changes_a_game
from ..store import scope
from ..store.db import db
from . import allowances
from .guesses import wait_words

GROUP_PATH = re.compile(r"/g/([A-Za-z0-9_-]{1,64})(/.*)?", re.DOTALL)
KEY = "scorekeeper.group_key"  # the key the address named, in the request's environ
SITE_ROOT = "scorekeeper.site_root"  # the app's root before the group's prefix

GROUP, SITE, ANY = "group", "site", "any"
View = TypeVar("View", bound=Callable[..., object])
Page = TypeVar("Page", bound=Callable[..., ResponseReturnValue])


def group_path(path: str) -> tuple[str, str | None] | None:
    """The key and the rest of a group's address (None for the rest of ``/g/<key>`` alone); None for another.

    >>> group_path("/g/Ab3_-x/games/7"), group_path("/g/Ab3"), group_path("/games/7")
    (('Ab3_-x', '/games/7'), ('Ab3', None), None)
    """
    found = GROUP_PATH.fullmatch(path)
    return (found[1], found[2]) if found else None


def site_page(view: View) -> View:
    """A page of the whole site, for no group (the rule book, a blank sheet, an icon): served at the root alone."""
    view.served = SITE  # type: ignore[attr-defined]
    return view


def any_page(view: View) -> View:
    """A page at the root and in every group, for whichever is asked for (the home page, signing in)."""
    view.served = ANY  # type: ignore[attr-defined]
    return view


def served(app: Flask, endpoint: str | None) -> str:
    """Where an endpoint's page is served: GROUP, SITE or ANY."""
    if endpoint == "static":
        return SITE
    return str(getattr(app.view_functions.get(endpoint or ""), "served", GROUP))


def is_open(app: Flask) -> bool:
    return bool(app.config["GROUPS_OPEN"])


class GroupPrefix:
    """WSGI middleware of an open server: ``/g/<key>/rest`` is served as ``rest`` with ``/g/<key>`` as its root."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        found = group_path(environ.get("PATH_INFO", ""))
        if found:
            key, rest = found
            root = environ.get("SCRIPT_NAME", "")
            if rest is None:  # the group's own address: its home page, where its cookie's path starts
                query = environ.get("QUERY_STRING")
                target = f"{root}/g/{key}/" + (f"?{query}" if query else "")
                return Response(status=308, headers={"Location": target})(environ, start_response)
            environ.update({SITE_ROOT: root, "SCRIPT_NAME": f"{root}/g/{key}", "PATH_INFO": rest, KEY: key})
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    """An open server's groups, each at its own address (the factory runs ``resolve_group`` for every request)."""
    if is_open(app):
        app.wsgi_app = GroupPrefix(app.wsgi_app)  # type: ignore[method-assign]


def resolve_group() -> None:
    """The request's group in ``g.group`` (None: none), and every query of the request kept to it."""
    app = current_app
    where = served(app, request.endpoint)
    if not is_open(app):
        use(app.extensions["first_group"])
        return
    key = request.environ.get(KEY)
    if key is None:
        use(None)
        if where == GROUP and request.endpoint is not None:
            abort(404)
        return
    use(None)
    if where == SITE:
        abort(404)  # never built under a group: one address for each of the site's pages
    found = groups.find_group(key)
    if found is None:
        wrong_key()
    use(found)
    groups.note_use(found)


def use(group: groups.GroupSeen | None) -> None:
    g.group = group
    scope.limit_to(group.id if group else None)


def wrong_key() -> NoReturn:
    """A key no group has: 404 like a missing game; 429 once the address has tried too many."""
    wait = allowances.take(allowances.WRONG_KEYS)
    db.session.commit()
    if wait:
        said = gettext("Too many addresses of groups that do not exist were tried from here: wait %(wait)s, "
                       "then check the group's link.", wait=wait_words(wait))  # fmt: skip
        raise TooManyRequests(said, retry_after=wait)
    abort(404)


def current_group() -> groups.GroupSeen | None:
    """The request's group: None at an open server's root."""
    found: groups.GroupSeen | None = g.get("group")
    return found


def open_server_only(view: Page) -> Page:
    """A page of an open server's groups: a server that is one group's has none."""

    @wraps(view)
    def served(*args: object, **kwargs: object) -> ResponseReturnValue:
        if not is_open(current_app):
            abort(404)
        return view(*args, **kwargs)

    return served  # type: ignore[return-value]


@changes_a_game
def start_group(name: object) -> groups.GroupSeen:
    """A new group, counted against this address's groups of the day; a 429 once they are spent (told before
    anything is written), and a name refused takes back what it counted (changes_a_game rolls it back)."""
    wait = allowances.take(allowances.GROUPS_STARTED)
    if wait:
        said = gettext("%(most)d groups were started from this address today: wait %(wait)s, or use a group you "
                       "have.", most=allowances.GROUPS_STARTED.most, wait=wait_words(wait))  # fmt: skip
        raise TooManyRequests(said, retry_after=wait)
    started = groups.start_group(name)
    db.session.commit()
    return started


class App(Flask):
    """The app: inside a group's page, the site's own pages are still linked at the site's root."""

    def url_for(self, /, endpoint: str, **values: Any) -> str:
        url = super().url_for(endpoint, **values)
        if not has_request_context() or KEY not in request.environ:
            return url
        full = endpoint
        if endpoint.startswith("."):
            full = f"{request.blueprint}{endpoint}" if request.blueprint else endpoint[1:]
        if served(self, full) != SITE:
            return url
        # Built under the group's root (/g/<key>, the request's script root): the same address at the site's root.
        return url.replace(request.script_root, request.environ.get(SITE_ROOT, ""), 1)
