"""Every command of the README works as printed (issue 10, item 15).

The README's ```sh blocks are run line by line, in order, in a fresh folder holding a copy of
``sheets/`` (the examples the commands name) and a photo of a sheet (``photo.jpg``), with the
installed ``papillon`` command.  Interactive commands read "1" (the first choice) until the game
ends.  The first block (install, then run the test suite) is what CI runs; it is not run here.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    commands = []
    for block in blocks[1:]:  # the first block installs papillon and runs this suite
        for line in block.splitlines():
            command = re.sub(r"\s{2,}#\s.*$", "", line).strip()  # the comment after the command
            if command:
                commands.append(command)
    return commands


def test_the_readme_has_the_commands_a_user_copies():
    commands = readme_commands()
    assert len(commands) >= 15
    assert "papillon replay papillon-7.jsonl --garden --player 1 | papillon score -" in commands


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "sheets", folder / "sheets")
    return folder


def _photo(folder: Path) -> bool:
    """A photo of a filled sheet every reading of which is sure (tests/test_cli_score_photo.py uses it)."""
    try:
        import cv2  # noqa: F401
        from photos.synth import synthetic_photo
    except ImportError:
        return False
    (folder / "photo.jpg").write_bytes(synthetic_photo(10, megapixels=(2.0, 2.0)).jpeg)
    return True


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve_problem(command: str, folder: Path, env: dict[str, str]) -> str:
    """Start a `papillon serve` line of the README (on a free port), wait until it answers on loopback, stop it.

    A server runs until stopped, so "works as printed" means: it starts, listens and says where.
    BROWSER=true makes ``--open`` a no-op (no browser window from a test).
    """
    port = _free_port()
    server = subprocess.Popen(
        ["bash", "-c", f"exec {command} --port {port}"],
        cwd=folder,
        env={**env, "BROWSER": "true"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    listening = False
    deadline = time.monotonic() + 60
    while not listening and time.monotonic() < deadline and server.poll() is None:
        with socket.socket() as probe:
            listening = probe.connect_ex(("127.0.0.1", port)) == 0
        time.sleep(0.2)
    server.terminate()
    output = server.communicate(timeout=30)[0]
    if "Traceback" in output:
        return output[-2000:]
    return "" if listening else f"(not listening on port {port}; exit {server.returncode})\n{output[-2000:]}"


@pytest.mark.slow
def test_every_readme_command_works_as_printed(folder):
    papillon = shutil.which("papillon", path=str(Path(sys.executable).parent)) or shutil.which("papillon")
    assert papillon, "the papillon command is installed with the package"
    has_photo = _photo(folder)
    env = {**os.environ, "PATH": f"{Path(papillon).parent}{os.pathsep}{os.environ['PATH']}", "PAPILLON_DATA_DIR": str(folder / "data")}
    env.pop("COLUMNS", None)
    failures = []
    for command in readme_commands():
        if "photo.jpg" in command and not has_photo:
            continue  # needs the scan extra (OpenCV)
        if command.startswith("pip install"):
            continue  # an extra the test install already has (the test extra holds them all)
        if command.startswith("papillon serve"):
            problem = _serve_problem(command, folder, env)
            if problem:
                failures.append(f"$ {command}\n{problem}")
            continue
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, input="1\n" * 400, capture_output=True, text=True, timeout=900
        )
        if result.returncode != 0 or "Traceback" in result.stderr:
            failures.append(f"$ {command}\n(exit {result.returncode})\n{result.stderr[-2000:]}")
    for code in re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S):
        result = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            failures.append(f"python:\n{code}\n{result.stderr[-2000:]}")
    assert not failures, "\n\n".join(failures)
    assert (folder / "papillon-7.jsonl").is_file() and (folder / "ann.png").is_file()
