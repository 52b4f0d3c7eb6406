"""Issue 23, the command line's items: each test reproduces what a new user or the fuzzer met (its item
number in the name) and checks the exact words, the exit status and that nothing was lost."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_helpers import ALWAYS_FIRST, Runner, a_game_log, one_line, serve_without_listening

from papillon.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sheets" / "examples" / "notation-example.garden"
PAPILLON = Path(sys.executable).parent / "papillon"


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path / "data"))
    for name in ("NO_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return Runner()


# --------------------------------------------------------------------------- 1: the lab extra, asked for before playing


def test_1_a_balance_report_without_matplotlib_is_refused_before_any_game(runner, tmp_path, monkeypatch):
    import papillon.cli.balance as balance_cli

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError

    def no_game(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a game was played before the missing extra was named")

    monkeypatch.setattr(balance_cli, "play", no_game)
    result = runner.invoke(main, ["balance", "-n", "2", "-o", "report.html"])
    assert result.exit_code == 1
    assert one_line(result.stderr) == (
        "papillon balance: error: -o report.html draws plots with matplotlib: pip install 'papillon-gardens[lab]'"
    )
    assert result.stdout == ""
    assert not (tmp_path / "report.html").exists()


def test_1_the_lab_extra_is_named_in_the_readme_and_balance_md():
    for doc in (ROOT / "README.md", ROOT / "docs" / "BALANCE.md"):
        assert "pip install 'papillon-gardens[lab]'" in doc.read_text(encoding="utf-8"), doc


# --------------------------------------------------------------------------- 4: install hints name papillon-gardens

_WRONG_HINTS = (
    re.compile(r"(?<![\w-])papillon\[\w+\]"),  # papillon[serve]: another project's name on the index
    re.compile(r"pip install\s+(?:-e\s+)?['\"]?papillon(?!-gardens)(?![\w/.\[-])"),  # pip install papillon
    re.compile(r"papillon's\s+'\w+'\s+extra(?![^\n]{0,40}papillon-gardens\[)"),  # an extra without the command that installs it
)


def wrong_install_hints(text: str) -> list[str]:
    return [match[0] for pattern in _WRONG_HINTS for match in pattern.finditer(text)]


def test_4_the_check_finds_each_wrong_hint_and_passes_the_right_ones():
    assert wrong_install_hints("needs the 'serve' extra: pip install 'papillon[serve]'") == ["papillon[serve]"]
    assert wrong_install_hints("pip install papillon") == ["pip install papillon"]
    assert wrong_install_hints("install papillon's 'cluster' extra (dask[distributed])") == ["papillon's 'cluster' extra"]
    assert wrong_install_hints("pip install 'papillon-gardens[serve]', or pip install -e '.[serve]'") == []
    assert wrong_install_hints("install papillon's 'lab' extra: pip install 'papillon-gardens[lab]'") == []


def test_4_every_install_hint_in_the_package_and_the_docs_names_papillon_gardens():
    files = [*(ROOT / "papillon").rglob("*.py"), *(ROOT / "papillon").rglob("*.html"), ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    found = {str(path.relative_to(ROOT)): hints for path in files if (hints := wrong_install_hints(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_4_serve_without_its_extra_names_the_distribution(runner, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = runner.invoke(main, ["serve"])
    assert result.exit_code == 1
    assert one_line(result.stderr) == (
        "papillon serve: error: papillon serve needs the 'serve' extra: pip install 'papillon-gardens[serve]' (uvicorn is missing)"
    )


# --------------------------------------------------------------------------- 10: NO_COLOR and TERM=dumb

ESCAPE = "\x1b"


def _play(runner, env):  # type: ignore[no-untyped-def]
    args = ["play", "--seed", "3", "--picture", "none", "--force", "--save", "g.jsonl"]
    return runner.invoke(main, args, input=ALWAYS_FIRST, env=env, color=True)  # color=True: as on a colour terminal


def test_10_a_colour_terminal_gets_colours(runner):
    result = _play(runner, {})
    assert result.exit_code == 0, result.output
    assert ESCAPE in result.stdout  # what NO_COLOR must take away


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"NO_COLOR": "no"}, {"TERM": "dumb"}])
def test_10_no_color_or_a_dumb_terminal_gets_no_escape_sequence_at_all(runner, env):
    result = _play(runner, env)
    assert result.exit_code == 0, result.output
    assert ESCAPE not in result.stdout and ESCAPE not in result.stderr
    for command in (["replay", "--step", "g.jsonl"], ["score", str(EXAMPLE)], ["history"], ["balance", "-n", "2"]):
        other = runner.invoke(main, command, env=env, color=True)
        assert other.exit_code == 0, (command, other.output)
        assert ESCAPE not in other.stdout and ESCAPE not in other.stderr, command


def test_10_an_empty_no_color_changes_nothing(runner):
    assert ESCAPE in _play(runner, {"NO_COLOR": ""}).stdout  # the convention: set and not empty


def test_10_the_progress_bar_of_a_dumb_terminal_has_no_escape(monkeypatch):
    from papillon.cli.simulate import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for env, escapes in (({"TERM": "xterm"}, True), ({"TERM": "dumb"}, False), ({"NO_COLOR": "1", "TERM": "xterm"}, False)):
        monkeypatch.delenv("NO_COLOR", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        err = Terminal()
        monkeypatch.setattr(sys, "stderr", err)
        assert list(progress(range(3), 3, "playing")) == [0, 1, 2]
        assert (ESCAPE in err.getvalue()) is escapes, env


# --------------------------------------------------------------------------- 11: pictures kept, and streams


def test_11_score_render_refuses_to_overwrite_a_picture_without_force(runner, tmp_path):
    assert runner.invoke(main, ["score", str(EXAMPLE), "--render", "pics"]).exit_code == 0
    picture = tmp_path / "pics" / "notation-example.png"
    picture.write_bytes(b"mine")
    result = runner.invoke(main, ["score", str(EXAMPLE), "--render", "pics"])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        "papillon score: error: pics/notation-example.png exists (use --force to overwrite it); see 'papillon score --help'"
    )
    assert result.stdout == ""  # refused before scoring
    assert picture.read_bytes() == b"mine"
    forced = runner.invoke(main, ["score", str(EXAMPLE), "--render", "pics", "--force"])
    assert forced.exit_code == 0, forced.output
    assert picture.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("extra", "magic"), [([], b"\x89PNG\r\n\x1a\n"), (["--format", "png"], b"\x89PNG"), (["--format", "pdf"], b"%PDF-")]
)
def test_11_render_dash_writes_the_picture_to_standard_output(runner, extra, magic):
    result = runner.invoke(main, ["render", str(EXAMPLE), "-o", "-", *extra])
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes.startswith(magic)


def test_11_render_format_must_agree_with_the_file_name(runner):
    result = runner.invoke(main, ["render", str(EXAMPLE), "-o", "x.png", "--format", "pdf"])
    assert result.exit_code == 2
    assert one_line(result.stderr) == "papillon render: error: -o x.png is a .png name but --format is pdf; see 'papillon render --help'"


def test_11_render_to_dev_stdout_is_a_stream(tmp_path):
    done = subprocess.run([str(PAPILLON), "render", str(EXAMPLE), "-o", "/dev/stdout"], capture_output=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"\x89PNG")
    pdf = subprocess.run(
        [str(PAPILLON), "render", str(EXAMPLE), "-o", "/dev/stdout", "--format", "pdf"], capture_output=True, timeout=120, cwd=tmp_path
    )
    assert pdf.returncode == 0, pdf.stderr
    assert pdf.stdout.startswith(b"%PDF-")


# --------------------------------------------------------------------------- 14: variant names stay distinct


def test_14_short_labels_keep_variants_apart():
    from papillon.balance.table import short_labels

    assert short_labels(["standard", "mine"], 22) == ["standard", "mine"]
    long = ["scoring.enclosed=1 rules.adjacency=orthogonal", "scoring.enclosed=1 rules.adjacency=king"]
    shown = short_labels(long, 22)
    assert shown == ["adjacency=orthogonal", "adjacency=king"]
    many = [f"scoring.enclosed={e} rules.adjacency={a}" for e in (1, 2) for a in ("orthogonal", "king")]
    shown = short_labels(many, 22)
    assert len(set(shown)) == 4 and all(len(s) <= 22 for s in shown)
    same_start = ["a-very-long-edition-name-one", "a-very-long-edition-name-two"]
    shown = short_labels(same_start, 22)
    assert len(set(shown)) == 2 and all(len(s) <= 22 for s in shown)


def test_14_the_balance_tables_never_show_two_columns_with_one_name(runner):
    args = ["balance", "-n", "2", "--set", "scoring.enclosed=1,2", "--set", "rules.adjacency=orthogonal,king"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    headers = [line for line in result.stdout.splitlines() if line.startswith(("category  ", "tile  "))]
    assert len(headers) == 2
    for header in headers:
        columns = re.split(r"\s{2,}", header.strip())[1:]
        assert len(columns) == 4 and len(set(columns)) == 4, header
        assert not any(c.endswith("…") for c in columns), header


# --------------------------------------------------------------------------- 16: shell completion, as documented

COMPLETION = re.compile(r"^\s*(.*_PAPILLON_COMPLETE=(bash|zsh|fish)_source papillon.*)$", re.MULTILINE)


def test_16_the_readme_documents_completion_for_bash_zsh_and_fish():
    found = {shell: line for line, shell in COMPLETION.findall((ROOT / "README.md").read_text(encoding="utf-8"))}
    assert set(found) == {"bash", "zsh", "fish"}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_16_each_documented_completion_command_gives_a_script(shell, tmp_path):
    env = {**os.environ, "_PAPILLON_COMPLETE": f"{shell}_source", "PATH": f"{PAPILLON.parent}:{os.environ['PATH']}"}
    done = subprocess.run([str(PAPILLON)], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert "_papillon_completion" in done.stdout
    if shell == "bash" and shutil.which("bash"):
        (line,) = [line for line, s in COMPLETION.findall((ROOT / "README.md").read_text(encoding="utf-8")) if s == "bash"]
        ask = 'COMP_WORDS=(papillon sc); COMP_CWORD=1; _papillon_completion papillon; printf "%s\\n" "${COMPREPLY[@]}"'
        script = line.split("#")[0] + "\n" + ask
        completed = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert completed.stdout.split() == ["scan", "score"], completed.stderr


# --------------------------------------------------------------------------- 17: replay --step, round by round


def test_17_replay_step_shows_each_round_with_its_cards_and_dice(runner, tmp_path):
    path = a_game_log(tmp_path)
    result = runner.invoke(main, ["replay", "--step", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for number in range(1, 11):
        block = out.split(f"== round {number} ==\n", 1)[1].split("== round", 1)[0]
        assert block.startswith("revealed: "), block[:200]
        assert "\nrolled: " in block
        assert "score now" in block
    assert out.count("revealed: ") == 10 and out.count("rolled: ") == 10
    assert "Final garden" in out
    assert "Enter" not in out  # standard input is not a terminal: no waiting


def test_17_replay_step_waits_for_enter_in_a_terminal(runner, tmp_path, monkeypatch):
    import papillon.cli.replay as replay_cli

    monkeypatch.setattr(replay_cli, "interactive", lambda: True)
    path = a_game_log(tmp_path)
    result = runner.invoke(main, ["replay", "--step", str(path)], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("revealed: ") == 3  # rounds 1 to 3, then q
    assert result.stdout.count("(Enter: round ") == 3
    assert "Final garden" not in result.stdout


def test_17_an_unfinished_log_is_not_called_final(runner, tmp_path):
    path = a_game_log(tmp_path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(line for line in lines[: len(lines) // 2] if '"end"' not in line) + "\n")
    result = runner.invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Final garden" not in result.stdout
    match = re.search(r"^Garden so far \(round (\d+) of 10, unfinished\)", result.stdout, re.MULTILINE)
    assert match, result.stdout


# --------------------------------------------------------------------------- 28: --cluster, --set, --bot


@pytest.mark.parametrize("address", ["notaurl", "tcp://", "tcp://127.0.0.1:notaport", "foo://x:1", "tcp://127.0.0.1:99999"])
def test_28_a_malformed_cluster_address_is_one_usage_line(runner, address):
    result = runner.invoke(main, ["balance", "-n", "1", "--cluster", address])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"papillon balance: error: Invalid value for '--cluster': {address!r}: expected tcp://HOST:PORT "
        "(like tcp://10.0.0.5:8786), or 'local'; see 'papillon balance --help'"
    )


def _peer(reply: bytes | None):  # type: ignore[no-untyped-def]
    """A local server that accepts and answers ``reply`` (None: says nothing); its port."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()
    held = []

    def serve() -> None:
        while not stop.is_set():
            try:
                peer, _ = server.accept()
            except TimeoutError:
                continue
            held.append(peer)
            if reply is not None:
                with contextlib.suppress(OSError):
                    peer.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server.getsockname()[1], lambda: (stop.set(), thread.join(), [p.close() for p in held], server.close())


