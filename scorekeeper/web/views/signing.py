"""Signing in with the passcode, and out again (guard.py asks for it and keeps the sign-ins)."""

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from sqlalchemy import delete
from werkzeug.wrappers import Response

from ...security import group_scope, guard, guesses
from ...store import models
from ...store.db import db
from ..forms.signing import SignInForm

bp = Blueprint("signing", __name__)


@bp.route("/sign-in", methods=["GET", "POST"])
@guard.public
@group_scope.any_page
def sign_in() -> str | Response | tuple[str, int]:
    form = SignInForm(next=request.args.get("next", request.script_root + "/"))
    locked = guard.lock()
    if locked is None:  # nothing to sign in to here (the group or server has no passcode)
        return redirect(safe_target(form.next.data))
    message, status = None, 200
    if form.validate_on_submit():
        verdict = guesses.judge((form.passcode.data or "").encode(), locked.check, locked.group_id)
        if verdict == guesses.RIGHT:
            session.clear()  # a new session for the phone that signs in: nothing kept from before
            session.permanent = True
            session["passcode"] = guard.fingerprint(locked.secret)
            session["sign_in"] = guard.new_sign_in(locked.group_id)
            return redirect(safe_target(form.next.data))
        if verdict > 0:
            message = gettext(
                "Too many wrong passcodes were tried: wait %(wait)s, then try again.", wait=guesses.wait_words(verdict)
            )
            status = 429
        else:
            message, status = gettext("That is not the passcode."), 401
    return render_template("sign_in.html", form=form, message=message), status


@bp.post("/sign-out")
@group_scope.any_page
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
    return redirect(url_for(".sign_in"))


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
