"""Keeping strangers out: an optional passcode for the whole instance, and security headers.

With a passcode set (SCOREKEEPER_PASSCODE, in the environment or the data folder's settings.env),
pages ask for it once per phone (a session cookie that lasts while the phone
keeps using the app) and the API takes it as ``Authorization: Bearer <passcode>``.
The server keeps each sign-in (a row the session names), so signing out ends
it for every copy of the cookie. Wrong guesses are slowed down (guesses.py),
and a passcode easy to guess is refused when the app starts (passcodes.py).
"""

import hashlib
import hmac
import math
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

import flask
from flask import Blueprint, Flask, current_app, flash, jsonify, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_babel import gettext, lazy_gettext, ngettext
from flask_wtf import FlaskForm
from sqlalchemy import delete
from sqlalchemy.exc import OperationalError
from werkzeug.wrappers import Response
from wtforms import HiddenField, PasswordField

from . import guesses, models
from .config import StartupError
from .db import db
from .passcodes import passcode_problem

bp = Blueprint("guard", __name__)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
COOKIE = "scorekeeper"  # its own name: another app on this host (another port) keeps its own "session"
SEEN_EVERY = timedelta(hours=1)  # how often a sign-in notes that its phone came back: not a write a request
View = TypeVar("View", bound=Callable[..., object])


def public(view: View) -> View:
    """Open this page without the passcode: what a browser fetches before anyone signs in (icons, the worker)."""
    view.public = True  # type: ignore[attr-defined]
    return view


class SignInForm(FlaskForm):
    passcode = PasswordField(lazy_gettext("Passcode"))
    next = HiddenField()


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over HTTPS, and then a ``__Host-`` cookie.

    ``__Host-`` tells the browser to take the cookie only from this exact host over
    HTTPS, for the whole site: no other name or service can set or overwrite it.
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)

    def get_cookie_name(self, app: Flask) -> str:
        return "__Host-" + COOKIE if self.get_cookie_secure(app) else COOKIE

    def save_session(self, app: Flask, session: SessionMixin, response: flask.Response) -> None:
        """An error renews no cookie: only a change made on purpose (a fresh form token, say) is sent."""
        if response.status_code < 400 or session.modified:
            super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    problem = passcode_problem(str(app.config.get("PASSCODE") or ""))
    if problem:
        raise StartupError(problem)
    app.session_interface = SessionInterface()
    app.register_blueprint(bp)
    app.before_request(require_passcode)
    app.after_request(security_headers)
    app.add_template_global(signed_in)


def passcode() -> str:
    return str(current_app.config.get("PASSCODE") or "")


def fingerprint(code: str) -> str:
    """What the session keeps: changing the passcode signs every phone out."""
    return hmac.new(current_app.secret_key.encode(), code.encode(), hashlib.sha256).hexdigest()  # type: ignore[union-attr]


def signed_in() -> bool:
    """True on a phone that gave the passcode and has not signed out since (and so has something to sign out of)."""
    if "signed_in" not in flask.g:  # asked by the guard, then by the page's template: looked up once
        code = passcode()
        given = bool(code) and hmac.compare_digest(session.get("passcode", ""), fingerprint(code))
        flask.g.signed_in = given and kept_sign_in(session.get("sign_in"))
    return bool(flask.g.signed_in)


def kept_sign_in(sign_in: object) -> bool:
    """The sign-in the session names is still kept (not signed out, used within a month): one lookup by key."""
    row = db.session.get(models.SignIn, sign_in) if isinstance(sign_in, str) else None
    now = models.utcnow()
    if row is None or now - row.last_seen > current_app.permanent_session_lifetime:
        return False
    if now - row.last_seen > SEEN_EVERY:
        row.last_seen = now
        try:
            db.session.commit()
        except OperationalError:  # the database busy (an import): noted next time
            db.session.rollback()
    return True


