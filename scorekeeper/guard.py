"""Keeping strangers out: an optional passcode for the whole instance, and security headers.

With a passcode set (SCOREKEEPER_PASSCODE, in the environment or the data folder's settings.env),
pages ask for it once per phone (a long-lived session cookie) and the API takes
it as ``Authorization: Bearer <passcode>``. Each wrong passcode from an address
doubles the wait before that address may try again (1 s, 2 s, 4 s … 5 min), and
an address's guesses are judged one at a time, so a burst of parallel guesses
gets one judged and the rest told to wait.
"""

import hashlib
import hmac
import unicodedata
from datetime import timedelta

from flask import Blueprint, Flask, current_app, jsonify, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_wtf import FlaskForm
from sqlalchemy.dialects import postgresql, sqlite
from werkzeug.wrappers import Response
from wtforms import HiddenField, PasswordField

from . import models
from .db import db
from .views import app_shell

bp = Blueprint("guard", __name__)

MAX_WAIT = timedelta(minutes=5)
MAX_DOUBLINGS = 9  # 2**9 s is past MAX_WAIT already; no bigger power is ever computed
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
OPEN_ENDPOINTS = {"guard.sign_in", "static", *app_shell.OPEN_ENDPOINTS}


class SignInForm(FlaskForm):
    passcode = PasswordField("Passcode")
    next = HiddenField()


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.register_blueprint(bp)
    app.before_request(require_passcode)
    app.after_request(security_headers)


def passcode() -> str:
    return str(current_app.config.get("PASSCODE") or "")


def fingerprint(code: str) -> str:
    """What the session keeps: changing the passcode signs every phone out."""
    return hmac.new(current_app.secret_key.encode(), code.encode(), hashlib.sha256).hexdigest()  # type: ignore[union-attr]


def require_passcode() -> Response | tuple[Response, int] | None:
    code = passcode()
    if not code or request.endpoint in OPEN_ENDPOINTS:
        return None
    if hmac.compare_digest(session.get("passcode", ""), fingerprint(code)):
        return None
    if not request.path.startswith("/api/"):
        return redirect(url_for("guard.sign_in", next=request.full_path.rstrip("?")))
    given = bearer_token()
    if given is not None:
        verdict = judge(given)
        if verdict == RIGHT:
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
def sign_in() -> str | Response | tuple[str, int]:
    form = SignInForm(next=request.args.get("next", "/"))
    message, status = None, 200
    if form.validate_on_submit():
        verdict = judge((form.passcode.data or "").encode())
        if verdict == RIGHT:
            session.permanent = True
            session["passcode"] = fingerprint(passcode())
            return redirect(safe_target(form.next.data))
        if verdict > 0:
            message, status = f"Too many wrong passcodes: wait {verdict} seconds, then try again.", 429
        else:
            message, status = "That is not the passcode.", 401
    return render_template("sign_in.html", form=form, message=message), status


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


def client_address() -> str:
    return (request.remote_addr or "unknown")[: models.ADDRESS_MAX]


RIGHT, WRONG = -1, 0


def judge(given: bytes) -> int:
    """RIGHT, WRONG, or the seconds to wait before this address may guess again.

    One guess per address at a time: the attempt row is written (and so held)
    before the guess is compared, so parallel guesses queue behind it and find
    the wait it set instead of being judged too.
    """
    attempt = hold_attempt(client_address())
    wait = seconds_to_wait(attempt)
    if wait:
        db.session.rollback()
        return wait
    if hmac.compare_digest(normalized(given), normalized(passcode().encode())):
        db.session.delete(attempt)
        db.session.commit()
        return RIGHT
    attempt.failures += 1
    attempt.last_failure = models.utcnow()
    db.session.commit()
    return WRONG


def normalized(code: bytes) -> bytes:
    """The passcode as NFC UTF-8, so "José" typed either way on any phone is the same passcode."""
    return unicodedata.normalize("NFC", code.decode("utf-8", errors="replace")).encode()


def hold_attempt(address: str) -> models.SignInAttempt:
    """This address's attempt row, created if new, written in this transaction to hold it."""
    db.session.rollback()  # start afresh: the write below must be the transaction's first statement
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    statement = insert(models.SignInAttempt).values(address=address, failures=0, last_failure=models.utcnow())
    db.session.execute(statement.on_conflict_do_update(index_elements=["address"], set_={"address": address}))
    attempt = db.session.get(models.SignInAttempt, address, populate_existing=True)
    assert attempt is not None
    return attempt


def seconds_to_wait(attempt: models.SignInAttempt) -> int:
    if not attempt.failures:
        return 0
    doubled = timedelta(seconds=2 ** min(attempt.failures - 1, MAX_DOUBLINGS))
    ready = attempt.last_failure + min(MAX_WAIT, doubled)
    return max(0, int((ready - models.utcnow()).total_seconds() + 0.999))


def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
