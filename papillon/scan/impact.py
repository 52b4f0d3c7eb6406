"""Which doubts can change the score: the review list ordered by what each answer could cost, moot ones set aside.

A reading the scanner is unsure of is only worth a person's glance when its answer can change the total.
:func:`weigh_doubts` scores the garden under every combination of the doubts' plausible answers (and, for
fields whose critter or feature is not known yet, under each code in each such field in turn), and gives each
doubt the largest change of the total that its own answer makes in any of them.  A doubt whose answer never
changes the total is *moot*: it stays marked ``review: true`` in ``--json`` but is not asked.  When there are
too many combinations to score (:data:`SCORING_BUDGET`), every doubt is asked, ordered by the change its answer
makes on the garden as read.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papillon import rules
from papillon.edition import Edition
from papillon.grid import EDGES, PLOTS, Plot

if TYPE_CHECKING:
    from papillon.scan.classify import Reading

ALTERNATIVE_MIN = 0.02
"""A reading other than the one chosen is a plausible answer from this probability up (the runner-up always is)."""
SCORING_BUDGET = 6000
"""At most this many gardens are scored to weigh a photo's doubts (about 20 µs each: ~0.1 s)."""

_PLOT_CODES = {"empty": ".", "red": "R", "blue": "B", "yellow": "Y", "purple": "P", "field": "F", "bramble": "X"}


@dataclass(frozen=True)
class Weighed:
    """The doubts of one photo: those to ask (most consequential first), and those whose answer changes nothing."""

    asked: tuple[Reading, ...]
    moot: tuple[Reading, ...]
    stakes: dict[str, int]
    """Each doubt's item name -> the largest change of the total its answer can make (0: moot)."""


def _answers(reading: Reading) -> list[str]:
    """The plausible answers of a doubt: the reading, the runner-up, and any other of some probability."""
    return [value for i, (value, p) in enumerate(reading.probabilities) if i < 2 or p >= ALTERNATIVE_MIN]


def weigh_doubts(
    cells: Sequence[str],
    bricks: int,
    butterflies: int,
    readings: Sequence[Reading],
    slots: Sequence[int],
    unknown_fields: Sequence[Plot],
    edition: Edition,
) -> Weighed:
    """Weigh the doubts ``readings[i] for i in slots`` (``readings``: plots, then edges, then bubbles) against the
    garden read, given compact: cell codes, brick mask over :data:`EDGES`, butterfly mask over plots."""
    doubts = [readings[i] for i in slots]
    if not doubts:
        return Weighed((), (), {})
    options = [_answers(d) for d in doubts]
    variants: list[tuple[Plot, str] | None] = [None, *((p, code) for p in unknown_fields for code in edition.occupant_codes)]
    combinations = 1
    for answers in options:
        combinations *= len(answers)
    exhaustive = combinations * len(variants) * 2 <= SCORING_BUDGET
    if not exhaustive:  # too many: weigh each doubt on the garden as read only, and ask them all
        variants = [None]
    stakes = [0] * len(doubts)
    totals: dict[tuple[tuple[str, ...], tuple[Plot, str] | None], int] = {}

    def total(choice: tuple[str, ...], variant: tuple[Plot, str] | None) -> int:
        key = (choice, variant)
        if key not in totals:
            totals[key] = _total(list(cells), bricks, butterflies, slots, choice, variant, edition)
        return totals[key]

    for variant in variants:
        if exhaustive:
            choices = list(itertools.product(*options))
        else:
            read = tuple(answers[0] for answers in options)
            choices = [read]
        for choice in choices:
            here = total(choice, variant)
            for i, answers in enumerate(options):
                for other in answers:
                    if other != choice[i]:
                        flipped = (*choice[:i], other, *choice[i + 1 :])
                        stakes[i] = max(stakes[i], abs(total(flipped, variant) - here))
    order = sorted(range(len(doubts)), key=lambda i: -stakes[i])
    asked = tuple(doubts[i] for i in order if stakes[i] > 0 or not exhaustive)
    moot = tuple(doubts[i] for i in range(len(doubts)) if exhaustive and stakes[i] == 0)
    return Weighed(asked, moot, {d.item: s for d, s in zip(doubts, stakes, strict=True)})


def _total(
    cells: list[str],
    bricks: int,
    butterflies: int,
    slots: Sequence[int],
    choice: tuple[str, ...],
    variant: tuple[Plot, str] | None,
    edition: Edition,
) -> int:
    """The total with each doubt (its place in the readings: plots, then edges, then bubbles) answered by ``choice``."""
    for slot, answer in zip(slots, choice, strict=True):
        if slot < len(PLOTS):
            if not (answer == "field" and len(cells[slot]) == 2):  # a field given its contents keeps them
                cells[slot] = _PLOT_CODES[answer]
        elif slot < len(PLOTS) + len(EDGES):
            bit = 1 << (slot - len(PLOTS))
            bricks = bricks | bit if answer == "brick" else bricks & ~bit
        else:
            bit = 1 << (slot - len(PLOTS) - len(EDGES))
            butterflies = butterflies | bit if answer == "filled" else butterflies & ~bit
    if variant is not None and cells[variant[0]] == "F":
        cells[variant[0]] = variant[1]
    return rules.total(tuple(cells), bricks, butterflies, edition)


def moot_line(moot: Sequence[Reading]) -> str | None:
    """``2 unsure edges do not change the score`` (kinds named, in the order plots, edges, bubbles), or None.

    >>> from papillon.scan.classify import Reading
    >>> e = Reading("edge B2-B3", "edge", (("none", 0.6), ("brick", 0.4)))
    >>> moot_line([e, e])
    '2 unsure edges do not change the score'
    """
    if not moot:
        return None
    nouns = {"plot": ("plot", "plots"), "edge": ("edge", "edges"), "butterfly": ("butterfly bubble", "butterfly bubbles")}
    parts = []
    for kind, (one, many) in nouns.items():
        n = sum(r.kind == kind for r in moot)
        if n:
            parts.append(f"{n} unsure {one if n == 1 else many}")
    verb = "does" if len(moot) == 1 else "do"
    return f"{' and '.join(parts)} {verb} not change the score"
