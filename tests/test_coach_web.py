"""The coach's pages over ASGI: Today's garden, its text to share, the review link, a hint refused at the wrong time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from papillon.daily import daily_seed, today
from papillon.engine import make_bot, parse_log, play_game
from papillon.web.app import CSRF_COOKIE


def _csrf(client: Any) -> str:
    return str(client.cookies.get(CSRF_COOKIE))


def test_todays_garden_starts_the_days_solo_game(client: Any) -> None:
    assert 'action="/daily"' in client.get("/").text and "Today's garden</button>" in client.get("/").text
    r = client.post("/daily", data={"csrf": _csrf(client)}, follow_redirects=False)
    assert r.status_code == 303
    game = client.get(r.headers["location"], headers={"accept": "application/json"}).json()
    assert game["seed"] == daily_seed(today()) and list(game["scores"]) == ["Player 1"]


def test_the_end_of_a_days_garden_shows_the_text_to_share_and_the_review_link(client: Any, tmp_path: Path) -> None:
    _, log = play_game(daily_seed(today()), [make_bot("greedy")])
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    (games / f"{log.seed}-0000abcd.jsonl").write_text(log.text(), encoding="utf-8")
    page = client.get(f"/games/{log.seed}-0000abcd").text
    total = log.end["scores"][0] if log.end else None
    assert f"today&#39;s garden {today().isoformat()}: {total} points" in page
    assert f'href="/games/{log.seed}-0000abcd/review"' in page


def test_an_ordinary_game_has_no_text_to_share_and_no_review_before_its_end(client: Any, tmp_path: Path) -> None:
    _, log = play_game(5, [make_bot("greedy")])
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    (games / "5-0000abcd.jsonl").write_text(log.text(), encoding="utf-8")
    assert "To share" not in client.get("/games/5-0000abcd").text and "Review this game" in client.get("/games/5-0000abcd").text
    r = client.post("/games", data={"csrf": _csrf(client), "seed": "11", "seat1": "human"}, follow_redirects=False)
    game = r.headers["location"]
    assert client.get(game + "/review").status_code == 409


def test_a_hint_on_the_page_is_in_the_log(client: Any, tmp_path: Path) -> None:
    r = client.post("/games", data={"csrf": _csrf(client), "seed": "11", "seat1": "human"}, follow_redirects=False)
    game = r.headers["location"]
    page = client.post(game + "/hint", data={"csrf": _csrf(client)})
    assert page.status_code == 200 and 'id="hint-text"' in page.text and "Hint: start " in page.text
    log = parse_log((tmp_path / "games" / (game.rsplit("/", 1)[1] + ".jsonl")).read_text(encoding="utf-8"))
    assert len(log.hints) == 1 and log.hints[0][0] == 1
