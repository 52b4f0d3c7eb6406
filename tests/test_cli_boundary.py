"""The library/front-end boundary: library messages name no command-line option; the CLI names its own.

A library error about a value the user gave carries the library parameter's name
(``error.parameter``); the CLI finds its option for it and words the hint itself.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from papillon.cli import main
from papillon.errors import FieldsError, PapillonError, SimulationError, TooLargeError
from papillon.files import read_bytes
from papillon.scan.transcribe import parse_fields
from papillon.simulation import check_games, check_jobs

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "papillon"
EXAMPLE = ROOT / "sheets" / "examples" / "notation-example.garden"
FRONT_ENDS = ("cli", "web")
OPTION = re.compile(r"(^|[\s(`'\"])(--[a-z][a-z-]+|-[a-zA-Z](?=[\s,:]|$))")
"""``--fields``, ``-n``: how a command-line option looks in a message ("-inf", "B4-C4", "-read.png" are none)."""


def _messages(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string (and f-string part) of a module that is not a docstring, with its line."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
        # A string on its own line after an assignment documents it (``X = 1`` then ``"""What X is."""``).
        for field in ("body", "orelse"):
            statements = getattr(node, field, [])
            for statement in statements if isinstance(statements, list) else []:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    docstrings.add(id(statement.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_library_message_names_a_command_line_option():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] in FRONT_ENDS:
            continue
        for line, text in _messages(ast.parse(path.read_text(encoding="utf-8"))):
            if OPTION.search(text):
                found.append(f"{path.relative_to(PACKAGE)}:{line}: {text!r}")
    assert found == []


def test_the_check_finds_an_option_in_a_message():
    tree = ast.parse('"""Docs may say --fields."""\ndef f():\n    raise ValueError(f"--jobs {n}: too many")\n')
    assert [text for _, text in _messages(tree) if OPTION.search(text)] == ["--jobs "]


def test_library_errors_name_the_parameter_not_the_option():
    with pytest.raises(FieldsError, match=r"^plot B4 is given twice$") as twice:
        parse_fields("B4=po,b4=lb")
    with pytest.raises(SimulationError, match=r"^0 worker processes: expected 1 to 256 \(this machine has \d+ cores\)$") as jobs:
        check_jobs(0)
    with pytest.raises(SimulationError, match=r"^1,000,000,001 games: expected 1 to 1,000,000,000$") as games:
        check_games(10**9 + 1)
    assert (twice.value.parameter, jobs.value.parameter, games.value.parameter) == ("fields", "jobs", "games")
    assert PapillonError("no parameter").parameter is None


def test_a_file_too_large_is_a_papillon_error_and_still_an_os_error(tmp_path):
    big = tmp_path / "big.garden"
    big.write_bytes(b"x" * 1001)
    with pytest.raises(TooLargeError) as caught:
        read_bytes(big, limit=1000)
    assert isinstance(caught.value, PapillonError) and isinstance(caught.value, OSError)
    assert str(caught.value) == f"{big}: over 1 kB: is this the right file?"
    assert caught.value.strerror == "over 1 kB: is this the right file?"  # what "cannot read X (...)" callers show


def test_an_edition_file_too_large_is_one_line(tmp_path):
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * 1_000_001)
    result = CliRunner().invoke(main, ["score", "--edition", str(huge), "-"], input="", prog_name="papillon")
    assert result.exit_code == 2
    assert result.stderr == (
        f"papillon score: error: Invalid value for '--edition': {huge}: cannot read edition file (over 1 MB: is this the right file?); "
        "see 'papillon score --help'\n"
    )


@pytest.mark.parametrize("command", ["scan", "score"])
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ("B4=po,b4=lb", "plot B4 is given twice"),
        ("B4", "expected PLOT=CODE like B4=po, found 'B4'"),
        ("Z9=po", "not a plot name: 'Z9' (expected A1 to E5)"),
        ("B4=zz", "B4=zz: not a critter or feature (lb bb hh po sh bf tr fp ha gz)"),
    ],
)
def test_bad_fields_are_one_usage_line_from_either_command(command, fields, message, tmp_path):
    garden = tmp_path / "g.garden"
    garden.write_text("papillon garden v1\n")  # never read: the option is refused first
    result = CliRunner().invoke(main, [command, "--fields", fields, str(garden)], prog_name="papillon")
    assert result.exit_code == 2
    assert result.stderr == f"papillon {command}: error: Invalid value for '--fields': {message}; see 'papillon {command} --help'\n"


def test_fields_are_checked_against_the_edition_in_use(tmp_path):
    edition = tmp_path / "snails.toml"
    edition.write_text("[critters.sn]\nname = 'Snail'\npoints = 2\nladder = 4\n")
    with_snails = CliRunner().invoke(main, ["score", "--fields", "B4=sn", "--edition", str(edition), str(EXAMPLE)], prog_name="papillon")
    assert with_snails.exit_code == 0, with_snails.stderr  # sn is a critter of this edition; the garden is not a photo
    standard = CliRunner().invoke(main, ["score", "--fields", "B4=sn", str(EXAMPLE)], prog_name="papillon")
    assert standard.exit_code == 2
    assert standard.stderr == (
        "papillon score: error: Invalid value for '--fields': B4=sn: not a critter or feature (lb bb hh po sh bf tr fp ha gz); "
        "see 'papillon score --help'\n"
    )


def test_a_balance_run_too_long_names_the_option():
    result = CliRunner().invoke(main, ["balance", "-n", "10000001", "--bot", "random"], prog_name="papillon")
    assert result.exit_code == 2
    assert result.stderr == (
        "papillon balance: error: Invalid value for '-n' / '--games': 10,000,001 games: a balance run keeps every game; "
        "expected at most 10,000,000 per variant; see 'papillon balance --help'\n"
    )


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("scoring", "'scoring': expected KEY=VALUE[,VALUE...] with a dotted edition key, like scoring.enclosed=1,2"),
        ("scoring.enclosed=", "'scoring.enclosed=': a value is missing (expected KEY=VALUE[,VALUE...])"),
        ("scorng.enclosed=1", "scorng.enclosed: the 'standard' edition has no key 'scorng' (see docs/EDITIONS.md)"),
    ],
)
def test_a_bad_set_names_the_option(setting, message):
    result = CliRunner().invoke(main, ["balance", "--set", setting, "-n", "1"], prog_name="papillon")
    assert result.exit_code == 2
    assert result.stderr == f"papillon balance: error: Invalid value for '--set': {message}; see 'papillon balance --help'\n"
