"""Keeping strangers out: an optional passcode for the whole instance, and security headers.

With a passcode set (SCOREKEEPER_PASSCODE, in the environment or the data folder's settings.env),
pages ask for it once per phone (a session cookie that lasts while the phone
keeps using the app) and the API takes it as ``Authorization: Bearer <passcode>``.
Wrong guesses are slowed down (guesses.py), and a passcode easy to guess is
refused when the app starts.
"""

import hashlib
import hmac
from collections.abc import Callable
from typing import TypeVar

import flask
from flask import Blueprint, Flask, current_app, flash, jsonify, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import HiddenField, PasswordField

from . import guesses
from .config import StartupError

bp = Blueprint("guard", __name__)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
COOKIE = "scorekeeper"  # its own name: another app on this host (another port) keeps its own "session"
STRONG_LENGTH, STRONG_VARIETY = 12, 6
WEAK_PASSCODE = (
    "The passcode (SCOREKEEPER_PASSCODE, in the environment or the data folder's settings.env) is too easy to guess: "
    f"choose one of at least {STRONG_LENGTH} characters, not only digits, with {STRONG_VARIETY} different ones "
    "or more (four words the table will remember do), and start again."
)
View = TypeVar("View", bound=Callable[..., object])


def public(view: View) -> View:
    """Open this page without the passcode: what a browser fetches before anyone signs in (icons, the worker)."""
    view.public = True  # type: ignore[attr-defined]
    return view


class SignInForm(FlaskForm):
    passcode = PasswordField("Passcode")
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


def passcode_problem(code: str) -> str | None:
    """Why a passcode is too easy to guess (a PIN, a word, one key held down), or None for none set or strong.

    >>> [passcode_problem(code) is None for code in ("", "1234", "spades", "000000000000000", "queen of spades")]
    [True, False, False, False, True]
    """
    digits = code.replace(" ", "").isdigit()
    if code and (len(code.strip()) < STRONG_LENGTH or digits or len(set(code.casefold())) < STRONG_VARIETY):
        return WEAK_PASSCODE
    return None


def passcode() -> str:
    return str(current_app.config.get("PASSCODE") or "")


def fingerprint(code: str) -> str:
    """What the session keeps: changing the passcode signs every phone out."""
    return hmac.new(current_app.secret_key.encode(), code.encode(), hashlib.sha256).hexdigest()  # type: ignore[union-attr]


def signed_in() -> bool:
    """True on a phone that gave the passcode (and so has something to sign out of)."""
    code = passcode()
    return bool(code) and hmac.compare_digest(session.get("passcode", ""), fingerprint(code))


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
    answer = jsonify({"error": "This server needs its passcode: send Authorization: Bearer <passcode>."})
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
    answer = jsonify({"error": f"Too many wrong passcodes: try again in {wait} s."})
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
            return redirect(safe_target(form.next.data))
        if verdict > 0:
            message, status = f"Too many wrong passcodes: wait {verdict} seconds, then try again.", 429
        else:
            message, status = "That is not the passcode.", 401
    return render_template("sign_in.html", form=form, message=message), status


@bp.post("/sign-out")
def sign_out() -> Response:
    """Forget this phone's session; the sign-in page it lands on tells the worker to drop the pages it kept."""
    if not FlaskForm().validate_on_submit():
        flash("This page had expired, so the phone is still signed in: tap Sign out again.", "error")
        return redirect(url_for("table.home"))
    session.clear()
    flash("Signed out. This phone needs the passcode again.", "done")
    return redirect(url_for("guard.sign_in"))


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
