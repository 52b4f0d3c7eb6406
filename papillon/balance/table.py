"""The balance report as text tables, for the terminal."""

from __future__ import annotations

import itertools

from papillon.balance.lab import BalanceReport, VariantSummary
from papillon.balance.stats import LEVEL, Estimate, PairedTest, paired_test
from papillon.score import CATEGORY_TITLES


def interval(e: Estimate, digits: int = 1) -> str:
    if e.low is None or e.high is None:
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def change(test: PairedTest | None, digits: int = 2) -> str:
    if test is None:
        return "(reference)"
    d = test.difference
    low = "" if d.low is None or d.high is None else f" [{d.low:+.{digits}f}, {d.high:+.{digits}f}]"
    return f"{d.mean:+.{digits}f}{low}"


def p_value(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def verdict(test: PairedTest | None) -> str:
    """A designer's reading of a paired test at the report's confidence level."""
    if test is None or test.p is None:
        return ""
    if test.p >= 1 - LEVEL:
        return "no clear change"
    return "higher" if test.difference.mean > 0 else "lower"


def difficulty(report: BalanceReport) -> list[tuple[int, str]]:
    """(variant number, word) from the lowest mean total to the highest: a bot is put a level up only when
    it beats the one below it clearly (paired test over the same seeds), so equal bots share a word."""
    order = sorted(range(len(report.variants)), key=lambda i: report.variants[i].total.mean)
    levels = [0]
    for below, above in itertools.pairwise(order):
        test = paired_test(report.totals[below], report.totals[above])
        clear = test.p is not None and test.p < 1 - LEVEL and test.difference.mean > 0
        levels.append(levels[-1] + clear)
    words = LEVEL_WORDS.get(levels[-1] + 1) or tuple(f"level {k + 1}" for k in range(levels[-1] + 1))
    return [(i, words[level]) for i, level in zip(order, levels, strict=True)]


LEVEL_WORDS = {1: ("all alike",), 2: ("easy", "hard"), 3: ("easy", "medium", "hard"), 4: ("easy", "medium", "hard", "hardest")}


def short_labels(labels: list[str], width: int) -> list[str]:
    """Variant names for table columns of ``width``: each distinct, none cut into another's look-alike.

    The first way that fits every name and keeps them apart: the names as they are; without the
    words every name shares; with each ``key=value`` word's key cut to its last part; the values
    alone; and last, cut names numbered (``1: scoring.enc…``).

    >>> short_labels(["scoring.enclosed=1 rules.adjacency=orthogonal", "scoring.enclosed=1 rules.adjacency=king"], 22)
    ['adjacency=orthogonal', 'adjacency=king']
    """
    words = [label.split(" ") for label in labels]
    shared = set.intersection(*(set(w) for w in words)) if len(words) > 1 else set()
    own = [[w for w in ws if w not in shared] or ws for ws in words]
    tries = [
        labels,
        [" ".join(ws) for ws in own],
        [" ".join(w.partition("=")[0].rsplit(".", 1)[-1] + w.partition("=")[1] + w.partition("=")[2] for w in ws) for ws in own],
        [" ".join(w.partition("=")[2] or w for w in ws) for ws in own],
    ]
    for shown in tries:
        if all(len(s) <= width for s in shown) and len(set(shown)) == len(shown):
            return shown
    return [_cut(f"{i}: {label}", width) for i, label in enumerate(tries[-1], start=1)]


def text(report: BalanceReport) -> str:
    variants = report.variants
    width = max(12, *(len(v.label) for v in variants)) + 2
    percent = round(LEVEL * 100)
    first = variants[0].label
    head = f"{report.games} games per variant" + ("" if report.complete else f" (of {report.requested}: interrupted)")
    bots = list(dict.fromkeys(v.bot for v in variants))
    lines = [f"balance: {head}, the same seeds (master seed {report.seed}) for every variant, bot {', '.join(bots)}", ""]
    lines.append(f"{'variant':<{width}}{'total, ' + str(percent) + '% CI':<24}{'sd':>6}{'min':>5}{'Q1':>6}{'med':>6}{'Q3':>6}{'max':>5}")
    for v in variants:
        s = v.spread
        lines.append(f"{v.label:<{width}}{interval(v.total):<24}{s.sd:>6.1f}{s.low:>5}{s.q1:>6g}{s.median:>6g}{s.q3:>6g}{s.high:>5}")
    if len(bots) > 1:
        ranked = ", ".join(f"{variants[i].label} {word}" for i, word in difficulty(report))
        lines += ["", f"as opponents, by mean total (a level up only when clearly better): {ranked}"]
    if len(variants) > 1:
        lines += ["", f"paired change of the total against {first!r} (same seeds), {percent}% CI", ""]
        lines.append(f"{'variant':<{width}}{'change':<24}{'p':>8}  {'better/worse/same':<20}reading")
        for v in variants[1:]:
            t = v.versus_first
            assert t is not None
            tally = f"{t.better}/{t.worse}/{t.same}"
            lines.append(f"{v.label:<{width}}{change(t):<24}{p_value(t.p):>8}  {tally:<20}{verdict(t)}")
    columns = short_labels([v.label for v in variants], 22)
    lines += ["", "category means" + ("" if len(variants) == 1 else f" (change against {first!r})"), ""]
    if columns != [v.label for v in variants]:
        lines += [f"  {column}: {v.label}" for column, v in zip(columns, variants, strict=True) if column != v.label] + [""]
    categories = list(variants[0].categories)
    lines.append(f"{'category':<20}" + "".join(f"{column:>24}" for column in columns))
    for c in categories:
        cells = []
        for v in variants:
            mean = v.categories[c].mean if c in v.categories else 0.0
            delta = v.category_changes.get(c)
            cells.append(f"{mean:.2f}" + (f" ({delta.difference.mean:+.2f})" if delta is not None else ""))
        lines.append(f"{CATEGORY_TITLES.get(c, c):<20}" + "".join(f"{cell:>24}" for cell in cells))
    lines += ["", "feature tiles: % of games the bot takes it / points per copy when taken", ""]
    lines.append(f"{'tile':<20}" + "".join(f"{column:>24}" for column in columns))
    for i, tile in enumerate(variants[0].tiles):
        cells = [_tile_cell(v, i) for v in variants]
        lines.append(f"{_cut(tile.name, 18) + ' ' + tile.code:<20}" + "".join(f"{cell:>24}" for cell in cells))
    lines += ["", f"{'':<20}" + "".join(f"{column:>24}" for column in columns)]
    lines.append(f"{'critters gained':<20}" + "".join(f"{v.critters.mean:>24.2f}" for v in variants))
    lines.append(f"{'patches enclosed':<20}" + "".join(f"{_rate(v.enclosure_rate):>24}" for v in variants))
    lines.append(f"{'games enclosing':<20}" + "".join(f"{_rate(v.games_with_enclosure):>24}" for v in variants))
    return "\n".join(lines)


def _tile_cell(v: VariantSummary, i: int) -> str:
    if i >= len(v.tiles):
        return "-"
    tile = v.tiles[i]
    points = "-" if tile.points is None else f"{tile.points.mean:.1f}"
    return f"{tile.taken * 100:.0f}% / {points}"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
