"""Who may do what on a network server: keys, each for one purpose.

- The **host key** (the token ``papillon serve --host`` prints) does everything.  On loopback no key is
  needed: whoever can reach the server is at this computer, and counts as the host.
- A **watch key** opens one table's watch page (``/watch/<key>``) and nothing else: the QR beside the table.
- A **night key** lets one phone add and fix one player's sheet of one game night (its link is
  ``/nights/<id>?key=<key>``; the key then rides in a cookie).
- Seat keys (one person's seat of a shared game) are the next purpose; a key row names its purpose, its
  target and a player, so a new purpose is a new row kind and a new rule in :func:`refusal`.

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


@dataclass(frozen=True)
class Access:
    """What the request's key allows: ``host`` (everything), ``night`` (one player's sheet of ``target``), or ``none``."""

    purpose: str
    target: str = ""
    player: str = ""

    @property
    def host(self) -> bool:
        return self.purpose == "host"

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


def identify(request: Request, token: str | None, store: Store) -> tuple[Access, str]:
    """The request's access, and a cookie to set (the key given once in the address, kept for the next pages)."""
    if token is None:
        return HOST, ""
    given = request.query_params.get("token") or request.cookies.get(HOST_COOKIE) or ""
    if given and secrets.compare_digest(given.encode(), token.encode()):
        fresh = request.cookies.get(HOST_COOKIE) != token
        return HOST, (f"{HOST_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict" if fresh else "")
    key = request.query_params.get("key") or request.cookies.get(KEY_COOKIE) or ""
    row = store.key(key) if re.fullmatch(r"[A-Za-z0-9_-]{16,64}", key) else None
    if row is None or row.purpose != "night":
        return NOBODY, ""
    fresh = request.cookies.get(KEY_COOKIE) != key
    return Access("night", row.target, row.player), (f"{KEY_COOKIE}={key}; Path=/; HttpOnly; SameSite=Lax" if fresh else "")


def refusal(access: Access, path: str, method: str) -> str:
    """Why ``access`` may not open ``path`` ("" when it may)."""
    if access.host or OPEN_TO_ALL.match(path):
        return ""
    if access.purpose == "night":
        found = NIGHT_PATHS.match(path)
        if found and found.group("night") in (None, access.target):
            return ""
        return f"This link lets {access.player}'s phone add and fix {access.player}'s sheet of one game night, nothing else."
    return "This papillon server needs its token: open the link with ?token=… that the server printed."


def new_key() -> str:
    return secrets.token_urlsafe(18)