def _balance_on(port: int, *extra: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    args = [str(PAPILLON), "balance", "-n", "1", "--cluster", f"tcp://127.0.0.1:{port}", *extra]
    done = subprocess.run(args, capture_output=True, text=True, timeout=90)
    return done, time.monotonic() - start


def test_28_a_peer_that_never_answers_times_out_in_one_line():
    port, close = _peer(None)
    try:
        done, took = _balance_on(port, "--cluster-timeout", "2")
    finally:
        close()
    assert done.returncode == 1
    assert one_line(done.stderr) == (
        f"papillon balance: error: no answer from a Dask scheduler at tcp://127.0.0.1:{port} within 2 s "
        "(is one running there?); --cluster-timeout SECONDS waits longer"
    )
    assert took < 30


def test_28_a_peer_that_is_not_a_dask_scheduler_is_one_line():
    port, close = _peer(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 3)
    try:
        done, took = _balance_on(port, "--cluster-timeout", "5")
    finally:
        close()
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"papillon balance: error: tcp://127.0.0.1:{port} is not a Dask scheduler"), line
    assert took < 30


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1" * 5000, "a number of more than 100 digits"),
        ("[" * 5000 + "]" * 5000, "nested deeper than 32 levels"),
    ],
)
def test_28_set_values_have_the_file_readers_bounds(runner, value, message):
    start = time.monotonic()
    result = runner.invoke(main, ["balance", "-n", "1", "--set", f"scoring.enclosed={value}"])
    assert result.exit_code == 2
    line = one_line(result.stderr)
    assert line.startswith("papillon balance: error: Invalid value for '--set': scoring.enclosed: ")
    assert line.endswith(f": {message}; see 'papillon balance --help'")
    assert len(line) < 200
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("command", ["balance", "simulate"])
def test_28_search_without_a_budget_is_refused(runner, command):
    result = runner.invoke(main, [command, "-n", "1", "--bot", "search:"])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"papillon {command}: error: Invalid value for '--bot': bad bot 'search:': search:N takes a whole number N from 1 to 64;"
        f" see 'papillon {command} --help'"
    )


