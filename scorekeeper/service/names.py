"""Players' names where space is short: cut, but never to the same form as another name at the table."""

from collections.abc import Sequence

ROOM = 7  # characters a name keeps on a phone's scoreboard, chips and column heads


def short_names(names: Sequence[str], room: int = ROOM) -> list[str]:
    """Each name cut to ``room`` characters or the shortest start no other name shares.

    >>> short_names(["Christina", "Christopher", "Ann", "Bartholomew"])
    ['Christi…', 'Christo…', 'Ann', 'Bartho…']
    >>> short_names(["Alexandra", "Alexander", "Max"])
    ['Alexandra', 'Alexander', 'Max']
    """
    return [short_name(name, names, room) for name in names]


def short_name(name: str, names: Sequence[str], room: int = ROOM) -> str:
    if len(name) <= room:
        return name
    others = [other.casefold() for other in names if other != name]
    keep = room - 1  # the "…" takes the last place
    while any(other.startswith(name[:keep].casefold()) for other in others):
        keep += 1
    # A cut that saves no space is no cut.
    return name if keep >= len(name) - 1 else name[:keep].rstrip() + "…"
