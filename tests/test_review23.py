"""Issue 23 reviewed as a new user would try it: each defect the review found, tried through the CLI."""

from __future__ import annotations

from pathlib import Path

from papillon.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "sheets" / "examples"


def play(runner, *args: str, input: str):
    result = runner.invoke(main, ["play", "--picture", "none", "--no-color", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_a_refused_answer_wraps_between_words_at_80_columns(runner):
    # Seed 7, start B4, pair 1, the die first: the bramble prompt is long, and its refusal quotes it.
    result = play(runner, "--seed", "7", "--name", "Ann", input="1\n1\npart die\ngazebo\nq\n")
    out = result.output
    assert ("  'gazebo' is not allowed: Ann: the die shows a bramble: choose a plot for it;\n  expected 'plot' (e.g. 'plot A1')\n") in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_json_error_does_not_end_on_a_dangling_at(runner, tmp_path):
    # json's own message is "Unterminated string starting at": its position is already in the line's prefix.
    (tmp_path / "q.json").write_text('{"a": "' + '\\"' * 20_000, encoding="utf-8")
    (tmp_path / "q.jsonl").write_text('{"a": "' + '\\"' * 20_000 + "\n", encoding="utf-8")
    score = runner.invoke(main, ["score", "q.json"])
    assert (score.exit_code, score.output) == (1, "q.json:1:7: not valid JSON: Unterminated string\n")
    log = runner.invoke(main, ["replay", "q.jsonl"], prog_name="papillon")
    assert log.exit_code == 1
    assert log.output == "papillon replay: error: q.jsonl: line 1: not valid JSON (Unterminated string, column 7)\n"


def test_a_game_pages_json_lists_its_actions_as_text(client):
    # The engine's actions are values now (Action): the JSON answer still gives the text a program posts back.
    from papillon.web.app import CSRF_COOKIE

    csrf = str(client.cookies.get(CSRF_COOKIE))
    made = client.post("/games", data={"csrf": csrf, "seed": "12", "seat1": "human", "name1": "Ann"}, follow_redirects=False)
    game = made.headers["location"]
    client.post(f"{game}/act", data={"csrf": csrf, "action": "start B4"}, follow_redirects=False)
    answer = client.get(game, headers={"accept": "application/json"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["actions"] == ["pair 1", "pair 2", "pair 3"]
    assert [choice["action"] for choice in data["choices"]] == data["actions"]


def test_a_bad_csv_row_is_named_by_the_line_it_starts_on(runner, tmp_path):
    # An export's row runs over eleven lines (its notation): the error names the row's first line,
    # where its total is, not the notation's last line.
    runner.invoke(main, ["score", "--record", str(EXAMPLES / "nested-ring.garden")])
    runner.invoke(main, ["history", "--csv", "-o", "all.csv"])
    text = (tmp_path / "all.csv").read_text(encoding="utf-8")
    header, row = text.split("\n", 1)
    (tmp_path / "bad.csv").write_text(header + "\n" + row.replace(",Fay,24,", ",Fay,-5,", 1), encoding="utf-8")
    (tmp_path / "big.csv").write_text(header + "\n" + row.replace(",Fay,", ',"' + "F" * 140_000 + '",', 1), encoding="utf-8")
    bad = runner.invoke(main, ["history", "--import", "bad.csv"], prog_name="papillon")
    assert (bad.exit_code, bad.output) == (
        1,
        "papillon history: error: bad.csv: line 2, column total: expected a whole number from 0 to 10000, got '-5'\n",
    )
    big = runner.invoke(main, ["history", "--import", "big.csv"], prog_name="papillon")
    assert (big.exit_code, big.output) == (
        1,
        "papillon history: error: big.csv: line 2: not CSV as papillon writes it (field larger than field limit (131072))\n",
    )


def test_the_web_history_page_names_no_server_path_when_the_history_cannot_be_opened(client, tmp_path):
    (tmp_path / "history.sqlite3").mkdir()  # a folder where the database should be: it cannot be opened
    page = client.get("/history")
    assert page.status_code == 503
    assert "the history history.sqlite3 cannot be opened: unable to open database file" in page.text
    assert str(tmp_path) not in page.text


def test_a_refused_cluster_says_refused_not_a_cut_timeout(runner):
    # Nothing listens on port 9: Dask retries until its timeout and calls it a timeout; the cause is a refusal.
    # 3 s, not less: on a busy machine a shorter wait can end before Dask's first attempt has been refused.
    args = ["balance", "-n", "1", "--cluster", "tcp://127.0.0.1:9", "--cluster-timeout", "3"]
    result = runner.invoke(main, args, prog_name="papillon")
    assert (result.exit_code, result.stderr) == (
        1,
        "papillon balance: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9: "
        "the connection is refused (is a scheduler running there?)\n",
    )


def test_score_record_holds_a_name_to_the_rule_the_import_reads_back(runner, tmp_path):
    # A garden's player: line may be any length; what the history keeps, its own CSV must bring back.
    lines = (EXAMPLES / "nested-ring.garden").read_text(encoding="utf-8").splitlines()
    lines = [f"player: {'x' * 100}" if line.startswith("player:") else line for line in lines]
    (tmp_path / "long.garden").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(main, ["score", "--record", "long.garden"], prog_name="papillon")
    assert result.exit_code == 1
    assert "  Total              24\n" in result.stdout  # the score is still printed
    assert result.stderr == (
        "papillon score: error: not recorded: the player's name: a name has at most 60 characters, "
        "got 100: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'\n"
    )
    assert runner.invoke(main, ["history"]).output == "No games recorded yet.\n"


def test_replay_step_tells_each_decision_in_words(runner, tmp_path):
    # Seed 7 against greedy, option 1 throughout: round 1 as a person reads it, not as the log's codes.
    runner.invoke(
        main, ["play", "--seed", "7", "--name", "Ann", "--bot", "greedy", "--picture", "none", "--save", "g.jsonl"], input="1\n" * 400
    )
    out = runner.invoke(main, ["replay", "--step", "g.jsonl"]).stdout
    round_1 = out.split("== round 2 ==")[0]
    assert (
        "Ann:\n  filled the butterfly space of B4 to start\n"
        "  took pair 1: stamp a red flower | corner: fill a space; die: 2 caterpillars +\n    bramble\n"
    ) in round_1
    assert (
        "  moved it to B1, filling the butterfly spaces of B1 B2 B3\n  took the Tree from the display\n  drew the Tree in B4\n" in round_1
    )
    assert " chose: " not in out and "feature tr" not in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_an_export_saved_with_windows_line_endings_imports_back_as_the_same_entries(runner, tmp_path):
    # unix2dos, a spreadsheet or an editor turns every \n into \r\n, the notation's own lines too.
    runner.invoke(main, ["score", "--record", str(EXAMPLES / "nested-ring.garden")])
    runner.invoke(main, ["history", "--csv", "-o", "all.csv"])
    text = (tmp_path / "all.csv").read_text(encoding="utf-8")
    (tmp_path / "crlf.csv").write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    (tmp_path / "cr.csv").write_bytes(text.replace("\n", "\r").encode("utf-8"))
    for name in ("crlf.csv", "cr.csv"):
        again = runner.invoke(main, ["history", "--import", name])
        assert (again.exit_code, again.output) == (0, "1 entry already in the history; nothing imported\n")
    (tmp_path / "data" / "history.sqlite3").unlink()
    fresh = runner.invoke(main, ["history", "--import", "crlf.csv"])
    assert (fresh.exit_code, fresh.output) == (0, "added 1 entry from crlf.csv\n")
    assert runner.invoke(main, ["history", "--import", "all.csv"]).output == "1 entry already in the history; nothing imported\n"
