"""A line chart of each player's total after every hand, drawn as SVG by the server."""

from dataclasses import dataclass

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 24


@dataclass(frozen=True)
class Line:
    seat: int
    name: str
    points: str  # SVG polyline points


@dataclass(frozen=True)
class Tick:
    value: int
    position: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    target_y: float | None
    plot: tuple[float, float, float, float]  # left, top, right, bottom


def nice_step(span: int, ticks: int = 5) -> int:
    """A round step that cuts ``span`` into about ``ticks`` parts.

    >>> nice_step(130), nice_step(9), nice_step(1000)
    (50, 2, 200)
    """
    raw = max(1, span) / ticks
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return step
    return 1000


def totals_chart(names: list[str], totals_after: list[tuple[int, ...]], target: int) -> Chart:
    """``totals_after[k]`` are the totals after hand k+1; the chart starts at 0 before hand 1."""
    series = [tuple(0 for _ in names), *totals_after]
    low = min(0, *(min(row) for row in series))
    high = max(target, *(max(row) for row in series))
    step = nice_step(high - low)
    low, high = (low // step) * step, -(-high // step) * step
    hands = max(1, len(series) - 1)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(hand: int) -> float:
        return round(LEFT + (right - LEFT) * hand / hands, 1)

    def y(value: int) -> float:
        return round(bottom - (bottom - TOP) * (value - low) / (high - low), 1)

    lines = [
        Line(seat, name, " ".join(f"{x(k)},{y(row[seat])}" for k, row in enumerate(series)))
        for seat, name in enumerate(names)
    ]
    x_step = nice_step(hands, 6)
    return Chart(
        WIDTH,
        HEIGHT,
        lines,
        [Tick(value, y(value)) for value in range(low, high + 1, step)],
        [Tick(hand, x(hand)) for hand in range(0, hands + 1, x_step)],
        y(target) if low <= target <= high else None,
        (LEFT, TOP, right, bottom),
    )
