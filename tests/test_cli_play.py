"""`papillon play`, `replay` and `simulate` end to end, through click's CliRunner."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from papillon.cli import main
from papillon.engine import parse_log, replay
from papillon.notation import parse

GAMES = Path(__file__).parent / "games"
ALWAYS_FIRST = "1\n" * 400  # more than any game needs; option 1 is always legal


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return CliRunner()


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
    history = json.loads((tmp_path / "data" / "history.json").read_text(encoding="utf-8"))
    assert [(g["player"], g["total"], g["seed"]) for g in history["games"]] == [("Ann", total, 5)]
    again = play(runner, "--seed", "5", "--save", "again.jsonl", "--name", "Ann")
    assert f"Ann: {total}; personal best {total}." in again.output


def test_help_look_and_bad_input(runner):
    lines = ["h", "?", "? 2", "9", "plot Q9", "1", "g 1", "g 7", "v", "pair 2", "q"]
    result = play(runner, "--seed", "6", input="\n".join(lines) + "\n")
    out = result.output
    assert "explain every choice" in out
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
    assert [next(iter(e.values())) if "chance" in e else e["action"] for e in log.events][1:] == ["start B4", log.events[2]["chance"]]
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
    history = json.loads((tmp_path / "data" / "history.json").read_text(encoding="utf-8"))
    assert sorted(g["player"] for g in history["games"]) == ["Ann", "Bob"], "bots have no personal bests"


def test_play_refuses_bad_options(runner):
    assert "nobody plays" in runner.invoke(main, ["play", "--players", "0"]).output
    assert (
        "at most 6 players"
        in runner.invoke(main, ["play", "--players", "4", "--bot", "random", "--bot", "random", "--bot", "random"]).output
    )
    assert "2 names for 1 player" in runner.invoke(main, ["play", "--name", "a", "--name", "b"]).output


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
    assert re.search(r"Total +51\n", result.output)


def test_replay_garden_is_scorable_by_papillon_score(runner):
    garden = runner.invoke(main, ["replay", "--garden", str(GAMES / "solo-search-seed13.jsonl")]).output
    parse(garden)
    scored = runner.invoke(main, ["score", "--json", "-"], input=garden)
    assert json.loads(scored.output)["total"] == 91


def test_replay_step_shows_every_round(runner):
    result = runner.invoke(main, ["replay", "--step", "--player", "3", str(GAMES / "three-players-seed14.jsonl")])
    assert result.exit_code == 0, result.output
    for round_number in range(1, 11):
        assert f"== after round {round_number} ==" in result.output
    assert result.output.count("search: score now") == 10


def test_replay_errors_are_one_clear_line(runner, tmp_path):
    lines = (GAMES / "solo-random-seed11.jsonl").read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:5], "{oops", *lines[6:]]) + "\n")
    result = runner.invoke(main, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "bad.jsonl: line 6: not valid JSON" in result.output and "Traceback" not in result.output
    edition = tmp_path / "mine.toml"
    edition.write_text("[rules]\nbutterfly_steps = 2\n")
    result = runner.invoke(main, ["replay", "--edition", str(edition), str(GAMES / "solo-random-seed11.jsonl")])
    assert result.exit_code == 1 and "played with the 'standard' edition" in result.output


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
