"""The score history: every game played and every sheet scored, in one SQLite file.

One file, ``history.sqlite3``, in the user's data folder (the same folder as
saved games, :func:`papillon.datafolder.data_dir`).  Each entry is one player's
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
import re
import sqlite3
import threading
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from papillon.datafolder import HISTORY_FILE, data_dir
from papillon.edition import Edition, standard_edition
from papillon.errors import HistoryError, NotationError, quote
from papillon.files import MAX_LOG_BYTES, loads_json, read_text
from papillon.garden import Garden
from papillon.notation import format_garden, parse, player_name
from papillon.score import CATEGORIES, CATEGORY_TITLES, score
from papillon.words import plural

if TYPE_CHECKING:
    from papillon.engine.state import GameState

T = TypeVar("T")
FILE_NAME = HISTORY_FILE
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
    """Games against someone else (another entry of the game, or a bot's total) where this player had the best total.

    A tie is a win for each."""
    best_total: int | None
    average_total: float | None
    average: Mapping[str, float] = field(default_factory=dict)
    """Average points per category, over the entries whose categories are known."""
    best: Mapping[str, int] = field(default_factory=dict)
    """Best points per category."""
    losses: int = 0
    """Games against someone else where another total was higher."""
    average_margin: float | None = None
    """Over the games against someone else: this player's total minus the best other total, on average."""

    def lines(self) -> list[str]:
        """The statistics in words, one line each."""
        if not self.games:
            return [f"{self.player}: no games recorded."]
        head = f"{self.player}: {plural(self.games, 'game')}, {plural(self.wins, 'win')}, "
        head += f"best {self.best_total}, average {self.average_total:.1f}"
        out = [head]
        if self.average_margin is not None:
            contests = self.wins + self.losses
            out.append(
                f"  against others: {plural(contests, 'game')}, {self.wins} won, {self.losses} lost,"
                f" average margin {self.average_margin:+.1f}"
            )
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
    try:  # the name rule of play --name and of --import: the history holds no name its own export cannot bring back
        name = player_name(player)
    except ValueError as error:
        raise HistoryError(f"the player's name: {error}") from None
    edition = edition or standard_edition()
    card = score(garden, edition)
    return Entry(
        player=name,
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


def _v3(db: sqlite3.Connection) -> None:
    """The bots' totals (a solo player's game has opponents), and a count of changes the statistics cache is keyed by."""
    db.execute(
        "CREATE TABLE opponents (game TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, total INTEGER NOT NULL,"
        " PRIMARY KEY (game, seat))"
    )
    db.execute("CREATE TABLE changes (id INTEGER PRIMARY KEY CHECK (id = 1), added INTEGER NOT NULL, changed INTEGER NOT NULL)")
    db.execute("INSERT INTO changes (id, added, changed) VALUES (1, 0, 0)")
    # Any change, by papillon or by hand, is counted: rows added bring cached statistics up to date, any other change redoes them.
    for table in ("entries", "scores", "opponents"):
        for event, counter in (("INSERT", "added"), ("UPDATE", "changed"), ("DELETE", "changed")):
            db.execute(
                f"CREATE TRIGGER {table}_{event.lower()} AFTER {event} ON {table} BEGIN UPDATE changes SET {counter} = {counter} + 1; END"
            )


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3)
"""Migration ``i`` takes the schema from version ``i`` to ``i + 1``; never edit one that was released, add the next."""
VERSION = len(MIGRATIONS)
TABLES = {"entries": 1, "editions": 2, "scores": 2, "imports": 2, "opponents": 3, "changes": 3}
"""Each table of papillon's schema, and the version that made it: a history without one of its version's tables is damaged."""


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
        _rollback(db)
        raise
    return before


def _rollback(db: sqlite3.Connection) -> None:
    """Undo the open transaction, if SQLite has not already (a full disk or a damaged file ends it itself).

    A ROLLBACK with none open would raise "cannot rollback - no transaction is active" in place of the cause.
    """
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def data_folder() -> Path:
    return data_dir()  # one data-folder rule for saved games, the history and the server's store


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
    with contextlib.suppress(HistoryError):  # not ours to judge here (and read-only storage cannot take it): the old file stays
        history.import_bests(base / OLD_BESTS)
    return history


def record_played(state: GameState, *, game: str, seed: int, people: Sequence[int], folder: str | Path | None = None) -> list[Result]:
    """Record a finished game played in papillon (any front end) in the data folder's history; each person's result.

    The terminal ``play`` command and :func:`papillon.session.record_results` both call this.
    """
    if not state.is_over():
        raise HistoryError("the game is not over")
    return open_history(folder).record_game(state, game=game, seed=seed, people=people)


@dataclass(frozen=True)
class Imported:
    """What a CSV import did: the entries added, and those left out because the history held them already."""

    added: int
    present: int

    def words(self, source_name: str) -> str:
        """One line for the person who imported (``added 3 entries from all.csv (9 already in the history)``)."""
        if not self.added and self.present:
            return f"{_count(self.present, 'entry', 'entries')} already in the history; nothing imported"
        line = f"added {_count(self.added, 'entry', 'entries')} from {source_name}"
        return line + (f" ({self.present} already in the history)" if self.present else "")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# --------------------------------------------------------------------------- the store


class History:
    """The history file; each method is one connection and (for writes) one transaction.

    Reading opens the file read-only: it needs no write access and never waits for a writer (WAL).
    A file that is damaged, or is not papillon's, is one HistoryError and is left as it is.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        if self.path.exists():
            with self._read():  # says now, in one line, if the file is not a history; migrates an older schema
                pass

    # -- connections -------------------------------------------------------------

    def _problem(self, error: sqlite3.Error) -> HistoryError:
        """A SQLite error as one line that says what it means for the user; the file is never changed or removed."""
        name = getattr(error, "sqlite_errorname", "")
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return HistoryError(f"the history {self.path} is busy: another papillon is writing it; try again")
        if name.startswith(("SQLITE_READONLY", "SQLITE_FULL", "SQLITE_IOERR")):
            return HistoryError(f"the history {self.path} cannot be written: {error}")
        if name.startswith(("SQLITE_NOTADB", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
            return HistoryError(f"the history {self.path} cannot be opened: {error}")
        return HistoryError(f"the history {self.path} is damaged ({error}); it is left as it is: move it away to start a new one")

    def _schema(self, db: sqlite3.Connection) -> int:
        """The schema version of an open file; HistoryError if it is newer, not papillon's, or missing a table."""
        # The version and the tables are read in one transaction: read apart, another process creating the
        # schema in between would show tables with version 0, which is how a foreign database looks.
        own = not db.in_transaction
        if own:
            db.execute("BEGIN")
        try:
            return self._check_schema(db)
        finally:
            if own:
                _rollback(db)

    def _check_schema(self, db: sqlite3.Connection) -> int:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > VERSION:
            raise HistoryError(f"the history was written by a newer papillon (schema {version}, this one knows {VERSION})")
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        tables = {name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name) for name in names}
        if version == 0 and tables:
            raise HistoryError(f"{self.path} is not a papillon history (an SQLite database of something else): it is left as it is")
        missing = [table for table, since in TABLES.items() if since <= version and table not in tables]
        if missing:
            raise HistoryError(
                f"the history {self.path} is damaged (no {missing[0]} table); it is left as it is: move it away to start a new one"
            )
        return version

    def _open_read_only(self) -> sqlite3.Connection:
        uri = "file:" + urllib.parse.quote(str(self.path.absolute()))
        try:
            db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            # Read-only storage: SQLite cannot make the WAL index beside the file, and nobody can change it there.
            db = sqlite3.connect(uri + "?immutable=1", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        return db

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection | None]:
        """A read-only connection in one read transaction (a consistent snapshot); None when there is no file yet."""
        if not self.path.exists():
            yield None
            return
        db: sqlite3.Connection | None = None
        try:
            db = self._open_read_only()
            version = self._schema(db)
            if version == 0:  # an empty file (made, never written): an empty history, left as it is
                yield None
                return
            if version < VERSION:  # an older papillon's file: migrated once (a write), then read
                db.close()
                db = None
                with self._write():
                    pass
                db = self._open_read_only()
                self._schema(db)
            db.execute("BEGIN")
            yield db
        except sqlite3.Error as error:
            raise self._problem(error) from None
        finally:
            if db is not None:
                _rollback(db)
                db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is stored, or none of it."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise HistoryError(f"the history {self.path} cannot be written: {error.strerror or error}") from None
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as error:
            raise self._problem(error) from None
        try:
            version = self._schema(db)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            if version < VERSION:
                migrate(db)
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise
        except sqlite3.Error as error:
            raise self._problem(error) from None
        finally:
            db.close()

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

        ``people`` are the seats of people; the other seats (bots) are stored as the game's opponents, so a
        person playing alone against bots wins or loses.  Recording the same game again adds nothing and
        gives the same comparison.
        """
        edition = edition or state.edition
        date = now()
        entries = [
            scored_entry(
                state.garden(seat),
                player=state.game.players[seat],
                source="play",
                edition=edition,
                date=date,
                game=game,
                seed=seed,
                players=len(state.boards),
            )
            for seat in people
        ]
        with self._read() as db:  # recorded before (a finished game shown again): no write, read-only storage will do
            if db is not None and _recorded(db, game):
                return _results(db, entries, game)
        with self._write() as db:
            results = _results(db, entries, game)
            if not _recorded(db, game):
                for entry in entries:
                    _insert(db, entry)
                bots = [seat for seat in range(len(state.boards)) if seat not in people]
                db.executemany(
                    "INSERT OR IGNORE INTO opponents (game, seat, name, total) VALUES (?, ?, ?, ?)",
                    [(game, seat, state.game.players[seat], state.score(seat)) for seat in bots],
                )
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
        key = "bests:" + hashlib.sha256(text.encode()).hexdigest()
        with self._read() as db:  # done before: no write (the storage may be read-only)
            if db is not None and db.execute("SELECT 1 FROM imports WHERE key = ?", (key,)).fetchone():
                return 0
        try:
            data = loads_json(text)  # bounded: a hostile file (nested 10000 deep, a huge number) is one error
        except ValueError:
            raise HistoryError(f"{path}: not a papillon history (not JSON)") from None
        if not isinstance(data, dict) or data.get("format") != "papillon-history" or not isinstance(data.get("games"), list):
            raise HistoryError(f"{path}: not a papillon history")
        entries = [_old_entry(game) for game in data["games"]]
        with self._write() as db:
            if db.execute("SELECT 1 FROM imports WHERE key = ?", (key,)).fetchone():
                return 0
            added = [_insert(db, e) for e in entries if e is not None]
            db.execute("INSERT INTO imports (key, date, entries) VALUES (?, ?, ?)", (key, now(), len(added)))
        return len(added)

    # -- reading -------------------------------------------------------------------

    def read(self, player: str | None = None, *, last: int | None = None) -> Reading:
        """The entries, oldest first (by date, then by the order they were stored), and how many were too damaged to read.

        ``last``: only the newest ``last`` of them.  An entry whose values are damaged (text that is not
        UTF-8, a number stored as text) is left out and counted; an edition's data that is not JSON only
        loses that entry's edition data.
        """
        with self._read() as db:
            if db is None:
                return Reading([], 0)
            return _tolerant(db, lambda: _read_entries(db, player, last))

    def entries(self, player: str | None = None, *, last: int | None = None) -> list[Entry]:
        """The entries that can be read, oldest first (:meth:`read`)."""
        return self.read(player, last=last).entries

    def count(self) -> int:
        with self._read() as db:
            return int(db.execute("SELECT count(*) FROM entries").fetchone()[0]) if db is not None else 0

    def players(self) -> list[str]:
        return sorted(self.all_stats(), key=str.casefold)

    def personal_best(self, player: str) -> int | None:
        with self._read() as db:
            if db is None:
                return None
            value = db.execute(f"SELECT max({_NUMBER}) FROM entries WHERE player = ?", (player,)).fetchone()[0]
        return _whole(value)

    def stats(self, player: str) -> PlayerStats:
        """One player's statistics (cached: :meth:`all_stats`)."""
        return self.all_stats().get(player) or PlayerStats(player, 0, 0, None, None)

    def all_stats(self) -> dict[str, PlayerStats]:
        """Every player's statistics by name, worked out in one pass and kept until the history changes.

        The web history page asks for them on every visit: they are summed once by SQLite, then kept
        (per file) and brought up to date with the entries added since; any other change (counted by
        triggers, so a change by hand is seen too) sums them again.
        """
        with self._read() as db:
            if db is None:
                return {}
            stat = self.path.stat()
            place = (str(self.path.absolute()), stat.st_dev, stat.st_ino)
            added, changed = db.execute("SELECT added, changed FROM changes").fetchone()
            with _CACHE_LOCK:  # one thread works them out; the others wait for its answer
                kept = _SUMMARIES.get(place[0])
                if kept is not None and kept.place == place and kept.changed == changed and _tolerant(db, lambda: kept.catch_up(db, added)):
                    return kept.stats()
                summary = _tolerant(db, lambda: _Summary.of(db, place, added, changed))
                _SUMMARIES[place[0]] = summary
                return summary.stats()

    # -- CSV -------------------------------------------------------------------------

    def export_csv(self, player: str | None = None) -> str:
        return entries_csv(self.entries(player))

    def import_csv(self, text: str, source_name: str = "the CSV file") -> Imported:
        """Add the rows of a CSV export (checked whole first: a bad row adds nothing), leaving out those already here.

        An entry is already here when one with the same values in every column is (an export
        imported back changes nothing).
        """
        entries = read_csv(text, source_name)
        with self._write() as db:
            seen = set(_stored_keys(db))
            added = 0
            for entry in entries:
                key = _csv_key(entry)
                if key in seen:
                    continue
                seen.add(key)
                _insert(db, entry)
                added += 1
        return Imported(added, len(entries) - added)

    def import_csv_file(self, path: str | Path) -> Imported:
        """Add the rows of the CSV export in ``path`` (bounded in size, as the history itself): :meth:`import_csv`."""
        try:
            text = read_text(path, limit=MAX_LOG_BYTES)
        except OSError as error:  # TooLargeError is one
            raise HistoryError(f"{path}: cannot read it ({error.strerror or error})") from None
        except UnicodeDecodeError:
            raise HistoryError(f"{path}: cannot read it (not UTF-8 text)") from None
        return self.import_csv(text, str(path))


