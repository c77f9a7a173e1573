"""Keeping strangers out: an optional passcode for the whole instance, and security headers.

With a passcode set (SCOREKEEPER_PASSCODE, in the environment or the data folder's settings.env),
pages ask for it once per phone (a session cookie that lasts while the phone
keeps using the app) and the API takes it as ``Authorization: Bearer <passcode>``.
The server keeps each sign-in (a row the session names), so signing out ends
it for every copy of the cookie. Wrong guesses are slowed down (guesses.py),
and a passcode easy to guess is refused when the app starts (passcodes.py).
"""

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

import flask
from flask import (
    Flask,
    current_app,
    has_request_context,
    jsonify,
    redirect,
    request,
    session,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_babel import gettext
from sqlalchemy import delete, select
from sqlalchemy.exc import OperationalError
from werkzeug.wrappers import Response

from ..config import StartupError
from ..service import groups
from ..store import models
from ..store.db import db
from . import group_scope, guesses
from .passcodes import passcode_problem

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
COOKIE = "scorekeeper"  # its own name: another app on this host (another port) keeps its own "session"
GROUP_COOKIE = "scorekeeper-group"
SESSION_SALT = SecureCookieSessionInterface.salt
SEEN_EVERY = timedelta(hours=1)  # how often a sign-in notes that its phone came back: not a write a request
# A group's phones signed in at once (the server's own passcode's too), at most: a club's every phone and more. Past
# it, a new sign-in ends the one unused longest: one group signing in thousands of times a minute keeps this many rows.
SIGN_INS_KEPT = 500
View = TypeVar("View", bound=Callable[..., object])


def public(view: View) -> View:
    """Open this page without the passcode: what a browser fetches before anyone signs in (icons, the worker)."""
    view.public = True  # type: ignore[attr-defined]
    return view


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over HTTPS, and then a ``__Host-`` cookie.

    ``__Host-`` tells the browser to take the cookie only from this exact host over
    HTTPS, for the whole site: no other name or service can set or overwrite it.
    Inside a group on an open server the session is the group's own: a cookie of
    its own name whose path is the group's address, so the browser sends it to
    that group alone (``__Secure-`` over HTTPS: ``__Host-`` must be the whole site's).
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    def get_cookie_name(self, app: Flask) -> str:
        in_group = group_scope.KEY in request.environ
        name = GROUP_COOKIE if in_group else COOKIE
        if not self.get_cookie_secure(app):
            return name
        return ("__Secure-" if in_group else "__Host-") + name

    def get_cookie_path(self, app: Flask) -> str:
        return request.script_root + "/" if group_scope.KEY in request.environ else "/"

    @property
    def salt(self) -> str:  # type: ignore[override]  # flask's is a class attribute
        """Each group's sessions are signed as its own: a cookie carried from one group into another is no session
        there, and neither is the form token it holds."""
        key = request.environ.get(group_scope.KEY) if has_request_context() else None
        return SESSION_SALT if key is None else f"{SESSION_SALT}/g/{key}"

    def save_session(self, app: Flask, session: SessionMixin, response: flask.Response) -> None:
        """An error renews no cookie: only a change made on purpose (a fresh form token, say) is sent."""
        if response.status_code < 400 or session.modified:
            super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    problem = passcode_problem(str(app.config.get("PASSCODE") or ""))
    if problem:
        raise StartupError(problem)
    app.session_interface = SessionInterface()
    app.after_request(security_headers)  # require_passcode: among the factory's checks, in their order
    app.add_template_global(signed_in)


@dataclass(frozen=True)
class Lock:
    """What a request's pages are locked with: the server's passcode, or a group's own (its hash)."""

    group_id: int | None  # the group whose passcode it is; None: the server's
    secret: str  # what a phone's session is tied to: changing the passcode signs every phone out
    check: Callable[[bytes], bool]


def lock() -> Lock | None:
    """This request's lock: inside a group on an open server, the group's passcode (if it set one); anywhere
    else, the server's (if the host set one)."""
    group = group_scope.current_group()
    if group is not None and group_scope.is_open(current_app):
        hashed = group.passcode_hash
        return Lock(group.id, hashed, functools.partial(groups.passcode_is, hashed)) if hashed else None
    code = str(current_app.config.get("PASSCODE") or "")
    if not code:
        return None
    return Lock(
        None, code, lambda given: hmac.compare_digest(guesses.normalized(given), guesses.normalized(code.encode()))
    )


def fingerprint(secret: str) -> str:
    """What the session keeps: changing the passcode signs every phone out."""
    return hmac.new(current_app.secret_key.encode(), secret.encode(), hashlib.sha256).hexdigest()  # type: ignore[union-attr]


def signed_in() -> bool:
    """True on a phone that gave the passcode and has not signed out since (and so has something to sign out of)."""
    if "signed_in" not in flask.g:  # asked by the guard, then by the page's template: looked up once
        locked = lock()
        given = locked is not None and hmac.compare_digest(session.get("passcode", ""), fingerprint(locked.secret))
        flask.g.signed_in = given and locked is not None and kept_sign_in(session.get("sign_in"), locked.group_id)
    return bool(flask.g.signed_in)


def kept_sign_in(sign_in: object, group_id: int | None) -> bool:
    """The sign-in the session names is still kept (not signed out, used within a month) and is for this lock."""
    row = db.session.get(models.SignIn, sign_in) if isinstance(sign_in, str) else None
    now = models.utcnow()
    if row is None or row.group_id != group_id or now - row.last_seen > current_app.permanent_session_lifetime:
        return False
    if now - row.last_seen > SEEN_EVERY:
        row.last_seen = now
        try:
            db.session.commit()
        except OperationalError:  # the database busy (an import): noted next time
            db.session.rollback()
    return True


def new_sign_in(group_id: int | None) -> str:
    """A sign-in kept by the server for this phone; those unused for a month go, and the group's past SIGN_INS_KEPT
    (the ones unused longest)."""
    long_ago = models.utcnow() - current_app.permanent_session_lifetime
    db.session.execute(delete(models.SignIn).where(models.SignIn.last_seen < long_ago))
    older = (
        select(models.SignIn.id)
        .where(models.SignIn.group_id == group_id)  # IS NULL for the server's own passcode
        .order_by(models.SignIn.last_seen.desc(), models.SignIn.signed_in_at.desc())
        .offset(SIGN_INS_KEPT - 1)
    )
    db.session.execute(delete(models.SignIn).where(models.SignIn.id.in_(older.scalar_subquery())))
    sign_in = models.SignIn(id=secrets.token_hex(16), group_id=group_id)
    db.session.add(sign_in)
    db.session.commit()
    return sign_in.id


def is_public(endpoint: str | None) -> bool:
    view = current_app.view_functions.get(endpoint or "")
    return endpoint == "static" or getattr(view, "public", False)


def require_passcode() -> Response | tuple[Response, int] | None:
    locked = lock()
    if locked is None or is_public(request.endpoint) or signed_in():
        return None
    if not request.path.startswith("/api/"):
        return redirect(url_for("signing.sign_in", next=here()))
    given = bearer_token()
    if given is not None:
        verdict = guesses.judge(given, locked.check, locked.group_id)
        if verdict == guesses.RIGHT:
            return None
        if verdict > 0:
            return too_soon(verdict)
    if locked.group_id is None:
        said = gettext("This server needs its passcode: send Authorization: Bearer <passcode>.")
    else:
        said = gettext("This group needs its own passcode: send Authorization: Bearer <the group's passcode>.")
    answer = jsonify({"error": said})
    answer.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return answer, 401


def here() -> str:
    """This request's address on the site, its group's prefix and query included: where to come back to."""
    return request.script_root + request.full_path.rstrip("?")


def bearer_token() -> bytes | None:
    """The token of ``Authorization: Bearer <token>``, as the bytes sent; None without that scheme."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    # Headers reach WSGI as latin-1: encoding back gives the bytes sent, UTF-8 from any client.
    return token.strip().encode("latin-1", errors="replace")


def too_soon(wait: int) -> tuple[Response, int]:
    answer = jsonify({"error": gettext("Too many wrong passcodes: try again in %(seconds)d s.", seconds=wait)})
    answer.headers["Retry-After"] = str(wait)
    return answer, 429


def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
