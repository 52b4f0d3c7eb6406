"""The user's data folder: where saved games, the score history and the server's store live (one rule for all)."""

from __future__ import annotations

import os
from pathlib import Path

HISTORY_FILE = "history.sqlite3"
"""The score history's file name in a data folder (:data:`papillon.history.FILE_NAME` is the same)."""


def data_dir() -> Path:
    """The user's papillon data folder: $PAPILLON_DATA_DIR, else the XDG data dir."""
    if os.environ.get("PAPILLON_DATA_DIR"):
        return Path(os.environ["PAPILLON_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "papillon"


def games_dir(folder: str | Path | None = None) -> Path:
    return Path(folder) / "games" if folder is not None else data_dir() / "games"


def history_path(folder: str | Path | None = None) -> Path:
    """The score history (:mod:`papillon.history`) of a data folder (default: the user's)."""
    return (Path(folder) if folder is not None else data_dir()) / HISTORY_FILE


def photos_dir(folder: str | Path | None = None) -> Path:
    """Where photos kept on request are saved (``photos/<sheet id>.img``, a name made by the server)."""
    return (Path(folder) if folder is not None else data_dir()) / "photos"
