"""Who may do what on a network server: keys, each for one purpose.

- The **host key** (the token ``papillon serve --host`` prints) does everything.  On loopback no key is
  needed: whoever can reach the server is at this computer, and counts as the host.
- A **watch key** opens one table's watch page (``/watch/<key>``) and nothing else: the QR beside the table.
- A **night key** lets one phone add and fix one player's sheet of one game night (its link is
  ``/nights/<id>?key=<key>``; the key then rides in a cookie).
- A **seat key** plays one person's seat of one game from that person's own device (play together): its
  link is ``/games/<id>?key=<key>``; the key then rides in a cookie scoped to that game
  (``Path=/games/<id>``), so one browser can hold a seat of one game and be the host of the others.  It
  counts **even on loopback**: a browser that opened a join link is that seat there, not the host.

A key row names its purpose, its target and a player, so a new purpose is a new row kind and a new rule
in :func:`refusal`.

Keys live in the server's store (:mod:`papillon.web.store`), so they survive a restart.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from starlette.requests import Request

from papillon.web.store import Store

HOST_COOKIE = "papillon_token"
KEY_COOKIE = "papillon_key"
SEAT_COOKIE = "papillon_seat"


@dataclass(frozen=True)
class Access:
    """What the request's key allows: ``host`` (everything), ``night`` (one player's sheet of ``target``),
    ``seat`` (seat number ``player`` of the game ``target``), or ``none``."""

    purpose: str
    target: str = ""
    player: str = ""

    @property
    def host(self) -> bool:
        return self.purpose == "host"

    @property
    def seat(self) -> int | None:
        """The seat (0-based) a seat key plays, None for any other key."""
        return int(self.player) if self.purpose == "seat" else None

    def may_enter(self, night: str, player: str) -> bool:
        """Whether this key may add or fix ``player``'s sheet of the night ``night`` ("" : a sheet of no night)."""
        return self.host or (self.purpose == "night" and night == self.target and player == self.player)


HOST = Access("host")
NOBODY = Access("none")

OPEN_TO_ALL = re.compile(r"^/(static/[^/]+|fonts/[^/]+|favicon\.ico|watch/[0-9a-f]{16}(/version|/events)?)$")
"""What needs no key: the page's files, and a watch page (its address is its watch key)."""
NIGHT_PATHS = re.compile(
    r"^/(nights/(?P<night>[0-9a-f]{12})(/version|/events|/results\.png)?|score/photo|score/new|sheets/[0-9a-f]{12}(/act|/record|/garden|/events)?)$"
)
"""What a night key may open; the night and sheet handlers check it is its own night and player."""
SEAT_PATHS = re.compile(r"^/games/(?P<game>[0-9]{1,12}-[0-9a-f]{8})(/act|/undo|/hint|/review|/events|/progress)?$")
"""What a seat key may open (of its own game): its page, its live updates, deciding, undoing and a hint for its seat, its review."""
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def seat_refusal() -> str:
    return "This link lets one player play their own seat of one game from their own device, nothing else."


def identify(request: Request, token: str | None, store: Store) -> tuple[Access, str]:
    """The request's access, and a cookie to set (the key given once in the address, kept for the next pages).

    A seat key comes first, on loopback too: the browser that opened a join link plays that seat only."""
    seat = _seat(request, store)
    if seat is not None:
        return seat
    if token is None:
        return HOST, ""
    given = request.query_params.get("token") or request.cookies.get(HOST_COOKIE) or ""
    if given and secrets.compare_digest(given.encode(), token.encode()):
        fresh = request.cookies.get(HOST_COOKIE) != token
        return HOST, (f"{HOST_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict" if fresh else "")
    key = request.query_params.get("key") or request.cookies.get(KEY_COOKIE) or ""
    row = store.key(key) if KEY_SHAPE.fullmatch(key) else None
    if row is None or row.purpose != "night":
        return NOBODY, ""
    fresh = request.cookies.get(KEY_COOKIE) != key
    return Access("night", row.target, row.player), (f"{KEY_COOKIE}={key}; Path=/; HttpOnly; SameSite=Lax" if fresh else "")


def _seat(request: Request, store: Store) -> tuple[Access, str] | None:
    """The seat key in the address (``?key=``) or in the game's cookie, and the cookie to keep it; None without one."""
    given = request.query_params.get("key", "")
    for key in (given, request.cookies.get(SEAT_COOKIE, "")):
        row = store.key(key) if key and KEY_SHAPE.fullmatch(key) else None
        if row is not None and row.purpose == "seat":
            fresh = key == given and request.cookies.get(SEAT_COOKIE) != key
            cookie = f"{SEAT_COOKIE}={key}; Path=/games/{row.target}; HttpOnly; SameSite=Lax" if fresh else ""
            return Access("seat", row.target, row.player), cookie
    return None


def refusal(access: Access, path: str, method: str) -> str:
    """Why ``access`` may not open ``path`` ("" when it may)."""
    if access.host or OPEN_TO_ALL.match(path):
        return ""
    if access.purpose == "night":
        found = NIGHT_PATHS.match(path)
        if found and found.group("night") in (None, access.target):
            return ""
        return f"This link lets {access.player}'s phone add and fix {access.player}'s sheet of one game night, nothing else."
    if access.purpose == "seat":
        found = SEAT_PATHS.match(path)
        return "" if found and found.group("game") == access.target else seat_refusal()
    return "This papillon server needs its token: open the link with ?token=… that the server printed."


def new_key() -> str:
    return secrets.token_urlsafe(18)
