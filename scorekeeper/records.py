"""Rebuilding every record the pages read from the hands, the only facts: seats and players' summaries."""

from . import summary
from .db import db
from .export import all_games
from .rows import keep_records


def rebuild_records() -> int:
    """Replay every game, refresh each seat's record, then add up every player's summary again.

    Returns the number of games replayed.
    """
    count = 0
    for loaded in all_games():
        keep_records(loaded.game, loaded.state)
        count += 1
    db.session.commit()
    summary.rebuild()
    db.session.commit()
    return count
