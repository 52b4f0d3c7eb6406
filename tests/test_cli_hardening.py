"""Issue 10: every input a fuzzer or a new user tried, each once a traceback, now one clear line.

Each test reproduces one crash or wrong answer of the issue (its item number in the name) and
checks the exit status, the one line on stderr and that nothing was lost.
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from cli_helpers import ALWAYS_FIRST, Runner, a_game_log, one_line

from papillon.cli import main
from papillon.cli.common import MAX_GARDEN_BYTES, MAX_PHOTO_BYTES
from papillon.engine import parse_log
from papillon.files import read_bounded
from papillon.history import History
from papillon.scan import is_image

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sheets" / "examples" / "notation-example.garden"


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return Runner()


# --------------------------------------------------------------------------- 1: names


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ann #1", "a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"),
        ("Ann\tB", "a name cannot hold the invisible or control character U+0009: 'Ann\\tB'"),
        ("A\x07", "a name cannot hold the invisible or control character U+0007: 'A\\u0007'"),
        ("   ", "a name cannot be empty or only spaces"),
    ],
)
def test_1_a_name_the_notation_cannot_hold_is_refused_before_the_game(runner, tmp_path, name, message):
    result = runner.invoke(main, ["play", "--seed", "3", "--name", name], input=ALWAYS_FIRST)
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"papillon play: error: Invalid value for '--name': {message}; see 'papillon play --help'"
    assert list(tmp_path.glob("*.jsonl")) == []


def test_1_spaces_around_a_name_are_dropped_and_the_game_is_saved(runner, tmp_path):
    result = runner.invoke(main, ["play", "--seed", "3", "--picture", "none", "--name", " Ann "], input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert parse_log((tmp_path / "papillon-3.jsonl").read_text())  # saved, and readable
    assert json.loads((tmp_path / "papillon-3.jsonl").read_text().splitlines()[0])["players"][0]["name"] == "Ann"


@pytest.mark.parametrize("command", [["replay"], ["play", "--resume"]])
def test_1_a_log_holding_such_a_name_is_one_line(runner, tmp_path, command):
    path = a_game_log(tmp_path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["players"][0]["name"] = "Ann #1"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = runner.invoke(main, [*command, str(path)])
    assert result.exit_code == 1
    assert one_line(result.stderr).endswith(
        "game.jsonl: player 1: a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"
    )


# --------------------------------------------------------------------------- 2: digits that are not 0-9


def test_2_a_superscript_digit_at_the_prompt_is_refused_and_nothing_is_lost(runner, tmp_path):
    # start B4 (1), then '²', '? ²' and 'g ²', then quit: the first decision is still in the save.
    result = runner.invoke(main, ["play", "--seed", "8", "--save", "s.jsonl"], input="1\n²\n? ²\ng ²\nq\n")
    assert result.exit_code == 0, result.output
    assert "  '²' is not allowed: Player 1: round 1: choose a pair (card and die);\n  expected 'pair' (e.g. 'pair 1')" in result.output
    assert "which garden? g 1 to g 1" in result.output
    events = parse_log((tmp_path / "s.jsonl").read_text()).events
    assert events[1] == {"player": 0, "action": "start B4"}  # events[0] is the deal


def test_2_a_log_with_a_superscript_die_is_one_line(runner, tmp_path):
    path = a_game_log(tmp_path)
    text = path.read_text()
    roll = next(line for line in text.splitlines() if '"roll ' in line)
    words = json.loads(roll)["chance"].split()
    damaged = json.dumps({"chance": " ".join([words[0], "²", *words[2:]])})
    path.write_text(text.replace(roll, damaged, 1))
    result = runner.invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    number = text.splitlines().index(roll) + 1
    expected = f"line {number}: expected the roll of 3 dice ('roll' and 3 faces from 1 to 6), got '{json.loads(damaged)['chance']}'"
    assert one_line(result.stderr) == f"papillon replay: error: {path}: {expected}"


# --------------------------------------------------------------------------- 3: a full standard output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["score", str(EXAMPLE)],
        ["score", "--json", str(EXAMPLE)],
        ["format", str(EXAMPLE)],
        ["new"],
        ["sheet", "-o", "-", "--sides", "score"],
        ["replay", "GAME"],
        ["--help"],
        ["score", "--help"],
        ["--version"],
    ],
)
def test_3_a_full_standard_output_is_one_line_and_exit_1(tmp_path, args):
    args = [str(a_game_log(tmp_path)) if a == "GAME" else a for a in args]
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "papillon", *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert result.returncode == 1
    assert one_line(result.stderr) == "papillon: error: cannot write to standard output (No space left on device)"


@pytest.mark.slow  # 300 simulated games
def test_3_a_closed_pipe_is_silent(tmp_path):
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    result = subprocess.run(
        [sys.executable, "-m", "papillon", "simulate", "-n", "300", "--bot", "random", "--seed", "1", "--json"],
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        text=True,
    )
    reader.stdin.close()
    reader.wait()
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


# --------------------------------------------------------------------------- 4: nesting and huge numbers

DEEP_JSON = "[" * 1000 + "]" * 1000
HUGE_INT = '{"format": "papillon-garden", "version": ' + "1" * 5000 + "}"


@pytest.mark.parametrize("command", [["score"], ["format"]])
@pytest.mark.parametrize(
    ("text", "message"),
    [
        # '{' at column 1, '[' at 6, 7, ...: the 65th opening bracket is at column 6 + 63 = 69.
        (DEEP_JSON.replace("[", '{"a":[', 1), "line 1, column 69: not valid JSON: nested deeper than 64 levels"),
        ('{"a": ' + DEEP_JSON + "}", "line 1, column 70: not valid JSON: nested deeper than 64 levels"),
        (HUGE_INT, "line 1, column 42: not valid JSON: a number of more than 100 digits"),
    ],
)
def test_4_deep_or_huge_json_gardens_are_one_line(runner, tmp_path, command, text, message):
    path = tmp_path / "g.json"
    path.write_text(text)
    result = runner.invoke(main, [*command, str(path)])
    assert result.exit_code == 1
    line, column = message.split(",")[0].split()[1], message.split("column ")[1].split(":")[0]
    assert one_line(result.stderr) == f"{path}:{line}:{column}: {message.split(': ', 1)[1]}"


@pytest.mark.parametrize("damage", ["deep", "huge"])
@pytest.mark.parametrize("command", [["replay"], ["play", "--resume"]])
def test_4_deep_or_huge_json_in_a_log_is_one_line(runner, tmp_path, command, damage):
    path = a_game_log(tmp_path)
    lines = path.read_text().splitlines()
    lines.insert(1, '{"x": ' + DEEP_JSON + "}" if damage == "deep" else '{"chance": ' + "9" * 5000 + "}")
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(main, [*command, str(path)])
    assert result.exit_code == 1
    expected = "nested deeper than 64 levels" if damage == "deep" else "a number of more than 100 digits"
    assert expected in one_line(result.stderr) and "line 2" in result.stderr


@pytest.mark.parametrize("text", ['{"games": ' + DEEP_JSON + "}", '{"games": [' + "7" * 5000 + "]}"])
def test_4_a_hostile_old_history_file_is_left_alone(runner, tmp_path, text):
    history = tmp_path / "data" / "history.json"
    history.parent.mkdir()
    history.write_text(text)
    result = runner.invoke(main, ["play", "--seed", "5", "--picture", "none", "--name", "Ann"], input=ALWAYS_FIRST)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "Ann: first game recorded" in result.output
    assert history.read_text() == text, "not imported, not changed"
    assert [e.player for e in History(tmp_path / "data" / "history.sqlite3").entries()] == ["Ann"]


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("x = " + "[" * 1000 + "]" * 1000, "nested deeper than 32 levels"),
        ("x = " + "{a = " * 40 + "1" + "}" * 40, "nested deeper than 32 levels"),
        ("x = " + "9" * 5000, "a number of more than 100 digits"),
    ],
)
def test_4_deep_or_huge_toml_is_one_line(runner, tmp_path, toml, message):
    path = tmp_path / "x.toml"
    path.write_text(toml)
    edition = runner.invoke(main, ["score", "--edition", str(path), str(EXAMPLE)])
    assert edition.exit_code == 2
    assert message in one_line(edition.stderr)
    sheet = runner.invoke(main, ["sheet", "--from", str(path), "-o", str(tmp_path / "s.pdf")])
    assert sheet.exit_code == 2
    assert message in one_line(sheet.stderr)


# --------------------------------------------------------------------------- 5: pipes and FIFOs


@pytest.mark.parametrize("piece", [None, 7], ids=["at-once", "trickling"])
def test_5_a_fifo_is_read_once_to_its_end(runner, tmp_path, piece):
    fifo = tmp_path / "g.fifo"
    os.mkfifo(fifo)
    text = EXAMPLE.read_text()

    def feed() -> None:
        with open(fifo, "w") as handle:
            for start in range(0, len(text), piece or len(text)):  # a slow writer: a read may get a few bytes
                handle.write(text[start : start + (piece or len(text))])
                handle.flush()
                time.sleep(0.001)

    writer = threading.Thread(target=feed)
    writer.start()
    result = runner.invoke(main, ["score", "--json", str(fifo)])
    writer.join(timeout=10)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.output)["total"] == 22


def trickle(data: bytes, most: int = 3) -> Callable[[int], bytes]:
    """A reader that gives at most ``most`` bytes a call, as a pipe may."""
    stream = io.BytesIO(data)
    return lambda size: stream.read(min(size, most))


def photo_or_garden(head: bytes) -> int:
    """The limit `score` sets by an input's first bytes."""
    return MAX_PHOTO_BYTES if is_image(head) else MAX_GARDEN_BYTES


