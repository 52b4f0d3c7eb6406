"""Live pages in a real browser: in-place updates that never interrupt an upload, taps that keep the scroll, no JavaScript."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import tap

from papillon.grid import PLOTS, plot_name

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips (or fails in CI) with the reason
    expect = None  # type: ignore[assignment]

PHONE = {"width": 390, "height": 844}


def _night(page: Any, url: str, players: str) -> str:
    page.goto(url + "/score")
    page.fill("textarea[name=players]", players)
    tap(page, "text=Start the night")
    page.wait_for_url("**/nights/*")  # the night's own address, not the form's (a CI run once read it too early)
    return str(page.url)


def _chosen_files(page: Any, player: str) -> int:
    return int(page.locator(f'section[aria-label="{player}\'s sheet"] input[type=file]').evaluate("input => input.files.length"))


def test_an_upload_in_progress_survives_another_phone_saving_its_sheet(server: Any, browser: Any) -> None:
    pytest.importorskip("cv2")
    from photos.synth import synthetic_photo

    photo = synthetic_photo(6, megapixels=(1.5, 1.5), blur_px=0.0, dark=1.0)
    ann_context = browser.new_context(viewport=PHONE)
    bob_context = browser.new_context(viewport=PHONE)
    try:
        ann = ann_context.new_page()
        bob = bob_context.new_page()
        for page in (ann, bob):
            page.set_default_timeout(15_000)
        night = _night(ann, server.url, "Ann\nBob")
        held: list[Any] = []
        # the upload waits here until the test lets it through: a slow network
        ann.route("**/score/photo", lambda route: held.append(route))
        ann.evaluate("window.stillThisPage = true")  # gone if the page reloads
        ann.set_input_files(
            'section[aria-label="Ann\'s sheet"] input[type=file]',
            files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": photo.jpeg}],
        )
        ann.locator("section[aria-label=\"Ann's sheet\"] button:has-text('Read the photo')").click()
        expect(ann.locator("progress.upload")).to_have_count(1)  # the upload shows its progress
        ann.wait_for_timeout(300)
        assert len(held) == 1

        bob.goto(night)
        tap(bob, "text=Tap in Bob's garden")
        tap(bob, "#plot-C3")
        tap(bob, '#chooser button[value="set C3 R"]')
        tap(bob, "text=Add Bob's sheet")
        # Ann's phone follows the night: the ranking changes in place, her part of the page is left alone
        expect(ann.locator("table.ranking-table tr").nth(1)).to_contain_text("Bob", timeout=8000)
        assert ann.evaluate("window.stillThisPage") is True
        assert _chosen_files(ann, "Ann") == 1 and ann.locator("progress.upload").count() == 1
        assert ann.locator('section[aria-label="Bob\'s sheet"] h2').inner_text() == "Bob: 1 point"  # Bob's part updated

        with ann.expect_navigation(url="**/sheets/*", timeout=60_000):  # the photo is read: tens of seconds under load
            held[0].continue_()  # the upload goes through, uninterrupted
        assert ann.locator("h1").inner_text().startswith("Read from the photo")
        assert ann.locator(".doubt-list li").count() == 3
    finally:
        ann_context.close()
        bob_context.close()


def test_a_chosen_file_stays_chosen_while_the_page_follows_the_night(server: Any, browser: Any, phone: Any) -> None:
    night = _night(phone, server.url, "Ann\nBob")
    phone.set_input_files(
        'section[aria-label="Ann\'s sheet"] input[type=file]',
        files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": b"chosen, not sent yet"}],
    )
    other = browser.new_context(viewport=PHONE)
    try:
        bob = other.new_page()
        bob.goto(night)
        expect(bob.locator("h1")).to_have_text("Game night")  # if not, the failure names the page Bob got
        tap(bob, "text=Tap in Bob's garden")
        tap(bob, "text=Add Bob's sheet")
    finally:
        other.close()
    expect(phone.locator("table.ranking-table tr").nth(1)).to_contain_text("Bob", timeout=8000)
    assert _chosen_files(phone, "Ann") == 1
    phone.locator("section[aria-label=\"Ann's sheet\"] button:has-text('Read the photo')").click()
    # a 400 answer: the server's sentence shown in place, under the form, the file still chosen
    expect(phone.locator(".live-error")).to_contain_text("its content says so, whatever its name")
    assert _chosen_files(phone, "Ann") == 1


def test_each_tap_on_a_doubt_keeps_the_list_where_it_was(server: Any, phone: Any) -> None:
    pytest.importorskip("cv2")
    from photos.synth import synthetic_photo

    photo = synthetic_photo(6, megapixels=(1.5, 1.5), blur_px=0.0, dark=1.0)
    phone.goto(server.url + "/score")
    phone.set_input_files("input[name=photo]", files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": photo.jpeg}])
    tap(phone, "text=Read the photo")
    assert [b for b in phone.locator(".doubt-list li b").all_inner_texts()] == ["butterfly E1", "field A4", "field D5"]
    phone.locator(".doubt-list").scroll_into_view_if_needed()
    phone.evaluate("window.scrollBy(0, 40)")  # the list somewhere in the window, as a thumb leaves it
    top = phone.evaluate("window.scrollY")
    taps = 0
    while phone.locator(".doubt-list li").count():
        item = phone.locator(".doubt-list li b").first.inner_text()
        kind, _, name = item.rpartition(" ")
        if kind == "butterfly":
            tap(phone, f'button[value="confirm {item}"]')
            assert phone.evaluate("window.scrollY") == top  # not a pixel
        else:
            tap(phone, f'.doubt-list button[value="plot {name}"]')  # opens the chooser under the list
            chooser = phone.locator("#chooser").bounding_box()
            assert chooser is not None and chooser["y"] < PHONE["height"]  # in view, no scroll needed to find it
            code = photo.garden.cells[PLOTS[[plot_name(p) for p in PLOTS].index(name)]].code
            tap(phone, f'#chooser button[value="set {name} {code}"]')
        taps += 1
        shown = phone.locator(".doubt-list").bounding_box() if phone.locator(".doubt-list").count() else None
        assert shown is None or (shown["y"] < PHONE["height"] and shown["y"] + shown["height"] > 0), item  # the list still in view
        if shown is not None:  # the keyboard stays on the list: the next doubt's first button
            assert phone.evaluate("document.activeElement.closest('.doubt-list') !== null"), item
    assert taps == 3 and "?plot=" not in phone.url  # the address follows the answers (replaceState)


def test_the_watch_page_follows_the_table_in_place(server: Any, browser: Any) -> None:
    dealer_context = browser.new_context(viewport={"width": 1024, "height": 768})
    watcher_context = browser.new_context(viewport=PHONE)
    try:
        dealer = dealer_context.new_page()
        dealer.goto(server.url + "/")
        dealer.fill("form[action='/tables'] input[name=seed]", "7")
        dealer.click("text=Open a table")
        watcher = watcher_context.new_page()
        watcher.goto(server.url + str(dealer.locator("#watch-local").get_attribute("href")))
        watcher.evaluate("window.stillThisPage = true")
        dealer.evaluate("window.stillThisPage = true")
        tap(dealer, "#next")
        assert dealer.locator("h1").inner_text() == "Round 1 of 10" and dealer.evaluate("window.stillThisPage") is True
        expect(watcher.locator("h1")).to_have_text("Round 1 of 10", timeout=8000)
        assert watcher.evaluate("window.stillThisPage") is True  # replaced in place, not reloaded
        tap(dealer, "#undo-reveal")
        expect(watcher.locator("h1")).to_have_text("Ready to deal", timeout=8000)
        assert watcher.evaluate("window.stillThisPage") is True
        assert watcher.locator("head noscript").inner_html() == '<meta http-equiv="refresh" content="5">'
    finally:
        dealer_context.close()
        watcher_context.close()


def test_without_javascript_the_tap_in_sheet_takes_bricks_and_butterflies(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server.url + "/score")
        page.click("text=Tap in a blank garden")
        page.select_option("select[name=plot]", "C3")
        page.click("text=Choose its content")
        page.click('#chooser button[value="set C3 R"]')
        page.select_option("#brick-form select", "edge C3-D3")
        page.click("#brick-form button")
        page.select_option("#butterfly-form select", "butterfly C3")
        page.click("#butterfly-form button")
        notation = page.locator("textarea.notation").input_value()
        assert page.locator('#brick-form option[value="edge C3-D3"]').inner_text() == "C3-D3, a brick"
        assert page.locator('#butterfly-form option[value="butterfly C3"]').inner_text() == "C3, a butterfly"
        assert " 3   .     .     R*  | .     ." in notation.splitlines()  # a red flower, its butterfly, a brick to D3
        assert page.locator("noscript").count() >= 1 and page.locator("html[data-live-busy]").count() == 0
    finally:
        context.close()
