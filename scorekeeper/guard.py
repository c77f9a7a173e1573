"""Keeping strangers out: an optional passcode for the whole instance, and security headers.

With a passcode set (SCOREKEEPER_PASSCODE, or PASSCODE in instance/config.py),
pages ask for it once per phone (a long-lived session cookie) and the API takes
it as ``Authorization: Bearer <passcode>``. Each wrong passcode from an address
doubles the wait before that address may try again (1 s, 2 s, 4 s … 5 min).
"""

import hashlib
import hmac
from datetime import timedelta

from flask import Blueprint, Flask, current_app, jsonify, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import HiddenField, PasswordField

from . import models
from .db import db
from .views import app_shell

bp = Blueprint("guard", __name__)

MAX_WAIT = timedelta(minutes=5)
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
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    wait = seconds_to_wait()
    if given and wait:
        return too_soon(wait)
    if given and hmac.compare_digest(given.encode(), code.encode()):
        forgive()
        return None
    if given:
        note_failure()
    answer = jsonify({"error": "This server needs its passcode: send Authorization: Bearer <passcode>."})
    answer.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return answer, 401


def too_soon(wait: int) -> tuple[Response, int]:
    answer = jsonify({"error": f"Too many wrong passcodes: try again in {wait} s."})
    answer.headers["Retry-After"] = str(wait)
    return answer, 429


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> str | Response | tuple[str, int]:
    form = SignInForm(next=request.args.get("next", "/"))
    message, status = None, 200
    if form.validate_on_submit():
        wait = seconds_to_wait()
        if wait:
            message, status = f"Too many wrong passcodes: wait {wait} seconds, then try again.", 429
        elif passcode() and hmac.compare_digest((form.passcode.data or "").encode(), passcode().encode()):
            forgive()
            session.permanent = True
            session["passcode"] = fingerprint(passcode())
            target = form.next.data or "/"
            return redirect(target if target.startswith("/") and not target.startswith("//") else "/")
        else:
            note_failure()
            message, status = "That is not the passcode.", 401
    return render_template("sign_in.html", form=form, message=message), status


def client_address() -> str:
    return request.remote_addr or "unknown"


def seconds_to_wait() -> int:
    attempt = db.session.get(models.SignInAttempt, client_address())
    if attempt is None or not attempt.failures:
        return 0
    ready = attempt.last_failure + min(MAX_WAIT, timedelta(seconds=2 ** (attempt.failures - 1)))
    return max(0, int((ready - models.utcnow()).total_seconds() + 0.999))


def note_failure() -> None:
    attempt = db.session.get(models.SignInAttempt, client_address())
    if attempt is None:
        attempt = models.SignInAttempt(address=client_address(), failures=0)
        db.session.add(attempt)
    attempt.failures += 1
    attempt.last_failure = models.utcnow()
    db.session.commit()


def forgive() -> None:
    attempt = db.session.get(models.SignInAttempt, client_address())
    if attempt is not None:
        db.session.delete(attempt)
        db.session.commit()


def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