def new_sign_in() -> str:
    """A sign-in kept by the server for this phone; those unused for a month go."""
    long_ago = models.utcnow() - current_app.permanent_session_lifetime
    db.session.execute(delete(models.SignIn).where(models.SignIn.last_seen < long_ago))
    sign_in = models.SignIn(id=secrets.token_hex(16))
    db.session.add(sign_in)
    db.session.commit()
    return sign_in.id


def is_public(endpoint: str | None) -> bool:
    view = current_app.view_functions.get(endpoint or "")
    return endpoint == "static" or getattr(view, "public", False)


def require_passcode() -> Response | tuple[Response, int] | None:
    code = passcode()
    if not code or is_public(request.endpoint) or signed_in():
        return None
    if not request.path.startswith("/api/"):
        return redirect(url_for("guard.sign_in", next=request.full_path.rstrip("?")))
    given = bearer_token()
    if given is not None:
        verdict = guesses.judge(given, code.encode())
        if verdict == guesses.RIGHT:
            return None
        if verdict > 0:
            return too_soon(verdict)
    answer = jsonify({"error": gettext("This server needs its passcode: send Authorization: Bearer <passcode>.")})
    answer.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return answer, 401


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


@bp.route("/sign-in", methods=["GET", "POST"])
@public
def sign_in() -> str | Response | tuple[str, int]:
    form = SignInForm(next=request.args.get("next", "/"))
    message, status = None, 200
    if form.validate_on_submit():
        verdict = guesses.judge((form.passcode.data or "").encode(), passcode().encode())
        if verdict == guesses.RIGHT:
            session.clear()  # a new session for the phone that signs in: nothing kept from before
            session.permanent = True
            session["passcode"] = fingerprint(passcode())
            session["sign_in"] = new_sign_in()
            return redirect(safe_target(form.next.data))
        if verdict > 0:
            message = gettext(
                "Too many wrong passcodes were tried: wait %(wait)s, then try again.", wait=wait_words(verdict)
            )
            status = 429
        else:
            message, status = gettext("That is not the passcode."), 401
    return render_template("sign_in.html", form=form, message=message), status


@bp.post("/sign-out")
def sign_out() -> Response:
    """Forget this phone's session; the sign-in page it lands on tells the worker to drop the pages it kept."""
    if not FlaskForm().validate_on_submit():
        flash(gettext("This page had expired, so the phone is still signed in: tap Sign out again."), "error")
        return redirect(url_for("table.home"))
    sign_in = session.get("sign_in")
    if isinstance(sign_in, str):
        db.session.execute(delete(models.SignIn).where(models.SignIn.id == sign_in))  # every copy of the cookie too
        db.session.commit()
    session.clear()
    flash(gettext("Signed out. This phone needs the passcode again."), "done")
    return redirect(url_for("guard.sign_in"))


def wait_words(seconds: int) -> str:
    """A wait as a person says it: seconds, then whole minutes from 90 s, then whole hours from 90 minutes."""
    if seconds < 90:
        return str(ngettext("%(num)d second", "%(num)d seconds", seconds))
    if seconds < 90 * 60:
        return str(ngettext("%(num)d minute", "%(num)d minutes", math.ceil(seconds / 60)))
    return str(ngettext("%(num)d hour", "%(num)d hours", math.ceil(seconds / 3600)))


def safe_target(target: str | None) -> str:
    r"""Where to go after signing in: a path on this site, never another host.

    Browsers drop tabs and newlines from addresses and read a backslash as a
    slash, so "/\t/evil.example" would lead off the site.

    >>> [safe_target(t) for t in ["/history?player=Ann", "//evil.example", "/\t/evil.example", "/\\evil", None]]
    ['/history?player=Ann', '/', '/', '/', '/']
    """
    target = target or "/"
    if not target.startswith("/") or target.startswith("//") or any(c <= " " or c == "\\" for c in target):
        return "/"
    return target


def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