@dataclass(frozen=True)
class Reading:
    """Entries read from the history, and the number left out because their values were damaged."""

    entries: list[Entry]
    damaged: int

    def warning(self, path: Path) -> str | None:
        """One line about the damaged entries left out, or None."""
        if not self.damaged:
            return None
        return f"{_count(self.damaged, 'damaged entry', 'damaged entries')} of {path} left out (the file is left as it is)"


_NUMBER = "CASE WHEN typeof(total) = 'integer' THEN total END"
"""A total that is a whole number (a damaged one stored as text would sort above every number)."""
_SUMMARIES: dict[str, _Summary] = {}
"""Each history file's :class:`_Summary` (by path), as of the last :meth:`History.all_stats`."""
_CACHE_LOCK = threading.Lock()


def _tolerant(db: sqlite3.Connection, work: Callable[[], T]) -> T:
    """``work()``; when a text in the file is not UTF-8, ``work()`` again with every text read as bytes
    (each checked by the reader: one damaged value loses one entry, not the whole history)."""
    try:
        return work()
    except sqlite3.OperationalError as error:
        if "decode" not in str(error):  # "Could not decode to UTF-8 column ..."
            raise
    db.text_factory = bytes
    return work()


def _read_entries(db: sqlite3.Connection, player: str | None, last: int | None) -> Reading:
    where, args = ("WHERE player = ?", (player,)) if player is not None else ("", ())
    if last is not None:
        where, args = where + " ORDER BY date DESC, id DESC LIMIT ?", (*args, last)
    rows = db.execute(
        f"SELECT id, player, total, date, edition, game, seed, players, source, notation, edition_fp FROM (SELECT * FROM entries {where})"
        " ORDER BY date, id",
        args,
    ).fetchall()
    scores = "SELECT entry, category, points FROM scores" + (f" WHERE entry IN (SELECT id FROM entries {where})" if where else "")
    points: dict[int, dict[str, Any]] = {}
    for entry, category, value in db.execute(scores, args):
        points.setdefault(entry, {})[category if type(category) is str else _category(category)] = value
    editions = dict(db.execute("SELECT fingerprint, data FROM editions").fetchall())
    parsed: dict[Any, Mapping[str, Any] | None] = {}
    out = []
    for row in rows:
        entry = _entry_from_row(row, points.get(row[0], {}), editions, parsed)
        if entry is not None:
            out.append(entry)
    return Reading(out, len(rows) - len(out))


