"""What ``papillon serve`` keeps between restarts besides the game logs: tables, game nights, sheets being entered and keys.

One SQLite file, ``serve.sqlite3`` in the data folder (stdlib :mod:`sqlite3`, WAL, ``synchronous=FULL``:
a change is on the disk when its call returns, so an answer that says "done" survives a power cut).
The schema is versioned by ``PRAGMA user_version``; :data:`MIGRATIONS` brings an older file up to date,
one step at a time, and a file newer than this papillon is refused in one line.

Rows hold what rebuilds the object: a table is its seed and how many rounds were revealed (the deal
depends only on the seed), a sheet is its garden in notation and its doubts, a night its players and
each player's sheet.  The objects in memory are a cache; dropping one loses nothing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from papillon.errors import PapillonError

FILE_NAME = "serve.sqlite3"

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, nights, sheets being entered, keys
    """
    CREATE TABLE tables (id TEXT PRIMARY KEY, watch_id TEXT UNIQUE NOT NULL, seed INTEGER NOT NULL, reveals INTEGER NOT NULL);
    CREATE TABLE nights (id TEXT PRIMARY KEY, players TEXT NOT NULL, version INTEGER NOT NULL);
    CREATE TABLE night_sheets (
        night TEXT NOT NULL, player TEXT NOT NULL, notation TEXT NOT NULL, source TEXT NOT NULL, history_id INTEGER NOT NULL,
        PRIMARY KEY (night, player)
    );
    CREATE TABLE sheets (
        id TEXT PRIMARY KEY, notation TEXT NOT NULL, source TEXT NOT NULL, doubts TEXT NOT NULL,
        night TEXT NOT NULL, player TEXT NOT NULL, read_png TEXT NOT NULL, recorded INTEGER NOT NULL
    );
    CREATE TABLE keys (key TEXT PRIMARY KEY, purpose TEXT NOT NULL, target TEXT NOT NULL, player TEXT NOT NULL);
    """,
    # 2: the seats of a game played together whose join link has been opened (played from their own device)
    """
    CREATE TABLE joined (game TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (game, seat));
    """,
)
"""Each step's SQL; step N brings the schema from version N-1 to N."""


class StoreError(PapillonError):
    """The server's store cannot be opened (newer than this papillon, or damaged)."""


@dataclass(frozen=True)
class TableRow:
    id: str
    watch_id: str
    seed: int
    reveals: int


@dataclass(frozen=True)
class SheetRow:
    id: str
    notation: str
    source: str
    doubts: list[tuple[str, str]]
    night: str
    player: str
    read_png: str
    recorded: int


@dataclass(frozen=True)
class NightSheetRow:
    player: str
    notation: str
    source: str
    history_id: int


@dataclass(frozen=True)
class KeyRow:
    key: str
    purpose: str
    """``watch`` (a table's watch page), ``night`` (one player's sheet of a night) or ``seat`` (one seat of a game)."""
    target: str
    player: str = ""


