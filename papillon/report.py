"""Scored gardens told in words: the breakdown, the ranking and the JSON form every front end shows.

The terminal (``papillon score``, ``play``, ``replay``) and the web pages call
these same functions, so a garden is explained in one wording everywhere.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from papillon.garden import Garden
from papillon.grid import Plot, plot_name
from papillon.score import CATEGORIES, CATEGORY_TITLES, ScoreCard, summaries


@dataclass(frozen=True)
class Scored:
    """A garden with its score card and where it came from (a file name, ``<stdin>``, a title)."""

    source: str
    garden: Garden
    card: ScoreCard

    @property
    def player(self) -> str:
        return self.garden.metadata.get("player") or Path(self.source).stem


@dataclass(frozen=True)
class Line:
    """One category of a breakdown: its title, its points and which plots earned them."""

    category: str
    title: str
    points: int
    words: str


@dataclass(frozen=True)
class Standing:
    """A place in a ranking (ties share a place; 0 and ``total=None``: no score yet)."""

    place: int
    player: str
    total: int | None
    source: str = ""


def explanations(card: ScoreCard) -> dict[str, str]:
    """Each category's words: the patches and enclosures named by their plots, what each feature counted."""

    def plots(ps: Iterable[Plot]) -> str:
        return " ".join(plot_name(p) for p in sorted(ps))

    patches = []
    enclosed = []
    for patch in card.patches:
        name = f"{patch.colour} {'-'.join(plot_name(p) for p in sorted(patch.plots))}"
        if patch.enclosure:
            patches.append(f"{name} (enclosed)")
            enclosed.append(f"{name} in the ring around {plots(patch.enclosure.plots)}")
        else:
            patches.append(f"{name} (open: {patch.why_open})")
    features = summaries(card.features)  # "Gazebo D2 8 (12 counted, max 8): ...", copies that counted the same once
    feature_names = {item.code: item.name for item in card.features}
    return {
        "flowers": plots(card.flowers),
        "patches": "; ".join(patches),
        "enclosed": "; ".join(enclosed),
        "butterflies": plots(card.butterflies),
        "critters": ", ".join(f"{i.name} {plot_name(i.plot)} {i.points}" for i in card.critters),
        "features": "; ".join(features),
        "unique_features": ", ".join(feature_names[code] for code in card.unique_features),
    }


def lines(card: ScoreCard) -> list[Line]:
    """The breakdown as data, one :class:`Line` per category in the sheet's order (a web page's table)."""
    words = explanations(card)
    return [Line(c, CATEGORY_TITLES[c], card.categories[c], words[c]) for c in CATEGORIES]


BREAKDOWN_WIDTH = 80
"""Columns of the breakdown: a long explanation goes on under itself, never wrapped mid-word by the terminal."""


def breakdown(result: Scored, width: int = BREAKDOWN_WIDTH) -> str:
    """The per-garden table a player checks against the paper sheet, as text."""
    card = result.card
    title = result.source + (f" — {result.garden.metadata['player']}" if "player" in result.garden.metadata else "")
    out = [title]
    for line in lines(card):
        head = f"  {line.title:<17}{line.points:>4}   "
        text = textwrap.wrap(line.words, width - len(head), break_long_words=False, break_on_hyphens=False) or [""]
        out.append((head + text[0]).rstrip())
        out.extend(" " * len(head) + more for more in text[1:])
    out.append("  " + "─" * 21)
    out.append(f"  {'Total':<17}{card.total:>4}")
    return "\n".join(out) + "\n"


def rank(totals: Iterable[tuple[str, int, str]]) -> list[Standing]:
    """``(player, total, source)`` best first; ties share a place, and keep the order given."""
    ordered = sorted(totals, key=lambda t: -t[1])
    out: list[Standing] = []
    for index, (player, total, source) in enumerate(ordered):
        place = out[-1].place if out and out[-1].total == total else index + 1
        out.append(Standing(place, player, total, source))
    return out


def ranking(scored: Sequence[Scored]) -> str:
    """A ranking table for a game night, as text (ties share a place)."""
    standings = rank((s.player, s.card.total, s.source) for s in scored)
    width = max(len(s.player) for s in standings)
    out = ["Ranking"]
    out.extend(f"  {s.place:>2}. {s.player:<{width}}  {s.total:>4}   {s.source}" for s in standings)
    return "\n".join(out)


def to_json(result: Scored) -> dict[str, object]:
    """A scored garden as the JSON object ``papillon score --json`` prints."""
    card = result.card
    return {
        "source": result.source,
        "player": result.garden.metadata.get("player"),
        "total": card.total,
        "categories": dict(card.categories),
        "details": card.details(),
    }


__all__ = ["BREAKDOWN_WIDTH", "Line", "Scored", "Standing", "breakdown", "explanations", "lines", "rank", "ranking", "to_json"]
