"""A game review as HTML: ``papillon review -o review.html`` and the web's review page (one drawing of it).

The costliest decisions come first, each with the garden before it and both choices marked on it
(the player's in amber, the coach's in blue: a plot, an edge or a butterfly; a choice off the garden,
such as a pair or a bubble, is said in words); the rest are a table.  Needs ``papillon.render``.
"""

from __future__ import annotations

from html import escape

from papillon.engine.log import GameLog
from papillon.game_review import Decision, Review, moments
from papillon.render.svg import garden_svg

DRAWN = 12
"""Decisions drawn with their garden (the costliest); the others are listed in the table."""

STYLE = """
.review-decision { border-top: 1px solid #ccc; padding: .5em 0; }
.review-decision svg { max-width: 22em; }
.review-decision .mine,
.review-decision [data-mark="mine"] { fill: #f2a900 !important; fill-opacity: .55 !important; stroke: #b07000 !important; }
.review-decision .coach,
.review-decision [data-mark="coach"] { fill: #2f6fde !important; fill-opacity: .55 !important; stroke: #1d4a9a !important; }
.review-decision .both,
.review-decision [data-mark="both"] { fill: #2f6fde !important; fill-opacity: .55 !important; stroke: #b07000 !important; }
.review-decision span.mine { color: #f2a900; } .review-decision span.coach { color: #2f6fde; }
table.review-table { border-collapse: collapse; }
table.review-table td, table.review-table th { padding: .15em .5em; text-align: left; }
"""


def _marked(svg: str, decision: Decision) -> str:
    """The garden's SVG with the two choices' targets marked (their ``data-action`` names them)."""
    mine, best = str(decision.action), str(decision.best)
    for action, mark in ((mine, "both" if mine == best else "mine"), (best, "both" if mine == best else "coach")):
        svg = svg.replace(f'data-action="{escape(action)}"', f'data-action="{escape(action)}" data-mark="{mark}"', 1)
    return svg


def _seat(review: Review, player: int) -> str:
    return escape(review.names[player])


def review_fragment(review: Review, log: GameLog) -> str:
    """The review's body: the totals, the costliest decisions drawn, then every decision in a table."""
    states = {m.event: m.state for m in moments(log, review.players)}
    out = [f"<style>{STYLE}</style>", '<section class="review">', "<h2>Points left on the table</h2>", "<ul>"]
    out += [f"<li>{escape(line)}</li>" for line in review.summary()]
    out.append("</ul>")
    out.append(
        f"<p>Each choice is played on to the game's end up to {review.rollouts} times (fewer where the coach's choice is the "
        f"player's or never did better), the same cards and dice for both choices (seed {review.seed}); ± is the standard "
        "error of the difference.</p>"
    )
    drawn = [d for d in review.decisions if d.lost > 0][:DRAWN]
    for number, decision in enumerate(drawn, start=1):
        state = states[decision.event]
        seat = state.solo(decision.player)
        svg = garden_svg(
            seat.garden(0), edition=seat.edition, actions=(decision.action, decision.best), round=state.round, label="garden before"
        )
        hinted = ""
        if decision.hinted is not None:
            followed = "and followed it" if decision.hinted == str(decision.action) else f"({escape(decision.hinted)}) and chose otherwise"
            hinted = f"<p>A hint was used here {followed}.</p>"
        out.append(
            f'<article class="review-decision" id="decision-{number}">'
            f"<h3>{number}. {_seat(review, decision.player)}, round {decision.round}: "
            f"about {decision.lost:.1f} points lost (± {decision.stderr:.1f})</h3>"
            f'<p><span class="mine">■</span> chosen: {escape(decision.words)} <code>{escape(str(decision.action))}</code>, '
            f"expected {decision.expected:.2f}<br>"
            f'<span class="coach">■</span> better: {escape(decision.best_words)} <code>{escape(str(decision.best))}</code>, '
            f"expected {decision.best_expected:.2f}</p>{hinted}{_marked(svg, decision)}</article>"
        )
    out.append(
        '<h2>Every decision</h2><table class="review-table"><tr><th>player</th><th>round</th><th>chosen</th>'
        "<th>expected</th><th>coach's choice</th><th>best expected</th><th>lost</th><th>±</th><th>hint</th></tr>"
    )
    for decision in review.decisions:
        out.append(
            f"<tr><td>{_seat(review, decision.player)}</td><td>{decision.round}</td><td>{escape(str(decision.action))}</td>"
            f"<td>{decision.expected:.2f}</td><td>{escape(str(decision.coach))}</td><td>{decision.best_expected:.2f}</td>"
            f"<td>{decision.lost:.2f}</td><td>{decision.stderr:.2f}</td><td>{escape(decision.hinted or '')}</td></tr>"
        )
    out.append("</table></section>")
    return "\n".join(out)


def review_document(review: Review, log: GameLog) -> str:
    """A whole HTML page of the review (``papillon review -o``)."""
    title = f"Review of the game of seed {log.seed}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title></head>'
        f"<body><h1>{escape(title)}</h1>\n{review_fragment(review, log)}\n</body></html>\n"
    )
