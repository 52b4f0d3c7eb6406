"""The package ships everything it needs after a plain (non-editable) install."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

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


def test_the_wheel_carries_the_fonts_their_licence_and_the_edition(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("papillon-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "papillon/fonts/Quicksand-Regular.ttf",
        "papillon/fonts/Quicksand-Bold.ttf",
        "papillon/fonts/OFL.txt",
        "papillon/editions/standard.toml",
        "papillon/py.typed",
    ):
        assert needed in names
