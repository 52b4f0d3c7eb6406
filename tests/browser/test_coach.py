"""The coach in a real browser: the Hint button on the game page, the review page of a finished game."""

from __future__ import annotations

import re
from typing import Any

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips (or fails in CI) with the reason
    expect = None
from papillon.engine import make_bot, parse_log, play_game


def test_the_hint_button_shows_and_records_a_hint(server: Any, phone: Any) -> None:
    phone.goto(server.url + "/")
    phone.fill("input[name=seed] >> nth=0", "5")
    phone.select_option("#seat1", "human")
    phone.click("text=Start the game")
    phone.wait_for_url(re.compile(r"/games/[0-9]+-[0-9a-f]{8}$"))
    game_id = phone.url.rsplit("/", 1)[1]
    phone.click("#hint")
    expect(phone.locator("#hint-text")).to_contain_text("Hint: start ", timeout=60_000)
    suggested = re.search(r"Hint: start (B4|D2)", phone.locator("#hint-text").inner_text())
    assert suggested is not None
    log = parse_log((server.folder / "games" / f"{game_id}.jsonl").read_text(encoding="utf-8"))
    assert log.hints == [(1, {"player": 0, "action": f"start {suggested.group(1)}"})]


def test_the_review_page_shows_progress_then_the_review(server: Any, phone: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import papillon.web.coaching as coaching

    monkeypatch.setattr(coaching, "ROLLOUTS", 1)  # the page, not the statistics, is under test
    _, log = play_game(3, [make_bot("greedy")])
    games = server.folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    (games / "3-0000abcd.jsonl").write_text(log.text(), encoding="utf-8")
    phone.goto(server.url + "/games/3-0000abcd")
    phone.click("#review-link")
    expect(phone.locator("h1")).to_have_text(re.compile("Reviewing the game|Review of the game"))
    expect(phone.locator("h1")).to_have_text("Review of the game (seed 3)", timeout=120_000)
    expect(phone.locator("h2", has_text="Points left on the table")).to_be_visible()
    expect(phone.locator("table.review-table tr").nth(50)).to_be_attached()  # a page of a megabyte of SVG: parsed as it comes
    assert (games / "3-0000abcd.review.html").is_file()