# --------------------------------------------------------------------------- 29: smaller things


def test_29_simulate_logs_that_cannot_be_written_exit_1(runner, tmp_path):
    (tmp_path / "file").write_text("x")
    result = runner.invoke(main, ["simulate", "-n", "1", "--logs", "file/logs"])
    assert result.exit_code == 1
    assert one_line(result.stderr) == "papillon simulate: error: cannot write the game logs to file/logs: Not a directory"


def test_29_a_game_log_write_that_fails_midway_exits_1(runner, tmp_path, monkeypatch):
    import papillon.cli.simulate as simulate_cli

    def full(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(simulate_cli, "write_atomic", full)
    result = runner.invoke(main, ["simulate", "-n", "1", "--seed", "1", "--logs", "logs"])
    assert result.exit_code == 1
    assert re.fullmatch(
        r"papillon simulate: error: cannot write the game log logs/\d+\.jsonl: No space left on device", one_line(result.stderr)
    )


def test_29_play_save_that_cannot_be_written_exits_1(runner, tmp_path, monkeypatch):
    import papillon.cli.play as play_cli

    def read_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(play_cli.tempfile, "TemporaryFile", read_only)
    result = runner.invoke(main, ["play", "--seed", "3", "--save", "g.jsonl"], input=ALWAYS_FIRST)
    assert result.exit_code == 1
    assert one_line(result.stderr) == "papillon play: error: cannot save to g.jsonl: Read-only file system"
    assert not (tmp_path / "g.jsonl").exists()


def test_29_scan_debug_dir_that_cannot_be_made_exits_1(runner, tmp_path):
    pytest.importorskip("cv2")
    (tmp_path / "file").write_text("x")
    result = runner.invoke(main, ["scan", str(EXAMPLE), "--debug-dir", "file/debug"])
    assert result.exit_code == 1
    assert one_line(result.stderr) == "papillon scan: error: file/debug: cannot create it (Not a directory)"


@pytest.mark.parametrize("typed", ["? " + "9" * 5000, "g " + "9" * 5000, "9" * 5000])
def test_29_a_number_of_thousands_of_digits_at_the_prompt_is_refused(runner, typed):
    result = runner.invoke(main, ["play", "--seed", "3", "--picture", "none"], input=f"{typed}\nq\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and result.exception is None
    assert "Saved to papillon-3.jsonl" in result.stdout


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b", "a name cannot hold the invisible or control character U+200B: '\\u200b'"),
        ("\u3164", "a name needs a visible character, got only U+3164: '\u3164'"),
        ("\u2800\u2800", "a name needs a visible character, got only U+2800: '\u2800\u2800'"),
        ("\u0301", "a name needs a visible character, got only U+0301: '\u0301'"),
    ],
)
def test_29_new_refuses_an_invisible_name_by_the_name_rule(runner, name, message):
    from papillon.notation import player_name

    with pytest.raises(ValueError) as raised:
        player_name(name)
    assert str(raised.value) == message
    result = runner.invoke(main, ["new", "--player", name])
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"papillon new: error: Invalid value for '--player': {message}; see 'papillon new --help'"
    assert result.stdout == ""