def _text(value: Any) -> str:
    """A text column as read (bytes: see ``text_factory``); ValueError when it is not UTF-8 text."""
    if isinstance(value, bytes):
        return value.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if isinstance(value, str):
        return value
    raise ValueError("not text")


def _category(value: Any) -> str:
    """A category's name as read (bytes); one that is not UTF-8 is no category papillon knows, and is ignored."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _whole(value: Any) -> int | None:
    """A whole number column; None when it holds something else (text, a real number, a blob)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _entry_from_row(
    row: Sequence[Any], points: Mapping[str, Any], editions: Mapping[Any, Any], parsed: dict[Any, Mapping[str, Any] | None]
) -> Entry | None:
    """An entry from its row, or None when a value is damaged."""
    row_id, name, total, date, edition, game, seed, players, source, notation, fingerprint = row
    try:
        categories = {c: points[c] for c in CATEGORIES if c in points}
        if _whole(total) is None or any(_whole(v) is None for v in categories.values()):
            return None
        if (seed is not None and _whole(seed) is None) or (players is not None and _whole(players) is None):
            return None
        if fingerprint not in parsed:  # each edition's data parsed once, shared by its entries
            parsed[fingerprint] = _edition_data(editions.get(fingerprint))
        return Entry(
            _text(name),
            total,
            categories,
            _text(source),
            _text(date),
            _text(notation),
            _text(edition),
            parsed[fingerprint],
            _text(game),
            seed,
            players,
            row_id,
        )
    except ValueError:
        return None


