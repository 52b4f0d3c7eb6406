"""Every bot's level name, by its measured solo average (docs/ENGINE.md, "Levels").

The averages are of solo games of the standard edition on the seeds ``game_seed(2026, i)``,
i < 200 (``python bench/bench_expert.py``), seeds no bot was tuned on: the expert was tuned on
masters 1 and 7 to 19 (docs/ENGINE.md says which seeds of each) and its outlook fitted on
``game_seed(5, i)``, i < 150 (before, ``game_seed(3, i)``).  The front
ends show :func:`bot_label`; the level names are here only, so a new measurement is one edit.
"""

from __future__ import annotations

from typing import NamedTuple


class Level(NamedTuple):
    level: str
    average: float
    """Mean solo score over the measured seeds."""


MEASURED_ON = "game_seed(2026, i), i < 200"

LEVELS = {
    "random": Level("easy", 23.21),
    "greedy": Level("medium", 46.8),
    "search": Level("hard", 87.7),
    "expert": Level("expert", 96.06),
}
"""Each bot of :data:`papillon.engine.bots.BOTS` by name, weakest first."""


def bot_label(name: str) -> str:
    """A bot's name with its level and average, as a seat choice shows it: ``greedy (medium, averages 46)``."""
    found = LEVELS.get(name)
    if found is None:
        return name
    return f"{name} ({found.level}, averages {found.average:.0f})"


def levels_help() -> str:
    """The levels in a sentence, weakest first, for ``papillon play --help``."""
    return ", ".join(bot_label(name) for name in LEVELS) + f" (solo games, seeds {MEASURED_ON})"
