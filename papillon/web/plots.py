"""The history's pictures as PNG: a player's score over time and their category profile (matplotlib, Agg, loaded only here)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from papillon.history import Entry, PlayerStats
from papillon.score import CATEGORIES, CATEGORY_TITLES

GREEN = "#4c7a3c"
AMBER = "#d08a00"


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")  # no display: a server draws into memory
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)  # a Figure, not pyplot: no global state shared between threads
    return figure, figure.add_subplot()


def _png(figure: Any) -> bytes:
    out = io.BytesIO()
    figure.tight_layout()
    figure.savefig(out, format="png")
    return out.getvalue()


def score_over_time_png(entries: Sequence[Entry], player: str) -> bytes:
    """Each game's total in order, with the running best."""
    figure, axes = _figure(6.0, 3.2)
    totals = [e.total for e in entries]
    games = list(range(1, len(totals) + 1))
    best = [max(totals[: i + 1]) for i in range(len(totals))]
    axes.plot(games, totals, marker="o", color=GREEN, label="total")
    axes.step(games, best, where="post", color=AMBER, linestyle="--", label="best so far")
    from matplotlib.ticker import MaxNLocator

    if len(games) <= 12:  # games are counted, not measured: whole-number ticks
        axes.set_xticks(games)
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlim(0.5, len(totals) + 0.5)
    axes.set_ylim(0, max(totals) * 1.15 + 1)  # from zero: one game draws a point, not a zoomed-in blur
    axes.set_xlabel("game")
    axes.set_ylabel("points")
    axes.set_title(f"{player}: score over time", parse_math=False)  # a name is text: "$\\frac$" is no formula
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right", fontsize="small")
    return _png(figure)


def category_profile_png(stats: PlayerStats) -> bytes:
    """The average points per category (bars) and the best (ticks)."""
    figure, axes = _figure(6.0, 3.8)
    titles = [CATEGORY_TITLES[c] for c in CATEGORIES]
    average = [stats.average.get(c, 0.0) for c in CATEGORIES]
    best = [stats.best.get(c, 0) for c in CATEGORIES]
    rows = list(range(len(CATEGORIES)))
    axes.barh(rows, average, color=GREEN, label="average")
    axes.scatter(best, rows, marker="|", s=300, color=AMBER, label="best", zorder=3)
    axes.set_yticks(rows, titles)
    axes.invert_yaxis()
    axes.set_xlabel("points")
    axes.set_title(f"{stats.player}: category profile", parse_math=False)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)  # below: never over a bar or a mark
    return _png(figure)