def test_5_the_first_bytes_of_a_trickling_pipe_still_tell_a_photo():
    photo = b"\x89PNG\r\n\x1a\n" + bytes(MAX_GARDEN_BYTES + 10)  # more than a garden may be
    data, limit = read_bounded(trickle(photo), photo_or_garden)
    assert (data, limit) == (photo, MAX_PHOTO_BYTES)
    garden = b"papillon garden v1\n" + b" " * MAX_GARDEN_BYTES
    data, limit = read_bounded(trickle(garden, most=1 << 16), photo_or_garden)
    assert (len(data), limit) == (MAX_GARDEN_BYTES + 1, MAX_GARDEN_BYTES)  # read one byte past the limit, no more


# --------------------------------------------------------------------------- 6, 8, 10: photos


@pytest.mark.parametrize("size", [(1, 5000), (3601, 1)])
def test_6_a_strip_of_an_image_is_one_line(runner, tmp_path, size):
    pytest.importorskip("cv2")
    from PIL import Image

    path = tmp_path / "strip.png"
    Image.new("RGB", size, "white").save(path)
    scan = runner.invoke(main, ["scan", str(path)])
    assert scan.exit_code == 1
    width, height = size
    expected = f"too small for a photo of a sheet ({width}x{height} pixels, need 200 on each side)"
    assert one_line(scan.stderr) == f"papillon scan: {path}: {expected}"
    score = runner.invoke(main, ["score", str(path)])
    assert score.exit_code == 1 and one_line(score.stderr) == f"{path}: {expected}"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["score", "/dev/zero"], 1, "/dev/zero: too large (over 1 MB: is this the right file?)"),
        (["scan", "/dev/zero"], 1, "papillon scan: /dev/zero: too large (over 1 MB: is this the right file?)"),
        (["format", "/dev/zero"], 1, "/dev/zero: too large for a garden (over 1 MB: is this the right file?)"),
        (["replay", "/dev/zero"], 1, "papillon replay: error: /dev/zero: cannot read the game log (over 50 MB: is this the right file?)"),
        (
            ["score", "--edition", "/dev/zero", str(EXAMPLE)],
            2,
            "papillon score: error: Invalid value for '--edition': /dev/zero: cannot read edition file"
            " (over 1 MB: is this the right file?); see 'papillon score --help'",
        ),
        (
            ["sheet", "--from", "/dev/zero", "-o", "x.pdf"],
            2,
            "papillon sheet: error: Invalid value for '--from': /dev/zero: cannot read sheet definition"
            " (over 1 MB: is this the right file?); see 'papillon sheet --help'",
        ),
    ],
)
def test_8_dev_zero_is_refused_by_its_size(runner, args, code, message):
    result = runner.invoke(main, args)
    assert result.exit_code == code
    assert one_line(result.stderr) == message


