"""What each page shows, computed from a session or a table: plain values for the templates."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import HTMLResponse

from papillon.engine.state import GameState
from papillon.engine.text import feature_text
from papillon.render.svg import FillMarks, card_svg, card_words, die_svg, die_words, fill_svg, garden_svg, qr_svg, tile_svg
from papillon.report import Line
from papillon.report import lines as report_lines
from papillon.score import ScoreCard
from papillon.session import PlaySession, Result, standings
from papillon.table import Table

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""Only our own files run; inline ``style`` is allowed for the SVG's own stylesheet."""

SHEET_VERBS = ("plot", "edge", "start", "from", "to", "fill")
"""Actions a person can take by clicking the sheets (they are also listed as buttons)."""


class Pages:
    """Renders templates with what every page needs: the CSRF token and the access token."""

    def __init__(self, env: Environment, *, papillon_token: str | None) -> None:
        self.env = env
        self.token = papillon_token

    def render(self, request: Request, name: str, **values: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(csrf=request.scope["state"]["csrf"], **values)
        return HTMLResponse(html, headers={"cache-control": "no-store"})


def error_page(status: int, message: str, *, back: str = "/") -> str:
    """The one error page: the message, a way back to the page it came from and home, never a traceback."""
    titles = {
        400: "That did not work",
        403: "Not allowed",
        404: "Not found",
        405: "Not allowed",
        409: "Not now",
        413: "Too large",
        421: "Wrong address",
        503: "Cannot save",
        507: "Disk full",
    }
    title = titles.get(status, "Something went wrong")
    again = f'<a class="button primary" href="{escape(back)}">Back to the page</a> ' if back != "/" else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title} · papillon</title><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><main class="error"><h1>{title}</h1><p role="alert">{escape(message)}</p>'
        f'<p>{again}<a class="button" href="/">Back to the start</a></p></main></body></html>'
    )


def marks(state: GameState, player: int) -> FillMarks:
    board = state.boards[player]
    return FillMarks(tuple(board.ladders), tuple(board.tracks), board.rondel, board.caterpillars)


@dataclass(frozen=True)
class Choice:
    """A legal action as a button: its number (keyboard), the action and its words."""

    number: int
    action: str
    words: str
    on_sheet: bool


def play_view(session: PlaySession, look: str = "") -> dict[str, Any]:
    """The play page: the offer, the display, the current person's sheets, the choices, the others' scores."""
    state = session.state
    player = state.player
    legal = state.legal_actions()
    edition = state.edition
    pair_actions = {a for a in legal if a.startswith("pair ")}
    cards = state.cards()
    dice = state.dice()
    offer = []
    for i, card in enumerate(cards):
        action = f"pair {i + 1}"
        die = die_svg(dice[i], number=i + 1) if i < len(dice) else ""
        chosen = state.pair == i
        offer.append(
            {"card": card_svg(card, number=i + 1), "die": die, "action": action if action in pair_actions else None, "chosen": chosen}
        )
    display = [tile_svg(edition.features[code], action=f"feature {code}" if f"feature {code}" in legal else None) for code in state.display]
    # Choosing a pair whose card adds a feature is choosing among the tiles too: say what each scores then.
    feature_pair = any(card.corner == "feature" and f"pair {i + 1}" in pair_actions for i, card in enumerate(cards))
    tile_words = [feature_text(edition.features[code], edition) for code in state.display] if feature_pair else []
    choices = [Choice(i + 1, a, state.describe(a), a.split(" ")[0] in SHEET_VERBS) for i, a in enumerate(legal)]
    others = []
    for i, name in enumerate(state.game.players):
        others.append({"index": i, "name": name, "score": state.score(i), "bot": not session.is_person(i), "me": i == player})
    shown = player
    if look.isdigit() and 0 <= int(look) < len(state.boards):
        shown = int(look)
    mine = shown == player
    return {
        "session": session,
        "state": state,
        "player": state.game.players[player],
        "shown": shown,
        "shown_name": state.game.players[shown],
        "mine": mine,
        "prompt": state.prompt(),
        "offer": offer,
        "display": display,
        "tile_words": tile_words,
        "choices": choices,
        "sheet_choices": sum(1 for c in choices if c.on_sheet),
        "fill_open": any(a.startswith("fill ") for a in legal),
        "garden": garden_svg(
            state.garden(shown),
            edition=edition,
            actions=legal if mine else (),
            round=state.round,
            label=f"{state.game.players[shown]}'s garden",
        ),
        "fill": fill_svg(
            marks(state, shown), edition=edition, actions=legal if mine else (), label=f"{state.game.players[shown]}'s Fill sheet"
        ),
        "score": state.score(shown),
        "others": others,
        "moves": session.moves[-12:],
        "can_undo": session.can_undo(),
        "rounds": edition.rules.rounds,
    }


def explain(card: ScoreCard) -> list[Line]:
    """Each category's points and which plots earned them: the same words as ``papillon score``."""
    return report_lines(card)


def end_view(session: PlaySession, results: list[Result]) -> dict[str, Any]:
    state = session.state
    players: list[dict[str, Any]] = []
    for i, name in enumerate(state.game.players):
        card = state.score_card(i)
        players.append(
            {
                "name": name,
                "total": card.total,
                "lines": explain(card),
                "svg": garden_svg(
                    state.garden(i),
                    edition=state.edition,
                    score=card,
                    round=state.edition.rules.rounds + 1,
                    label=f"{name}'s garden, scored",
                ),
            }
        )
    ranking = [{"name": s.player, "total": s.total, "place": s.place} for s in standings(state)]  # as the terminal ranks them
    return {"session": session, "players": players, "ranking": ranking, "results": [r.words() for r in results]}


def table_view(table: Table, *, watch_url: str, loopback: bool) -> dict[str, Any]:
    now = table.now()
    return {
        "table": table,
        "now": now,
        "cards": [card_svg(c, number=i + 1) for i, c in enumerate(now.cards)],
        "dice": [die_svg(d, number=i + 1) for i, d in enumerate(now.dice)],
        "card_words": [card_words(c) for c in now.cards],
        "die_words": [die_words(d) for d in now.dice],
        "display": [tile_svg(f) for f in table.display],
        "rounds": table.edition.rules.rounds,
        "bonus_rounds": table.edition.rules.bonus_rounds,
        "watch_url": watch_url,
        "qr": qr_svg(watch_url, label="QR code of the watch link") if watch_url and not loopback else "",
        "loopback": loopback,
    }
