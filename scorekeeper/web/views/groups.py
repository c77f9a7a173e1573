"""An open server's groups as the phones see them: start one, share it, name it, lock it, delete it.

Starting a group is the open server's home page (table.home at the site's root); the
group's own page (``/g/<key>/group``) has its link and QR code to share, its name,
its passcode, and deleting it.
"""

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ... import rules
from ...security import group_scope
from ...security.group_scope import open_server_only, start_group
from ...security.passcodes import STRONG_LENGTH, STRONG_VARIETY, passcode_problem
from ...service import groups
from ..forms import ActionForm
from ..forms.groups import NameForm, NewGroupForm, PasscodeForm
from ..qr import qr_svg

bp = Blueprint("groups", __name__)


def start_page(form: NewGroupForm, status: int) -> tuple[str, int]:
    """The open server's home page again, with what was wrong with the form."""
    return render_template("groups/start.html", form=form), status


@bp.post("/groups")
@group_scope.site_page
@open_server_only
def start() -> ResponseReturnValue:
    form = NewGroupForm()
    if not form.validate_on_submit():
        return start_page(form, 400)
    try:
        started = start_group(form.name.data or None)
    except rules.RuleError as broken:
        form.name.errors = [broken.message]
        return start_page(form, 422)
    # The group's page says it is new: a message flashed here would stay in the site's session, not the group's.
    return redirect(f"{request.script_root}/g/{started.key}/group?new=1", 303)


@bp.get("/group")
@open_server_only
def group() -> str:
    """The group's page: its link and QR code, its name and its passcode."""
    return group_page(NameForm(prefix="name"), PasscodeForm(prefix="code"))[0]


def group_page(names: NameForm, codes: PasscodeForm, status: int = 200) -> tuple[str, int]:
    found = group_scope.current_group()
    assert found is not None
    if not names.is_submitted():
        names.name.data = found.name
    link = url_for("table.home", _external=True)
    new = request.args.get("new") == "1"
    page = render_template("groups/group.html", group=found, link=link, names=names, codes=codes, new=new)
    return page, status


@bp.post("/group/name")
@open_server_only
def rename() -> ResponseReturnValue:
    names = NameForm(prefix="name")
    found = group_scope.current_group()
    assert found is not None
    if not names.validate_on_submit():
        return group_page(names, PasscodeForm(prefix="code"), 400)
    try:
        groups.rename(found.id, names.name.data)
    except rules.RuleError as broken:
        names.name.errors = [broken.message]
        return group_page(names, PasscodeForm(prefix="code"), 422)
    flash(gettext("The group's name is saved."), "done")
    return redirect(url_for(".group"))


@bp.post("/group/passcode")
@open_server_only
def passcode() -> ResponseReturnValue:
    """Set the group's passcode (its pages and API then ask for it), or take it off."""
    codes = PasscodeForm(prefix="code")
    found = group_scope.current_group()
    assert found is not None
    if not codes.validate_on_submit():
        return group_page(NameForm(prefix="name"), codes, 400)
    code = codes.passcode.data or ""
    problem = weak_group_passcode(code) if code else None
    if problem:
        codes.passcode.errors = [problem]
        return group_page(NameForm(prefix="name"), codes, 422)
    groups.set_passcode(found.id, code or None)
    if code:
        flash(gettext("The group has a passcode now: every phone gives it once, this one too."), "done")
        return redirect(url_for("signing.sign_in", next=url_for(".group")))
    flash(gettext("The group needs no passcode now: its link is enough."), "done")
    return redirect(url_for(".group"))


@bp.get("/group/qr.svg")
@open_server_only
def qr_code() -> Response:
    """The group's link as a QR code, for the phones at the table."""
    return Response(qr_svg(url_for("table.home", _external=True)), mimetype="image/svg+xml")


@bp.route("/group/delete", methods=["GET", "POST"])
@open_server_only
def delete() -> ResponseReturnValue:
    """Asks first, with the group's export offered; then the group and all it holds are gone."""
    found = group_scope.current_group()
    assert found is not None
    if ActionForm().validate_on_submit():
        groups.delete_group(found.id)
        site = request.environ.get(group_scope.SITE_ROOT, "")
        return redirect(f"{site}/?deleted=1", 303)  # the site's page says so: the group's session is gone with it
    return render_template("groups/delete.html", group=found, games=groups.games_in_group())


def weak_group_passcode(code: str) -> str | None:
    """Why a group's passcode is too easy to guess, in a sentence for the table; None for a strong one.

    >>> weak_group_passcode("queen of spades") is None
    True
    """
    if passcode_problem(code) is None:
        return None
    return str(gettext("This passcode is too easy to guess: choose one of at least %(length)d characters, not only "
                       "digits, with %(variety)d different ones or more, and no common password or row of keys in it; "
                       "four words the table will remember do.", length=STRONG_LENGTH,
                       variety=STRONG_VARIETY))  # fmt: skip
