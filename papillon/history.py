"""The score history: every game played and every sheet scored, in one SQLite file.

One file, ``history.sqlite3``, in the user's data folder (the same folder as
saved games, :func:`papillon.session.data_dir`).  Each entry is one player's
result: who, when, the total and each category's points, the garden's
notation, where it came from (``play``, ``photo``, ``typed``, or ``imported``
from the old personal-best file), and the edition's data itself (stored once
per edition, by its fingerprint), so an entry can be re-scored and understood
even when the edition file is gone.

The schema is versioned (``PRAGMA user_version``) and migrated forward by the
ordered functions in :data:`MIGRATIONS`; every write is one transaction in WAL
mode, so several writers (threads, processes, phones on a game night) never
lose or mix entries, and a process killed during a write loses at most that
entry.  Each operation opens its own connection: a :class:`History` is safe to
share between threads.

>>> import tempfile, pathlib
>>> from papillon.garden import Cell, Garden
>>> history = History(pathlib.Path(tempfile.mkdtemp()) / "history.sqlite3")
>>> garden = Garden.empty().with_cell(0, Cell.parse("R")).with_cell(1, Cell.parse("R"))
>>> entry_id = history.add(scored_entry(garden, player="Ann", source="typed", date="2026-11-30T20:00:00Z"))
>>> [(e.player, e.total, e.categories["flowers"]) for e in history.entries()]
[('Ann', 2, 2)]
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papillon.edition import Edition, standard_edition
from papillon.errors import HistoryError
from papillon.files import MAX_LOG_BYTES, loads_json, read_text
from papillon.garden import Garden
from papillon.notation import format_garden
from papillon.score import CATEGORIES, CATEGORY_TITLES, score
from papillon.words import plural

if TYPE_CHECKING:
    from papillon.engine.state import GameState

FILE_NAME = "history.sqlite3"
SOURCES = ("play", "photo", "typed", "imported")
"""Where an entry came from: a game played in papillon, a photo of a sheet, a garden typed or tapped in, the old best file."""
BUSY_TIMEOUT_S = 30.0
"""How long a writer waits for another writer's transaction before giving up."""
CSV_COLUMNS = ("date", "player", "total", *CATEGORIES, "source", "game", "seed", "players", "edition", "notation")


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Entry:
    """One player's result in one game (or one scored sheet)."""

    player: str
    total: int
    categories: Mapping[str, int]
    """Points per category; empty for an entry imported from the old best file (only its total is known)."""
    source: str
    date: str
    """UTC, ISO 8601 to the second (``2026-11-30T20:15:00Z``)."""
    notation: str = ""
    edition_name: str = "standard"
    edition_data: Mapping[str, Any] | None = None
    """The edition's whole data (as :attr:`papillon.edition.Edition.data`); None when it was not known."""
    game: str = ""
    """Groups the entries of one game or one game night (the winner is the best total in a group)."""
    seed: int | None = None
    players: int | None = None
    id: int = 0


@dataclass(frozen=True)
class Result:
    """A person's result at the end of a game, against their personal best before it."""

    player: str
    total: int
    best: int | None
    """The best before this game (None: the first game recorded)."""

    def words(self) -> str:
        if self.best is None:
            return f"{self.player}: first game recorded: {self.total}."
        if self.total > self.best:
            return f"{self.player}: new personal best! {self.total} (previous best {self.best})."
        return f"{self.player}: {self.total}; personal best {self.best}."