def _edition_data(data: Any) -> Mapping[str, Any] | None:
    """An edition's stored data, or None when it is missing or damaged (the entry keeps its edition's name)."""
    try:
        value = loads_json(_text(data)) if data is not None else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _good(table: str = "entries") -> str:
    """SQL: an entry's total and name are as papillon writes them (a damaged entry is left out of the statistics)."""
    return f"typeof({table}.total) = 'integer' AND typeof({table}.player) = 'text'"


@dataclass
class _Summary:
    """What every player's statistics are worked out from, for one history file, as of its counts of changes."""

    place: tuple[str, int, int]
    added: int
    changed: int
    tallies: dict[str, _Tally]
    games: dict[str, dict[str, int]]
    bots: dict[str, int]
    last_entry: int
    last_score: int
    last_bot: int
    _stats: dict[str, PlayerStats] | None = None

    @classmethod
    def of(cls, db: sqlite3.Connection, place: tuple[str, int, int], added: int, changed: int) -> _Summary:
        """The whole history summed by SQLite (aggregate rows reach Python, not every entry)."""
        last = db.execute(
            "SELECT (SELECT max(id) FROM entries), (SELECT max(rowid) FROM scores), (SELECT max(rowid) FROM opponents)"
        ).fetchone()
        tallies: dict[str, _Tally] = {}
        rows = db.execute(f"SELECT player, count(*), max(total), sum(total) FROM entries WHERE {_good()} GROUP BY player")
        for player, count, best, total in rows:
            tallies[_key(player)] = _Tally(count, best, total)
        # Each entry's points per category first (the scores are stored in entry order: no sorting), then by player.
        per_entry = ", ".join(
            f"sum(CASE WHEN category = '{c}' AND typeof(points) = 'integer' THEN points END) AS c{n}" for n, c in enumerate(CATEGORIES)
        )
        per_player = ", ".join(f"sum(s.c{n}), max(s.c{n})" for n in range(len(CATEGORIES)))
        rows = db.execute(
            f"SELECT e.player, count(*), {per_player} FROM entries e"
            f" JOIN (SELECT entry, {per_entry} FROM scores GROUP BY entry) s ON s.entry = e.id WHERE {_good('e')} GROUP BY e.player"
        )
        for player, known, *values in rows:
            if (tally := tallies.get(_key(player))) is not None:
                tally.known = known
                for n, category in enumerate(CATEGORIES):
                    tally.sums[category] = values[2 * n] or 0
                    tally.bests[category] = max(values[2 * n + 1] or 0, 0)  # an entry without this category counts 0
        games: dict[str, dict[str, int]] = {}
        rows = db.execute(f"SELECT game, player, max(total) FROM entries WHERE game != '' AND {_good()} GROUP BY 1, 2")
        for game, player, total in rows:
            games.setdefault(_key(game), {})[_key(player)] = total
        opponents = db.execute("SELECT game, max(total) FROM opponents WHERE typeof(total) = 'integer' GROUP BY game")
        bots = {_key(game): total for game, total in opponents}
        return cls(place, added, changed, tallies, games, bots, last[0] or 0, last[1] or 0, last[2] or 0)

    def catch_up(self, db: sqlite3.Connection, added: int) -> bool:
        """Add the rows added since (False when that cannot be done: scores added to an older entry)."""
        if added == self.added:
            return True
        first = db.execute("SELECT min(entry) FROM scores WHERE rowid > ?", (self.last_score,)).fetchone()[0]
        if first is not None and first <= self.last_entry:
            return False
        # Every row read first, then added: a text that is not UTF-8 fails the reading (read again as bytes), never half an update.
        scores = db.execute("SELECT entry, category, points, rowid FROM scores WHERE rowid > ?", (self.last_score,)).fetchall()
        entries = db.execute(f"SELECT id, player, total, game FROM entries WHERE id > ? AND {_good()}", (self.last_entry,)).fetchall()
        bots = db.execute("SELECT rowid, game, total FROM opponents WHERE rowid > ?", (self.last_bot,)).fetchall()
        points: dict[int, dict[str, int]] = {}
        for entry, category, value, rowid in scores:
            if _whole(value) is not None:
                points.setdefault(entry, {})[_key(category)] = value
            self.last_score = max(self.last_score, rowid)
        for row_id, player, total, game in entries:
            name = _key(player)
            self.tallies.setdefault(name, _Tally()).add(total, points.get(row_id, {}))
            if game:
                own = self.games.setdefault(_key(game), {})
                own[name] = max(own.get(name, total), total)
            self.last_entry = max(self.last_entry, row_id)
        for rowid, game, total in bots:
            if _whole(total) is not None:
                self.bots[_key(game)] = max(self.bots.get(_key(game), total), total)
            self.last_bot = max(self.last_bot, rowid)
        self.added = added
        self._stats = None
        return True

    def stats(self) -> dict[str, PlayerStats]:
        if self._stats is None:
            out = _assemble(self.tallies, _margins(self.games, self.bots))
            self._stats = {name: stats for name, stats in out.items() if _is_text(name)}  # a name not UTF-8: damaged, left out
        return dict(self._stats)


