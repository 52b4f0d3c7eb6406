"""Every command and sample output of README.md and docs/*.md, against the real thing (issue 23, item 6).

Each page is read as a user reads it, top to bottom, in a fresh folder holding a copy of
``sheets/`` (and photos named as the pages name them, when the scan extra is there):

* a ```sh block: each line is a command, run with bash; it must exit 0 without a traceback.
  ``pip install`` lines are passed over (the test install holds every extra). The README's
  blocks are run by tests/test_cli_readme.py (with its server and its interactive game), not again here.
* a ```python block is run with this interpreter; a ```garden block must parse.
* an output block (a plain ```) must be preceded by ``<!-- output of: COMMAND -->``: COMMAND is
  run and what it prints (standard output, then standard error) must be the block exactly.

HTML comments in the page's source (invisible on the rendered page) steer the run:
``<!-- setup: COMMAND -->`` makes the files a block's commands name; ``<!-- not run: WHY -->``
before a block leaves it out, and WHY must say why (a server that runs until stopped, a long
run, a photo the scanner doubts). A plain block with neither comment fails: no sample goes untested.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from papillon.notation import parse

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^( *)```(\w*)\s*$")
COMMENT = re.compile(r"^\s*<!--\s*(setup|not run|output of):\s*(.*?)\s*-->\s*$")
PHOTOS = ("photo.jpg", "IMG_2041.jpg")
"""The photos the pages name: a synthetic photo of a filled sheet, every reading of which is sure."""


@dataclass
class Block:
    page: str
    line: int
    language: str
    text: str
    notes: list[tuple[str, str]] = field(default_factory=list)
    """The steering comments right above the block, in order: ("setup" | "not run" | "output of", text)."""

    def note(self, kind: str) -> str | None:
        return next((text for k, text in self.notes if k == kind), None)

    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a page, each with the steering comments just above it (blank lines between allowed)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    notes: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence:
            indent, language = fence.groups()
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            body = "\n".join(line[len(indent) :] for line in lines[i + 1 : end])
            found.append(Block(path.name, i + 1, language, body + "\n", notes))
            notes, i = [], end + 1
            continue
        comment = COMMENT.match(lines[i])
        if comment:
            notes = [*notes, (comment.group(1), comment.group(2))]
        elif lines[i].strip():
            notes = []
        i += 1
    return found


def commands(block: Block) -> list[str]:
    """A sh block's command lines, without the comment after each (two spaces, then '#')."""
    out = []
    for line in block.text.splitlines():
        command = re.sub(r"\s{2,}#\s.*$", "", line).strip()
        if command and not command.startswith("#"):
            out.append(command)
    return out


def test_every_sample_and_every_skip_is_accounted_for():
    problems = []
    for page in PAGES:
        for block in blocks(page):
            why = block.note("not run")
            if why is not None and len(why.split()) < 3:
                problems.append(f"{block.where()}: 'not run' needs a reason, found {why!r}")
            if block.language in ("", "text") and why is None and block.note("output of") is None:
                problems.append(f"{block.where()}: a sample with no '<!-- output of: COMMAND -->' above it")
            if block.note("output of") is not None and block.language not in ("", "text"):
                problems.append(f"{block.where()}: 'output of' above a ```{block.language} block")
    assert problems == []


def test_the_readme_sample_is_checked():
    readme = blocks(ROOT / "README.md")
    assert any(b.note("output of") == "papillon score sheets/examples/notation-example.garden" for b in readme)


@pytest.fixture(scope="module")
def photo() -> bytes | None:
    try:
        import cv2  # noqa: F401
        from photos.synth import synthetic_photo
    except ImportError:
        return None
    return synthetic_photo(10, megapixels=(2.0, 2.0)).jpeg


def _environment(folder: Path) -> dict[str, str]:
    papillon = shutil.which("papillon", path=str(Path(sys.executable).parent)) or shutil.which("papillon")
    assert papillon, "the papillon command is installed with the package"
    env = {**os.environ, "PATH": f"{Path(papillon).parent}{os.pathsep}{os.environ['PATH']}", "PAPILLON_DATA_DIR": str(folder / "data")}
    for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        env.pop(name, None)
    return env


def _run(command: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


@pytest.mark.slow  # every command of every page: a few minutes of CPU in all
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_the_page_works_as_printed(page: Path, tmp_path: Path, photo: bytes | None):
    folder = tmp_path / "reader"
    shutil.copytree(ROOT / "sheets", folder / "sheets")
    if photo is not None:
        for name in PHOTOS:
            (folder / name).write_bytes(photo)
    env = _environment(folder)
    failures = []
    for block in blocks(page):
        for kind, setup in block.notes:
            if kind == "setup":
                done = _run(setup, folder, env)
                assert done.returncode == 0, f"{block.where()}: setup {setup!r} failed: {done.stderr}"
        if block.note("not run") is not None:
            continue
        if block.language == "sh" and page.name != "README.md":
            for command in commands(block):
                if command.startswith("pip install"):
                    continue  # the test install already holds every extra
                if photo is None and any(name in command for name in PHOTOS):
                    continue  # needs the scan extra (OpenCV) to make the photo
                done = _run(command, folder, env)
                if done.returncode != 0 or "Traceback" in done.stderr:
                    failures.append(f"{block.where()}: $ {command}\n(exit {done.returncode})\n{done.stderr[-1500:]}")
        elif block.language == "python" and page.name != "README.md":
            done = subprocess.run([sys.executable, "-c", block.text], cwd=folder, env=env, capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                failures.append(f"{block.where()}: python block\n{done.stderr[-1500:]}")
        elif block.language == "garden":
            try:
                parse(block.text)
            except Exception as error:  # a NotationError names the line and column
                failures.append(f"{block.where()}: the garden does not parse: {error}")
        elif (command := block.note("output of")) is not None:
            done = _run(command, folder, env)
            if _lines(done.stdout + done.stderr) != _lines(block.text):
                printed = done.stdout + done.stderr
                failures.append(f"{block.where()}: $ {command}\n--- the page says:\n{block.text}--- papillon prints:\n{printed}")
    assert not failures, "\n\n".join(failures)
