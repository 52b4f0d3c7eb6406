"""Play together over ASGI: seat keys (each device plays its own seat only), join links, the table screen,
bots that play at once and the same whatever the interleaving, per-seat undo, and a game on one screen unchanged."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from papillon.engine import bots
from papillon.engine.bots import GreedyBot
from papillon.engine.log import parse_log, replay
from papillon.session import PlaySession, Seat
from papillon.web import keys
from papillon.web.app import CSRF_COOKIE, create_app

SEAT_ONLY = "This link lets one player play their own seat of one game from their own device, nothing else."
JOIN = re.compile(r'<a class="join" data-seat="(\d)" href="([^"]+)"')


def _client(app: Any) -> TestClient:
    c = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    c.get("/favicon.ico")  # a CSRF cookie
    return c


def _csrf(c: TestClient) -> str:
    return str(c.cookies.get(CSRF_COOKIE))


def _new_game(host: TestClient, seed: str = "11", third: str = "greedy") -> str:
    host.get("/")
    form = {"csrf": _csrf(host), "seed": seed, "seat1": "human", "name1": "Ann", "seat2": "human", "name2": "Bob", "seat3": third}
    r = host.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.headers["location"])


def _links(host: TestClient, game: str) -> dict[int, str]:
    return {int(seat): href for seat, href in JOIN.findall(host.get(game).text)}


def _data(c: TestClient, game: str) -> dict[str, Any]:
    r = c.get(game, headers={"accept": "application/json"})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _log(folder: Path, game: str) -> Any:
    return parse_log((folder / "games" / f"{game.rsplit('/', 1)[1]}.jsonl").read_text(encoding="utf-8"))


def _until(check: Callable[[], Any], what: str) -> Any:
    """Ask again until ``check`` holds: the bots of a game played together think while its pages are answered."""
    deadline = time.monotonic() + 60
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return found


def _alert(html: str) -> str:
    found = re.search(r'role="alert">([^<]*)<', html)
    return found.group(1).replace("&#x27;", "'") if found else ""


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(folder=tmp_path / "data", base_url="http://localhost")


def test_the_host_page_has_a_join_link_and_qr_code_per_person_seat(app: Any) -> None:
    host = _client(app)
    game = _new_game(host)
    page = host.get(game).text
    links = _links(host, game)
    assert sorted(links) == [0, 1], "Ann and Bob have a link, the bot none"
    assert all(re.fullmatch(rf"http://localhost{game}\?key=[A-Za-z0-9_-]{{24}}", href) for href in links.values())
    assert links[0] != links[1]
    assert page.count('aria-label="QR code of Ann&#x27;s join link"') == 1 and "QR code of Bob" in page
    assert "Pass the screen to Ann" in page, "no link opened: the creating device plays every person seat (hot-seat)"
    assert "This server listens on this computer only (127.0.0.1): phones cannot reach it." in page, "said on the hand-over too"


def test_a_seat_key_plays_its_own_seat_and_cannot_decide_for_another(app: Any, tmp_path: Path) -> None:
    host, ann = _client(app), _client(app)
    game = _new_game(host)
    links = _links(host, game)
    ann.get(links[0])
    assert ann.cookies.get(keys.SEAT_COOKIE), "the key rides in the game's cookie"
    assert _data(ann, game)["seat"] == 0 and _data(ann, game)["actions"] == ["start B4", "start D2"]
    r = ann.post(f"{game}/act", data={"csrf": _csrf(ann), "action": "start B4", "seat": "1"})
    assert r.status_code == 403 and _alert(r.text) == "This link plays Ann's seat only: it cannot decide for another seat."
    r = ann.post(f"{game}/act", data={"csrf": _csrf(ann), "action": "start B4"})
    assert r.status_code == 200
    assert [e["action"] for e in _log(tmp_path / "data", game).events if e.get("player") == 0] == ["start B4"], "on disk"
    assert _data(ann, game)["actions"] == [], "Ann's start is chosen: she waits for Bob"
    assert "Still choosing: Bob." in ann.get(game).text


def test_a_seat_key_opens_nothing_but_its_own_games_pages(tmp_path: Path) -> None:
    app = create_app(folder=tmp_path / "data", token="hostkey", base_url="http://localhost", loopback=False)
    host = _client(app)
    host.get("/?token=hostkey")
    game, other = _new_game(host), _new_game(host, seed="12")
    phone = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    link = _links(host, game)[1]
    assert phone.get(link).status_code == 200
    key = link.split("key=")[1]
    for path in ("/", "/history", other, f"{other}/act", "/nights/0123456789ab", "/score", "/tables/0123456789ab"):
        r = phone.get(f"{path}?key={key}")
        assert r.status_code == 403 and _alert(r.text) == SEAT_ONLY, path
        r = phone.get(path)  # the seat's cookie is its game's: elsewhere the phone has no key at all
        assert r.status_code == 403 and "needs its token" in _alert(r.text), path
    assert f'href="{game}"' in phone.get(f"/history?key={key}").text, "the way back is its own game"
    r = phone.get(f"{game}/delete")
    assert r.status_code == 403 and _alert(r.text) == SEAT_ONLY, "the cookie rides to its game's other pages: refused"
    assert phone.get(game).status_code == 200 and phone.get(f"{game}/progress").status_code == 200
    r = phone.post(f"{game}/delete", data={"csrf": _csrf(phone), "confirm": "yes"})
    assert r.status_code == 403 and _alert(r.text) == SEAT_ONLY


def test_on_loopback_a_seat_key_in_the_address_limits_that_request_too(app: Any) -> None:
    host, phone = _client(app), _client(app)
    game = _new_game(host)
    key = _links(host, game)[0].split("key=")[1]
    for path in ("/", "/history", _new_game(host, seed="12")):
        r = phone.get(f"{path}?key={key}")
        assert r.status_code == 403 and _alert(r.text) == SEAT_ONLY, path
    phone.get(f"{game}?key={key}")
    assert phone.get("/").status_code == 200, "the seat's cookie is its game's only: elsewhere on loopback it is the host"
    assert _data(phone, game)["seat"] == 0


def test_the_seat_rule_lets_a_seat_key_follow_its_games_live_page() -> None:
    seat = keys.Access("seat", "11-0123abcd", "1")
    assert keys.refusal(seat, "/games/11-0123abcd/events", "GET") == ""
    assert keys.refusal(seat, "/games/11-0123abcd/undo", "POST") == ""
    assert keys.refusal(seat, "/games/11-0123abce/events", "GET") == SEAT_ONLY
    assert keys.refusal(seat, "/games/11-0123abcd/ready", "POST") == SEAT_ONLY, "the hand-over is the host's screen's"


def test_once_a_seat_joined_the_host_screen_shows_the_table_and_cannot_decide_for_it(app: Any) -> None:
    host, bob = _client(app), _client(app)
    game = _new_game(host)
    bob.get(_links(host, game)[1])
    _until(lambda: "greedy bot" not in _data(host, game)["choosing"], "the bot chose its start")
    page = host.get(game).text
    assert "Pass the screen" not in page, "one seat left on this screen: no hand-over"
    assert 'data-live="table"' in page and "<b>Bob</b> · plays on their phone · choosing" in page
    assert "<b>greedy bot</b> · bot · done" in page, "the bot chose its start as soon as the game was played together"
    assert 'name="seat" value="0"' in page and "Bob: plays on their phone" in page
    r = host.post(f"{game}/act", data={"csrf": _csrf(host), "action": "start B4", "seat": "1"})
    assert r.status_code == 409 and _alert(r.text) == "Bob plays on their own device: this choice was not taken here."
    assert host.post(f"{game}/act", data={"csrf": _csrf(host), "action": "start B4", "seat": "0"}).status_code == 200
    assert "<b>Ann</b> · on this screen · done" in host.get(game).text


def test_undo_is_per_seat(app: Any, tmp_path: Path) -> None:
    host, ann, bob = _client(app), _client(app), _client(app)
    game = _new_game(host)
    links = _links(host, game)
    ann.get(links[0])
    bob.get(links[1])
    ann.post(f"{game}/act", data={"csrf": _csrf(ann), "action": "start B4"})
    bob.post(f"{game}/act", data={"csrf": _csrf(bob), "action": "start D2"})
    _until(lambda: _data(ann, game)["round"] == 1, "round 1 came once the bot chose its start")
    ann.post(f"{game}/act", data={"csrf": _csrf(ann), "action": "pair 1"})
    bob.post(f"{game}/act", data={"csrf": _csrf(bob), "action": "pair 2"})
    bob_next = _data(bob, game)["actions"]
    assert 'id="undo"' in ann.get(game).text
    ann.post(f"{game}/undo", data={"csrf": _csrf(ann)})
    assert _data(ann, game)["actions"] == ["pair 1", "pair 2", "pair 3"], "Ann is back at the start of her turn"
    assert _data(bob, game)["actions"] == bob_next, "Bob's pair stays"
    log = _log(tmp_path / "data", game)
    assert [e["action"] for e in log.events if e.get("player") == 0] == ["start B4"], "the undo is on disk"
    assert [e["action"] for e in log.events if e.get("player") == 1] == ["start D2", "pair 2"]


def _seen(phones: dict[int, TestClient], game: str) -> dict[int, dict[str, Any]] | None:
    """What each phone sees, once one of them may decide or the game is over (None while only the bot may)."""
    seen = {seat: _data(phone, game) for seat, phone in phones.items()}
    return seen if seen[0]["over"] or any(data["actions"] for data in seen.values()) else None


def _play_together(tmp_path: Path, order: int) -> tuple[list[Any], list[tuple[int, str]]]:
    """A whole game of Ann and Bob on their own devices and a greedy bot, in an interleaving drawn from ``order``."""
    app = create_app(folder=tmp_path / f"data{order}", base_url="http://localhost")
    host = _client(app)
    game = _new_game(host, seed="21")
    links = _links(host, game)
    phones = {seat: _client(app) for seat in links}
    for seat, phone in phones.items():
        phone.get(links[seat])
    chance = random.Random(order)
    shown: dict[str, int] = {}
    while True:
        seen = _until(lambda: _seen(phones, game), "a phone has choices once the bot played its round")
        if seen[0]["over"]:
            shown = seen[0]["scores"]
            break
        ready = [seat for seat in phones if seen[seat]["actions"]]
        seat = chance.choice(ready)
        r = phones[seat].post(f"{game}/act", data={"csrf": _csrf(phones[seat]), "action": seen[seat]["actions"][0]})
        assert r.status_code == 200, r.text
    log = _log(tmp_path / f"data{order}", game)
    final = replay(log)
    assert {name: final.score(i) for i, name in enumerate(final.game.players)} == shown, "the log replays to what the phones saw"
    assert final.is_over() and "ranking" in host.get(game, headers={"accept": "application/json"}).text
    return [final.garden(i) for i in range(3)], [(int(e["player"]), str(e["action"])) for e in log.events if "player" in e]


@pytest.mark.slow
def test_a_game_played_together_ends_the_same_whatever_the_interleaving(tmp_path: Path) -> None:
    gardens, events = _play_together(tmp_path, 1)
    again, other_events = _play_together(tmp_path, 2)
    assert events != other_events, "the two games were received in different orders"
    assert gardens == again, "the bot's choices never depend on when the people decide"


def test_a_game_on_one_screen_is_logged_as_before(app: Any, tmp_path: Path) -> None:
    host = _client(app)
    game = _new_game(host, seed="31")
    taken = []
    for _ in range(12):
        page = host.get(game).text
        if "Pass the screen" in page:
            host.post(f"{game}/ready", data={"csrf": _csrf(host)})
            page = host.get(game).text
        action = re.findall(r'name="action" value="([^"]+)"', page)[0]
        taken.append(action)
        assert host.post(f"{game}/act", data={"csrf": _csrf(host), "action": action}).status_code == 200
    log = _log(tmp_path / "data", game)
    alone = PlaySession.new(seed=31, seats=[Seat("Ann"), Seat("Bob"), Seat("greedy bot", "greedy")], folder=tmp_path / "alone")
    for action in taken:
        alone.act(action)
    assert log.events == alone.log.events, "the bots play when they are the lowest seat, with the sequential draws"


def test_who_joined_survives_a_restart(tmp_path: Path) -> None:
    app = create_app(folder=tmp_path / "data", base_url="http://localhost")
    host, bob = _client(app), _client(app)
    game = _new_game(host)
    link = _links(host, game)[1]
    bob.get(link)
    again = create_app(folder=tmp_path / "data", base_url="http://localhost")
    page = _client(again).get(game).text
    assert "<b>Bob</b> · plays on their phone" in page and "Bob: plays on their phone" in page
    rejoined = _client(again)
    assert _data(rejoined, link.removeprefix("http://localhost"))["seat"] == 1, "the same link rejoins"


def _starts(tmp_path: Path, bot: type[GreedyBot], monkeypatch: pytest.MonkeyPatch, release: Callable[[], None]) -> list[tuple[int, str]]:
    """A game of Ann, Bob and ``bot`` played together up to round 1: the starts as the log received them."""
    monkeypatch.setitem(bots.BOTS, "greedy", bot)
    app = create_app(folder=tmp_path, base_url="http://localhost")
    host, ann, bob = _client(app), _client(app), _client(app)
    game = _new_game(host)
    links = _links(host, game)
    ann.get(links[0])
    bob.get(links[1])
    for phone, start in ((ann, "start B4"), (bob, "start D2")):
        r = phone.post(f"{game}/act", data={"csrf": _csrf(phone), "action": start}, follow_redirects=False)
        assert r.status_code == 303, "taken at once, whatever the bot is doing"
    release()
    _until(lambda: _data(ann, game)["round"] == 1, "round 1 came once the bot chose its start")
    return [(int(e["player"]), str(e["action"])) for e in _log(tmp_path, game).events if "player" in e]


def test_the_people_decide_while_a_bot_of_their_game_thinks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    thinking, go = threading.Event(), threading.Event()

    class Slow(GreedyBot):
        """A greedy bot that thinks until it is let go."""

        def choose(self, state: Any, rng: Any) -> Any:
            thinking.set()
            assert go.wait(60)
            return super().choose(state, rng)

    def release() -> None:
        assert thinking.is_set(), "the bot was thinking while Ann and Bob chose their starts"
        go.set()

    slow = _starts(tmp_path / "slow", Slow, monkeypatch, release)
    quick = _starts(tmp_path / "quick", GreedyBot, monkeypatch, lambda: None)
    assert [seat for seat, _ in slow[:3]] == [0, 1, 2], "the bot's start came after the people's"
    assert sorted(slow[:3]) == sorted(quick[:3]), "and it is the start it chooses when it thinks at once"
    assert all(action.startswith("start") for _, action in quick[:3])