def _key(value: Any) -> str:
    """A text as read, kept as a key even when it is not UTF-8 (``surrogateescape``; :func:`_is_text` tells)."""
    return value if isinstance(value, str) else bytes(value).decode("utf-8", "surrogateescape")


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _csv_key(entry: Entry) -> tuple[object, ...]:
    """What a CSV row holds of an entry: two entries alike in all of it are the same."""
    cats = tuple(sorted(entry.categories.items()))
    return (
        entry.date,
        entry.player,
        entry.total,
        cats,
        entry.source,
        entry.game,
        entry.seed,
        entry.players,
        entry.edition_name,
        entry.notation,
    )


def _stored_keys(db: sqlite3.Connection) -> Iterator[tuple[object, ...]]:
    rows = db.execute("SELECT id, date, player, total, source, game, seed, players, edition, notation FROM entries").fetchall()
    points: dict[int, dict[str, int]] = {}
    for entry, category, value in db.execute("SELECT entry, category, points FROM scores"):
        points.setdefault(entry, {})[category] = value
    for row_id, *values in rows:
        date, player, total, source, game, seed, players, edition, notation = values
        cats = tuple(sorted((c, p) for c, p in points.get(row_id, {}).items() if c in CATEGORIES))
        yield (date, player, total, cats, source, game, seed, players, edition, notation)