# --------------------------------------------------------------------------- 7, 12: outputs


def test_7_a_device_is_written_as_a_stream_and_never_replaced(runner):
    before = os.stat("/dev/null")
    result = runner.invoke(main, ["new", "-o", "/dev/null", "--force"])
    assert result.exit_code == 0, result.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_7_a_fifo_output_is_written_as_a_stream(runner, tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    result = runner.invoke(main, ["format", str(EXAMPLE), "-o", str(fifo)])
    reader.join(timeout=10)
    assert result.exit_code == 0, result.stderr
    assert received[0].startswith("papillon garden v1\nplayer: Ann")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_7_a_symlink_is_followed_and_stays_a_link(runner, tmp_path):
    target = tmp_path / "real.garden"
    target.write_text("old")
    link = tmp_path / "link.garden"
    link.symlink_to(target)
    refused = runner.invoke(main, ["new", "-o", str(link)])
    assert refused.exit_code == 2 and "exists (use --force to overwrite it)" in refused.stderr
    result = runner.invoke(main, ["new", "--no-legend", "-o", str(link), "--force"])
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and target.read_text().startswith("papillon garden v1")


def test_12_an_empty_output_name_is_a_usage_error(runner):
    result = runner.invoke(main, ["sheet", "-o", ""])
    assert result.exit_code == 2
    assert one_line(result.stderr) == "papillon sheet: error: -o: expected a file name, got ''; see 'papillon sheet --help'"


@pytest.mark.parametrize(
    "args", [["new", "-o", "OUT"], ["format", str(EXAMPLE), "-o", "OUT"], ["render", str(EXAMPLE), "-o", "OUT.png"], ["sheet", "-o", "OUT"]]
)
def test_12_a_failed_write_exits_1_in_every_command(runner, tmp_path, monkeypatch, args):
    import papillon.cli.common

    def full(path, data, **options):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(papillon.cli.common, "write_atomic", full)
    out = next(a for a in args if a.startswith("OUT"))
    result = runner.invoke(main, [str(tmp_path / a) if a == out else a for a in args])
    assert result.exit_code == 1
    assert one_line(result.stderr).endswith(f"error: cannot write {tmp_path / out}: No space left on device")


# --------------------------------------------------------------------------- 11: quoting user text


def test_11_a_huge_json_value_is_quoted_short_and_escaped(runner, tmp_path):
    data = {"format": "papillon-garden", "version": 1, "meta": {"player": "Zoé\u2028" + "x" * 100_000}, "plots": []}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    result = runner.invoke(main, ["score", str(path)])
    line = one_line(result.stderr)
    assert len(line) < 250 and "\u2028" not in line
    assert '"Zoé\\u2028' + "x" * 36 + '…"' in line  # 40 characters of the value: Z, o, é, U+2028 and 36 x


# --------------------------------------------------------------------------- 13: byte order marks


def test_13_a_byte_order_mark_is_accepted_in_every_input(runner, tmp_path):
    bom = "\ufeff"
    edition = tmp_path / "e.toml"
    edition.write_text(bom + "[edition]\nname = 'bom'\n", encoding="utf-8")
    assert runner.invoke(main, ["score", "--edition", str(edition), str(EXAMPLE)]).exit_code == 0
    spec = tmp_path / "s.toml"
    spec.write_text(bom + 'sides = ["score"]\n', encoding="utf-8")
    sheet = runner.invoke(main, ["sheet", "--from", str(spec), "-o", str(tmp_path / "s.pdf")])
    assert sheet.exit_code == 0, sheet.stderr
    log = a_game_log(tmp_path)
    log.write_text(bom + log.read_text(), encoding="utf-8")
    assert runner.invoke(main, ["replay", str(log)]).exit_code == 0


# --------------------------------------------------------------------------- 14: names and fields


@pytest.mark.parametrize(("name", "code"), [("\u200b", "U+200B"), ("a\rb", "U+000D")])
def test_14_a_sheet_name_that_prints_blank_or_breaks_the_line_is_refused(runner, tmp_path, name, code):
    result = runner.invoke(main, ["sheet", "--player", name, "-o", str(tmp_path / "s.pdf")])
    assert result.exit_code == 2
    assert f"a name cannot hold the invisible or control character {code}" in one_line(result.stderr)
    assert not (tmp_path / "s.pdf").exists()


@pytest.mark.parametrize("command", ["scan", "score"])
def test_14_a_field_given_twice_is_refused(runner, command):
    result = runner.invoke(main, [command, "--fields", "B4=po,b4=lb", str(EXAMPLE)])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"papillon {command}: error: Invalid value for '--fields': plot B4 is given twice; see 'papillon {command} --help'"
    )


