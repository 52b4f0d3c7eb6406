"""What every test module shares: the import path, a data folder of its own, the CLI runner, the web client.

pytest loads this file for any selection under tests/ (``pytest tests/browser`` too), so the
helper modules here (``photos``, ``strategies``, ``oracle``, ``warped``, ``photogen2``,
``hand_checked``) and the measurement scripts of bench/ import the same way whichever tests run.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
for folder in (TESTS, ROOT / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test (a real Chromium, a live server) counts as slow: ``pytest -m "not slow"`` stays a quick run."""
    for item in items:
        if item.path.parent == TESTS / "browser":
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _a_data_folder_of_its_own(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved games and the score history of each test in a folder of its own.

    Parallel workers (``pytest -n``) then never share a history database, and no test writes
    into the user's own data folder. A test that wants another folder sets PAPILLON_DATA_DIR itself.
    """
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A CLI runner working in the test's folder, with its data folder at ``tmp_path / "data"``."""
    from click.testing import CliRunner

    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return CliRunner()


@pytest.fixture
def client(tmp_path: Path) -> Any:
    """The web app on a fresh data folder, through Starlette's TestClient (needs the serve extra)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from papillon.web.app import create_app

    # Only a loopback Host is let in on loopback: TestClient's own "testserver" would get 421.
    c = TestClient(create_app(folder=tmp_path), base_url="http://localhost", raise_server_exceptions=False)
    c.get("/")  # a first visit, as a browser makes: it sets the CSRF cookie the forms need
    return c