def _recorded(db: sqlite3.Connection, game: str) -> bool:
    return db.execute("SELECT 1 FROM entries WHERE game = ? AND source = 'play' LIMIT 1", (game,)).fetchone() is not None


def _results(db: sqlite3.Connection, entries: Sequence[Entry], game: str) -> list[Result]:
    """Each entry's total against its player's best before this game."""
    results = []
    for entry in entries:
        best = db.execute(f"SELECT max({_NUMBER}) FROM entries WHERE player = ? AND game != ?", (entry.player, game)).fetchone()[0]
        results.append(Result(entry.player, entry.total, _whole(best)))
    return results


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


def player_stats(entries: Sequence[Entry], player: str, opponents: Iterable[tuple[str, int]] = ()) -> PlayerStats:
    """Games, wins, losses and margin, best and average total, and average and best per category, of one player.

    ``opponents``: ``(game, total)`` of each bot in a game (:meth:`History.all_stats` reads them from the history).
    """
    return all_player_stats(entries, opponents).get(player) or PlayerStats(player, 0, 0, None, None)


def all_player_stats(entries: Iterable[Entry], opponents: Iterable[tuple[str, int]] = ()) -> dict[str, PlayerStats]:
    """Every player's :class:`PlayerStats`, in one pass over the entries (a game is won against the
    other entries of its group and its bots' totals; a game alone is neither won nor lost)."""
    tallies: dict[str, _Tally] = {}
    games: dict[str, dict[str, int]] = {}
    for entry in entries:
        tallies.setdefault(entry.player, _Tally()).add(entry.total, entry.categories)
        if entry.game:
            own = games.setdefault(entry.game, {})
            own[entry.player] = max(own.get(entry.player, entry.total), entry.total)
    bots: dict[str, int] = {}
    for game, total in opponents:
        bots[game] = max(bots.get(game, total), total)
    return _assemble(tallies, _margins(games, bots))


