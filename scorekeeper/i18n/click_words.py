"""click's own words ("Usage:", "Options:", "Error: …") in the host's language, as the command's are.

click says them through the standard library's gettext, in its default domain, "messages": the name of the app's
catalogs too. ``speak`` binds that domain to the app's folder of compiled catalogs (gettext's own, documented way
to give a library's words a translation), so click reads its words there, in the language the host's locale
settings name (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them). It runs before the command's options
are made (click names a path's kind, "file", when its option is declared). A clone whose catalogs `make` has not
compiled yet says click's words in English; the command's own words it compiles in memory (languages.py).

The messages are those the `scorekeeper` command can say, marked here (``N_``, a pair for a plural) so
that `make messages` keeps them in the catalogs; tests/test_i18n.py checks that click still says each.
"""

import gettext as gettext_module

from .languages import TRANSLATIONS


def N_(*message: str) -> tuple[str, ...]:  # noqa: N802  # gettext's name for "translate later"
    """Mark a message, or a singular and plural pair, for the catalogs."""
    return message


MESSAGES = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("%(prog)s, version %(version)s"),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Aborted!"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("No such option {name!r}."),
    N_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    N_("Option {name!r} does not take a value."),
    N_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    N_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    # Translators: a kind of path, its first letter made capital where it starts a sentence ("File 'x' does not exist.")
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."),
)


def speak() -> None:
    """Have click say its words from the app's catalogs (once is enough)."""
    gettext_module.bindtextdomain(gettext_module.textdomain(), str(TRANSLATIONS))
