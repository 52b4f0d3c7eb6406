"""Helpers for the browser tests (tests/browser/): acting on a live page, whose forms answer in place or lead elsewhere."""

from __future__ import annotations

from typing import Any

LEADS_AWAY = """element => {
  // What live.js leaves to the browser: a link, or a form it does not send in the background (see live.js's submit handler).
  if (element.closest("a[href]")) return true;
  const form = element.form || element.closest("form");
  if (!form) return false;
  return !document.querySelector("[data-live]") || form.hasAttribute("data-live-skip") || !!form.target;
}"""
"""Whether a click on the element starts an ordinary navigation, which no busy mark announces."""


def settle(page: Any) -> None:
    """Wait until the page's last form has been answered: its parts swapped in, or the next page loaded."""
    from playwright.sync_api import expect

    expect(page.locator("html[data-live-busy]")).to_have_count(0, timeout=60_000)  # a photo is read meanwhile: tens of seconds under load
    page.wait_for_load_state()


def tap(page: Any, selector: str) -> None:
    """Click ``selector`` and wait for the answer (live.js sends the form in the background; see :func:`settle`).

    A click the browser answers with a new page is waited for as a navigation: without the wait the next step
    could read the old page while it is being replaced (the night test once failed so in CI)."""
    target = page.locator(selector)
    if target.evaluate(LEADS_AWAY):
        with page.expect_navigation():
            target.click()
    else:
        target.click(no_wait_after=True)  # the wait is settle's (the page's own timeout is shorter)
    settle(page)
