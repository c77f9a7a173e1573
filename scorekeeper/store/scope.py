"""Which group's games a piece of work sees: decided once, applied to every query.

A request sees one group's games: on an open server the group its address names
(``/g/<key>``), on a server that is one group's that group; a request for no group
(an open server's home page) sees none. A host's command sees every group's, by
asking for them (``see_everything``); any other work sees none: the scope fails closed.

The group is added to every ORM statement the session runs, SELECT, UPDATE and
DELETE alike (``with_loader_criteria``), for every table that has a group: a query
written later cannot forget it. New games go into the group in scope.
"""

import functools
from dataclasses import dataclass
from typing import Any

from flask import current_app, g
from sqlalchemy import event, exists, false
from sqlalchemy.orm import ORMExecuteState, with_loader_criteria
from sqlalchemy.orm.interfaces import ORMOption
from sqlalchemy.orm.scoping import scoped_session

from . import models

# The tables that hold a group's own facts: each has a group_id.
GROUPED = (models.Game, models.Player, models.PlayerSummary)
# The tables whose rows belong to a group through their game.
THROUGH_GAME = (models.Hand,)
# The tables of the whole server, which the code that reads them keeps apart by group itself, or that hold no
# group's facts: the groups themselves, the passcode's sign-ins (each names its group) and guesses, and the
# allowances an address has spent.
SERVER_WIDE = (models.Group, models.SignIn, models.SignInAttempt, models.Allowance)


@dataclass(frozen=True)
class Everything:
    """The scope of a host's command: every group."""


EVERYTHING = Everything()
Scope = int | None | Everything  # a group's id; None: no group at all


class NoGroup(LookupError):
    """Something was to be stored for a group, and no group is in scope."""


def limit_to(group_id: int | None) -> None:
    """From now on in this app context, see the games of this group alone (None: of no group)."""
    g.scope = group_id


def see_everything() -> None:
    """From now on in this app context, see every group's games (a command of the host's)."""
    g.scope = EVERYTHING


def current() -> Scope:
    """The group in scope: none until something says which (a request's group, or a host's command every group)."""
    found: Scope = g.get("scope", None)
    return found


def group_for_new_games() -> int:
    """The group a game stored now goes into: the one in scope; a host's command's, the first group."""
    scope = current()
    if isinstance(scope, int):
        return scope
    first = current_app.extensions.get("first_group") if scope is EVERYTHING else None
    if first is None:
        raise NoGroup("no group is in scope")
    return int(first.id)


def init_session(session: scoped_session[Any]) -> None:
    """Every statement the session runs keeps to the group in scope (once, however many apps share the session)."""
    if not event.contains(session, "do_orm_execute", keep_to_scope):
        event.listen(session, "do_orm_execute", keep_to_scope)


def keep_to_scope(state: ORMExecuteState) -> None:
    if not (state.is_select or state.is_update or state.is_delete):
        return
    scope = current()
    if isinstance(scope, Everything):
        return
    state.statement = state.statement.options(*criteria(scope))


@functools.lru_cache(maxsize=1024)
def criteria(scope: int | None) -> tuple[ORMOption, ...]:
    """The options that keep a statement to ``scope``: made once for each group (they hold nothing but its id).

    >>> criteria(7) is criteria(7), len(criteria(None))
    (True, 4)
    """
    if scope is None:
        return tuple(with_loader_criteria(table, false()) for table in (*GROUPED, *THROUGH_GAME))
    game = models.Game
    return (
        *(with_loader_criteria(table, table.group_id == scope) for table in GROUPED),
        # Each row's own game looked up (its key): a list of the group's games would grow with the group.
        *(
            with_loader_criteria(table, exists().where(game.id == table.game_id, game.group_id == scope))
            for table in THROUGH_GAME
        ),
    )