@dataclass(frozen=True)
class PlayerStats:
    """A player's statistics over their history."""

    player: str
    games: int
    wins: int
    """Games (groups of two or more entries) where this player had the best total (ties count for each)."""
    best_total: int | None
    average_total: float | None
    average: Mapping[str, float] = field(default_factory=dict)
    """Average points per category, over the entries whose categories are known."""
    best: Mapping[str, int] = field(default_factory=dict)
    """Best points per category."""

    def lines(self) -> list[str]:
        """The statistics in words, one line each."""
        if not self.games:
            return [f"{self.player}: no games recorded."]
        head = f"{self.player}: {plural(self.games, 'game')}, {plural(self.wins, 'win')}, "
        head += f"best {self.best_total}, average {self.average_total:.1f}"
        out = [head]
        for category in CATEGORIES:
            if category in self.average:
                out.append(f"  {CATEGORY_TITLES[category]:<17} average {self.average[category]:5.1f}   best {self.best[category]:>3}")
        return out


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def scored_entry(
    garden: Garden,
    *,
    player: str,
    source: str,
    edition: Edition | None = None,
    date: str | None = None,
    game: str = "",
    seed: int | None = None,
    players: int | None = None,
) -> Entry:
    """An entry for a finished garden: scored here, with its notation and its edition's data."""
    if source not in SOURCES:
        raise HistoryError(f"unknown source {source!r}: expected one of {', '.join(SOURCES)}")
    edition = edition or standard_edition()
    card = score(garden, edition)
    return Entry(
        player=player,
        total=card.total,
        categories=dict(card.categories),
        source=source,
        date=date or now(),
        notation=format_garden(garden),
        edition_name=edition.name,
        edition_data=edition.data,
        game=game,
        seed=seed,
        players=players,
    )


# --------------------------------------------------------------------------- schema and migrations


def _v1(db: sqlite3.Connection) -> None:
    """The first schema: what the old personal-best file held, one row per result."""
    db.execute(
        "CREATE TABLE entries (id INTEGER PRIMARY KEY, player TEXT NOT NULL, total INTEGER NOT NULL, date TEXT NOT NULL,"
        " edition TEXT NOT NULL DEFAULT 'standard', game TEXT NOT NULL DEFAULT '', seed INTEGER, players INTEGER)"
    )
    db.execute("CREATE INDEX entries_player ON entries (player)")


