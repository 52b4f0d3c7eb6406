"""Issue 23, the data items: the history database and its CSV, game logs and saves, the bounded JSON reader.

Each test was written before its fix and failed on the code of that day.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from papillon import history as history_module
from papillon.cli import main
from papillon.edition import edition_from_toml
from papillon.engine.bots import make_bot
from papillon.engine.log import GameLog, parse_log, play_game, replay
from papillon.errors import GameLogError, HistoryError
from papillon.files import _JSON_TOKEN, loads_json
from papillon.history import CSV_COLUMNS, Entry, History, player_stats
from papillon.notation import parse
from papillon.score import CATEGORIES
from papillon.session import PlaySession, Seat, list_games, record_results

EXAMPLES = Path(__file__).parent.parent / "sheets" / "examples"
STANDARD_TOML = Path(__file__).parent.parent / "papillon" / "editions" / "standard.toml"


def _cats(**points: int) -> dict[str, int]:
    return {c: points.get(c, 0) for c in CATEGORIES}


def _finished(seed: int, folder: Path, seats: list[Seat]) -> PlaySession:
    session = PlaySession.new(seed=seed, seats=seats, folder=folder)
    while not session.state.is_over():
        session.act(session.state.legal_actions()[0])
    return session


# --------------------------------------------------------------------------- 2: an export imported back


def test_an_export_imported_back_into_its_own_history_changes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    runner = CliRunner(env={"PAPILLON_DATA_DIR": str(data)})
    scored = runner.invoke(main, ["score", "--record", str(EXAMPLES / "bird-feeder.garden"), str(EXAMPLES / "nested-ring.garden")])
    assert scored.exit_code == 0, scored.output
    before = runner.invoke(main, ["history"]).output
    exported = tmp_path / "all.csv"
    assert runner.invoke(main, ["history", "--csv", "-o", str(exported)]).exit_code == 0
    again = runner.invoke(main, ["history", "--import", str(exported)])
    assert (again.exit_code, again.stderr) == (0, "2 entries already in the history; nothing imported\n")
    assert runner.invoke(main, ["history"]).output == before  # no doubled entry, no invented win
    # A row that is new is added; those already there are said so.
    extra = exported.read_text() + "2026-11-30T20:00:00Z,Ann,2,2,0,0,0,0,0,0,typed,,,,standard,\n"
    exported.write_text(extra)
    mixed = runner.invoke(main, ["history", "--import", str(exported)])
    assert (mixed.exit_code, mixed.stderr) == (0, f"added 1 entry from {exported} (2 already in the history)\n")


def test_a_game_with_one_player_twice_is_no_win() -> None:
    doubled = [Entry("Ann", 30, {}, "typed", "", game="g"), Entry("Ann", 30, {}, "typed", "", game="g")]
    assert (player_stats(doubled, "Ann").wins, player_stats(doubled, "Ann").losses) == (0, 0)


# --------------------------------------------------------------------------- 3: bots are opponents


def test_statistics_count_the_bots_totals_as_opponents_by_hand() -> None:
    entries = [
        Entry("Ann", 81, {}, "play", "", game="g1"),  # 81 against greedy's 47: won by 34
        Entry("Ann", 40, {}, "play", "", game="g2"),  # 40 against 52 and 38: lost by 12
        Entry("Ann", 50, {}, "play", "", game="g3"),  # alone: neither
    ]
    stats = history_module.all_player_stats(entries, [("g1", 47), ("g2", 52), ("g2", 38), ("elsewhere", 99)])["Ann"]
    assert (stats.games, stats.wins, stats.losses, stats.average_margin) == (3, 1, 1, 11.0)  # (34 - 12) / 2
    assert stats.lines()[:2] == [
        "Ann: 3 games, 1 win, best 81, average 57.0",
        "  against others: 2 games, 1 won, 1 lost, average margin +11.0",
    ]


def test_a_solo_game_against_a_bot_is_won_or_lost(tmp_path: Path) -> None:
    session = _finished(4, tmp_path, [Seat("Ann"), Seat("greedy bot", "greedy")])
    record_results(session, tmp_path)
    mine, bot = session.state.score(0), session.state.score(1)
    stats = History(tmp_path / "history.sqlite3").stats("Ann")
    assert (stats.games, stats.wins, stats.losses, stats.average_margin) == (1, int(mine >= bot), int(mine < bot), float(mine - bot))
    assert History(tmp_path / "history.sqlite3").players() == ["Ann"]  # the bot is an opponent, not a player


def test_a_version_2_history_is_migrated_to_hold_opponents(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    history_module.MIGRATIONS[0](db)
    history_module.MIGRATIONS[1](db)
    db.execute("INSERT INTO entries (player, total, date) VALUES ('Ann', 41, '2026-01-02T03:04:05Z')")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    assert [e.total for e in History(path).entries()] == [41]
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == 3
        assert check.execute("SELECT count(*) FROM opponents").fetchone()[0] == 0


# --------------------------------------------------------------------------- 19: lines end at "\n" only


def _edition_with_tile_name(name: str):  # type: ignore[no-untyped-def]
    return edition_from_toml(STANDARD_TOML.read_text().replace('name = "Ladybug"', f'name = "{name}"', 1), "odd.toml")


@pytest.mark.parametrize("odd", ["2028", "0085"])
def test_a_log_of_an_edition_with_a_line_separator_in_a_name_reads_back(odd: str) -> None:
    edition = _edition_with_tile_name(f"Lady\\u{odd}bug")  # TOML's escape
    state, log = play_game(3, [make_bot("greedy")], edition)
    text = log.text()
    assert f"Lady{chr(int(odd, 16))}bug" in text  # JSON writes it as it is, not escaped
    again = parse_log(text)
    assert replay(again).garden(0) == state.garden(0)


def test_the_saved_games_list_reads_a_save_with_a_line_separator(tmp_path: Path) -> None:
    session = PlaySession.new(seed=8, seats=[Seat("Ann")], folder=tmp_path)
    header, rest = session.path.read_text().split("\n", 1)
    data = json.loads(header)
    data["note"] = "a\u2028b"  # any string of the header
    session.path.write_text(json.dumps(data, ensure_ascii=False) + "\n" + rest)
    assert [g.id for g in list_games(tmp_path)] == [session.id]


# --------------------------------------------------------------------------- 21: the JSON pre-scan is linear


def test_an_unterminated_string_of_escaped_quotes_is_scanned_once() -> None:
    text = '{"a": "' + '\\"' * 150_000  # 300 kB: minutes for the old pre-scan, which rescanned from each quote
    # One token from the opening quote to the end: nothing is scanned twice.
    token = _JSON_TOKEN.search(text, 6)
    assert token is not None and token.span() == (6, len(text))
    with pytest.raises(json.JSONDecodeError, match=r"^Unterminated string starting at: line 1 column 7 \(char 6\)$"):
        loads_json(text)
    assert loads_json('["a\\\\", "\\"]", "[[["]') == ["a\\", '"]', "[[["]  # brackets inside strings still do not nest


# --------------------------------------------------------------------------- 22: a damaged save is left off the list


def test_a_save_whose_seed_is_not_a_whole_number_is_left_off_the_list(tmp_path: Path) -> None:
    good = PlaySession.new(seed=8, seats=[Seat("Ann")], folder=tmp_path)
    bad = PlaySession.new(seed=9, seats=[Seat("Bob")], folder=tmp_path)
    bad.path.write_text(bad.path.read_text().replace('"seed":9', '"seed":1e999', 1))
    nameless = PlaySession.new(seed=10, seats=[Seat("Cy")], folder=tmp_path)
    nameless.path.write_text(nameless.path.read_text().replace('"name":"Cy"', '"name":7', 1))
    assert [g.id for g in list_games(tmp_path)] == [good.id]


def test_a_log_of_two_bots_of_a_kind_still_reads() -> None:
    log = play_game(4, [make_bot("greedy"), make_bot("greedy")])[1]
    assert parse_log(log.text()).names == ("greedy", "greedy") and replay(parse_log(log.text())).is_over()


# --------------------------------------------------------------------------- 23: a damaged history database


def _history_with(tmp_path: Path, *entries: Entry) -> Path:
    path = tmp_path / "h.sqlite3"
    History(path).add_many(entries)
    return path


def test_a_malformed_database_is_one_line_and_kept(tmp_path: Path) -> None:
    path = _history_with(tmp_path, *[Entry(f"P{i}", i, {}, "typed", "2026-11-30T20:00:00Z") for i in range(300)])
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the second page: a table's b-tree
    path.write_bytes(bytes(data))
    result = CliRunner().invoke(main, ["history", "--file", str(path)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"papillon history: error: the history {path} is damaged (database disk image is malformed);"
        " it is left as it is: move it away to start a new one\n"
    )
    assert path.read_bytes() == bytes(data)


def test_a_history_without_its_scores_table_is_one_line(tmp_path: Path) -> None:
    path = _history_with(tmp_path, Entry("Ann", 2, _cats(flowers=2), "typed", "2026-11-30T20:00:00Z"))
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE scores")
    with pytest.raises(HistoryError) as caught:
        History(path)
    assert str(caught.value) == f"the history {path} is damaged (no scores table); it is left as it is: move it away to start a new one"


def test_score_record_still_prints_the_score_when_the_history_is_damaged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = _history_with(data, Entry("Ann", 2, _cats(flowers=2), "typed", "2026-11-30T20:00:00Z"))
    path.rename(data / "history.sqlite3")
    with sqlite3.connect(data / "history.sqlite3") as db:
        db.execute("DROP TABLE scores")
    result = CliRunner(env={"PAPILLON_DATA_DIR": str(data)}).invoke(main, ["score", "--record", str(EXAMPLES / "bird-feeder.garden")])
    assert result.exit_code == 1
    assert "Total              29" in result.stdout
    history = data / "history.sqlite3"
    assert result.stderr.splitlines() == [
        f"main score: error: not recorded: the history {history} is damaged (no scores table);"
        " it is left as it is: move it away to start a new one"
    ]


def test_damaged_values_lose_their_entry_only(tmp_path: Path) -> None:
    path = _history_with(
        tmp_path,
        *[Entry(name, 2, _cats(flowers=2), "typed", "2026-11-30T20:00:00Z", edition_data={"a": 1}) for name in ("Ann", "Bob", "Cy", "Di")],
    )
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET player = CAST(X'416EFF' AS TEXT) WHERE player = 'Bob'")  # not UTF-8
        db.execute("UPDATE entries SET total = 'twelve' WHERE player = 'Cy'")  # a number stored as text
        db.execute("UPDATE editions SET data = '{not json'")  # every entry keeps its edition's name, not its data
    history = History(path)
    reading = history.read()
    assert [(e.player, e.total, e.edition_data) for e in reading.entries] == [("Ann", 2, None), ("Di", 2, None)]
    assert reading.damaged == 2
    result = CliRunner().invoke(main, ["history", "--file", str(path)])
    assert result.exit_code == 0
    assert result.stderr == f"papillon history: warning: 2 damaged entries of {path} left out (the file is left as it is)\n"
    assert "Ann: 1 game, 0 wins, best 2, average 2.0" in result.stdout
    assert history.personal_best("Cy") is None


def test_a_database_that_is_not_papillons_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    other = tmp_path / "photos.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT)")
    before = other.read_bytes()
    result = CliRunner().invoke(main, ["history", "--file", str(other), "--import", str(tmp_path / "none.csv")])
    assert result.exit_code == 1
    assert result.stderr == (
        f"papillon history: error: {other} is not a papillon history (an SQLite database of something else): it is left as it is\n"
    )
    assert other.read_bytes() == before
    with sqlite3.connect(other) as db:
        assert [row[0] for row in db.execute("SELECT name FROM sqlite_master")] == ["albums"]


def test_a_failed_write_keeps_its_cause(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite3")
    with pytest.raises(KeyError, match="the cause"), history._write() as db:
        db.execute("ROLLBACK")  # as SQLite does itself on a full disk or a damaged page
        raise KeyError("the cause")


def test_reading_does_not_wait_for_a_writer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _history_with(tmp_path, Entry("Ann", 2, {}, "typed", "2026-11-30T20:00:00Z"))
    monkeypatch.setattr(history_module, "BUSY_TIMEOUT_S", 0.2)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO entries (player, total, date) VALUES ('Bob', 3, '2026-11-30T21:00:00Z')")
    try:
        assert [e.player for e in History(path).entries()] == ["Ann"]  # the writer's entry is not committed yet
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_reading_needs_no_write_access(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    _history_with(folder, Entry("Ann", 2, {}, "typed", "2026-11-30T20:00:00Z"))
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("no chattr here to make a folder read-only for root")
    try:
        assert [e.player for e in History(folder / "h.sqlite3").entries()] == ["Ann"]
        assert History(folder / "none.sqlite3").entries() == []  # nothing yet: nothing made
        with pytest.raises(HistoryError, match=rf"^the history {folder / 'h.sqlite3'} cannot be (opened|written): "):
            History(folder / "h.sqlite3").add(Entry("Bob", 2, {}, "typed", "2026-11-30T20:00:00Z"))
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert not (folder / "none.sqlite3").exists()


# --------------------------------------------------------------------------- 24: the CSV import holds every value to papillon's rules

HEADER = ",".join(CSV_COLUMNS) + "\n"
ROW = "2026-11-30T20:00:00Z,Ann,2,2,0,0,0,0,0,0,typed,,,,standard,"


def _import(tmp_path: Path, text: str) -> tuple[int, str]:
    csv_file = tmp_path / "in.csv"
    csv_file.write_bytes(text.encode())
    result = CliRunner().invoke(main, ["history", "--file", str(tmp_path / "h.sqlite3"), "--import", str(csv_file)])
    return result.exit_code, result.stderr.replace(str(csv_file), "in.csv")


def test_carriage_return_line_endings_are_read(tmp_path: Path) -> None:
    code, said = _import(tmp_path, (HEADER + ROW + "\n" + ROW.replace("Ann", "Bob") + "\n").replace("\n", "\r"))
    assert (code, said) == (0, "added 2 entries from in.csv\n")
    assert [e.player for e in History(tmp_path / "h.sqlite3").entries()] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (ROW.replace(",Ann,", ",Ann\x1b[31m,"), "line 2, column player: holds the control or invisible character U+001B"),
        (
            ROW.replace(",Ann,", ",Ann #1,"),
            "line 2, column player: a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'",
        ),
        (ROW.replace(",2,2,", ",٢,2,"), "line 2, column total: expected a whole number from 0 to 10000, got '٢'"),
        (ROW.replace(",2,2,", ",1_0,2,"), "line 2, column total: expected a whole number from 0 to 10000, got '1_0'"),
        (ROW.replace(",2,2,", ",-2,2,"), "line 2, column total: expected a whole number from 0 to 10000, got '-2'"),
        (
            ROW.replace("typed,,,,", "typed,," + "9" * 30 + ",,"),
            "line 2, column seed: expected a whole number from 0 to 999999999999, got '" + "9" * 30 + "'",
        ),
        (
            ROW.replace("2026-11-30T20:00:00Z", "yesterday"),
            "line 2, column date: expected a UTC date as papillon writes it (2026-11-30T20:15:00Z), got 'yesterday'",
        ),
        (
            ROW.replace("2026-11-30T20:00:00Z", "2026-02-30T20:00:00Z"),
            "line 2, column date: expected a UTC date as papillon writes it (2026-11-30T20:15:00Z), got '2026-02-30T20:00:00Z'",
        ),
        (
            ROW + "hello",
            "line 2, column notation: not a garden (line 1, column 1: expected the first line 'papillon garden v1', found 'hello')",
        ),
    ],
)
def test_an_odd_value_is_one_line_naming_row_and_column(tmp_path: Path, row: str, message: str) -> None:
    code, said = _import(tmp_path, HEADER + row + "\n" + ROW.replace("Ann", "Bob") + "\n")
    assert (code, said) == (1, f"papillon history: error: in.csv: {message}\n")
    assert History(tmp_path / "h.sqlite3").count() == 0  # checked whole first


def test_a_field_over_the_csv_modules_limit_is_one_line(tmp_path: Path) -> None:
    code, said = _import(tmp_path, HEADER + ROW + '"' + "x" * 200_000 + "\n")  # the long notation starts on line 2
    assert (code, said) == (
        1,
        "papillon history: error: in.csv: line 2: not CSV as papillon writes it (field larger than field limit (131072))\n",
    )


# --------------------------------------------------------------------------- 25 (the library's part): names are drawn as text


def test_a_name_that_looks_like_mathematics_is_drawn_as_text() -> None:
    pytest.importorskip("matplotlib")
    from papillon.web.plots import category_profile_png, score_over_time_png

    name = "$\\frac$"  # the name rule takes it; matplotlib's mathtext does not
    assert score_over_time_png([Entry(name, 5, {}, "typed", "")], name).startswith(b"\x89PNG")
    assert category_profile_png(player_stats([Entry(name, 5, _cats(flowers=5), "typed", "")], name)).startswith(b"\x89PNG")


# --------------------------------------------------------------------------- 26: logs and saves are read as a game takes them


def _log_text(seed: int = 5) -> str:
    return play_game(seed, [make_bot("greedy")], names=["Ann"])[1].text()


def test_a_name_with_spaces_around_it_is_read_as_a_game_takes_it(tmp_path: Path) -> None:
    text = _log_text().replace('"name":"Ann"', '"name":" Ann "', 1)
    log = parse_log(text)
    assert log.names == ("Ann",)
    assert replay(log).is_over()
    saved = tmp_path / "game.jsonl"
    saved.write_text(text)
    shown = CliRunner().invoke(main, ["replay", str(saved)])
    assert shown.exit_code == 0, shown.output
    session = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path)
    session.path.write_text(session.path.read_text().replace('"name":"Ann"', '"name":"  Ann"', 1))
    assert PlaySession.resume(session.id, tmp_path).log.names == ("Ann",)


def test_a_log_whose_end_disagrees_with_its_replay_is_refused(tmp_path: Path) -> None:
    text = _log_text()
    end = json.loads(text.strip().split("\n")[-1])
    lied = text.replace(json.dumps(end["end"]["scores"], separators=(",", ":")), "[999]", 1)
    with pytest.raises(
        GameLogError, match=rf"^the log's end records the scores \[999\], but replaying its events gives \[{end['end']['scores'][0]}\]$"
    ):
        replay(parse_log(lied))
    saved = tmp_path / "lied.jsonl"
    saved.write_text(lied)
    assert CliRunner().invoke(main, ["replay", str(saved)]).exit_code == 1


@pytest.mark.parametrize(("seed", "shown"), [("-12", "-12"), ("9" * 90, "9" * 40 + "…")])
def test_a_log_holds_only_a_seed_play_takes(seed: str, shown: str) -> None:
    text = _log_text().replace('"seed":5', f'"seed":{seed}', 1)
    with pytest.raises(GameLogError, match=rf'^line 1: header: "seed" is a whole number from 0 to 999999999999, not {shown}$'):
        parse_log(text)


# --------------------------------------------------------------------------- 27: a finished game is recorded on resume when missing


def test_resuming_a_finished_game_records_it_once_when_missing(tmp_path: Path) -> None:
    save = tmp_path / "game.jsonl"
    state, log = play_game(6, [make_bot("greedy"), make_bot("greedy")], names=["Ann", "greedy bot"])
    log.players[0]["bot"] = None  # Ann played it; its end was never recorded (the history could not be written)
    save.write_text(log.text())
    history = tmp_path / "h.sqlite3"
    runner = CliRunner()
    for _ in range(2):
        resumed = runner.invoke(main, ["play", "--resume", str(save), "--history", str(history)], input="")
        assert resumed.exit_code == 0, resumed.output
    (entry,) = History(history).entries()
    assert (entry.player, entry.total, entry.seed, entry.source) == ("Ann", state.score(0), 6, "play")
    assert parse(entry.notation).cells == state.garden(0).cells


def test_a_game_played_to_its_end_keeps_its_id_on_resume(tmp_path: Path) -> None:
    log: GameLog = play_game(6, [make_bot("greedy")], names=["Ann"])[1]
    path = tmp_path / "a.jsonl"
    path.write_text(log.text())
    first = PlaySession.open(path, log.edition)
    assert PlaySession.open(path, log.edition).id == first.id


# --------------------------------------------------------------------------- 29: -o refuses to overwrite; statistics are cached


def test_history_output_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "all.csv"
    out.write_text("mine\n")
    args = ["history", "--file", str(tmp_path / "h.sqlite3"), "--csv", "-o", str(out)]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and f"{out} exists (use --force to overwrite it)" in refused.stderr
    assert out.read_text() == "mine\n"
    assert CliRunner().invoke(main, [*args, "--force"]).exit_code == 0
    assert out.read_text() == HEADER


def test_statistics_are_worked_out_once_and_kept_up_to_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _history_with(tmp_path, Entry("Ann", 30, {}, "typed", "", game="g"), Entry("Bob", 20, {}, "typed", "", game="g"))
    passes = []
    real = history_module._Summary.of
    monkeypatch.setattr(history_module._Summary, "of", lambda *a: passes.append(1) or real(*a))
    history = History(path)
    assert history.all_stats()["Ann"].wins == 1
    assert History(path).stats("Bob").losses == 1  # another History of the same file: the same summary
    assert len(passes) == 1
    history.add(Entry("Bob", 40, _cats(flowers=40), "typed", "", game="h"))  # added: brought up to date, not summed again
    history.add(Entry("Ann", 35, _cats(flowers=35), "typed", "", game="h"))
    assert (history.stats("Bob").wins, history.stats("Bob").best["flowers"], history.stats("Ann").losses) == (1, 40, 1)
    assert len(passes) == 1
    with sqlite3.connect(path) as db:  # any other change, even by hand, is seen: summed again
        db.execute("UPDATE entries SET total = 10 WHERE player = 'Ann' AND game = 'g'")
    assert history.stats("Ann").losses == 2
    assert len(passes) == 2
    threads = [threading.Thread(target=history.all_stats) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(passes) == 2


def test_the_newest_entries_of_one_player(tmp_path: Path) -> None:
    path = _history_with(tmp_path, *[Entry("Ann" if i % 2 else "Bob", i, {}, "typed", f"2026-11-{i + 1:02d}T20:00:00Z") for i in range(10)])
    assert [e.total for e in History(path).entries("Ann", last=3)] == [5, 7, 9]
    assert history_module.Imported(0, 3).words("x.csv") == "3 entries already in the history; nothing imported"


def test_the_statistics_summed_by_sqlite_are_those_of_the_entries(tmp_path: Path) -> None:
    import random

    rng = random.Random(23)
    entries = []
    for game in range(60):
        for name in rng.sample(["Ann", "Bob", "Cy", "Dé"], rng.randint(1, 3)):
            cats = {c: rng.randint(0, 9) for c in CATEGORIES if rng.random() < 0.9} if rng.random() < 0.8 else {}
            total = sum(cats.values()) if cats else rng.randint(0, 60)
            entries.append(Entry(name, total, cats, "typed", "2026-11-30T20:00:00Z", game=f"g{game % 45}" if game % 7 else ""))
    path = _history_with(tmp_path, *entries)
    bots = [(f"g{g}", rng.randint(0, 60)) for g in range(0, 45, 4)]
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO opponents (game, seat, name, total) VALUES (?, 3, 'greedy bot', ?)", bots)
    assert History(path).all_stats() == history_module.all_player_stats(History(path).entries(), bots)
    # Brought up to date with entries added since: the same as summed again.
    History(path).add_many(entries[:40])
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO opponents (game, seat, name, total) VALUES ('g1', 3, 'greedy bot', 99)")
    caught_up = History(path).all_stats()
    history_module._SUMMARIES.clear()
    assert caught_up == History(path).all_stats() == history_module.all_player_stats(History(path).entries(), [*bots, ("g1", 99)])


def test_an_empty_file_reads_as_an_empty_history_and_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    path.touch()
    assert (History(path).entries(), History(path).count(), History(path).all_stats()) == ([], 0, {})
    assert path.read_bytes() == b""


def test_23_a_history_being_created_by_another_writer_is_never_taken_for_a_foreign_database(tmp_path: Path) -> None:
    # The schema check read the version and the tables apart: a writer creating the schema in between
    # made a reader see tables at version 0, "not a papillon history" (six phones adding sheets at once).
    import threading

    from papillon.history import History, HistoryError

    problems: list[str] = []

    def open_and_write(path: Path) -> None:
        try:
            History(path).count()
            with History(path)._write():
                pass
        except HistoryError as error:
            problems.append(str(error))

    for attempt in range(40):
        path = tmp_path / f"h{attempt}.sqlite3"
        threads = [threading.Thread(target=open_and_write, args=(path,)) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [p for p in problems if "not a papillon history" in p] == []
