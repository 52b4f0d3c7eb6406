"""What each page shows, computed from a session or a table: plain values for the templates."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from html import escape
from typing import Any

from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from papillon import words
from papillon.edition import CardCorner
from papillon.engine.actions import Action, Kind, feature_action, pair_action
from papillon.engine.state import GameState
from papillon.engine.text import feature_text
from papillon.render.svg import FillMarks, card_svg, die_svg, fill_svg, garden_svg, qr_svg, tile_svg
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

SHEET_VERBS = (Kind.PLOT, Kind.EDGE, Kind.START, Kind.FROM, Kind.TO, Kind.FILL)
"""Actions a person can take by clicking the sheets (they are also listed as buttons)."""


class Pages:
    """Renders templates with what every page needs: the CSRF token and the access token."""

    def __init__(self, env: Environment, *, papillon_token: str | None) -> None:
        self.env = env
        self.token = papillon_token

    def render(self, request: Request, name: str, *, data: dict[str, Any] | None = None, **values: Any) -> Response:
        """The page, or with ``Accept: application/json`` its data (Datasette's convention): the plain values it
        shows (:func:`plain`) and ``data``, what the page names of the larger objects (ids, rounds, totals)."""
        if wants_json(request):
            shown = {key: plain(value) for key, value in values.items() if plain(value) is not SKIP}
            return JSONResponse({"page": name.removesuffix(".html"), **shown, **(data or {})}, headers={"cache-control": "no-store"})
        html = self.env.get_template(name).render(csrf=request.scope["state"]["csrf"], **values)
        return HTMLResponse(html, headers={"cache-control": "no-store"})


def wants_json(request: Request) -> bool:
    """Whether the client asks for the page's data (``Accept: application/json`` before any HTML)."""
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


SKIP = object()
"""What :func:`plain` gives for a value a JSON answer leaves out (pictures, sessions, engine states)."""


def _plain_types() -> tuple[type, ...]:
    from papillon.edition import Card, DieFace
    from papillon.history import Entry, PlayerStats
    from papillon.report import Standing
    from papillon.scoresheet import Doubt
    from papillon.session import Choice as SessionChoice
    from papillon.session import GameInfo, Move

    return (Standing, GameInfo, SessionChoice, Choice, Move, Doubt, Card, DieFace, Line, PlayerStats, Entry, Result)


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: numbers, text (not SVG markup), lists, mappings and the small records pages list."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return SKIP if value.lstrip().startswith("<svg") else value
    if isinstance(value, Action):  # a decision is its log text, as a form posts it
        return str(value)
    if depth > 4:
        return SKIP
    if isinstance(value, list | tuple):
        return [item for item in (plain(v, depth + 1) for v in value) if item is not SKIP]
    if isinstance(value, Mapping):
        return {str(k): item for k, v in value.items() if (item := plain(v, depth + 1)) is not SKIP}
    if isinstance(value, _plain_types()) and is_dataclass(value):
        return {f.name: item for f in fields(value) if (item := plain(getattr(value, f.name), depth + 1)) is not SKIP}
    return SKIP


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
    action: Action
    words: str
    on_sheet: bool


def play_view(session: PlaySession, look: str = "", player: int | None = None) -> dict[str, Any]:
    """The play page of seat ``player`` (default: the one deciding): the offer, the display, its sheets,
    its choices, the others' scores."""
    state = session.state
    player = state.player if player is None else player
    legal = state.legal_actions(player)
    edition = state.edition
    pair_actions = {a for a in legal if a.kind is Kind.PAIR}
    cards = state.cards()
    dice = state.dice()
    offer = []
    for i, card in enumerate(cards):
        action = pair_action(i)
        die = die_svg(dice[i], number=i + 1) if i < len(dice) else ""
        chosen = state.seat(player).pair == i
        offer.append(
            {"card": card_svg(card, number=i + 1), "die": die, "action": str(action) if action in pair_actions else None, "chosen": chosen}
        )
    display = [
        tile_svg(edition.features[code], action=str(feature_action(code)) if feature_action(code) in legal else None)
        for code in state.display
    ]
    # Choosing a pair whose card adds a feature is choosing among the tiles too: say what each scores then.
    feature_pair = any(card.corner is CardCorner.FEATURE and pair_action(i) in pair_actions for i, card in enumerate(cards))
    tile_words = [feature_text(edition.features[code], edition) for code in state.display] if feature_pair else []
    choices = [Choice(i + 1, a, state.describe(a, player), a.kind in SHEET_VERBS) for i, a in enumerate(legal)]
    acting = state.acting_players()
    others = []
    for i, name in enumerate(state.game.players):
        others.append(
            {"index": i, "name": name, "score": state.score(i), "bot": not session.is_person(i), "me": i == player, "done": i not in acting}
        )
    shown = max(player, 0)  # a screen that plays no seat now (play together) shows the first garden
    if look.isdigit() and 0 <= int(look) < len(state.boards):
        shown = int(look)
    mine = shown == player
    return {
        "session": session,
        "state": state,
        "player": state.game.players[player] if player >= 0 else "",
        "shown": shown,
        "shown_name": state.game.players[shown],
        "mine": mine,
        "seat": player,
        "prompt": state.prompt(player) if legal else "",
        "offer": offer,
        "display": display,
        "tile_words": tile_words,
        "choices": choices,
        "sheet_choices": sum(1 for c in choices if c.on_sheet),
        "fill_open": any(a.kind is Kind.FILL for a in legal),
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


def game_data(session: PlaySession, *, busy: bool = False, player: int | None = None) -> dict[str, Any]:
    """A game page's data for a program: the id, the round, who decides, the legal actions (of seat ``player``,
    default the one deciding), the seats still choosing, the scores."""
    state = session.state
    seat = state.player if player is None else player
    return {
        "id": session.id,
        "seed": session.log.seed,
        "round": state.round,
        "over": state.is_over(),
        "bots_playing": busy,
        "deciding": state.game.players[seat] if seat in state.acting_players() and not busy else None,
        "seat": player,
        "choosing": [state.game.players[p] for p in state.acting_players()],
        "actions": [str(a) for a in state.legal_actions(seat)] if not busy and not state.is_over() and session.is_person(seat) else [],
        "scores": {name: state.score(i) for i, name in enumerate(state.game.players)},
    }


def table_data(table: Table) -> dict[str, Any]:
    """A table page's data: the round, and the cards and dice in words."""
    now = table.now()
    return {
        "id": table.id,
        "seed": table.seed,
        "round": now.round,
        "over": now.over,
        "bonus": now.bonus,
        "version": table.version,
        "cards": [{"centre": words.centre_text(c), "corner": words.corner_text(c)} for c in now.cards],
        "dice": [words.die_text(d) for d in now.dice],
    }


def table_view(table: Table, *, watch_url: str, loopback: bool) -> dict[str, Any]:
    now = table.now()
    return {
        "table": table,
        "now": now,
        "cards": [card_svg(c, number=i + 1) for i, c in enumerate(now.cards)],
        "dice": [die_svg(d, number=i + 1) for i, d in enumerate(now.dice)],
        "card_words": [(words.centre_text(c), words.corner_text(c)) for c in now.cards],
        "die_words": [words.die_text(d) for d in now.dice],
        "display": [tile_svg(f) for f in table.display],
        "rounds": table.edition.rules.rounds,
        "bonus_rounds": table.edition.rules.bonus_rounds,
        "watch_url": watch_url,
        "qr": qr_svg(watch_url, label="QR code of the watch link") if watch_url and not loopback else "",
        "loopback": loopback,
    }