@dataclass
class _Tally:
    """One player's sums, from entries (:func:`all_player_stats`) or from SQL (:meth:`History.all_stats`)."""

    games: int = 0
    best_total: int = 0
    sum_total: int = 0
    known: int = 0
    """Entries whose categories are known."""
    sums: dict[str, int] = field(default_factory=dict)
    bests: dict[str, int] = field(default_factory=dict)

    def add(self, total: int, categories: Mapping[str, int]) -> None:
        self.best_total = max(self.best_total, total) if self.games else total
        self.games += 1
        self.sum_total += total
        if categories:
            self.known += 1
            for c in CATEGORIES:
                points = categories.get(c, 0)
                self.sums[c] = self.sums.get(c, 0) + points
                self.bests[c] = max(self.bests.get(c, points), points)


def _margins(games: Mapping[str, Mapping[str, int]], bots: Mapping[str, int]) -> dict[str, list[int]]:
    """Each player's margin in each game against someone else: their total minus the best other (a person's or a bot's).

    The rule of winning, once: a margin of 0 or more is a win (a tie is a win for each), less is a loss.
    """
    margins: dict[str, list[int]] = {}
    for game, own in games.items():
        for player, total in own.items():
            others = [t for name, t in own.items() if name != player]
            if game in bots:
                others.append(bots[game])
            if others:
                margins.setdefault(player, []).append(total - max(others))
    return margins


def _assemble(tallies: Mapping[str, _Tally], margins: Mapping[str, list[int]]) -> dict[str, PlayerStats]:
    out = {}
    for player, tally in tallies.items():
        known = tally.known
        average = {c: tally.sums.get(c, 0) / known for c in CATEGORIES} if known else {}
        best = {c: tally.bests.get(c, 0) for c in CATEGORIES} if known else {}
        played = margins.get(player, [])
        wins = sum(1 for m in played if m >= 0)
        margin = sum(played) / len(played) if played else None
        average_total = tally.sum_total / tally.games
        out[player] = PlayerStats(player, tally.games, wins, tally.best_total, average_total, average, best, len(played) - wins, margin)
    return out


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
        "losses": stats.losses,
        "average_margin": stats.average_margin,
        "best": stats.best_total,
        "average": stats.average_total,
        "average_by_category": dict(stats.average),
        "best_by_category": dict(stats.best),
    }


