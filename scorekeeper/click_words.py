"""click's own words ("Usage:", "Options:", "Error: …") in the host's language, as the command's are.

click says them through the standard library's gettext (``from gettext import gettext as _`` in each of
its modules), in gettext's default domain, where no catalog of the app's is: beside the command's German
they would stay English. ``speak`` has click's modules look them up in the app's catalogs instead, in
the host's language (languages.py), read however the app was installed. It runs before the command's
options are made (click names a path's kind, "file", when its option is declared).

The messages are those the `scorekeeper` command can say, marked here (``N_``, a pair for a plural) so
that `make messages` keeps them in the catalogs; tests/test_i18n.py checks that click still says each.
"""

import gettext as gettext_module
import sys

from .languages import gettext, ngettext


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
    """Have click's modules say their words through languages.py's ``gettext`` and ``ngettext`` (once is enough)."""
    for name, module in list(sys.modules.items()):
        if name == "click" or name.startswith("click."):
            if getattr(module, "_", None) is gettext_module.gettext:
                module._ = gettext  # type: ignore[attr-defined]
            if getattr(module, "ngettext", None) is gettext_module.ngettext:
                module.ngettext = ngettext  # type: ignore[attr-defined]
