"""papillon serve part 2 in a real browser: the table's words, a night's join links for phones, deleting a game,
the bots at work, a night's replace question, error pages, dark mode; screenshots at 390 px and 1280 px."""

from __future__ import annotations

import os
import re
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import settle

SHOTS = Path(os.environ.get("PAPILLON_SHOTS_DIR") or tempfile.gettempdir()) / "papillon-serve-shots"
"""Screenshots to look at (not kept in the repository)."""
EXAMPLES = Path(__file__).resolve().parents[2] / "sheets" / "examples"
WIDTHS = {"phone": 390, "wide": 1280}


def _shots(browser: Any, url: str, name: str, *, dark: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for kind, width in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme="dark" if dark else "light")
        page = context.new_page()
        page.goto(url)
        page.screenshot(path=str(SHOTS / f"{name}-{kind}{'-dark' if dark else ''}.png"), full_page=True)
        context.close()


class NetworkServer:
    """A server with a host key (as ``--host`` makes), still bound to loopback for the test."""

    def __init__(self, folder: Path) -> None:
        import socket

        from papillon.web.app import create_app

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(folder=folder, token="hostkey", base_url=self.url, loopback=False)
        self.server = app.server(host="127.0.0.1", port=self.port, log_level="warning")  # it ends the event streams as it stops
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def network(tmp_path: Path, browser: Any) -> Iterator[NetworkServer]:
    live = NetworkServer(tmp_path / "net")
    yield live
    live.stop()


def test_table_mode_puts_words_beside_the_pictures(server: Any, phone: Any, browser: Any) -> None:
    phone.goto(server.url + "/")
    phone.fill("form[action='/tables'] input[name=seed]", "7")
    with phone.expect_navigation():
        phone.locator("form[action='/tables'] button[type=submit]").click()
    phone.locator("form[action$='/step'] button").first.click()
    settle(phone)  # the table's parts are swapped in place
    words = phone.locator(".pair-words")
    assert words.count() == 3
    text = words.first.inner_text()
    centre = r"(stamp a \w+ flower|move a butterfly|add fields & move a butterfly)"
    assert re.search(centre + r", corner: (add a feature|place brick edging|fill a space)", text)
    assert "die: " in text and "caterpillar" in text
    watch = phone.locator("#watch-local, #watch-link").first.get_attribute("href")
    assert watch and "/watch/" in watch
    _shots(browser, phone.url, "table")
    _shots(browser, phone.url, "table", dark=True)
    _shots(browser, watch if watch.startswith("http") else server.url + watch, "watch")


def test_a_night_shows_each_players_join_link_first_and_the_phone_sees_only_its_own(network: NetworkServer, browser: Any) -> None:
    host = browser.new_context(viewport={"width": 390, "height": 900})
    page = host.new_page()
    page.goto(network.url + "/score?token=hostkey")
    page.fill("textarea[name=players]", "Ann, Bob")
    with page.expect_navigation():
        page.locator("form[action='/nights'] button").click()
    joins = page.locator(".joins figure")
    assert joins.count() == 2
    first_box = page.locator(".joins").bounding_box()
    ranking_box = page.locator("section[aria-label=ranking]").bounding_box()
    assert first_box and ranking_box and first_box["y"] < ranking_box["y"]  # the join QRs come first
    ann_link = page.locator(".joins figure", has_text="Ann").locator("code.url").inner_text()
    assert "hostkey" not in ann_link
    _shots(browser, page.url + "?token=hostkey", "night-host")
    phone = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    phone.goto(ann_link)
    assert phone.locator("text=Tap in Ann's garden").count() == 1 and phone.locator("text=Tap in Bob's garden").count() == 0
    assert phone.locator(".joins").count() == 0
    phone.screenshot(path=str(SHOTS / "night-ann-phone.png"), full_page=True)
    phone.goto(network.url + "/history")
    assert "lets Ann" in phone.locator("[role=alert]").inner_text()
    phone.screenshot(path=str(SHOTS / "night-ann-refused-phone.png"), full_page=True)
    host.close()


def test_a_saved_game_is_deleted_after_confirming(server: Any, phone: Any, browser: Any) -> None:
    phone.goto(server.url + "/")
    with phone.expect_navigation():
        phone.locator("form.new-game button[type=submit]").click()
    phone.goto(server.url + "/")
    _shots(browser, server.url + "/", "home-with-delete")
    with phone.expect_navigation():
        phone.locator(".games .delete").first.click()
    assert "Delete this saved game?" in phone.locator("h1").inner_text()
    _shots(browser, phone.url, "delete")
    with phone.expect_navigation():
        phone.locator("button[value=yes]").click()
    assert phone.locator("text=No saved games yet.").count() == 1


def test_the_bots_at_work_and_the_error_page_with_a_way_back(server: Any, phone: Any, browser: Any) -> None:
    phone.goto(server.url + "/")
    for i in range(1, 7):
        phone.select_option(f"#seat{i}", "search")
    with phone.expect_navigation():
        phone.locator("form.new-game button[type=submit]").click()
    if "The bots are playing" in phone.content():
        phone.screenshot(path=str(SHOTS / "thinking-phone.png"), full_page=True)
        assert phone.locator(".thinking h1").inner_text() == "The bots are playing"
    phone.goto(server.url + "/")
    phone.fill("form.new-game input[name=seed]", "")
    phone.evaluate("document.querySelector('form.new-game input[name=seed]').removeAttribute('pattern')")
    phone.fill("form.new-game input[name=seed]", "12x")
    phone.select_option("#seat3", "search")
    with phone.expect_navigation():
        phone.locator("form.new-game button[type=submit]").click()
    assert "the seed is a whole number" in phone.locator("[role=alert]").inner_text()
    assert phone.locator("form.new-game input[name=seed]").input_value() == "12x"  # the refused form keeps its values
    assert phone.locator("#seat3").input_value() == "search"
    phone.screenshot(path=str(SHOTS / "error-phone.png"), full_page=True)


