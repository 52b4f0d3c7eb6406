"""The model is pure: importing it loads no PDF, image, CLI or vision library."""

import subprocess
import sys

import pytest

HEAVY = ("reportlab", "PIL", "click", "cv2")


def loaded_after_import(module: str) -> list[str]:
    code = f"import sys, {module}; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.split()


MODEL = ["papillon", "papillon.score", "papillon.notation", "papillon.geometry", "papillon.edition", "papillon.layout", "papillon.engine"]


@pytest.mark.parametrize("module", MODEL)
def test_the_model_loads_no_heavy_library(module):
    assert loaded_after_import(module) == []


def test_import_papillon_loads_no_numpy_or_shapely():
    # They load with the first enclosure looked for: a one-file `papillon score` starts faster.
    code = "import sys, papillon, papillon.notation; print(' '.join(m for m in ('numpy', 'shapely') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == []
