"""The package ships everything it needs after a plain (non-editable) install."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_source_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "papillon").rglob("__init__.py")
        if "__pycache__" not in path.parts
    }
    listed = set(config["packages"])
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"
    assert config["package-dir"]["papillon.fonts"] == "fonts"


@pytest.mark.slow  # builds a wheel
def test_the_wheel_carries_the_fonts_their_licence_and_the_edition(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("papillon_gardens-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "papillon/fonts/Quicksand-Regular.ttf",
        "papillon/fonts/Quicksand-Bold.ttf",
        "papillon/fonts/OFL.txt",
        "papillon/editions/standard.toml",
        "papillon/py.typed",
    ):
        assert needed in names


DISTRIBUTION = "papillon-gardens"
"""The name on the package index ("papillon" there is an unrelated project); the import name stays papillon."""


def test_the_distribution_name_is_ours_and_every_install_hint_uses_it():
    from papillon.scan import INSTALL_HINT

    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"] == DISTRIBUTION
    assert f"pip install '{DISTRIBUTION}[scan]'" in INSTALL_HINT
    for text in (INSTALL_HINT, *(path.read_text() for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])):
        assert "install 'papillon[" not in text and "install papillon[" not in text and "install papillon " not in text


def test_the_style_tools_are_pinned():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pins = {req.split("==")[0]: req for req in extra if req.split("==")[0] in ("ruff", "mypy")}
    assert set(pins) == {"ruff", "mypy"} and all("==" in req for req in pins.values())
