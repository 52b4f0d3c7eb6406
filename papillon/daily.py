"""Today's garden: one solo game a day, the same for everyone, and a short text to share its result.

The seed comes from the local calendar date alone (``derive_seed(0, "daily", "2026-12-01")``, nine
digits), so every player of that day meets the same cards and dice.  The text to share says the
date, the score and a row of squares per category, never a card, a die or a plot.

>>> daily_seed(date(2026, 12, 1)) == daily_seed(date(2026, 12, 1)) != daily_seed(date(2026, 12, 2))
True
>>> print(share_text(date(2026, 12, 1), {"flowers": 9, "patches": 0, "critters": 13}))
Papillon Gardens · today's garden 2026-12-01: 22 points
Flowers   ■■■□□□□□□□ 9
Patches   □□□□□□□□□□ 0
Critters  ■■■■□□□□□□ 13
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import NoReturn

from papillon.engine.log import derive_seed
from papillon.errors import SessionError, quote
from papillon.score import CATEGORY_TITLES
from papillon.words import plural

SQUARE_POINTS = 3
"""Points per filled square of a category's row (ten squares: 30 points or more fill it)."""
SQUARES = 10


def daily_seed(day: date) -> int:
    """The seed of ``day``'s garden: the same on every machine."""
    return derive_seed(0, "daily", day.isoformat()) % 10**9


def today() -> date:
    """The local calendar date (the day's garden changes at the player's midnight)."""
    return date.today()


def parse_day(text: str) -> date:
    """A date as YYYY-MM-DD; SessionError (about ``date``) if it is not one."""
    words = text.strip()
    try:
        if len(words) == 10:  # strptime alone takes "2026-1-1"; fromisoformat takes week dates too
            return datetime.strptime(words, "%Y-%m-%d").date()
    except ValueError:
        pass
    return _bad(text)


def _bad(text: str) -> NoReturn:
    raise SessionError(f"a date is YYYY-MM-DD (like 2026-12-01), not {quote(text)}", parameter="date")


def daily_date(seed: int, near: date | None = None, days: int = 400) -> date | None:
    """The day whose garden has this seed, looked for among the ``days`` days up to ``near`` (default
    today) and the day after; None for a game that is not a day's garden."""
    end = (near or today()) + timedelta(days=1)
    for back in range(days + 1):
        day = end - timedelta(days=back)
        if daily_seed(day) == seed:
            return day
    return None


def share_text(day: date, categories: Mapping[str, int]) -> str:
    """The result to share: the date, the score and a row of squares per category (no spoilers)."""
    total = sum(categories.values())
    width = max(len(CATEGORY_TITLES.get(name, name)) for name in categories)
    lines = [f"Papillon Gardens · today's garden {day.isoformat()}: {plural(total, 'point')}"]
    for name, points in categories.items():
        filled = min(SQUARES, max(0, points) // SQUARE_POINTS)
        row = "■" * filled + "□" * (SQUARES - filled)
        lines.append(f"{CATEGORY_TITLES.get(name, name):<{width}}  {row} {points}")
    return "\n".join(lines)
