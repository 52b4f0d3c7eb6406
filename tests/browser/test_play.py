"""Playing in a real browser: clicks on the sheets, keys, undo, resume, hot-seat, table mode; screenshots."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from papillon.cli import main

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips (or fails in CI) with the reason
    expect = None
from papillon.engine.log import parse_log, replay

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SHEET_TARGETS = "svg .target[data-action], svg.target[data-action], button.pair"


def _new_game(page: Any, server: Any, *, seed: int, seats: list[tuple[str, str]]) -> str:
    page.goto(server.url + "/")
    page.fill("input[name=seed] >> nth=0", str(seed))
    for i in range(1, 7):
        kind, name = seats[i - 1] if i <= len(seats) else ("none", "")
        page.select_option(f"#seat{i}", kind)
        page.fill(f"input[name=name{i}]", name)
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r"/games/[0-9]+-[0-9a-f]{8}$"))
    return str(page.url)


def _step(page: Any) -> str:
    """One decision as a person takes it: hand over, else click a highlighted target on the pictures, else a choice button."""
    ready = page.locator("text=show my garden")
    if ready.count():
        ready.click()
        return "ready"
    for target in page.locator(SHEET_TARGETS).all():
        if target.is_visible():
            action = target.get_attribute("data-action") or target.get_attribute("value") or ""
            with page.expect_navigation():
                target.click()
            return action
    button = page.locator("button.choice").first
    action = str(button.get_attribute("value"))
    with page.expect_navigation():
        button.click()
    return action


def _play_to_the_end(page: Any, limit: int = 600) -> list[str]:
    actions = []
    for _ in range(limit):
        if page.locator("h1:has-text('The game is over')").count():
            return actions
        actions.append(_step(page))
    raise AssertionError(f"no end after {limit} steps; last: {actions[-5:]}")


def _papillon_score(server: Any, game_url: str, player: int, tmp_path: Path) -> int:
    """The total `papillon score` gives the final garden saved in the game's log."""
    game_id = game_url.rsplit("/", 1)[1]
    log = parse_log((server.folder / "games" / f"{game_id}.jsonl").read_text())
    final = replay(log)
    garden = tmp_path / f"final-{player}.garden"
    garden.write_text(final.garden(player).to_notation())
    result = CliRunner().invoke(main, ["score", str(garden)])
    assert result.exit_code == 0, result.output
    match = re.search(r"Total\s+(\d+)", result.output)
    assert match, result.output
    return int(match.group(1))


def test_a_solo_game_against_a_bot_by_clicks(server: Any, phone: Any, browser: Any, tmp_path: Path) -> None:
    game = _new_game(phone, server, seed=21, seats=[("human", "Ann"), ("greedy", "Greta")])
    assert phone.locator("#prompt").inner_text() == "Ann: choose the starting field whose butterfly space you fill"
    # Phone first: nothing wider than the screen, and the garden's plots are 44 px targets.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    box = phone.locator("#plot-B4").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    phone.screenshot(path=str(tmp_path / "start-phone.png"), full_page=True)
    clicked = _play_to_the_end(phone)
    sheet_clicks = [a for a in clicked if a.split(" ")[0] in ("plot", "edge", "start", "from", "to", "fill", "pair", "feature")]
    assert len(sheet_clicks) > 20  # most decisions were clicks on the pictures, not on the list
    phone.screenshot(path=str(tmp_path / "end-phone.png"), full_page=True)
    shown = int(phone.locator(".final .total").first.inner_text())
    assert shown == _papillon_score(server, game, 0, tmp_path)
    assert phone.locator(".best").first.inner_text() == f"Ann: first game recorded: {shown}."


def test_readme_screenshot_of_a_game_in_play(server: Any, browser: Any, tmp_path: Path) -> None:
    """The README's picture: a laptop-wide page in round 3, the garden's legal plots highlighted."""
    context = browser.new_context(viewport={"width": 1200, "height": 1120})
    page = context.new_page()
    _new_game(page, server, seed=8, seats=[("human", "Ann"), ("greedy", "Greta")])
    # The first plot choice from round 3 on (which round depends on the seed's cards and dice).
    for _ in range(400):
        assert page.locator("#prompt").count(), "the game ended before a plot choice in round 3 or later"
        prompt = page.locator("#prompt").inner_text()
        shown = re.search(r"round (\d+)", page.locator(".where").inner_text())  # none while the starting fields are chosen
        played = int(shown[1]) if shown else 0
        if played >= 3 and "choose an empty plot" in prompt:
            break
        _step(page)
    else:
        raise AssertionError("never reached a plot choice in round 3 or later")
    shot = tmp_path / "serve-play.png"
    page.screenshot(path=str(shot), full_page=False)
    context.close()
    assert shot.stat().st_size > 10_000
    if os.environ.get("PAPILLON_UPDATE_SCREENSHOTS") == "1":
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, DOCS_IMG / "serve-play.png")