def test_29_a_visible_name_with_a_combining_accent_is_kept(runner):
    result = runner.invoke(main, ["new", "--player", "Zoe\u0301"])
    assert result.exit_code == 0
    assert "player: Zoe\u0301" in result.stdout


def test_29_a_json_garden_error_quotes_a_brick_name_short(runner, tmp_path):
    from papillon.garden import Garden
    from papillon.notation import to_json

    for brick in ("A1-" + "x" * 10_000, "A" * 10_000):
        data = to_json(Garden.empty())
        data["bricks"] = [brick]
        (tmp_path / "g.json").write_text(json.dumps(data))
        result = runner.invoke(main, ["score", "g.json"])
        assert result.exit_code == 1
        line = one_line(result.stderr)
        assert len(line) < 250, line
        assert line.startswith('g.json: JSON garden: bricks[0]: expected a brick like "A1-A2", found "A')


BAD_TIFF = """
import io, sys
from PIL import Image
image = io.BytesIO()
Image.new("RGB", (400, 400), "white").save(image, format="TIFF", compression="tiff_lzw")
data = bytearray(image.getvalue())
for i in range(8, 60):
    data[i] ^= 0x55  # the compressed pixels damaged: libtiff complains on its own stderr
{call}
"""


@pytest.mark.parametrize(
    "call",
    [
        "from papillon.scan.detect import load_photo\ntry: load_photo(bytes(data))\nexcept Exception as e: print(type(e).__name__)",
    ],
)
def test_29_libtiff_says_nothing_where_papillon_opens_an_image(call):
    pytest.importorskip("cv2")
    done = subprocess.run([sys.executable, "-c", BAD_TIFF.format(call=call)], capture_output=True, text=True, timeout=120)
    assert done.stderr == ""
    assert "Traceback" not in done.stdout


@pytest.mark.parametrize(("env", "colours"), [({}, None), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False)])
def test_10_the_web_server_log_has_no_colour_when_asked(runner, monkeypatch, env, colours):
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    runs = serve_without_listening(monkeypatch)
    result = runner.invoke(main, ["serve", "--port", "8765"], env=env)
    assert result.exit_code == 0, result.output
    assert runs[0]["use_colors"] is colours  # None: uvicorn's own choice, colour on a terminal