class Store:
    """The server's SQLite file; every method is one transaction, safe from any thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self._migrate()

    def _migrate(self) -> None:
        version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
        if version > len(MIGRATIONS):
            raise StoreError(f"{FILE_NAME} was written by a newer papillon (schema {version}, this one knows {len(MIGRATIONS)})")
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            with self.lock:
                self.db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")

    def _write(self, sql: str, *params: object) -> None:
        with self.lock:
            self.db.execute(sql, params)

    def _rows(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        with self.lock:
            return list(self.db.execute(sql, params).fetchall())

    def close(self) -> None:
        self.db.close()

    # -- tables ----------------------------------------------------------------------

    def save_table(self, row: TableRow) -> None:
        self._write("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?)", row.id, row.watch_id, row.seed, row.reveals)

    def table(self, *, table_id: str = "", watch_id: str = "") -> TableRow | None:
        found = self._rows("SELECT id, watch_id, seed, reveals FROM tables WHERE id = ? OR watch_id = ?", table_id, watch_id)
        if not found:
            return None
        id_, watch, seed, reveals = found[0]
        return TableRow(str(id_), str(watch), int(str(seed)), int(str(reveals)))

    # -- sheets being entered ---------------------------------------------------------

    def save_sheet(self, row: SheetRow) -> None:
        self._write(
            "INSERT OR REPLACE INTO sheets VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            row.id,
            row.notation,
            row.source,
            json.dumps(row.doubts),
            row.night,
            row.player,
            row.read_png,
            row.recorded,
        )

    def sheet(self, sheet_id: str) -> SheetRow | None:
        found = self._rows("SELECT * FROM sheets WHERE id = ?", sheet_id)
        if not found:
            return None
        id_, notation, source, doubts, night, player, read_png, recorded = found[0]
        pairs = [(str(a), str(b)) for a, b in json.loads(str(doubts))]
        return SheetRow(str(id_), str(notation), str(source), pairs, str(night), str(player), str(read_png), int(str(recorded)))

    # -- nights -----------------------------------------------------------------------

    def save_night(self, night_id: str, players: tuple[str, ...], version: int) -> None:
        self._write("INSERT OR REPLACE INTO nights VALUES (?, ?, ?)", night_id, json.dumps(list(players)), version)

    def save_night_sheet(self, night_id: str, version: int, row: NightSheetRow) -> None:
        with self.lock:
            self.db.execute("BEGIN")
            try:
                self.db.execute(
                    "INSERT OR REPLACE INTO night_sheets VALUES (?, ?, ?, ?, ?)",
                    (night_id, row.player, row.notation, row.source, row.history_id),
                )
                self.db.execute("UPDATE nights SET version = ? WHERE id = ?", (version, night_id))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def night(self, night_id: str) -> tuple[tuple[str, ...], int, list[NightSheetRow]] | None:
        found = self._rows("SELECT players, version FROM nights WHERE id = ?", night_id)
        if not found:
            return None
        players, version = found[0]
        sheets = self._rows("SELECT player, notation, source, history_id FROM night_sheets WHERE night = ?", night_id)
        rows = [NightSheetRow(str(p), str(n), str(s), int(str(h))) for p, n, s, h in sheets]
        return tuple(json.loads(str(players))), int(str(version)), rows

    def recent_nights(self, count: int) -> list[str]:
        return [str(r[0]) for r in self._rows("SELECT id FROM nights ORDER BY rowid DESC LIMIT ?", count)][::-1]

    # -- keys -------------------------------------------------------------------------

    def add_key(self, row: KeyRow) -> None:
        self._write("INSERT INTO keys VALUES (?, ?, ?, ?)", row.key, row.purpose, row.target, row.player)

    def key(self, key: str) -> KeyRow | None:
        found = self._rows("SELECT key, purpose, target, player FROM keys WHERE key = ?", key)
        return KeyRow(*(str(v) for v in found[0])) if found else None

    def keys_for(self, purpose: str, target: str) -> list[KeyRow]:
        found = self._rows("SELECT key, purpose, target, player FROM keys WHERE purpose = ? AND target = ?", purpose, target)
        return [KeyRow(*(str(v) for v in row)) for row in found]

    # -- seats played on their own device ------------------------------------------------

    def join(self, game: str, seat: int) -> None:
        self._write("INSERT OR IGNORE INTO joined VALUES (?, ?)", game, seat)

    def joined(self, game: str) -> frozenset[int]:
        return frozenset(int(str(r[0])) for r in self._rows("SELECT seat FROM joined WHERE game = ?", game))


def open_store(folder: Path) -> Store:
    """The store of a data folder (made if missing); StoreError, without the folder's path, if it cannot be used."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return Store(folder / FILE_NAME)
    except OSError as error:  # its words, not its path: the message may reach a web page
        raise StoreError(f"the server's store ({FILE_NAME}) cannot be opened: {error.strerror or 'no data folder'}") from None
    except sqlite3.Error as error:
        raise StoreError(f"the server's store ({FILE_NAME}) cannot be opened: {error}") from None
