"""Helpers for the browser tests (tests/browser/): acting on a live page, whose forms answer in place or lead elsewhere."""

from __future__ import annotations

from typing import Any


def settle(page: Any) -> None:
    """Wait until the page's last form has been answered: its parts swapped in, or the next page loaded."""
    from playwright.sync_api import expect

    expect(page.locator("html[data-live-busy]")).to_have_count(0, timeout=60_000)  # a photo is read meanwhile: tens of seconds under load
    page.wait_for_load_state()


def tap(page: Any, selector: str) -> None:
    """Click ``selector`` and wait for the answer (live.js sends the form in the background; see :func:`settle`)."""
    page.locator(selector).click(no_wait_after=True)  # the wait is settle's (the page's own timeout is shorter)
    settle(page)
