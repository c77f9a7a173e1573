"""What a finished or running game says about each player: the numbers of their record."""

from dataclasses import dataclass

from .game import GameState


@dataclass(frozen=True)
class SeatRecord:
    """Named as the seat's columns that keep it (models.Player), so storing it is a loop."""

    total: int
    hands_played: int
    game_finished: bool
    won: bool  # alone
    shared_win: bool
    moons: int  # moons and suns shot
    queens: int


def seat_records(state: GameState) -> list[SeatRecord]:
    """Each seat's total, wins, moons and Q♠ taken, from the replayed hands.

    >>> from .house import HouseRules
    >>> from .game import replay
    >>> from .cards import Hand
    >>> seat_records(replay(3, HouseRules(target=13), [Hand((13, 0, 0), 0, moon_option="add")]))[0]
    SeatRecord(total=0, hands_played=1, game_finished=True, won=True, shared_win=False, moons=1, queens=1)
    """
    winners = state.outcome.winners
    return [
        SeatRecord(
            total=state.totals[seat],
            hands_played=len(state.hands),
            game_finished=state.finished,
            won=seat in winners and len(winners) == 1,
            shared_win=seat in winners and len(winners) > 1,
            moons=sum(1 for scored in state.hands if scored.moon and scored.moon.shooter == seat),
            queens=sum(1 for scored in state.hands if scored.hand.queen == seat),
        )
        for seat in range(state.players)
    ]


def most_queens(records: list[SeatRecord]) -> tuple[list[int], int]:
    """The seats that took the Q♠ most often, and how often.

    >>> most_queens([SeatRecord(9, 3, False, False, False, 0, q) for q in (1, 2, 0, 2)])
    ([1, 3], 2)
    """
    most = max(record.queens for record in records)
    return [seat for seat, record in enumerate(records) if record.queens == most], most
