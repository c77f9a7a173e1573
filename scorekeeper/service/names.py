"""Players' names where space is short: cut, but never to the same form as another name at the table.

The server decides what each place shows; the stylesheets give every place the room its form needs
(and wrap a line rather than cut it), so no width ever cuts a name further.
"""

from collections.abc import Sequence
from dataclasses import dataclass

ROOM = 7  # letters a name keeps below 40rem: a phone's scoreboard of five, chips, column heads, pass pairs
FEWER_ROOM = {3: 9, 4: 8}  # fewer players, wider columns: a 360 px phone shows "Anneliese" whole beside two more
WIDE_ROOM = 12  # letters a name keeps from 40rem: a column of five in the 40rem page
TAIL = 3  # a name cut in the middle keeps at least its last three letters


@dataclass(frozen=True)
class ShownName:
    """A player's name in each form a page shows: whole for screen readers and where a line has room,
    ``narrow`` below 40rem, ``wide`` from there. Each is at most its room's letters and a "…"."""

    full: str
    narrow: str
    wide: str


def shown_names(names: Sequence[str]) -> list[ShownName]:
    """Every name at a table in each of its forms.

    >>> five = ["Alexandra", "Alexander", "Bartholomew Smith", "Ann", "Max"]
    >>> [(shown.narrow, shown.wide) for shown in shown_names(five)][:3]
    [('Alex…dra', 'Alexandra'), ('Alex…der', 'Alexander'), ('Bartho…', 'Bartholomew…')]
    >>> [shown.narrow for shown in shown_names(["Anneliese", "Christopher", "Maximilian"])]
    ['Anneliese', 'Christop…', 'Maximili…']
    """
    narrow = short_names(names, FEWER_ROOM.get(len(names), ROOM))
    return [
        ShownName(full, short, wide)
        for full, short, wide in zip(names, narrow, short_names(names, WIDE_ROOM), strict=True)
    ]


def short_names(names: Sequence[str], room: int = ROOM) -> list[str]:
    """Each name cut to ``room`` letters or the shortest start no other name shares; names alike
    for longer than that keep their start and their end.

    >>> short_names(["Christina", "Christopher", "Ann", "Bartholomew"])
    ['Christi…', 'Christo…', 'Ann', 'Bartho…']
    >>> short_names(["Alexandra", "Alexander", "Max"])
    ['Alex…dra', 'Alex…der', 'Max']
    """
    return [short_name(name, names, room) for name in names]


def short_name(name: str, names: Sequence[str], room: int = ROOM) -> str:
    if len(name) <= room:
        return name
    others = [other.casefold() for other in names if other != name]
    keep = room - 1  # the "…" takes the last place
    while any(other.startswith(name[:keep].casefold()) for other in others):
        keep += 1
    if keep > room:  # the screen would cut the start again, to the same as another name's
        return middle_cut(name, others, room)
    # A cut that saves no space is no cut.
    return name if keep >= len(name) - 1 else name[:keep].rstrip() + "…"


def middle_cut(name: str, others: list[str], room: int) -> str:
    """The name's start and as much of its end as tells it from the others: "Alex…dra" beside "Alex…der"."""
    for tail in range(TAIL, room):
        head = room - tail
        if not any(other.startswith(name[:head].casefold()) and other.endswith(name[-tail:].casefold())
                   for other in others):  # fmt: skip
            return name[:head].rstrip() + "…" + name[-tail:].lstrip()
    return name
