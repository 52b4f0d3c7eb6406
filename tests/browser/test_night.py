"""Score night in a real browser (375 px phone): a photo read and corrected, a garden tapped in, two phones in one game night."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import tap

from papillon.garden import Garden
from papillon.grid import EDGES, PLOTS, plot_name
from papillon.notation import parse

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips (or fails in CI) with the reason
    expect = None  # type: ignore[assignment]

SHOTS = Path(os.environ.get("PAPILLON_SHOTS_DIR") or tempfile.gettempdir()) / "papillon-night-shots"
"""Screenshots to look at (not kept in the repository)."""
EXAMPLES = Path(__file__).resolve().parents[2] / "sheets" / "examples"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _total(page: Any) -> int:
    return int(page.locator("#total").inner_text())


def _set_plot(page: Any, name: str, code: str) -> None:
    tap(page, f"#plot-{name}")  # the tap opens the chooser
    tap(page, f'#chooser button[value="set {name} {code}"]')


def test_tap_in_a_hand_checked_garden(server: Any, phone: Any) -> None:
    path = EXAMPLES / "bird-feeder.garden"
    expected = int(re.search(r"^# expected:.* total (\d+)$", path.read_text(), re.MULTILINE).group(1))  # type: ignore[union-attr]
    garden = parse(path.read_text())
    phone.goto(server.url + "/score")
    tap(phone, "text=Tap in a blank garden")
    blank = Garden.empty()
    tap(phone, "#plot-C2")
    _shot(phone, "night-chooser")
    for plot in PLOTS:
        if garden.cells[plot] != blank.cells[plot]:
            _set_plot(phone, plot_name(plot), garden.cells[plot].code)
    for edge in EDGES:
        if edge in garden.bricks:
            tap(phone, f"#edge-{edge.name}")
    for plot in sorted(garden.butterflies):
        tap(phone, f"#bubble-{plot_name(plot)}")
    _shot(phone, "night-tap-in")
    assert _total(phone) == expected == 29
    box = phone.locator("#plot-C3").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44


def test_a_photo_read_then_corrected(server: Any, phone: Any) -> None:
    pytest.importorskip("cv2")
    from photos.synth import synthetic_photo

    from papillon.score import score

    photo = synthetic_photo(1, megapixels=(1.5, 1.5), blur_px=0.0, dark=1.0)
    phone.goto(server.url + "/score")
    phone.set_input_files("input[name=photo]", files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": photo.jpeg}])
    tap(phone, "text=Read the photo")
    assert "/sheets/" in phone.url
    _shot(phone, "night-photo-read")
    truth = photo.garden
    for _ in range(40):
        items = phone.locator(".doubt-list li b").all_inner_texts()
        if not items:
            break
        kind, _, name = items[0].rpartition(" ")
        plot = PLOTS[[plot_name(p) for p in PLOTS].index(name)]
        if kind in ("", "field"):
            _set_plot(phone, name, truth.cells[plot].code)
        elif kind == "butterfly":
            shown = (phone.locator(f"#bubble-{name}").get_attribute("aria-label") or "").startswith(f"bubble {name}, butterfly")
            if shown == (plot in truth.butterflies):
                tap(phone, f'button[value="confirm {items[0]}"]')
            else:
                tap(phone, f"#bubble-{name}")  # the highlighted bubble itself
        else:
            tap(phone, f'button[value="confirm {items[0]}"]')
    _shot(phone, "night-photo-corrected")
    assert phone.locator(".doubt-list").count() == 0
    assert _total(phone) == score(truth).total


def test_a_refused_photo_says_why(server: Any, phone: Any) -> None:
    phone.goto(server.url + "/score")
    phone.set_input_files("input[name=photo]", files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": b"not a photo at all"}])
    phone.click("text=Read the photo")
    phone.wait_for_selector(".refused")
    assert "its content says so, whatever its name" in phone.locator(".reason").inner_text()
    _shot(phone, "night-refused")


def test_two_phones_in_one_game_night(server: Any, browser: Any, phone: Any) -> None:
    phone.goto(server.url + "/score")
    phone.fill("textarea[name=players]", "Ann\nBob")
    tap(phone, "text=Start the night")
    phone.wait_for_url("**/nights/*")
    night = phone.url
    first_row = phone.locator("table.ranking-table tr").nth(1)
    assert first_row.inner_text().split("\t")[:3] == ["–", "Ann", "no sheet yet"]
    other = browser.new_context(viewport={"width": 375, "height": 812})
    try:
        bob = other.new_page()
        bob.set_default_timeout(10_000)
        bob.goto(night)
        tap(bob, "text=Tap in Bob's garden")
        for name in ("A1", "B1", "C1"):
            _set_plot(bob, name, "R")
        tap(bob, "text=Add Bob's sheet")
        assert bob.url == night
        # Ann's page follows the night: its ranking is replaced in place when Bob's sheet arrives
        expect(first_row).to_contain_text("Bob", timeout=8000)  # no reload by hand: the night's events say it changed
        tap(phone, "text=Tap in Ann's garden")
        _set_plot(phone, "C3", "R")
        tap(phone, "text=Add Ann's sheet")
        rows = phone.locator("table.ranking-table tr").all_inner_texts()
        # by hand: Bob's red A1-B1-C1 is 3 flowers and a patch of 3 (3 points, as bird-feeder.garden's red C1-D1-E1): 6
        assert rows[1].split("\t")[:3] == ["1", "Bob", "6"]
        assert rows[2].split("\t")[:3] == ["2", "Ann", "1"]
        _shot(phone, "night-ranking")
        png = phone.request.get(night + "/results.png")
        assert png.ok and png.body().startswith(b"\x89PNG")
        (SHOTS / "night-results.png").write_bytes(png.body())
        phone.goto(server.url + "/history?player=Bob")
        assert "Bob: 1 game, 1 win, best 6, average 6.0" in phone.locator("main").inner_text()
        _shot(phone, "night-history")
    finally:
        other.close()


def test_a_night_names_players_by_the_one_name_rule(server: Any, phone: Any) -> None:
    long_name = "Bartholomew " * 4 + "the Third"  # 57 characters: refused by the night page's old 30-character rule
    phone.goto(server.url + "/score")
    phone.fill("textarea[name=players]", f"Ann #1\n{long_name}")
    phone.click("text=Start the night")
    phone.wait_for_selector("[role=alert]")
    assert phone.locator("[role=alert]").inner_text() == "a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"
    _shot(phone, "night-name-refused")
    phone.goto(server.url + "/score")
    phone.fill("textarea[name=players]", f"Ann\n{long_name}")
    tap(phone, "text=Start the night")
    assert phone.locator("h2", has_text=long_name).count() == 1
    tap(phone, f"text=Tap in {long_name}'s garden")
    _set_plot(phone, "C3", "R")
    tap(phone, f"text=Add {long_name}'s sheet")
    rows = phone.locator("table.ranking-table tr").all_inner_texts()
    assert rows[1].split("\t")[:3] == ["1", long_name, "1"]  # one red flower: 1 point
    _shot(phone, "night-long-name")
