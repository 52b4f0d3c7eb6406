"""The score history (papillon.history): schema and migration, import of the old best file, statistics, CSV, the CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from papillon.cli import main
from papillon.edition import standard_edition
from papillon.files import MAX_LOG_BYTES
from papillon.garden import Garden
from papillon.history import (
    MIGRATIONS,
    VERSION,
    Entry,
    History,
    HistoryError,
    entry_json,
    json_lines,
    player_stats,
    read_csv,
    scored_entry,
    stats_json,
)
from papillon.notation import parse
from papillon.score import CATEGORIES
from papillon.session import PlaySession, Seat, record_results

EXAMPLES = Path(__file__).parent.parent / "sheets" / "examples"


def _cats(**points: int) -> dict[str, int]:
    return {c: points.get(c, 0) for c in CATEGORIES}


def _entry(player: str, total_cats: dict[str, int], game: str = "", date: str = "2026-11-01T20:00:00Z") -> Entry:
    return Entry(player, sum(total_cats.values()), total_cats, "typed", date, game=game)


def test_a_scored_sheet_is_stored_whole(tmp_path: Path) -> None:
    # bird-feeder.garden: "# expected: flowers 5, patches 3, enclosed 0, butterflies 4, critters 6, features 8, unique_features 3, total 29"
    garden = parse((EXAMPLES / "bird-feeder.garden").read_text())
    history = History(tmp_path / "h.sqlite3")
    history.add(scored_entry(garden, player="Gus", source="photo", date="2026-11-30T21:00:00Z", game="night-1"))
    (entry,) = history.entries()
    assert (entry.player, entry.total, entry.source, entry.game, entry.date) == ("Gus", 29, "photo", "night-1", "2026-11-30T21:00:00Z")
    assert dict(entry.categories) == {
        "flowers": 5,
        "patches": 3,
        "enclosed": 0,
        "butterflies": 4,
        "critters": 6,
        "features": 8,
        "unique_features": 3,
    }
    assert parse(entry.notation).cells == garden.cells and parse(entry.notation).bricks == garden.bricks
    assert entry.edition_data == standard_edition().data  # the edition itself, not only its name


def test_an_unknown_source_is_refused() -> None:
    garden = Garden.empty()
    with pytest.raises(HistoryError, match=r"^unknown source 'scan': expected one of play, photo, typed, imported$"):
        scored_entry(garden, player="Ann", source="scan")


def test_a_version_1_database_is_migrated_keeping_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    MIGRATIONS[0](db)
    db.execute(
        "INSERT INTO entries (player, total, date, edition, game, seed) VALUES ('Ann', 41, '2026-01-02T03:04:05Z', 'standard', 'g', 7)"
    )
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    history = History(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION == 3
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    (entry,) = history.entries()
    assert (entry.player, entry.total, entry.seed, entry.game, entry.source, dict(entry.categories)) == ("Ann", 41, 7, "g", "play", {})
    history.add(_entry("Bob", _cats(flowers=3)))
    assert [e.player for e in history.entries()] == ["Ann", "Bob"]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 9")
    with pytest.raises(HistoryError, match=r"^the history was written by a newer papillon \(schema 9, this one knows 3\)$"):
        History(path)


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    path.write_text("this is not sqlite\n" * 100)
    with pytest.raises(HistoryError, match=rf"^the history {path} cannot be opened: file is not a database$"):
        History(path)


def test_the_old_best_file_is_imported_once(tmp_path: Path) -> None:
    old = tmp_path / "history.json"
    games = [
        {"player": "Ann", "total": 33, "seed": 5, "date": "2026-10-01T19:00:00Z", "edition": "standard", "players": 2, "game": "5-aa"},
        {"player": "Ann", "total": "lots"},  # unreadable: skipped, as the old reader did
        {"player": "Bob", "total": 28, "seed": 5, "date": "2026-10-01T19:00:00Z", "edition": "standard", "players": 2, "game": "5-aa"},
    ]
    old.write_text(json.dumps({"format": "papillon-history", "version": 1, "games": games}))
    history = History(tmp_path / "h.sqlite3")
    assert history.import_bests(old) == 2
    assert history.import_bests(old) == 0
    assert [(e.player, e.total, e.source) for e in history.entries()] == [("Ann", 33, "imported"), ("Bob", 28, "imported")]
    assert history.personal_best("Ann") == 33
    assert player_stats(history.entries(), "Ann").wins == 1  # 33 beat 28 in game 5-aa


def test_a_file_that_is_not_the_old_history_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "history.json"
    old.write_text('{"something": "else"}')
    with pytest.raises(HistoryError, match=rf"^{old}: not a papillon history$"):
        History(tmp_path / "h.sqlite3").import_bests(old)


def test_player_statistics_by_hand() -> None:
    entries = [
        _entry("Ann", _cats(flowers=10, patches=20), game="g1"),  # 30, beats Bob's 25
        _entry("Bob", _cats(flowers=5, patches=20), game="g1"),
        _entry("Ann", _cats(flowers=4, butterflies=16), game="g2"),  # 20, ties Bob: a win each
        _entry("Bob", _cats(critters=20), game="g2"),
        _entry("Ann", _cats(flowers=10)),  # a sheet scored alone: a game, never a win
    ]
    ann = player_stats(entries, "Ann")
    assert (ann.games, ann.wins, ann.best_total, ann.average_total) == (3, 2, 30, 20.0)
    assert ann.average["flowers"] == 8.0 and ann.best["flowers"] == 10
    assert ann.average["butterflies"] == pytest.approx(16 / 3) and ann.best["patches"] == 20
    bob = player_stats(entries, "Bob")
    assert (bob.games, bob.wins, bob.best_total, bob.average_total) == (2, 1, 25, 22.5)
    assert bob.lines()[0] == "Bob: 2 games, 1 win, best 25, average 22.5"
    assert player_stats(entries, "Cy").lines() == ["Cy: no games recorded."]


def test_csv_round_trip(tmp_path: Path) -> None:
    garden = parse((EXAMPLES / "bird-feeder.garden").read_text())
    first = History(tmp_path / "a.sqlite3")
    first.add(scored_entry(garden, player="Gus, the 2nd", source="typed", date="2026-11-30T21:00:00Z", game="n", seed=3, players=4))
    first.add(_entry("Ann", _cats(flowers=2)))
    text = first.export_csv()
    second = History(tmp_path / "b.sqlite3")
    assert second.import_csv(text).added == 2

    def key(e: Entry) -> tuple[object, ...]:
        return (e.player, e.total, dict(e.categories), e.source, e.date, e.notation, e.game, e.seed, e.players)

    assert [key(e) for e in second.entries()] == [key(e) for e in first.entries()]


def test_a_bad_csv_row_names_its_line_and_adds_nothing(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite3")
    history.add(_entry("Ann", _cats(flowers=2)))
    good, *_ = history.export_csv().splitlines(keepends=True)[1:]
    header = history.export_csv().splitlines(keepends=True)[0]
    bad = good.replace(",2,2,0,", ",3,2,0,", 1)  # the total 3, the flowers 2 and nothing else
    with pytest.raises(HistoryError, match=r"^t.csv: line 3, column total: the categories add up to 2, not the total 3$"):
        history.import_csv(header + good + bad, "t.csv")
    assert history.count() == 1
    with pytest.raises(HistoryError, match=r"^t.csv: line 1: expected the columns date,player,total,"):
        read_csv("player,total\nAnn,3\n", "t.csv")


def test_a_finished_game_is_recorded_once_with_its_garden(tmp_path: Path) -> None:
    session = PlaySession.new(seed=4, seats=[Seat("Ann"), Seat("greedy bot", "greedy")], folder=tmp_path)
    while not session.state.is_over():
        session.act(session.state.legal_actions()[0])
    total = session.state.score(0)
    assert [r.words() for r in record_results(session, tmp_path)] == [f"Ann: first game recorded: {total}."]
    assert [r.words() for r in record_results(session, tmp_path)] == [f"Ann: first game recorded: {total}."]
    (entry,) = History(tmp_path / "history.sqlite3").entries()
    assert (entry.player, entry.total, entry.source, entry.game, entry.seed, entry.players) == ("Ann", total, "play", session.id, 4, 2)
    assert sum(entry.categories.values()) == total
    assert parse(entry.notation).cells == session.state.garden(0).cells


def test_cli_history_and_score_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path / "data"))
    runner = CliRunner()
    empty = runner.invoke(main, ["history"])
    assert (empty.exit_code, empty.output) == (0, "No games recorded yet.\n")
    scored = runner.invoke(main, ["score", "--record", str(EXAMPLES / "bird-feeder.garden")])
    assert scored.exit_code == 0, scored.output
    assert "recorded 1 in the history" in scored.stderr
    shown = runner.invoke(main, ["history", "--player", "Gus"])
    assert shown.exit_code == 0
    lines = shown.output.splitlines()
    assert lines[0] == "date (UTC)        player           total  source   Fl Pa En Bu Cr Fe Un"
    assert lines[1].endswith("Gus                29  typed     5  3  0  4  6  8  3")
    assert "Gus: 1 game, 0 wins, best 29, average 29.0" in lines
    as_json = runner.invoke(main, ["history", "--json"])
    first, stats = (json.loads(line) for line in as_json.output.splitlines())
    assert (first["player"], first["total"], first["categories"]["features"]) == ("Gus", 29, 8)
    assert stats["stats"]["Gus"]["best"] == 29
    exported = tmp_path / "h.csv"
    assert runner.invoke(main, ["history", "--csv", "-o", str(exported)]).exit_code == 0
    imported = runner.invoke(main, ["history", "--file", str(tmp_path / "other.sqlite3"), "--import", str(exported)])
    assert (imported.exit_code, imported.stderr) == (0, f"added 1 entry from {exported}\n")
    together = runner.invoke(main, ["score", "--record", str(EXAMPLES / "bird-feeder.garden"), str(EXAMPLES / "nested-ring.garden")])
    assert together.exit_code == 0
    # scored together, they are one game: Gus's 29 beats Fay's 24 (nested-ring.garden: "# expected: ... total 24")
    assert "Gus: 2 games, 1 win, best 29, average 29.0" in runner.invoke(main, ["history", "--player", "Gus"]).output
    both = runner.invoke(main, ["history", "--json", "--csv"])
    assert both.exit_code == 2 and "choose one of --json and --csv" in both.stderr


def test_the_cli_imports_the_old_best_file_of_the_data_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(data))
    game = {"player": "Ann", "total": 33, "seed": 5, "date": "2026-10-01T19:00:00Z", "edition": "standard", "players": 1, "game": "5-aa"}
    (data / "history.json").write_text(json.dumps({"format": "papillon-history", "version": 1, "games": [game]}))
    runner = CliRunner()
    for _ in range(2):
        shown = runner.invoke(main, ["history"])
        assert shown.exit_code == 0
        assert shown.output.splitlines()[1] == "2026-10-01 19:00  Ann                33  imported"
        assert "Ann: 1 game, 0 wins, best 33, average 33.0" in shown.output
    assert (data / "history.json").exists()  # left as it is


def test_recording_an_unfinished_game_is_refused(tmp_path: Path) -> None:
    from papillon.history import record_played

    session = PlaySession.new(seed=4, seats=[Seat("Ann")], folder=tmp_path)
    with pytest.raises(HistoryError, match=r"^the game is not over$"):
        record_played(session.state, game=session.id, seed=4, people=[0], folder=tmp_path)


# --------------------------------------------------------------------------- the JSON form (the library's, the CLI prints it)

GUS = {"flowers": 5, "patches": 3, "enclosed": 0, "butterflies": 4, "critters": 6, "features": 2, "unique_features": 0}  # 20 points
NIGHT = [
    Entry("Zoé", 31, {}, "imported", "2026-01-02T10:00:00Z", game="g1"),
    Entry("Gus", 12, {}, "imported", "2026-01-02T10:00:00Z", game="g1"),
    Entry("Gus", 20, GUS, "typed", "2026-01-03T20:00:00Z", notation="papillon garden v1\n", edition_name="house", seed=7, players=1),
]
# Worked out by hand: in game g1 Zoé's 31 beats Gus's 12; Gus's average total is (12 + 20) / 2 = 16.0, his
# categories are known for one entry only, so their averages are that entry's points; json.dumps's own spacing,
# non-ASCII escaped; the entries oldest first, then the statistics in the order of the names given.
GUS_STATS = (
    '"Gus": {"games": 2, "wins": 0, "losses": 1, "average_margin": -19.0,'
    ' "best": 20, "average": 16.0, "average_by_category": {"flowers": 5.0, "patches": 3.0,'
    ' "enclosed": 0.0, "butterflies": 4.0, "critters": 6.0, "features": 2.0, "unique_features": 0.0}, "best_by_category":'
    ' {"flowers": 5, "patches": 3, "enclosed": 0, "butterflies": 4, "critters": 6, "features": 2, "unique_features": 0}}'
)
NIGHT_LINES = (
    '{"date": "2026-01-02T10:00:00Z", "player": "Zo\\u00e9", "total": 31, "categories": {}, "source": "imported", "game": "g1",'
    ' "edition": "standard", "notation": ""}\n',
    '{"date": "2026-01-02T10:00:00Z", "player": "Gus", "total": 12, "categories": {}, "source": "imported", "game": "g1",'
    ' "edition": "standard", "notation": ""}\n',
    '{"date": "2026-01-03T20:00:00Z", "player": "Gus", "total": 20, "categories": {"flowers": 5, "patches": 3, "enclosed": 0,'
    ' "butterflies": 4, "critters": 6, "features": 2, "unique_features": 0}, "source": "typed", "game": "", "edition": "house",'
    ' "notation": "papillon garden v1\\n"}\n',
)
NIGHT_JSON = "".join(NIGHT_LINES) + (
    '{"stats": {' + GUS_STATS + ', "Zo\\u00e9": {"games": 1, "wins": 1, "losses": 0, "average_margin": 19.0,'
    ' "best": 31, "average": 31.0, "average_by_category": {},'
    ' "best_by_category": {}}}}\n'
)


def test_the_json_form_of_entries_and_statistics() -> None:
    assert entry_json(NIGHT[0]) == {
        "date": "2026-01-02T10:00:00Z",
        "player": "Zoé",
        "total": 31,
        "categories": {},
        "source": "imported",
        "game": "g1",
        "edition": "standard",
        "notation": "",
    }
    nobody = player_stats(NIGHT, "Nobody")
    assert stats_json(nobody) == {
        "games": 0,
        "wins": 0,
        "losses": 0,
        "average_margin": None,
        "best": None,
        "average": None,
        "average_by_category": {},
        "best_by_category": {},
    }
    assert json_lines(NIGHT, [player_stats(NIGHT, "Gus"), player_stats(NIGHT, "Zoé")]) == NIGHT_JSON
    assert json_lines([], [nobody]) == (
        '{"stats": {"Nobody": {"games": 0, "wins": 0, "losses": 0, "average_margin": null, "best": null, "average": null,'
        ' "average_by_category": {}, "best_by_category": {}}}}\n'
    )


def test_the_cli_prints_the_librarys_json(tmp_path: Path) -> None:
    # The output `papillon history --json` gave before the JSON moved into the library, byte for byte.
    History(tmp_path / "h.sqlite3").add_many(NIGHT)
    runner = CliRunner()
    shown = runner.invoke(main, ["history", "--file", str(tmp_path / "h.sqlite3"), "--json"])
    assert (shown.exit_code, shown.output) == (0, NIGHT_JSON)
    gus = runner.invoke(main, ["history", "--file", str(tmp_path / "h.sqlite3"), "--json", "--player", "Gus"])
    # One player's entries, but the wins counted over everyone's (Zoé won g1).
    assert (gus.exit_code, gus.output) == (0, NIGHT_LINES[1] + NIGHT_LINES[2] + '{"stats": {' + GUS_STATS + "}}\n")


def test_an_import_over_the_size_limit_is_one_line(tmp_path: Path) -> None:
    big = tmp_path / "big.csv"
    big.write_text(",".join(("date", "player")) + "\n")
    with open(big, "r+b") as handle:
        handle.truncate(MAX_LOG_BYTES + 1)  # sparse: no disk is used
    result = CliRunner().invoke(main, ["history", "--file", str(tmp_path / "h.sqlite3"), "--import", str(big)])
    assert (result.exit_code, result.stderr) == (
        1,
        f"papillon history: error: {big}: cannot read it (over 50 MB: is this the right file?)\n",
    )
    assert History(tmp_path / "h.sqlite3").count() == 0