def test_keyboard_play_and_undo(server: Any, phone: Any) -> None:
    _new_game(phone, server, seed=4, seats=[("human", "Ann"), ("random", "Rob")])
    phone.focus("#plot-D2")
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    assert phone.locator("#prompt").inner_text() == "Ann: round 1: choose a pair (card and die)"
    pairs = phone.locator("button.choice").all_inner_texts()
    with phone.expect_navigation():
        phone.keyboard.press("2")  # the second choice: pair 2
    assert phone.locator("#prompt").inner_text() != "Ann: round 1: choose a pair (card and die)"
    assert phone.locator(".pair.chosen").count() == 1
    with phone.expect_navigation():
        phone.keyboard.press("u")
    assert phone.locator("#prompt").inner_text() == "Ann: round 1: choose a pair (card and die)"
    assert phone.locator("button.choice").all_inner_texts() == pairs


def test_undo_button_and_resume_after_restarting_the_server(server: Any, phone: Any) -> None:
    game = _new_game(phone, server, seed=13, seats=[("human", "Ann"), ("greedy", "Greta")])
    _step(phone)  # the start
    for _ in range(60):  # into round 2, so a round has been saved
        if "round 2" in phone.locator(".where").inner_text():
            break
        _step(phone)
    round_2 = phone.locator("button.choice").all_inner_texts()
    _step(phone)
    with phone.expect_navigation():
        phone.click("#undo")
    assert phone.locator("button.choice").all_inner_texts() == round_2
    server.restart()
    phone.goto(server.url + "/")
    with phone.expect_navigation():
        phone.click(f"a[href='/games/{game.rsplit('/', 1)[1]}']")
    assert "round 2/10" in phone.locator(".where").inner_text()
    assert phone.locator("button.choice").all_inner_texts() == round_2


def test_hot_seat_with_two_people(server: Any, phone: Any, tmp_path: Path) -> None:
    """Two people on one phone: the hand-over screen before each turn, through the first two rounds."""
    _new_game(phone, server, seed=5, seats=[("human", "Ann"), ("human", "Bea")])
    assert phone.locator("h1").inner_text() == "Pass the screen to Ann"
    assert phone.locator("svg.sheet").count() == 0  # nobody's sheet shows before the hand-over
    phone.screenshot(path=str(tmp_path / "handover.png"))
    phone.click("text=I am Ann: show my garden")
    with phone.expect_navigation():
        phone.click("#plot-B4")
    assert phone.locator("h1").inner_text() == "Pass the screen to Bea"
    phone.click("text=I am Bea: show my garden")
    assert phone.locator("#prompt").inner_text() == "Bea: choose the starting field whose butterfly space you fill"
    handed = []
    for _ in range(300):
        if "round 3" in (phone.locator(".where").inner_text() if phone.locator(".where").count() else ""):
            break
        if phone.locator("text=show my garden").count():
            handed.append(phone.locator("h1").inner_text())
        _step(phone)
    else:
        raise AssertionError("never reached round 3")
    # Rounds 1 and 2 (a bonus round): each person is handed the screen at least once a round, turn about.
    assert handed.count("Pass the screen to Ann") >= 2 and handed.count("Pass the screen to Bea") >= 3
    phone.screenshot(path=str(tmp_path / "hot-seat-round-3.png"), full_page=True)


def test_table_mode_followed_by_a_second_browser(server: Any, browser: Any, tmp_path: Path) -> None:
    dealer_context = browser.new_context(viewport={"width": 1024, "height": 768})
    dealer = dealer_context.new_page()
    dealer.goto(server.url + "/")
    dealer.fill("form[action='/tables'] input[name=seed]", "7")
    dealer.click("text=Open a table")
    assert dealer.locator("#loopback").is_visible()  # on loopback, phones cannot reach it: say so
    assert "papillon serve --host 0.0.0.0" in dealer.locator("#loopback").inner_text()
    watch_url = server.url + str(dealer.locator("#watch-local").get_attribute("href"))
    watcher_context = browser.new_context(viewport={"width": 375, "height": 812})
    watcher = watcher_context.new_page()
    watcher.goto(watch_url)
    assert watcher.locator("h1").inner_text() == "Ready to deal"
    assert watcher.locator("form").count() == 0  # read-only
    dealer.click("#next")
    expect(watcher.locator("h1")).to_have_text("Round 1 of 10", timeout=8000)
    assert watcher.locator(".big.offer .pair").count() == 3
    dealer.click("#next")
    expect(watcher.locator("h1")).to_have_text("Round 2 of 10", timeout=8000)
    assert "Bonus round" in watcher.locator("p.bonus").inner_text()
    dealer.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    watcher.screenshot(path=str(tmp_path / "watch.png"), full_page=True)
    dealer.click("#undo-reveal")
    expect(watcher.locator("h1")).to_have_text("Round 1 of 10", timeout=8000)
    dealer_context.close()
    watcher_context.close()
