"""Where each player stands: places, the leader and who is closest to ending the game."""

from collections.abc import Sequence
from dataclasses import dataclass

from .game import GameState


@dataclass(frozen=True)
class Standing:
    seat: int
    total: int
    place: int  # 1 for the lowest total; equal totals share a place
    leads: bool  # lowest total, once a hand has been played, while the game goes on
    closest: bool  # highest total, once a hand has been played: nearest the target
    to_go: int | None  # points before this total reaches the target; None once it has (a tie played on)
    wins: bool = False  # a winner of the finished game (several when the house rules share a tie)


def places(totals: Sequence[int]) -> tuple[int, ...]:
    """Each seat's place, lowest total first; equal totals share a place.

    >>> places([10, 5, 10, 20])
    (2, 1, 2, 4)
    """
    return tuple(1 + sum(other < total for other in totals) for total in totals)


def leads(totals: Sequence[int], played: bool, finished: bool) -> list[bool]:
    """Whether each seat leads: the lowest total, once a hand has been played, while the game goes on.

    >>> leads([10, 5, 5, 20], True, False), leads([0, 0, 0], False, False)
    ([False, True, True, False], [False, False, False])
    """
    return [played and not finished and place == 1 for place in places(totals)]


def standings(state: GameState) -> list[Standing]:
    """Every seat's standing, in seat order.

    >>> from .game import replay
    >>> from .house import HouseRules
    >>> from .cards import Hand
    >>> [(s.place, s.leads, s.closest) for s in standings(replay(3, HouseRules(), [Hand((4, 0, 9), 1)]))]
    [(1, True, False), (3, False, True), (2, False, False)]

    A total past the target has nothing to go: the game goes on only for a tie at the bottom.

    >>> [s.to_go for s in standings(replay(4, HouseRules(target=20), [Hand((0, 0, 9, 4), 2)]))]
    [20, 20, None, 16]

    Once the game is over, nobody leads: its winners have won.

    >>> over = replay(4, HouseRules(target=20), [Hand((0, 0, 9, 4), 2), Hand((0, 1, 9, 3), 0)])
    >>> [(s.leads, s.wins) for s in standings(over)]
    [(False, False), (False, True), (False, False), (False, False)]
    """
    played, finished = bool(state.hands), state.finished
    highest, ranks, target = max(state.totals), places(state.totals), state.rules.target
    leading = leads(state.totals, played, finished)
    return [
        Standing(
            seat,
            total,
            ranks[seat],
            leading[seat],
            played and total == highest,
            target - total if total < target else None,
            finished and seat in state.outcome.winners,
        )
        for seat, total in enumerate(state.totals)
    ]


def ranked(state: GameState) -> list[Standing]:
    """The standings from the lowest total to the highest (seat order between equals).

    >>> from .game import new_game
    >>> from .house import HouseRules
    >>> [s.seat for s in ranked(new_game(3, HouseRules()))]
    [0, 1, 2]
    """
    return sorted(standings(state), key=lambda standing: standing.total)