def json_lines(entries: Iterable[Entry], stats: Iterable[PlayerStats]) -> str:
    """JSON lines: one object per entry, then ``{"stats": {player: ...}}`` for each player's statistics, in the order given.

    >>> json.loads(json_lines([], [PlayerStats("Ann", 0, 0, None, None)]))["stats"]["Ann"]["games"]
    0
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


MAX_POINTS = 10_000
"""More points than any garden scores, in a total or a category: a bigger number is a mistake."""
MAX_PLAYERS = 99
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def read_csv(text: str, source_name: str = "the CSV file") -> list[Entry]:
    """Entries from CSV in the export's columns; HistoryError naming the line (and the column) of the first bad row.

    Lines may end in ``\\n``, ``\\r\\n`` or ``\\r``.  Each value is held to what papillon itself writes:
    whole numbers in the digits 0-9 within their range, a name a game takes, a date as papillon writes
    it, a garden in notation, no control characters.
    """
    reader = csv.reader(io.StringIO(text, newline=""))  # newline="": the reader itself knows \r, \r\n and \n
    rows, start = [], 1  # a row is named by the line it starts on (its notation runs over the next ten)
    try:
        for row in reader:
            rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as error:
        raise HistoryError(f"{source_name}: line {start}: not CSV as papillon writes it ({error})") from None
    if not rows or tuple(rows[0][1]) != CSV_COLUMNS:
        raise HistoryError(f"{source_name}: line 1: expected the columns {','.join(CSV_COLUMNS)}")
    entries = []
    for number, row in rows[1:]:
        if not row:
            continue
        if len(row) != len(CSV_COLUMNS):
            raise HistoryError(f"{source_name}: line {number}: expected {len(CSV_COLUMNS)} values, got {len(row)}")
        try:
            entries.append(_csv_entry(dict(zip(CSV_COLUMNS, row, strict=True))))
        except ValueError as error:
            raise HistoryError(f"{source_name}: line {number}, {error}") from None
    return entries


def _csv_entry(values: dict[str, str]) -> Entry:
    """One CSV row as an entry; ValueError starting "column NAME: " for the first value that cannot be one."""
    from papillon.seeds import MAX_SEED  # the seed rule of play --seed and of game logs

    # An export that went through an editor or a spreadsheet may have \r\n (or \r) inside its notation too.
    values = {**values, "notation": values["notation"].replace("\r\n", "\n").replace("\r", "\n")}
    for column, value in values.items():  # no longer than 128 kB: the csv module refuses a longer value
        bad = next((ch for ch in value if not ch.isprintable() and not (column == "notation" and ch == "\n")), None)
        if bad is not None:
            raise ValueError(f"column {column}: holds the control or invisible character U+{ord(bad):04X}")
    try:
        name = player_name(values["player"])
    except ValueError as error:
        raise ValueError(f"column player: {error}") from None
    total = _csv_number(values, "total", 0, MAX_POINTS)
    categories = {c: _csv_number(values, c, 0, MAX_POINTS) for c in CATEGORIES if values[c] != ""}
    seed = _csv_number(values, "seed", 0, MAX_SEED) if values["seed"] else None
    players = _csv_number(values, "players", 1, MAX_PLAYERS) if values["players"] else None
    if values["source"] not in SOURCES:
        raise ValueError(f"column source: unknown source {quote(values['source'])}: expected one of {', '.join(SOURCES)}")
    if categories and sum(categories.values()) != total:
        raise ValueError(f"column total: the categories add up to {sum(categories.values())}, not the total {total}")
    date = values["date"]
    if date and not _is_date(date):  # empty: an old best file's entry that had no date
        raise ValueError(f"column date: expected a UTC date as papillon writes it (2026-11-30T20:15:00Z), got {quote(date)}")
    if values["notation"]:
        try:
            parse(values["notation"])
        except NotationError as error:
            raise ValueError(f"column notation: not a garden ({error})") from None
    return Entry(
        name,
        total,
        categories,
        values["source"],
        date,
        values["notation"],
        values["edition"] or "standard",
        None,
        values["game"],
        seed,
        players,
    )


def _csv_number(values: Mapping[str, str], column: str, low: int, high: int) -> int:
    text = values[column]
    # int() also takes "٢٢", "1_0", " 7" and "+7": the export writes none of them.
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)) or not low <= int(text) <= high:
        raise ValueError(f"column {column}: expected a whole number from {low} to {high}, got {quote(text)}")
    return int(text)


def _is_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True


__all__ = [
    "MIGRATIONS",
    "SOURCES",
    "VERSION",
    "Entry",
    "History",
    "HistoryError",
    "Imported",
    "PlayerStats",
    "Reading",
    "Result",
    "all_player_stats",
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
