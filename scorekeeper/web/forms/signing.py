"""Signing in with the passcode."""

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField


class SignInForm(FlaskForm):
    passcode = PasswordField(lazy_gettext("Passcode"))
    next = HiddenField()
