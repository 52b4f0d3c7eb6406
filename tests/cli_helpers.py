"""Helpers for the command-line tests (test_cli_hardening.py, test_issue23_cli.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from papillon.engine import play_game
from papillon.engine.bots import make_bot

ALWAYS_FIRST = "1\n" * 400
"""Keystrokes for `play` that always take the first choice."""


class Runner(CliRunner):
    """A CliRunner whose messages name the program as a user sees it: ``papillon``."""

    def invoke(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("prog_name", "papillon")
        return super().invoke(*args, **kwargs)


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def a_game_log(tmp_path: Path, name: str = "game.jsonl") -> Path:
    """A finished solo game of the greedy bot, as `simulate --logs` writes it."""
    _, log = play_game(3, [make_bot("greedy")])
    path = tmp_path / name
    path.write_text(log.text(), encoding="utf-8")
    return path


def serve_without_listening(monkeypatch) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """Make `papillon serve` return at once instead of listening; each run's app and uvicorn options, as a dict."""
    from papillon.web.app import App

    calls: list[dict[str, object]] = []

    class NotListening:
        started = True

        def run(self) -> None:
            pass

    def server(app: App, **options: object) -> NotListening:
        calls.append({"app": app, **options})
        return NotListening()

    monkeypatch.setattr(App, "server", server)
    return calls
