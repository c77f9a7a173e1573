"""The one error the rules raise: a broken rule, told so a player can fix it."""

from .i18n import ngettext


class RuleError(ValueError):
    """A rule of docs/rules.md was broken; ``message`` is meant for the players.

    ``errors`` maps the fields at fault to their own messages. ``conflict`` is
    set when the input is fine but the game's state refuses it (a finished
    game, a hand that is not the next one), which the API answers with 409.
    """

    def __init__(
        self,
        message: str,
        errors: dict[str, str] | None = None,
        *,
        conflict: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = dict(errors or {})
        self.conflict = conflict


def refuse(errors: dict[str, str]) -> None:
    """Raise one RuleError for every field at fault, if any."""
    if errors:
        first = next(iter(errors.values()))
        more = len(errors) - 1
        message = (
            first
            if not more
            else ngettext(
                "%(first)s (and %(num)d more to fix)", "%(first)s (and %(num)d more to fix)", more, first=first
            )
        )
        raise RuleError(message, errors)
