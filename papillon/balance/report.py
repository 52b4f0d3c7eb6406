"""The balance report as one HTML file with its plots embedded (matplotlib, Agg backend; no server).

matplotlib is imported here only, when a report is drawn: ``import papillon`` stays light.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from papillon.balance.lab import BalanceReport
from papillon.balance.stats import LEVEL
from papillon.balance.table import change, difficulty, interval, p_value, verdict
from papillon.score import CATEGORY_TITLES

COLOURS = ("#1f6f8b", "#e07a2e", "#4c9a2a", "#9b4dca", "#c23b3b", "#7a6a4f", "#2e8f84", "#b5a22a")
"""One colour per variant, in order (readable in print; the legend names each)."""


def html_report(report: BalanceReport, ladder: bool = False) -> str:
    """The whole report: what was run, the tables, and the plots as embedded PNG images."""
    plt = _pyplot()
    figures = [
        (
            "Scores: how the totals spread",
            _distribution(plt, report),
            "Each line is a variant's histogram of final scores over the same seeds.",
        ),
        (
            "Category profile",
            _categories(plt, report),
            f"Mean points per category, with {round(LEVEL * 100)}% confidence intervals.",
        ),
    ]
    if len(report.variants) > 1:
        first = report.variants[0].label
        figures.append(
            (
                f"What changed against {first}",
                _changes(plt, report),
                "Paired differences over the same seeds: a bar that does not cross 0 is a real change.",
            )
        )
    if not ladder:
        figures.append(
            (
                "Feature tiles: how often taken, and what they score",
                _tiles(plt, report),
                "Left: share of games the bot took the tile; right: points per copy.",
            )
        )
    percent = round(LEVEL * 100)
    variants = report.variants
    title = "Bot ladder" if ladder else "Balance report"
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>papillon {title.lower()}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>papillon {title.lower()}</h1>",
        f"<p class=lead>{_summary_sentence(report, ladder)}</p>",
    ]
    if not report.complete:
        parts.append(f"<p class=warn>Interrupted: {report.games} of {report.requested} games per variant were played.</p>")
    if ladder:
        parts.append(_ladder_table(report))
    parts.append("<h2>Totals</h2><table><tr><th>variant<th>bot<th>edition")
    parts.append(f"<th>mean total [{percent}% CI]<th>sd<th>min<th>Q1<th>median<th>Q3<th>max")
    if len(variants) > 1:
        parts.append(f"<th>change vs {_e(variants[0].label)}<th>p<th>reading")
    parts.append("</tr>")
    for i, v in enumerate(variants):
        s = v.spread
        row = f"<tr><td>{_swatch(i)}{_e(v.label)}<td>{_e(v.bot)}<td>{_e(v.edition)}<td>{interval(v.total)}<td>{s.sd:.1f}"
        row += f"<td>{s.low}<td>{s.q1:g}<td>{s.median:g}<td>{s.q3:g}<td>{s.high}"
        if len(variants) > 1:
            row += f"<td>{change(v.versus_first)}<td>{p_value(v.versus_first.p if v.versus_first else None)}<td>{verdict(v.versus_first)}"
        parts.append(row + "</tr>")
    parts.append("</table>")
    for heading, image, caption in figures:
        image_tag = f'<img alt="{_e(heading)}" src="data:image/png;base64,{image}">'
        parts.append(f"<figure><h2>{_e(heading)}</h2>{image_tag}<figcaption>{_e(caption)}</figcaption></figure>")
    parts.append(_category_table(report))
    if not ladder:
        parts.append(_tile_table(report))
    parts.append(_notes(report))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _summary_sentence(report: BalanceReport, ladder: bool) -> str:
    n = report.games
    if ladder:
        return (
            f"Each bot played the same {n} solo games (master seed {report.seed}): the same cards and dice, "
            "so the differences are the bots' own. Higher scores mean a harder opponent."
        )
    names = ", ".join(_e(v.label) for v in report.variants)
    return (
        f"{n} solo games of the {_e(report.variants[0].bot)} bot under each of: {names}. Every variant was played "
        f"with the same seeds (master seed {report.seed}), so each game is compared with its own twin."
    )


def _ladder_table(report: BalanceReport) -> str:
    rows = ["<h2>Which bot is easy, which is hard</h2>"]
    rows.append("<p>By mean total over the same seeds; a bot is a level up only when it beats the one below it clearly (paired test).</p>")
    rows.append("<table><tr><th>bot<th>mean total<th>as an opponent")
    for i, word in difficulty(report):
        v = report.variants[i]
        rows.append(f"<tr><td>{_swatch(i)}{_e(v.label)}<td>{interval(v.total)}<td>{word}</tr>")
    rows.append("</table><h3>Head to head: share of seeds where the row bot outscored the column bot</h3><table><tr><th>")
    rows.append("".join(f"<th>{_e(v.label)}" for v in report.variants) + "</tr>")
    for a, va in enumerate(report.variants):
        cells = []
        for b in range(len(report.variants)):
            if a == b:
                cells.append("<td>")
                continue
            wins = sum(1 for x, y in zip(report.totals[a], report.totals[b], strict=True) if x > y)
            cells.append(f"<td>{wins / report.games * 100:.0f}%")
        rows.append(f"<tr><th>{_e(va.label)}{''.join(cells)}</tr>")
    rows.append("</table>")
    return "".join(rows)


def _category_table(report: BalanceReport) -> str:
    variants = report.variants
    rows = ["<h2>Per category</h2><table><tr><th>category" + "".join(f"<th>{_e(v.label)}" for v in variants) + "</tr>"]
    for c in variants[0].categories:
        cells = []
        for v in variants:
            cell = interval(v.categories[c], 2) if c in v.categories else "-"
            test = v.category_changes.get(c)
            if test is not None:
                cell += f"<br><small>{change(test)} · p {p_value(test.p)}</small>"
            cells.append(f"<td>{cell}")
        rows.append(f"<tr><td>{_e(CATEGORY_TITLES.get(c, c))}{''.join(cells)}</tr>")
    rows.append("<tr><td>critters gained" + "".join(f"<td>{interval(v.critters, 2)}" for v in variants) + "</tr>")
    rows.append("<tr><td>patches enclosed" + "".join(f"<td>{_rate(v.enclosure_rate)}" for v in variants) + "</tr>")
    rows.append("<tr><td>games with an enclosure" + "".join(f"<td>{_rate(v.games_with_enclosure)}" for v in variants) + "</tr>")
    rows.append("</table>")
    return "".join(rows)


def _tile_table(report: BalanceReport) -> str:
    variants = report.variants
    rows = ["<h2>Feature tiles</h2><p>Share of games the bot took the tile · copies per game · points per copy when taken.</p>"]
    rows.append("<table><tr><th>tile")
    rows.append("".join(f"<th>{_e(v.label)}" for v in variants) + "</tr>")
    for i, tile in enumerate(variants[0].tiles):
        cells = []
        for v in variants:
            t = v.tiles[i] if i < len(v.tiles) else None
            if t is None:
                cells.append("<td>-")
                continue
            points = "never taken" if t.points is None else f"{t.points.mean:.2f} pts"
            cells.append(f"<td>{t.taken * 100:.0f}% · {t.copies:.2f} · {points}")
        rows.append(f"<tr><td>{_e(tile.name)} <code>{_e(tile.code)}</code>{''.join(cells)}</tr>")
    rows.append("</table>")
    return "".join(rows)


def _notes(report: BalanceReport) -> str:
    percent = round(LEVEL * 100)
    return (
        "<h2>How to read this</h2><ul>"
        f"<li>[low, high] is a {percent}% confidence interval of the mean (Student's t).</li>"
        "<li>A change is the paired difference over the same seeds; p is the two-sided paired t test. "
        f"p below {1 - LEVEL:.2f} with an interval that does not cross 0 is read as a real change.</li>"
        "<li>The bots are not people: a rule the bots never use shows no change here, even if people would play it differently."
        + (
            " <strong>No game here had an enclosed patch</strong>: the enclosure rules are untested by this run.</li>"
            if all(v.games_with_enclosure == 0 for v in report.variants)
            else "</li>"
        )
        + "<li>Tiles whose only effect is when they are placed (no end-game score) show 0 points when taken.</li>"
        "<li>Fingerprints: " + ", ".join(f"{_e(v.label)} <code>{v.fingerprint}</code>" for v in report.variants) + "</li></ul>"
    )


# --------------------------------------------------------------------------- plots


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(plt: Any, figure: Any) -> str:
    buffer = io.BytesIO()
    # No timestamps or software tags in the file: the same report draws the same bytes.
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _distribution(plt: Any, report: BalanceReport) -> str:
    figure, axes = plt.subplots(figsize=(8, 3.6))
    low = min(min(t) for t in report.totals)
    high = max(max(t) for t in report.totals)
    bins = list(range(low, high + 2, max(1, (high - low + 1) // 40 or 1)))
    for i, (v, totals) in enumerate(zip(report.variants, report.totals, strict=True)):
        colour = COLOURS[i % len(COLOURS)]
        axes.hist(totals, bins=bins, histtype="step", linewidth=1.8, color=colour, label=f"{v.label} (mean {v.total.mean:.1f})")
        axes.axvline(v.total.mean, color=colour, linestyle="--", linewidth=1)
    axes.set_xlabel("final score")
    axes.set_ylabel("games")
    axes.legend(frameon=False, fontsize=8)
    axes.spines[["top", "right"]].set_visible(False)
    return _png(plt, figure)


def _categories(plt: Any, report: BalanceReport) -> str:
    categories = list(report.variants[0].categories)
    count = len(report.variants)
    figure, axes = plt.subplots(figsize=(8, 0.5 + 0.45 * len(categories) * max(1, count) ** 0.5 + 0.6))
    height = 0.8 / count
    for i, v in enumerate(report.variants):
        means = [v.categories[c].mean if c in v.categories else 0 for c in categories]
        errors = [_half(v.categories[c]) if c in v.categories else 0 for c in categories]
        positions = [k + (i - (count - 1) / 2) * height for k in range(len(categories))]
        axes.barh(positions, means, height=height, xerr=errors, color=COLOURS[i % len(COLOURS)], label=v.label, capsize=2)
    axes.set_yticks(range(len(categories)), [CATEGORY_TITLES.get(c, c) for c in categories])
    axes.invert_yaxis()
    axes.set_xlabel("mean points per game")
    _legend_above(axes, count)
    axes.spines[["top", "right"]].set_visible(False)
    return _png(plt, figure)


def _legend_above(axes: Any, count: int) -> None:
    axes.legend(frameon=False, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=min(count, 3))


def _changes(plt: Any, report: BalanceReport) -> str:
    names = ["total", *report.variants[0].categories]
    others = report.variants[1:]
    figure, axes = plt.subplots(figsize=(8, 0.6 + 0.4 * len(names) * max(1, len(others)) ** 0.5 + 0.6))
    height = 0.8 / len(others)
    for j, v in enumerate(others):
        tests = [v.versus_first] + [v.category_changes.get(c) for c in names[1:]]
        means = [t.difference.mean if t else 0 for t in tests]
        errors = [_half(t.difference) if t else 0 for t in tests]
        positions = [k + (j - (len(others) - 1) / 2) * height for k in range(len(names))]
        colour = COLOURS[(j + 1) % len(COLOURS)]
        axes.errorbar(means, positions, xerr=errors, fmt="o", color=colour, capsize=3, label=f"{v.label} minus {report.variants[0].label}")
    axes.axvline(0, color="#555", linewidth=1)
    axes.set_yticks(range(len(names)), ["Total", *(CATEGORY_TITLES.get(c, c) for c in names[1:])])
    axes.invert_yaxis()
    axes.set_xlabel("change in points per game (paired, same seeds)")
    _legend_above(axes, len(others))
    axes.spines[["top", "right"]].set_visible(False)
    return _png(plt, figure)


def _tiles(plt: Any, report: BalanceReport) -> str:
    tiles = report.variants[0].tiles
    count = len(report.variants)
    figure, (taken_axes, points_axes) = plt.subplots(1, 2, figsize=(9, 0.8 + 0.42 * len(tiles) * max(1, count) ** 0.5), sharey=True)
    height = 0.8 / count
    for i, v in enumerate(report.variants):
        colour = COLOURS[i % len(COLOURS)]
        positions = [k + (i - (count - 1) / 2) * height for k in range(len(tiles))]
        by_code = {t.code: t for t in v.tiles}
        taken = [by_code[t.code].taken * 100 if t.code in by_code else 0 for t in tiles]
        points = [by_code[t.code].points.mean if t.code in by_code and by_code[t.code].points else 0 for t in tiles]  # type: ignore[union-attr]
        taken_axes.barh(positions, taken, height=height, color=colour, label=v.label)
        points_axes.barh(positions, points, height=height, color=colour)
    taken_axes.set_yticks(range(len(tiles)), [f"{t.name} ({t.code})" for t in tiles])
    taken_axes.invert_yaxis()
    taken_axes.set_xlabel("% of games taken")
    points_axes.set_xlabel("points per copy when taken")
    _legend_above(taken_axes, count)
    for axes in (taken_axes, points_axes):
        axes.spines[["top", "right"]].set_visible(False)
    return _png(plt, figure)


def _half(e: Any) -> float:
    return 0.0 if e.low is None else (e.high - e.low) / 2


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _swatch(i: int) -> str:
    return f'<span class=swatch style="background:{COLOURS[i % len(COLOURS)]}"></span>'


def _e(text: str) -> str:
    return html.escape(text, quote=True)


STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.lead { font-size: 1.05rem; } .warn { background: #fff3cd; padding: .5rem .8rem; }
table { border-collapse: collapse; margin: .5rem 0; font-variant-numeric: tabular-nums; display: block; overflow-x: auto; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .6rem; text-align: left; vertical-align: top; }
td { white-space: nowrap; }
th { background: #f4f4f4; } small { color: #555; }
figure { margin: 1rem 0; } img { max-width: 100%; } figcaption { color: #555; font-size: .9rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .4rem; border-radius: 2px; }
"""
