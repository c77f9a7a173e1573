"""An open server's groups: one started, named, given a passcode."""

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField


class NewGroupForm(FlaskForm):
    """An open server's home page: a group started in one tap, its name if you like."""

    name = StringField(lazy_gettext("The group's name (if you like)"))


class NameForm(FlaskForm):
    name = StringField(lazy_gettext("The group's name"))


class PasscodeForm(FlaskForm):
    passcode = PasswordField(lazy_gettext("New passcode (empty: none)"))