def test_a_night_asks_before_replacing_a_sheet(server: Any, phone: Any, browser: Any) -> None:
    phone.goto(server.url + "/score")
    phone.fill("textarea[name=players]", "Ann")
    with phone.expect_navigation():
        phone.locator("form[action='/nights'] button").click()
    night = phone.url
    for _ in range(2):
        phone.goto(night)
        with phone.expect_navigation():
            phone.locator("text=Tap in Ann's garden").click()
        with phone.expect_navigation():
            phone.locator("form[action$='/record'] button[type=submit]").first.click()
    assert "Replace Ann's sheet?" in phone.locator("h1").inner_text()
    assert "already has a sheet tonight with <strong>0 points</strong>" in phone.content()
    phone.screenshot(path=str(SHOTS / "replace-phone.png"), full_page=True)


LOW_CONTRAST = r"""
() => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return {r: 255, g: 255, b: 255};
  };
  const bad = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg")) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(" ").trim();
    if (!text || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    const [hi, lo] = [lum(parse(getComputedStyle(el).color)), lum(background(el))].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 3) bad.push(`${el.tagName.toLowerCase()} "${text.slice(0, 40)}" ${ratio.toFixed(2)}`);
  }
  return bad;
}
"""
"""Every visible piece of text (outside the SVG pictures) whose contrast with the background behind it is under 3:1."""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_text_is_readable_in_dark_and_light_mode(server: Any, browser: Any, scheme: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    page.goto(server.url + "/")
    page.fill("form.new-game input[name=seed]", "11")
    with page.expect_navigation():
        page.locator("form.new-game button[type=submit]").click()
    game = page.url
    page.goto(server.url + "/score")
    with page.expect_navigation():
        page.locator("button:has-text('Tap in a blank garden')").click()
    pages = {
        "home": server.url + "/",
        "game": game,
        "error": server.url + "/games/1-00000000",
        "score": server.url + "/score",
        "sheet": page.url,
    }
    unreadable = {}
    for name, url in pages.items():
        page.goto(url)
        unreadable[name] = page.evaluate(LOW_CONTRAST) + page.evaluate(SHEET_NOT_ON_WHITE)
    context.close()
    assert unreadable == {name: [] for name in pages}  # the sheet's heading on its white, the error page's box, a sheet's letters


SHEET_NOT_ON_WHITE = """
() => [...document.querySelectorAll("svg.sheet")].filter((svg) => {
  for (let e = svg; e; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    const rgb = c.match(/[0-9.]+/g).map(Number);
    if (rgb.length < 4 || rgb[3] > 0.5) return Math.min(...rgb.slice(0, 3)) < 235;  // not (nearly) white
  }
  return false;
}).map((svg) => `svg.sheet "${svg.getAttribute("aria-label")}" not on white`)
"""
"""A printed sheet (drawn dark on white, for paper) on a page's dark background: its letters and key unreadable."""


def test_a_number_key_never_takes_a_folded_choice_unseen(server: Any, phone: Any) -> None:
    phone.goto(server.url + "/")
    phone.fill("form.new-game input[name=seed]", "11")
    with phone.expect_navigation():
        phone.locator("form.new-game button[type=submit]").click()
    game = phone.url
    folded = phone.locator("details.sheet-list")
    assert folded.get_attribute("open") is None  # the starting fields are choices on the sheet, listed folded
    phone.keyboard.press("2")
    phone.wait_for_timeout(1200)  # past the pause for a second digit
    assert phone.url == game and folded.get_attribute("open") is not None
    assert phone.evaluate("document.activeElement.value") == "start D2"
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    assert "start D2" not in [b.get_attribute("value") for b in phone.locator("button[name=action]").all()]


def test_a_screen_reader_is_told_what_each_plot_holds(server: Any, phone: Any, browser: Any) -> None:
    phone.goto(server.url + "/")
    phone.fill("form.new-game input[name=seed]", "11")
    with phone.expect_navigation():
        phone.locator("form.new-game button[type=submit]").click()
    with phone.expect_navigation():
        phone.locator("#plot-D2").click()  # the starting field is chosen on the sheet
    # Choosing a pair: no plot is a target, and each is still named in the accessibility tree.
    plots = phone.get_by_role("img", name=re.compile(r"^plot [A-E][1-5]"))
    assert plots.count() == 25
    assert re.search(r"field", phone.get_by_role("img", name=re.compile(r"^plot D2")).get_attribute("aria-label") or "")
    assert phone.locator(".tile-words li").count() == 7  # every card adds a feature: what each tile scores
    _shots(browser, phone.url, "play-pair")


def test_back_leaves_a_game_in_one_press(server: Any, phone: Any) -> None:
    phone.goto(server.url + "/")
    phone.fill("form.new-game input[name=seed]", "11")
    with phone.expect_navigation():
        phone.locator("form.new-game button[type=submit]").click()
    game = phone.url
    depth = phone.evaluate("history.length")
    with phone.expect_navigation():
        phone.locator("#plot-D2").click()
    for _ in range(3):
        with phone.expect_navigation():
            phone.locator("button[name=action]").first.click()
    assert phone.evaluate("history.length") == depth and phone.url.startswith(game)
    phone.go_back()
    assert phone.url == server.url + "/"  # the home page the game was started from
