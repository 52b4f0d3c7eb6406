"""One style, enforced: ruff (lint and format) and mypy run as part of the tests."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.slow
def test_ruff_lint_and_format():
    lint = run("ruff", "check", "papillon", "tests", "bench")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = run("ruff", "format", "--check", "papillon", "tests", "bench")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


@pytest.mark.slow  # a whole-package type check: half a minute
def test_mypy():
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_style_tools_are_the_pinned_versions():
    # pyproject.toml pins ruff and mypy exactly, so a new release cannot turn main red: run with those.
    import tomllib
    from importlib.metadata import version

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pins = dict(req.split("==") for req in extra if req.split("==")[0] in ("ruff", "mypy"))
    assert {tool: version(tool) for tool in pins} == pins, "install the pinned tools: pip install -e '.[test]'"
