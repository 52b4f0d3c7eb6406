"""Browser tests: Playwright driving the system Chromium against a real uvicorn server on loopback.

Chromium comes from the system packages (.ci/install-browser); `playwright install`
is never used.  Without Chromium these tests are skipped, except in CI (CI=true),
where a missing browser is a failure.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 375, "height": 812}


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}: run .ci/install-browser", pytrace=False)
    pytest.skip(f"{reason} (run .ci/install-browser)")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    if not CHROMIUM.is_file():
        _unavailable(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class LiveServer:
    """uvicorn serving the app in a thread, on a free loopback port; :meth:`restart` keeps the data folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        from papillon.web.app import create_app

        # App.server, as papillon serve: it ends the live pages' event streams when it stops (uvicorn alone waits for them)
        self._server = create_app(folder=self.folder, base_url=self.url).server(host="127.0.0.1", port=self.port, log_level="warning")
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
            self._server = None

    def restart(self) -> None:
        self.stop()
        self.start()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path, browser: Any) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "data")
    live.start()
    yield live
    live.stop()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
