"""papillon's errors: a small hierarchy on builtin bases.

Every error a user can cause is one of these; the CLI turns each into one
clear line and a non-zero exit code, never a traceback.
"""

from __future__ import annotations


class PapillonError(Exception):
    """Base class of every error papillon raises on purpose."""


class NotationError(PapillonError, ValueError):
    """A ``.garden`` text (or its JSON form) that does not parse.

    ``line`` and ``column`` count from 1, as editors do; ``str(error)`` is
    ``"line 7, column 12: <message>"``.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        if self.column is None:
            return f"line {self.line}: {self.message}"
        return f"line {self.line}, column {self.column}: {self.message}"


class EditionError(PapillonError, ValueError):
    """An edition file that is unreadable or names a bad key or value."""


class IllegalActionError(PapillonError, ValueError):
    """An action the game rules do not allow in the current state."""


class ScanError(PapillonError):
    """A photo that cannot be read as a papillon sheet."""
