"""`papillon play`, `replay` and `simulate` end to end, through click's CliRunner."""

from __future__ import annotations

import errno
import importlib.util
import json
import re
from pathlib import Path

import click
import pytest

from papillon.cli import main
from papillon.cli.play import _STYLES, coloured_garden, file_part
from papillon.engine import make_bot, parse_log, play_game, replay
from papillon.grid import plot_at
from papillon.history import History
from papillon.notation import format_grid, parse

GAMES = Path(__file__).parent / "games"
ALWAYS_FIRST = "1\n" * 400  # more than any game needs; option 1 is always legal


def recorded(tmp_path):
    """What the score history of the test's data folder holds: (player, total, seed, source), oldest first."""
    return [(e.player, e.total, e.seed, e.source) for e in History(tmp_path / "data" / "history.sqlite3").entries()]


def play(runner, *args: str, input: str = ALWAYS_FIRST):
    result = runner.invoke(main, ["play", "--picture", "none", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_whole_solo_game_from_the_keyboard(runner, tmp_path):
    result = play(runner, "--seed", "5", "--save", "game.jsonl", "--name", "Ann")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Papillon Gardens, seed 5" in out and "Ann: choose the starting field" in out
    assert "Round 1/10: the pairs on offer" in out and "ladders: Ladybug" in out
    assert "The game is over." in out and "Final garden — Ann" in out and "Total" in out
    assert "Ann: first game recorded" in out
    log = parse_log((tmp_path / "game.jsonl").read_text(encoding="utf-8"))
    assert log.end is not None and log.players == [{"name": "Ann", "bot": None}]
    final = replay(log)
    total = final.score(0)
    assert re.search(rf"Total +{total}\n", out)
    assert recorded(tmp_path) == [("Ann", total, 5, "play")]
    again = play(runner, "--seed", "5", "--save", "again.jsonl", "--name", "Ann")
    assert f"Ann: {total}; personal best {total}." in again.output


def test_help_look_and_bad_input(runner):
    lines = ["h", "?", "? 2", "9", "plot Q9", "1", "g 1", "g 7", "v", "pair 2", "q"]
    result = play(runner, "--seed", "6", input="\n".join(lines) + "\n")
    out = result.output
    assert "what each choice does and scores" in out
    assert "  1. start B4" in out and "  2. start D2" in out
    assert "choose 1 to 2" in out
    assert "'plot Q9' is not allowed" in out
    assert "which garden? g 1 to g 1" in out
    assert "pair 2: " in out and "Saved to papillon-6.jsonl" in out


def test_undo_goes_back_to_the_start_of_the_turn_never_across_a_reveal(runner, tmp_path):
    # start B4, (reveal), pair 1, part corner ... then undo, undo again, quit
    result = play(runner, "--seed", "8", "--save", "u.jsonl", input="1\n1\n1\nu\nu\nq\n")
    out = result.output
    assert "undone: back to the start of your turn" in out
    assert "nothing to undo since the start of your turn" in out
    log = parse_log((tmp_path / "u.jsonl").read_text(encoding="utf-8"))
    events = [next(iter(e.values())) if "chance" in e else e["action"] for e in log.events]
    assert events[1:] == ["start B4", log.events[2]["chance"], log.events[3]["chance"]]  # the round's reveal and roll
    assert replay(log).legal_actions() == ("pair 1", "pair 2", "pair 3")


def test_quit_then_resume_finishes_the_same_game(runner, tmp_path):
    whole = play(runner, "--seed", "9", "--save", "whole.jsonl", "--bot", "greedy")
    assert whole.exit_code == 0
    first = play(runner, "--seed", "9", "--save", "part.jsonl", "--bot", "greedy", input="1\n" * 37 + "q\n")
    assert "carry on with: papillon play --resume part.jsonl" in first.output
    resumed = play(runner, "--resume", "part.jsonl")
    assert "Resuming part.jsonl" in resumed.output and "The game is over." in resumed.output
    assert (tmp_path / "part.jsonl").read_text() == (tmp_path / "whole.jsonl").read_text()


def test_end_of_input_saves_the_game(runner, tmp_path):
    result = play(runner, "--seed", "10", input="1\n" * 50)
    assert "Saved to papillon-10.jsonl" in result.output
    log = parse_log((tmp_path / "papillon-10.jsonl").read_text(encoding="utf-8"))
    assert log.end is None and sum(1 for e in log.events if "player" in e) == 50


def test_autosave_after_each_round(runner, tmp_path):
    # Abort (end of input) also saves; a round end writes the file before any abort.
    state_lines = []
    for count in (12, 40):
        play(runner, "--seed", "11", "--save", f"r{count}.jsonl", input="1\n" * count)
        state_lines.append(replay(parse_log((tmp_path / f"r{count}.jsonl").read_text(encoding="utf-8"))).round)
    assert state_lines[0] < state_lines[1]


def test_hot_seat_with_bots(runner, tmp_path):
    result = play(
        runner,
        "--seed",
        "12",
        "--players",
        "2",
        "--name",
        "Ann",
        "--name",
        "Bob",
        "--bot",
        "greedy",
        "--bot",
        "random",
        input="g 3\n" + ALWAYS_FIRST,
    )
    out = result.output
    assert result.exit_code == 0
    assert "── greedy bot ── score now" in out
    assert "Bob: choose the starting field" in out
    assert "Ranking: " in out and "random bot" in out
    assert sorted(entry[0] for entry in recorded(tmp_path)) == ["Ann", "Bob"], "bots have no personal bests"


def test_play_refuses_bad_options(runner):
    assert "nobody plays" in runner.invoke(main, ["play", "--players", "0"]).output
    seven = runner.invoke(main, ["play", "--players", "4", "--bot", "random", "--bot", "random", "--bot", "random"], prog_name="papillon")
    assert seven.exit_code == 2
    assert seven.stderr == "papillon play: error: a game has 1 to 6 players, got 7; see 'papillon play --help'\n"  # the edition's count
    negative = runner.invoke(main, ["play", "--seed", "-1"], prog_name="papillon")
    assert negative.exit_code == 2
    assert negative.stderr == (
        "papillon play: error: Invalid value for '--seed': the seed is a whole number from 0 to 999999999999, not -1; "
        "see 'papillon play --help'\n"
    )
    assert "2 names for 1 person (--players 1)" in runner.invoke(main, ["play", "--players", "1", "--name", "a", "--name", "b"]).output


def test_the_editions_player_limit_decides_and_words_the_refusal(runner, tmp_path):
    # The player count is the edition's rule (play.max_players), not the option's: 3 here, 6 in the standard edition.
    (tmp_path / "three.toml").write_text("[play]\nmax_players = 3\n")
    for players in ("4", "7", "100000000000000000000"):
        result = runner.invoke(main, ["play", "--edition", "three.toml", "--players", players], prog_name="papillon")
        assert (result.exit_code, result.stderr) == (
            2,
            f"papillon play: error: a game has 1 to 3 players, got {players}; see 'papillon play --help'\n",
        )
    two_and_bot = runner.invoke(main, ["play", "--edition", "three.toml", "--players", "3", "--bot", "random"], prog_name="papillon")
    assert two_and_bot.stderr == "papillon play: error: a game has 1 to 3 players, got 4; see 'papillon play --help'\n"
    huge = runner.invoke(main, ["play", "--players", "100000000000000000000"], prog_name="papillon")  # never a list that long
    assert (huge.exit_code, huge.stderr) == (
        2,
        "papillon play: error: a game has 1 to 6 players, got 100000000000000000000; see 'papillon play --help'\n",
    )
    negative = runner.invoke(main, ["play", "--players", "-1"], prog_name="papillon")
    assert (negative.exit_code, negative.stderr) == (
        2,
        "papillon play: error: Invalid value for '--players': -1 is not in the range x>=0; see 'papillon play --help'\n",
    )
    three = play(runner, "--seed", "5", "--edition", "three.toml", "--players", "3", input="q\n")
    assert three.exit_code == 0 and "Papillon Gardens, seed 5." in three.output
    header = json.loads((tmp_path / "papillon-5.jsonl").read_text().splitlines()[0])
    assert [p["name"] for p in header["players"]] == ["Player 1", "Player 2", "Player 3"]


@pytest.mark.skipif(importlib.util.find_spec("papillon.render") is None, reason="no renderer")
def test_the_end_draws_a_picture_when_the_renderer_is_there(runner, tmp_path):
    result = runner.invoke(main, ["play", "--seed", "13", "--picture", "final.png"], input=ALWAYS_FIRST)
    assert result.exit_code == 0
    if "could not draw" not in result.output:
        assert (tmp_path / "final.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- replay


def test_replay_prints_the_final_garden_and_score(runner):
    result = runner.invoke(main, ["replay", str(GAMES / "solo-greedy-seed12.jsonl")])
    assert result.exit_code == 0, result.output
    assert "papillon garden v1" in result.output and "seed: 12" in result.output
    assert re.search(r"Total +33\n", result.output)


def test_replay_garden_is_scorable_by_papillon_score(runner):
    garden = runner.invoke(main, ["replay", "--garden", str(GAMES / "solo-search-seed13.jsonl")]).output
    parse(garden)
    scored = runner.invoke(main, ["score", "--json", "-"], input=garden)
    assert json.loads(scored.output)["total"] == 77


def test_replay_step_shows_every_round(runner):
    result = runner.invoke(main, ["replay", "--step", "--player", "3", str(GAMES / "three-players-seed14.jsonl")])
    assert result.exit_code == 0, result.output
    for round_number in range(1, 11):
        assert f"== round {round_number} ==\nrevealed: " in result.output
    assert result.output.count("search: score now") == 10


def test_replay_errors_are_one_clear_line(runner, tmp_path):
    lines = (GAMES / "solo-random-seed11.jsonl").read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:5], "{oops", *lines[6:]]) + "\n")
    result = runner.invoke(main, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "bad.jsonl: line 6: not valid JSON" in result.output and "Traceback" not in result.output
    old = (GAMES / "v1" / "solo-random-seed11.jsonl").read_text().replace("1bc5faf49f21", "0123456789ab", 1)
    (tmp_path / "old.jsonl").write_text(old)
    result = runner.invoke(main, ["replay", str(tmp_path / "old.jsonl")])
    assert result.exit_code == 1 and 'a version-1 log of the "standard" edition' in result.output
    assert result.output.count("\n") == 1


# --------------------------------------------------------------------------- simulate


def test_simulate_json_is_the_same_for_any_jobs(runner):
    one = runner.invoke(main, ["simulate", "-n", "6", "--bot", "random", "--seed", "4", "--json"])
    two = runner.invoke(main, ["simulate", "-n", "6", "--bot", "random", "--seed", "4", "--json", "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0
    games = [json.loads(line) for line in one.stdout.splitlines()]
    assert [json.loads(line) for line in two.stdout.splitlines()] == games
    assert len(games) == 6 and len({g["seed"] for g in games}) == 6
    for game in games:
        assert set(game) == {"seed", "bot", "total", "categories", "garden"}
        assert game["total"] == sum(game["categories"].values())
        assert parse(game["garden"]).score().total == game["total"]


def test_simulate_summary_and_logs(runner, tmp_path):
    result = runner.invoke(main, ["simulate", "-n", "8", "--bot", "greedy", "--seed", "2", "--logs", "logs"])
    assert result.exit_code == 0
    out = result.stdout
    for word in ("8 solo games, bot greedy", "mean", "Q1", "median", "Q3", "Flowers", "Unique features", "#"):
        assert word in out
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert len(logs) == 8
    assert replay(parse_log(logs[0].read_text())).is_over()


def test_undo_never_goes_back_into_the_previous_round(runner, tmp_path):
    play(runner, "--seed", "14", "--save", "full.jsonl")
    log = parse_log((tmp_path / "full.jsonl").read_text(encoding="utf-8"))
    decisions = 0
    first_bonus = None

    def count(state, event):
        nonlocal decisions, first_bonus
        decisions += "player" in event
        if first_bonus is None and state.stage == "bonus":
            first_bonus = decisions

    replay(log, count)
    assert first_bonus is not None
    # Round 1 done; the round-2 bonus is on offer: nothing of round 1 can be undone.
    result = play(runner, "--seed", "14", "--save", "cut.jsonl", input="1\n" * first_bonus + "u\nq\n")
    assert "round bonus: choose one gnome bonus" in result.output
    assert "nothing to undo since the start of your turn" in result.output


# --------------------------------------------------------------------------- play: files and options


def test_play_refuses_an_existing_save_file_unless_forced(runner, tmp_path):
    (tmp_path / "papillon-5.jsonl").write_text("another game\n")
    result = runner.invoke(main, ["play", "--seed", "5", "--picture", "none"], input=ALWAYS_FIRST)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1, "one line"
    assert "papillon-5.jsonl exists" in result.stderr and "--resume papillon-5.jsonl" in result.stderr and "--force" in result.stderr
    assert "Papillon Gardens, seed" not in result.output, "refused before the game starts"
    assert (tmp_path / "papillon-5.jsonl").read_text() == "another game\n"
    forced = play(runner, "--seed", "5", "--force")
    assert forced.exit_code == 0 and "The game is over." in forced.output
    assert replay(parse_log((tmp_path / "papillon-5.jsonl").read_text(encoding="utf-8"))).is_over()


def test_play_refuses_a_save_path_it_cannot_write_before_the_game(runner):
    # A path that names no directory is a mistake on the command line (2); one that cannot be written, a failed write (1).
    cases = [("nowhere/game.jsonl", "no directory nowhere", 2), ("/proc/x.jsonl", "cannot save to /proc/x.jsonl: ", 1)]
    for save, message, status in cases:
        result = runner.invoke(main, ["play", "--seed", "5", "--save", save], input=ALWAYS_FIRST)
        assert result.exit_code == status, result.output
        assert message in result.stderr and result.stderr.count("\n") == 1
        assert "Papillon Gardens, seed" not in result.output


def test_a_failing_autosave_is_one_line_and_exit_status_1(runner, tmp_path, monkeypatch):
    import papillon.session

    def full_disk(path, data, **options):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(papillon.session, "write_atomic", full_disk)
    result = runner.invoke(main, ["play", "--seed", "5", "--save", "game.jsonl", "--picture", "none"], input=ALWAYS_FIRST)
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1
    assert result.stderr.endswith(" play: error: cannot save the game to game.jsonl: No space left on device\n")
    assert result.stderr.count("\n") == 1
    assert "start B4" in result.output and "The game is over." not in result.output, "stops at the first round's end"
    assert not (tmp_path / "game.jsonl").exists()


def test_a_failing_save_at_the_end_still_shows_the_result(runner, tmp_path, monkeypatch):
    import papillon.session

    real = papillon.session.write_atomic

    def fails_once_over(path, data, **options):
        if '{"end":' in str(data):
            raise OSError(errno.EROFS, "Read-only file system")
        real(path, data, **options)

    monkeypatch.setattr(papillon.session, "write_atomic", fails_once_over)
    result = runner.invoke(main, ["play", "--seed", "5", "--save", "game.jsonl", "--picture", "none"], input=ALWAYS_FIRST)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "The game is over." in result.output and "first game recorded" in result.output
    assert "cannot save the game to game.jsonl: Read-only file system (the file there is left as it was)" in result.stderr
    assert parse_log((tmp_path / "game.jsonl").read_text(encoding="utf-8")).end is None, "the save of round 10 is whole"


def test_player_names_are_made_safe_for_file_names(runner, tmp_path):
    assert file_part("a/b") == "a_b" and file_part("Ann Lee") == "Ann_Lee" and file_part("zoë-2.0") == "zoë-2.0"
    if importlib.util.find_spec("papillon.render") is None:
        pytest.skip("no renderer")
    result = runner.invoke(main, ["play", "--seed", "5", "--save", "game.jsonl", "--name", "a/b"], input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert "a/b: first game recorded" in result.output
    if "could not draw" not in result.output:
        assert (tmp_path / "game-a_b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_picture_or_history_that_cannot_be_written_is_a_warning(runner, tmp_path):
    args = ["--seed", "5", "--save", "game.jsonl", "--picture", "nowhere/final.png", "--history", "/proc/history.sqlite3"]
    result = runner.invoke(main, ["play", *args], input=ALWAYS_FIRST)
    assert result.exit_code == 0 and result.exception is None
    assert "Total" in result.output and "first game recorded" not in result.output
    assert "(this game is not recorded in the history: the history /proc/history.sqlite3 cannot be opened: " in result.stderr
    if importlib.util.find_spec("papillon.render") is not None:
        assert "picture of Player 1's garden" in result.stderr


def test_the_history_flag_names_the_history_file(runner, tmp_path):
    result = play(runner, "--seed", "5", "--save", "game.jsonl", "--history", "mine.sqlite3")
    assert result.exit_code == 0 and "Player 1: first game recorded" in result.output
    assert [(e.player, e.seed) for e in History(tmp_path / "mine.sqlite3").entries()] == [("Player 1", 5)]
    assert not (tmp_path / "data").exists(), "nothing written to the default data folder"


def test_an_old_personal_best_file_is_imported_once_and_left_as_it_was(runner, tmp_path):
    history = tmp_path / "data" / "history.json"
    history.parent.mkdir()
    games = [{"player": "Ann", "total": "40"}, "junk", {"player": "Ann", "total": 1}, {"player": "Ann", "total": True}]
    text = json.dumps({"format": "papillon-history", "version": 1, "games": games})
    history.write_text(text)
    result = play(runner, "--seed", "5", "--save", "game.jsonl", "--name", "Ann")
    assert result.exit_code == 0 and result.exception is None, result.output
    # Only {"player": "Ann", "total": 1} is a readable entry: the three others are skipped, as the old reader did.
    assert re.search(r"Ann: new personal best! \d+ \(previous best 1\)\.", result.output)
    assert recorded(tmp_path)[0][::3] == ("Ann", "imported") and recorded(tmp_path)[0][1] == 1
    assert len(recorded(tmp_path)) == 2 and history.read_text() == text
    again = play(runner, "--seed", "5", "--save", "again.jsonl", "--name", "Ann")
    assert len(recorded(tmp_path)) == 3, "the old file is not imported a second time"
    assert "previous best 1" not in again.output


@pytest.mark.parametrize("text", ["not JSON at all", "[1, 2]", '{"games": 3}', "\xff"])
def test_an_old_file_that_is_not_a_history_is_left_alone(runner, tmp_path, text):
    history = tmp_path / "data" / "history.json"
    history.parent.mkdir()
    history.write_bytes(text.encode("latin-1"))
    result = play(runner, "--seed", "5", "--save", "game.jsonl", "--name", "Ann")
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "Ann: first game recorded" in result.output and result.stderr == ""
    assert history.read_bytes() == text.encode("latin-1")
    assert [entry[0] for entry in recorded(tmp_path)] == ["Ann"]


def test_resume_refuses_options_of_a_new_game(runner, tmp_path):
    play(runner, "--seed", "9", "--save", "part.jsonl", input="1\n" * 5 + "q\n")
    before = (tmp_path / "part.jsonl").read_text()
    for extra in (["--seed", "3"], ["--players", "1"], ["--name", "Bo"], ["--bot", "random"]):
        result = runner.invoke(main, ["play", "--resume", "part.jsonl", *extra], input=ALWAYS_FIRST)
        assert result.exit_code == 2, (extra, result.output)
        assert f"drop {extra[0]}" in result.stderr and result.stderr.count("\n") == 1
    assert (tmp_path / "part.jsonl").read_text() == before


def test_resume_with_save_refuses_to_overwrite_another_file(runner, tmp_path):
    play(runner, "--seed", "9", "--save", "part.jsonl", input="1\n" * 5 + "q\n")
    (tmp_path / "other.jsonl").write_text("keep me\n")
    result = runner.invoke(main, ["play", "--resume", "part.jsonl", "--save", "other.jsonl"], input=ALWAYS_FIRST)
    assert result.exit_code == 2 and "other.jsonl exists (use --force to overwrite it)" in result.stderr
    assert (tmp_path / "other.jsonl").read_text() == "keep me\n"


@pytest.mark.parametrize("picture", ["x.gif", "x", "picture.png.txt"])
def test_picture_must_be_png_pdf_or_none(runner, tmp_path, picture):
    result = runner.invoke(main, ["play", "--seed", "5", "--picture", picture], input=ALWAYS_FIRST)
    assert result.exit_code == 2 and "expected a .png or .pdf file, or 'none'" in result.stderr
    assert not (tmp_path / "papillon-5.jsonl").exists()


def test_hints_carry_the_edition(runner, tmp_path):
    (tmp_path / "mine.toml").write_text("[rules]\nbutterfly_steps = 2\n")
    first = play(runner, "--seed", "9", "--save", "part.jsonl", "--edition", "mine.toml", input="1\n" * 5 + "q\n")
    assert re.search(r"carry on with:\s+papillon play --resume part.jsonl --edition mine.toml\n", first.output)  # 86 columns: two lines
    resumed = play(runner, "--resume", "part.jsonl", "--edition", "mine.toml")
    assert resumed.exit_code == 0 and "Game log: part.jsonl (papillon replay part.jsonl --edition mine.toml)" in resumed.output
    replayed = runner.invoke(main, ["replay", "part.jsonl", "--edition", "mine.toml"])
    assert replayed.exit_code == 0, replayed.output
    plain = play(runner, "--seed", "9", "--save", "plain.jsonl", input="1\n" * 5 + "q\n")
    assert "carry on with: papillon play --resume plain.jsonl\n" in plain.output


def test_the_garden_is_coloured_from_its_cells_over_the_notation_grid():
    final, _ = play_game(12, [make_bot("greedy")])
    garden = final.garden(0)
    text = coloured_garden(final, 0)
    assert click.unstyle(text) == format_grid(garden), "the notation's grid, and a blank line after it"
    star, bar = click.style("*", fg="bright_cyan", bold=True), click.style("|", fg="bright_red")
    rows = [line for line in text.split("\n") if line[:4].strip().isdigit()]
    assert len(rows) == 5
    for row, line in enumerate(rows):
        codes = [garden.cells[plot_at(col, row)].code for col in range(5)]
        assert line.replace(star, "").replace(bar, "").split()[1:] == [click.style(c, **_STYLES.get(c, {"fg": "green"})) for c in codes]
    assert text.count(star) == len(garden.butterflies) > 0
    assert text.count(bar) == format_grid(garden).count("|") > 0
    edges = [line for line in text.split("\n") if "---" in line]
    assert edges and all(line.startswith("\x1b[91m") for line in edges), "brick lines in bright red"


def test_replay_garden_of_a_multi_player_game_needs_a_player(runner):
    log = str(GAMES / "three-players-seed14.jsonl")
    result = runner.invoke(main, ["replay", "--garden", log])
    assert result.exit_code == 2 and result.stdout == ""
    assert "3 players: pick one with --player N" in result.stderr and result.stderr.count("\n") == 1
    garden = runner.invoke(main, ["replay", "--garden", "--player", "3", log])
    assert garden.exit_code == 0 and garden.stdout.count("papillon garden v1") == 1
    scored = runner.invoke(main, ["score", "--json", "-"], input=garden.stdout)
    assert json.loads(scored.output)["total"] == 85
    solo = runner.invoke(main, ["replay", "--garden", str(GAMES / "solo-search-seed13.jsonl")])
    assert solo.exit_code == 0 and solo.stdout.count("papillon garden v1") == 1


def test_replay_step_shows_the_notation_grid(runner):
    result = runner.invoke(main, ["replay", "--step", str(GAMES / "solo-greedy-seed12.jsonl")])
    final = replay(parse_log((GAMES / "solo-greedy-seed12.jsonl").read_text(encoding="utf-8")))
    after_ten = result.stdout.split("== round 10 ==\n")[1]
    assert f"\ngreedy: score now 33\n{format_grid(final.garden(0))}\npapillon garden v1\n" in after_ten


def test_simulate_logs_dir_that_cannot_be_made_is_a_failed_write(runner, tmp_path):
    (tmp_path / "file.txt").write_text("")
    result = runner.invoke(main, ["simulate", "-n", "1", "--bot", "random", "--logs", "file.txt/logs"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # issue 23 item 29: a failed write is 1
    assert "cannot write the game logs to file.txt/logs: Not a directory" in result.stderr
    assert result.stderr.count("\n") == 1 and "random playing" not in result.output, "before any game"


def test_simulate_logs_that_cannot_be_written_are_a_failed_write(runner, tmp_path, monkeypatch):
    import papillon.cli.simulate

    def read_only(path, data, **options):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(papillon.cli.simulate, "write_atomic", read_only)
    result = runner.invoke(main, ["simulate", "-n", "2", "--bot", "random", "--logs", "logs"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert re.search(r"cannot write the game log logs/\d+\.jsonl: Permission denied$", result.stderr.strip())


def test_a_log_of_an_unknown_edition_asks_for_its_edition_file(runner, tmp_path):
    text = (GAMES / "v1/solo-random-seed11.jsonl").read_text(encoding="utf-8").replace("1bc5faf49f21", "0123456789ab", 1)
    (tmp_path / "old.jsonl").write_text(text, encoding="utf-8")
    for command in (["replay", "old.jsonl"], ["play", "--resume", "old.jsonl"]):
        result = runner.invoke(main, command)
        assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.output
        assert result.stderr.endswith("which this papillon does not hold: give the edition file it was played with (--edition FILE)\n")


def test_a_bots_move_is_told_in_words_not_as_a_bare_action(runner):
    # Issue 23 item 8: "greedy bot: start B4" said what to type, not what was done.
    result = runner.invoke(main, ["play", "--seed", "5", "--bot", "greedy", "--save", "g.jsonl"], input="1\nq\n")
    assert "  greedy bot: filled the butterfly space of B4 to start" in result.output
    assert "greedy bot: start " not in result.output
