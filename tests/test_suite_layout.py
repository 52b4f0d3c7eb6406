"""The test suite itself (issue 23, item 18): any part of it runs alone, fixtures are not copied, and it runs in parallel.

``pytest tests/browser`` alone failed (``No module named 'photos'``): the helper modules were on the
path only when a test module of tests/ happened to be imported first. tests/conftest.py now puts
them there for any selection, holds the fixtures several files need, and gives each test a data
folder of its own, so the README's ``pytest -n auto`` workers never share a history database.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_FILES = sorted((ROOT / "tests").rglob("test_*.py"))


def _fixtures(path: Path) -> dict[str, str]:
    """The fixtures a test file defines: name -> source of the function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("fixture" in ast.unparse(d) for d in node.decorator_list):
            found[node.name] = ast.unparse(node)
    return found


def test_18_no_test_module_imports_another():
    imports = []
    for path in TEST_FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.split(".")[0].startswith("test_") for name in names):
                imports.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert imports == [], "shared helpers go in a helper module (tests/hand_checked.py, tests/warped.py...) or tests/conftest.py"


def test_18_a_fixture_is_not_copied_from_file_to_file():
    seen: dict[str, list[str]] = {}
    for path in TEST_FILES:
        for name, source in _fixtures(path).items():
            seen.setdefault(source, []).append(f"{path.relative_to(ROOT)}::{name}")
    copies = [places for places in seen.values() if len(places) > 1]
    assert copies == [], "a fixture several files need belongs in tests/conftest.py"


def test_18_the_web_client_and_the_runner_are_shared():
    shared = _fixtures(ROOT / "tests" / "conftest.py")
    assert {"client", "runner"} <= set(shared)


def test_18_the_readme_runs_the_tests_in_parallel_with_a_listed_tool():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line for line in first_block.splitlines() if line and not line.startswith("#")]
    assert len(commands) == 2, ".ci/run runs the two lines of the README's first sh block"
    assert "pytest -n auto" in commands[1]
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["test"]
    assert any(requirement.startswith("pytest-xdist") for requirement in extra)


@pytest.mark.slow  # a browser test, in a pytest of its own
def test_18_pytest_tests_browser_alone_finds_the_helper_modules(tmp_path):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    selection = "tests/browser/test_night.py::test_a_photo_read_then_corrected"  # imports photos.synth
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"), selection],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "No module named" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stdout[-3000:]
