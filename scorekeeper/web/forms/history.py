"""The history's import."""

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class ImportForm(FlaskForm):
    export = FileField(
        lazy_gettext("A JSON export of games"),
        validators=[FileRequired(lazy_gettext("Choose the export file to import."))],
    )