def _v2(db: sqlite3.Connection) -> None:
    """Per-category scores, the garden, the source, the edition's data, and a note of what was imported."""
    db.execute("ALTER TABLE entries ADD COLUMN source TEXT NOT NULL DEFAULT 'play'")
    db.execute("ALTER TABLE entries ADD COLUMN notation TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE entries ADD COLUMN edition_fp TEXT REFERENCES editions (fingerprint)")
    db.execute("CREATE TABLE editions (fingerprint TEXT PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE scores (entry INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE, category TEXT NOT NULL,"
        " points INTEGER NOT NULL, PRIMARY KEY (entry, category))"
    )
    db.execute("CREATE TABLE imports (key TEXT PRIMARY KEY, date TEXT NOT NULL, entries INTEGER NOT NULL)")
    db.execute("CREATE INDEX entries_game ON entries (game)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2)
"""Migration ``i`` takes the schema from version ``i`` to ``i + 1``; never edit one that was released, add the next."""
VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, upto: int = VERSION) -> int:
    """Bring the schema to version ``upto`` in one transaction (another process may be doing the same); the version before."""
    db.execute("BEGIN IMMEDIATE")
    try:
        before = int(db.execute("PRAGMA user_version").fetchone()[0])
        if before > VERSION:
            raise HistoryError(f"the history was written by a newer papillon (schema {before}, this one knows {VERSION})")
        for version in range(before, upto):
            MIGRATIONS[version](db)
        if upto > before:
            db.execute(f"PRAGMA user_version = {int(upto)}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return before


def data_folder() -> Path:
    from papillon.session import data_dir  # one data-folder rule for saved games and the history

    return data_dir()


def default_path() -> Path:
    return data_folder() / FILE_NAME


OLD_BESTS = "history.json"
"""The personal-best file papillon wrote before this history (imported once, then left as it is)."""


def open_history(folder: str | Path | None = None) -> History:
    """The history of a data folder (default: the user's), with the folder's old personal-best file imported once.

    An old file that is not a papillon history is left as it is and not imported.
    """
    base = Path(folder) if folder is not None else data_folder()
    history = History(base / FILE_NAME)
    with contextlib.suppress(HistoryError):  # not ours to judge here: the old file stays as it is
        history.import_bests(base / OLD_BESTS)
    return history


def record_played(state: GameState, *, game: str, seed: int, people: Sequence[int], folder: str | Path | None = None) -> list[Result]:
    """Record a finished game played in papillon (any front end) in the data folder's history; each person's result.

    The terminal ``play`` command and :func:`papillon.session.record_results` both call this.
    """
    if not state.is_over():
        raise HistoryError("the game is not over")
    return open_history(folder).record_game(state, game=game, seed=seed, people=people)


# --------------------------------------------------------------------------- the store


class History:
    """The history file; each method is one connection and (for writes) one transaction."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                migrate(db)
        except sqlite3.DatabaseError as error:
            raise HistoryError(f"the history {self.path} cannot be opened: {error}") from None
        except OSError as error:
            raise HistoryError(f"the history {self.path} cannot be opened: {error.strerror or error}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is stored, or none of it."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    # -- writing -------------------------------------------------------------------

    def add(self, entry: Entry, *, replacing: int | None = None) -> int:
        """Store one entry (in place of the entry ``replacing``, in the same transaction, when given); its id."""
        if replacing is None:
            return self.add_many([entry])[0]
        with self._write() as db:
            db.execute("DELETE FROM entries WHERE id = ?", (replacing,))
            return _insert(db, entry)

    def add_many(self, entries: Iterable[Entry]) -> list[int]:
        """Store entries in one transaction; their ids."""
        with self._write() as db:
            return [_insert(db, entry) for entry in entries]

    def record_game(self, state: GameState, *, game: str, seed: int, people: Sequence[int], edition: Edition | None = None) -> list[Result]:
        """A finished game played in papillon: each person's result (once per game id) against their best before it.

        ``people`` are the seats of people (bots are not recorded).  Recording the same
        game again adds nothing and gives the same comparison.
        """
        edition = edition or state.edition
        date = now()
        with self._write() as db:
            done = db.execute("SELECT 1 FROM entries WHERE game = ? AND source = 'play' LIMIT 1", (game,)).fetchone() is not None
            results = []
            for player in people:
                name = state.game.players[player]
                row = db.execute("SELECT max(total) FROM entries WHERE player = ? AND game != ?", (name, game)).fetchone()
                garden = state.garden(player)
                entry = scored_entry(
                    garden, player=name, source="play", edition=edition, date=date, game=game, seed=seed, players=len(state.boards)
                )
                results.append(Result(name, entry.total, row[0]))
                if not done:
                    _insert(db, entry)
        return results

    def import_bests(self, path: str | Path) -> int:
        """Import the old personal-best file (``history.json``) once; the number of entries added (0 when done before)."""
        path = Path(path)
        try:
            text = read_text(path, limit=MAX_LOG_BYTES)
        except FileNotFoundError:
            return 0
        except OSError as error:
            raise HistoryError(f"{path}: cannot read it ({error.strerror or error})") from None
        except UnicodeDecodeError:
            raise HistoryError(f"{path}: not a papillon history (not UTF-8 text)") from None
        try:
            data = loads_json(text)  # bounded: a hostile file (nested 10000 deep, a huge number) is one error
        except ValueError:
            raise HistoryError(f"{path}: not a papillon history (not JSON)") from None
        if not isinstance(data, dict) or data.get("format") != "papillon-history" or not isinstance(data.get("games"), list):
            raise HistoryError(f"{path}: not a papillon history")
        key = "bests:" + hashlib.sha256(text.encode()).hexdigest()
        entries = [_old_entry(game) for game in data["games"]]
        with self._write() as db:
            if db.execute("SELECT 1 FROM imports WHERE key = ?", (key,)).fetchone():
                return 0
            added = [_insert(db, e) for e in entries if e is not None]
            db.execute("INSERT INTO imports (key, date, entries) VALUES (?, ?, ?)", (key, now(), len(added)))
        return len(added)

    # -- reading -------------------------------------------------------------------

    def entries(self, player: str | None = None) -> list[Entry]:
        """The entries, oldest first (by date, then by the order they were stored)."""
        where, args = ("WHERE e.player = ?", (player,)) if player is not None else ("", ())
        with self._connect() as db:
            rows = db.execute(
                "SELECT e.id, e.player, e.total, e.date, e.edition, e.game, e.seed, e.players, e.source, e.notation, ed.data"
                f" FROM entries e LEFT JOIN editions ed ON ed.fingerprint = e.edition_fp {where} ORDER BY e.date, e.id",
                args,
            ).fetchall()
            points: dict[int, dict[str, int]] = {}
            for entry, category, value in db.execute("SELECT entry, category, points FROM scores"):
                points.setdefault(entry, {})[category] = value
        out = []
        for row_id, name, total, date, edition, game, seed, players, source, notation, data in rows:
            categories = {c: points[row_id][c] for c in CATEGORIES if c in points.get(row_id, {})}
            out.append(
                Entry(
                    name,
                    total,
                    categories,
                    source,
                    date,
                    notation,
                    edition,
                    json.loads(data) if data else None,
                    game,
                    seed,
                    players,
                    row_id,
                )
            )
        return out

    def count(self) -> int:
        with self._connect() as db:
            return int(db.execute("SELECT count(*) FROM entries").fetchone()[0])

    def players(self) -> list[str]:
        with self._connect() as db:
            return [row[0] for row in db.execute("SELECT DISTINCT player FROM entries ORDER BY player COLLATE NOCASE")]

    def personal_best(self, player: str) -> int | None:
        with self._connect() as db:
            value = db.execute("SELECT max(total) FROM entries WHERE player = ?", (player,)).fetchone()[0]
        return int(value) if value is not None else None

    def stats(self, player: str) -> PlayerStats:
        return player_stats(self.entries(), player)

    # -- CSV -------------------------------------------------------------------------

    def export_csv(self, player: str | None = None) -> str:
        return entries_csv(self.entries(player))

    def import_csv(self, text: str, source_name: str = "the CSV file") -> int:
        """Add the rows of a CSV export (checked whole first: a bad row adds nothing); the number added."""
        entries = read_csv(text, source_name)
        self.add_many(entries)
        return len(entries)

    def import_csv_file(self, path: str | Path) -> int:
        """Add the rows of the CSV export in ``path`` (bounded in size, as the history itself); the number added."""
        try:
            text = read_text(path, limit=MAX_LOG_BYTES)
        except OSError as error:  # TooLargeError is one
            raise HistoryError(f"{path}: cannot read it ({error.strerror or error})") from None
        except UnicodeDecodeError:
            raise HistoryError(f"{path}: cannot read it (not UTF-8 text)") from None
        return self.import_csv(text, str(path))


def _insert(db: sqlite3.Connection, entry: Entry) -> int:
    fingerprint = None
    if entry.edition_data is not None:
        text = json.dumps(entry.edition_data, sort_keys=True, separators=(",", ":"))
        fingerprint = hashlib.sha256(text.encode()).hexdigest()[:12]  # as Edition.fingerprint
        db.execute("INSERT OR IGNORE INTO editions (fingerprint, name, data) VALUES (?, ?, ?)", (fingerprint, entry.edition_name, text))
    cursor = db.execute(
        "INSERT INTO entries (player, total, date, edition, game, seed, players, source, notation, edition_fp)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            entry.player,
            entry.total,
            entry.date,
            entry.edition_name,
            entry.game,
            entry.seed,
            entry.players,
            entry.source,
            entry.notation,
            fingerprint,
        ),
    )
    row_id = int(cursor.lastrowid or 0)
    db.executemany(
        "INSERT INTO scores (entry, category, points) VALUES (?, ?, ?)", [(row_id, c, int(p)) for c, p in entry.categories.items()]
    )
    return row_id


def _old_entry(game: Any) -> Entry | None:
    """An entry of the old personal-best file, or None for one that is not readable (skipped, as the old reader did)."""
    if not isinstance(game, dict) or not isinstance(game.get("player"), str):
        return None
    total = game.get("total")
    if not isinstance(total, int) or isinstance(total, bool):
        return None
    seed = game.get("seed")
    players = game.get("players")
    return Entry(
        player=game["player"],
        total=total,
        categories={},
        source="imported",
        date=str(game.get("date") or ""),
        edition_name=str(game.get("edition") or "standard"),
        game=str(game.get("game") or ""),
        seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
        players=players if isinstance(players, int) and not isinstance(players, bool) else None,
    )


# --------------------------------------------------------------------------- statistics


def player_stats(entries: Sequence[Entry], player: str) -> PlayerStats:
    """Games, wins, best and average total, and average and best per category, of one player."""
    mine = [e for e in entries if e.player == player]
    if not mine:
        return PlayerStats(player, 0, 0, None, None)
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.game:
            groups.setdefault(entry.game, []).append(entry)
    wins = 0
    for group in groups.values():
        if len(group) >= 2 and any(e.player == player for e in group):
            top = max(e.total for e in group)
            wins += any(e.player == player and e.total == top for e in group)
    known = [e for e in mine if e.categories]
    average = {c: sum(e.categories.get(c, 0) for e in known) / len(known) for c in CATEGORIES} if known else {}
    best = {c: max(e.categories.get(c, 0) for e in known) for c in CATEGORIES} if known else {}
    totals = [e.total for e in mine]
    return PlayerStats(player, len(mine), wins, max(totals), sum(totals) / len(totals), average, best)


# --------------------------------------------------------------------------- JSON


def entry_json(entry: Entry) -> dict[str, object]:
    """An entry as the JSON object ``papillon history --json`` prints (the edition by name, the garden as its notation)."""
    return {
        "date": entry.date,
        "player": entry.player,
        "total": entry.total,
        "categories": dict(entry.categories),
        "source": entry.source,
        "game": entry.game,
        "edition": entry.edition_name,
        "notation": entry.notation,
    }


def stats_json(stats: PlayerStats) -> dict[str, object]:
    """A player's statistics as JSON (``best`` and ``average`` are null for a player with no games)."""
    return {
        "games": stats.games,
        "wins": stats.wins,
        "best": stats.best_total,
        "average": stats.average_total,
        "average_by_category": dict(stats.average),
        "best_by_category": dict(stats.best),
    }


def json_lines(entries: Iterable[Entry], stats: Iterable[PlayerStats]) -> str:
    """JSON lines: one object per entry, then ``{"stats": {player: ...}}`` for each player's statistics, in the order given.

    >>> print(json_lines([], [PlayerStats("Ann", 0, 0, None, None)]), end="")
    {"stats": {"Ann": {"games": 0, "wins": 0, "best": null, "average": null, "average_by_category": {}, "best_by_category": {}}}}
    """
    lines = [json.dumps(entry_json(entry)) for entry in entries]
    lines.append(json.dumps({"stats": {s.player: stats_json(s) for s in stats}}))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- CSV


def entries_csv(entries: Iterable[Entry]) -> str:
    """Entries as CSV (a header line, then one row each; the edition by name, the garden as its notation)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in entries:
        cats = [e.categories.get(c, "") for c in CATEGORIES]
        writer.writerow([e.date, e.player, e.total, *cats, e.source, e.game, _blank(e.seed), _blank(e.players), e.edition_name, e.notation])
    return out.getvalue()


def _blank(value: int | None) -> str:
    return "" if value is None else str(value)


def read_csv(text: str, source_name: str = "the CSV file") -> list[Entry]:
    """Entries from CSV in the export's columns; HistoryError naming the line for the first bad row."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(rows[0]) != CSV_COLUMNS:
        raise HistoryError(f"{source_name}: line 1: expected the columns {','.join(CSV_COLUMNS)}")
    entries = []
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(CSV_COLUMNS):
            raise HistoryError(f"{source_name}: line {number}: expected {len(CSV_COLUMNS)} values, got {len(row)}")
        values = dict(zip(CSV_COLUMNS, row, strict=True))
        try:
            total = int(values["total"])
            categories = {c: int(values[c]) for c in CATEGORIES if values[c] != ""}
            seed = int(values["seed"]) if values["seed"] else None
            players = int(values["players"]) if values["players"] else None
        except ValueError:
            raise HistoryError(f"{source_name}: line {number}: a score, seed or player count is not a whole number") from None
        if not values["player"].strip():
            raise HistoryError(f"{source_name}: line {number}: no player")
        if values["source"] not in SOURCES:
            raise HistoryError(f"{source_name}: line {number}: unknown source {values['source']!r}")
        if categories and sum(categories.values()) != total:
            raise HistoryError(f"{source_name}: line {number}: the categories add up to {sum(categories.values())}, not the total {total}")
        entries.append(
            Entry(
                values["player"].strip(),
                total,
                categories,
                values["source"],
                values["date"],
                values["notation"],
                values["edition"] or "standard",
                None,
                values["game"],
                seed,
                players,
            )
        )
    return entries


__all__ = [
    "MIGRATIONS",
    "SOURCES",
    "VERSION",
    "Entry",
    "History",
    "HistoryError",
    "PlayerStats",
    "Result",
    "entries_csv",
    "entry_json",
    "json_lines",
    "migrate",
    "open_history",
    "player_stats",
    "read_csv",
    "record_played",
    "scored_entry",
    "stats_json",
]
