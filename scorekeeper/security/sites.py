"""Which requests are this site's own: asked for by one of the server's names, and sent from its own pages.

A page on another site can make a browser send requests here: to a name the
attacker points at this server's address (DNS rebinding: the browser then
treats the answers as that page's own and lets it read them), or with a form or
a script posting to this server (cross-site writes). So every request must name
this server in its ``Host``, and every write must come from this site's own
pages (or from a script, which sends no browser headers at all).
"""

import ipaddress
import json
import socket
from collections.abc import Callable, Iterable
from functools import lru_cache, wraps
from typing import Any, TypeVar, cast

from flask import Flask, Response, abort, current_app, request
from flask_babel import lazy_gettext

from . import guard

View = TypeVar("View", bound=Callable[..., Any])
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
OWN_SITE = ("same-origin", "none")  # Sec-Fetch-Site: this site's pages, or the address typed by hand
OTHER_NAME = lazy_gettext(
    "This server does not answer to the name “%(name)s”: open it by its address, or add the name to SCOREKEEPER_HOSTS."
)
OTHER_SITE = lazy_gettext(
    "This was sent from another site, so nothing was done. Open the app's own page and try again."
)


def init_app(app: Flask) -> None:
    """The names the app answers to; its checks (``refuse_other_hosts``, ``refuse_other_sites``) run first of all."""
    app.extensions["own_hosts"] = own_hosts(app.config.get("HOSTS"))


def own_hosts(configured: str | Iterable[str] | None) -> frozenset[str]:
    """The names this server answers to besides IP addresses: localhost, the machine's, and those configured.

    >>> {"localhost", "hearts.example.org", "scores.local"} <= own_hosts("Hearts.Example.org, ,scores.local.")
    True
    """
    names = configured.split(",") if isinstance(configured, str) else list(configured or [])
    machine = socket.gethostname()
    short = machine.split(".")[0]
    return frozenset(filter(None, map(bare_name, ["localhost", machine, short, f"{short}.local", *names])))


def bare_name(name: str) -> str:
    """A host name as compared: lower case, without the dot that may end it.

    >>> bare_name(" Hearts.Example.ORG. ")
    'hearts.example.org'
    """
    return name.strip().lower().removesuffix(".")


def host_name(host: str) -> str:
    """The name in a Host header, without its port; an IPv6 address keeps its brackets.

    >>> host_name("localhost:5000"), host_name("[::1]:5000"), host_name("192.168.1.20"), host_name("[::1]x")
    ('localhost', '[::1]', '192.168.1.20', '[::1]x')
    """
    name, _, port = host.rpartition(":")
    if port.isdigit() and (name.endswith("]") or (name and ":" not in name)):
        return name
    return host


def is_address(name: str) -> bool:
    """An IP address as a Host names it: IPv4 as is, IPv6 in brackets (its zone too).

    >>> is_address("192.168.1.20"), is_address("[fe80::1%eth0]"), is_address("::1"), is_address("1.2.3.4.evil")
    (True, True, False, False)
    """
    literal = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    try:
        found = ipaddress.ip_address(literal)
    except ValueError:
        return False
    return found.version == 4 or literal != name


@lru_cache(maxsize=1024)  # asked at every request, of the few names a server's phones use
def is_own_host(host: str, names: frozenset[str]) -> bool:
    name = host_name(host)
    return is_address(name) or bare_name(name) in names


def refuse_other_hosts() -> None:
    """400 for a request that names another host: a browser following a name someone pointed here.

    The answer is one line, not a page: no link of the app is built on that name,
    and a name too odd to build any (".") is refused like the others.
    """
    named = bool(request.environ.get("HTTP_HOST"))  # HTTP/1.0 may name none: then the address bound is used
    if named and not is_own_host(request.host, current_app.extensions["own_hosts"]):
        message = OTHER_NAME % {"name": host_name(request.environ["HTTP_HOST"])[:100]}
        if request.path.startswith("/api/"):
            abort(Response(json.dumps({"error": message}), 400, mimetype="application/json"))
        abort(Response(message + "\n", 400, mimetype="text/plain"))


def from_own_pages(view: View) -> View:
    """A page that costs the server work (an export): a page on another site may not make a browser ask for it."""

    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if request.headers.get("Sec-Fetch-Site", "none") not in OWN_SITE:
            abort(403, str(OTHER_SITE))
        return view(*args, **kwargs)

    return cast(View, checked)


def refuse_other_sites() -> None:
    """403 for a write that a page on another site sent: stores nothing, touches no session, shows no page.

    Browsers say where a request comes from (Sec-Fetch-Site, Origin); scripts
    and curl send neither. A Bearer token cannot come from another site's page:
    that header needs a CORS preflight, which this app never grants.
    """
    if request.method in SAFE_METHODS or guard.bearer_token() is not None:
        return
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    own = request.host_url.rstrip("/").lower()
    if (site is not None and site not in OWN_SITE) or (origin is not None and origin.lower() != own):
        abort(403, str(OTHER_SITE))
