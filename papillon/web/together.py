"""Play together: each person's seat played from their own device, and the host's screen at the table.

A game's person seats each get a **seat key** when the game is made (kept in the server's store); the
host's page shows each seat's join link and its QR code.  Opening a link makes that seat "joined": its
device plays it from then on (:meth:`papillon.web.state.Papillon.join`), the game is played
simultaneously, and the host's screen becomes the table's: the round's cards and dice large, who is
still choosing and the running scores, with the seats nobody joined still played there (hot-seat).
"""

from __future__ import annotations

from typing import Any

from papillon.render.svg import card_svg, die_svg, garden_svg, qr_svg
from papillon.session import PlaySession, standings
from papillon.web import keys
from papillon.web.store import KeyRow, Store


def seat_keys(store: Store, session: PlaySession) -> dict[int, str]:
    """Each person seat's key, made the first time it is asked for (a game saved before seat keys gets them too)."""
    found = {int(row.player): row.key for row in store.keys_for("seat", session.id)}
    for seat in range(len(session.agents)):
        if session.is_person(seat) and seat not in found:
            found[seat] = keys.new_key()
            store.add_key(KeyRow(found[seat], "seat", session.id, str(seat)))
    return found


def join_links(session: PlaySession, seat_key: dict[int, str], joined: frozenset[int], base_url: str) -> list[dict[str, Any]]:
    """Each person seat's join link, its QR code (when the address is a whole one a phone can open) and whether it joined."""
    links = []
    for seat, key in sorted(seat_key.items()):
        href = f"{base_url}/games/{session.id}?key={key}"
        name = session.state.game.players[seat]
        qr = qr_svg(href, label=f"QR code of {name}'s join link") if href.startswith("http") else ""
        links.append({"seat": seat, "name": name, "href": href, "qr": qr, "joined": seat in joined})
    return links


def seat_status(session: PlaySession, joined: frozenset[int]) -> list[dict[str, Any]]:
    """Every seat: its name, where it is played (its own phone, this screen, a bot), whether it is still choosing, its score."""
    state = session.state
    acting = state.acting_players()
    rows = []
    for seat, name in enumerate(state.game.players):
        where = "bot" if not session.is_person(seat) else "phone" if seat in joined else "here"
        rows.append({"seat": seat, "name": name, "where": where, "choosing": seat in acting, "score": state.score(seat)})
    return rows


def still_choosing(session: PlaySession, but: int | None = None) -> list[str]:
    """The names of the seats still choosing this round (``but`` left out)."""
    state = session.state
    return [state.game.players[p] for p in state.acting_players() if p != but]


def table_screen(session: PlaySession, joined: frozenset[int]) -> dict[str, Any]:
    """The host's screen while the seats play on their phones: the round's cards and dice large, who is done, the scores."""
    state = session.state
    cards = state.cards()
    dice = state.dice()
    return {
        "table_cards": [card_svg(c, number=i + 1) for i, c in enumerate(cards)],
        "table_dice": [die_svg(d, number=i + 1) for i, d in enumerate(dice)],
        "seats": seat_status(session, joined),
        "ranking": [{"name": s.player, "total": s.total, "place": s.place} for s in standings(state)],
    }


def others_gardens(session: PlaySession, seat: int) -> list[dict[str, Any]]:
    """The other seats' gardens as a seat's phone shows them (smaller, below its own), with their scores."""
    state = session.state
    out = []
    for other, name in enumerate(state.game.players):
        if other == seat:
            continue
        svg = garden_svg(state.garden(other), edition=state.edition, round=state.round, label=f"{name}'s garden")
        out.append({"seat": other, "name": name, "score": state.score(other), "svg": svg, "choosing": other in state.acting_players()})
    return out