# --------------------------------------------------------------------------- 16, 20, 25: play


def test_16_resuming_a_finished_game_records_nothing_again(runner, tmp_path):
    first = runner.invoke(main, ["play", "--seed", "5", "--save", "g.jsonl", "--name", "Ann"], input=ALWAYS_FIRST)
    assert first.exit_code == 0, first.output
    history = tmp_path / "data" / "history.sqlite3"
    recorded, log, picture = history.read_bytes(), (tmp_path / "g.jsonl").read_text(), tmp_path / "g-Ann.png"
    picture_time = picture.stat().st_mtime_ns
    again = runner.invoke(main, ["play", "--resume", "g.jsonl"], input=ALWAYS_FIRST)
    assert again.exit_code == 0, again.output
    assert "this game is over" in again.output and "Total" in again.output
    assert history.read_bytes() == recorded and (tmp_path / "g.jsonl").read_text() == log
    assert picture.stat().st_mtime_ns == picture_time


def test_20_choices_by_their_name_and_two_names_make_two_players(runner, tmp_path):
    # Seed 8: the first choice is the starting field (start B4 / start D2); then a pair.
    result = runner.invoke(main, ["play", "--seed", "8", "--save", "n.jsonl", "--name", "Ann", "--name", "Ben"], input="b4\nD2\nt\nb\nq\n")
    assert result.exit_code == 0, result.output
    events = parse_log((tmp_path / "n.jsonl").read_text()).events
    assert [e.get("action") for e in events if "player" in e] == ["start B4", "start D2"]
    assert "Ann" in result.output and "Ben" in result.output
    assert "  Total" in result.output  # b: the breakdown


def test_20_question_mark_says_what_each_choice_scores(runner):
    # After the starting field, choosing a pair marks nothing yet: each pair says what the rest of
    # the turn can bring after it (issue 23 item 5), never "score unchanged".
    result = runner.invoke(main, ["play", "--seed", "8", "--save", "q.jsonl"], input="1\n?\nq\n")
    explained = result.output.split("> ")[2]
    assert "1. pair 1: " in explained and "3. pair 3: " in explained
    assert "unchanged" not in explained and "→ score 1" not in explained
    assert explained.count(" this turn") == 3 and "→ can lead to +1 this turn" in explained


def test_25_ctrl_c_in_play_saves_and_exits_130(runner, tmp_path, monkeypatch):
    import papillon.cli.play

    answers = iter(["1"])

    def prompt(*args, **kwargs):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(papillon.cli.play.click, "prompt", prompt)
    result = runner.invoke(main, ["play", "--seed", "8", "--save", "c.jsonl"])
    assert result.exit_code == 130
    assert parse_log((tmp_path / "c.jsonl").read_text()).events[1]["action"] == "start B4"


def test_25_did_you_mean(runner):
    result = runner.invoke(main, ["scroe", "x"])
    assert result.exit_code == 2
    assert one_line(result.stderr) == "papillon: error: no command 'scroe': did you mean 'score'?"


def test_25_top_level_help_cuts_nothing(runner):
    result = runner.invoke(main, ["--help"])
    assert "..." not in result.output.split("Commands:")[1]
    assert "Score finished gardens: .garden notation, its JSON form, or a" in result.output


def test_25_option_errors_never_end_in_two_brackets(runner):
    result = runner.invoke(main, ["new", "--starting-fields", "Z9"])
    line = one_line(result.stderr)
    assert ") (" not in line and "))" not in line
    message = "Invalid value for '--starting-fields': not a plot name: 'Z9' (expected A1 to E5)"
    assert line == f"papillon new: error: {message}; see 'papillon new --help'"


@pytest.mark.slow  # a whole three-player game
def test_22_the_play_screen_fits_80_columns(runner):
    # A whole three-player game, with the help, the explanations, a breakdown and the scores asked for.
    typed = "h\n?\nb\nt\n" + ALWAYS_FIRST
    result = runner.invoke(
        main, ["play", "--seed", "12", "--name", "Ann", "--bot", "greedy", "--bot", "random", "--picture", "none"], input=typed
    )
    assert result.exit_code == 0, result.output
    assert "The game is over." in result.output
    long = [line for line in click.unstyle(result.output).splitlines() if len(line.removeprefix("> ")) > 80]
    assert long == []


def test_10_a_damaged_image_is_one_line_without_library_warnings(tmp_path):
    pytest.importorskip("cv2")
    from PIL import Image

    whole = tmp_path / "whole.tif"
    Image.new("RGB", (500, 500), "white").save(whole, compression="tiff_lzw")
    data = whole.read_bytes()
    damaged = tmp_path / "damaged.tif"  # the middle of the compressed strip zeroed: libtiff complains on stderr
    damaged.write_bytes(data[: len(data) // 2] + b"\x00" * 100 + data[len(data) // 2 + 100 :])
    for command in ("scan", "score"):
        result = subprocess.run([sys.executable, "-m", "papillon", command, str(damaged)], capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode == 1
        assert one_line(result.stderr).endswith(f"{damaged}: not an image Pillow can read (a damaged or unsupported file)")


def test_15_nothing_on_standard_input_says_so(runner):
    result = runner.invoke(main, ["score", "-"], input="")
    assert result.exit_code == 1
    assert one_line(result.stderr) == "<stdin>: nothing on standard input (did the command before the '|' fail?)"


def test_24_a_metadata_value_cut_by_a_comment_is_a_warning(runner, tmp_path):
    path = tmp_path / "zoe.garden"
    path.write_text(EXAMPLE.read_text().replace("player: Ann", "player: Zoe #1"))
    result = runner.invoke(main, ["score", "--json", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["player"] == "Zoe"
    assert one_line(result.stderr) == f"{path}:6: warning: '#' starts a comment: player is 'Zoe'"  # line 6 of the example
