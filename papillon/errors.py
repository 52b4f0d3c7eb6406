"""papillon's errors: a small hierarchy on builtin bases.

Every error a user can cause is one of these; the CLI turns each into one
clear line and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path

QUOTE_MAX = 40
"""Characters of a user's text that a message quotes."""


def quote(text: str, mark: str = "'") -> str:
    r"""User text for a message: cut at :data:`QUOTE_MAX` characters, unprintable characters escaped.

    A huge bad line cannot flood the terminal, and a U+2028 or a control character
    cannot break the one line an error is.  ``mark=""`` cuts and escapes text that
    is already quoted (a JSON value).

    >>> print(quote("Zoé"), quote('say "hi"', '"'))
    'Zoé' "say \"hi\""
    >>> print(quote("a\u2028b" + "x" * 50))
    'a\u2028bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    """
    cut = text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "…"
    out = []
    for ch in cut:
        if mark and ch in ("\\", mark):
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    return f"{mark}{''.join(out)}{mark}"


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


class PapillonError(Exception):
    """Base class of every error papillon raises on purpose.

    ``parameter`` names the argument of the library call whose value is wrong (``fields``,
    ``debug_dir``, ``jobs``), when the error is about one.  The message never names a
    command-line option or a form field: each front end names its own control for that
    parameter (the CLI says ``--fields``).

    >>> error = PapillonError("plot B4 is given twice", parameter="fields")
    >>> str(error), error.parameter
    ('plot B4 is given twice', 'fields')
    """

    parameter: str | None = None

    def __init__(self, *args: object, parameter: str | None = None) -> None:
        super().__init__(*args)
        if parameter is not None:
            self.parameter = parameter


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


class FieldsError(ScanError, ValueError):
    """What a photo's fields hold, given as ``B4=po,D2=lb``, that cannot be used (its ``parameter`` is ``fields``)."""

    parameter = "fields"


class SessionError(PapillonError, ValueError):
    """A game that cannot be started, found or resumed."""


class HistoryError(PapillonError, ValueError):
    """A history file that cannot be opened, or an import that cannot be read."""


class GameLogError(PapillonError, ValueError):
    """A game log that cannot be read or replayed (``line`` counts from 1)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


class UnknownEditionError(GameLogError):
    """A game log of an edition this papillon does not hold: the front end asks for the edition file it was played with."""


class SimulationError(PapillonError, ValueError):
    """A run that cannot start: a bad bot name, too many games or workers, no cluster."""


class SheetSpecError(PapillonError, ValueError):
    """A sheet definition file that is unreadable or has a bad key or value."""


class EntryError(PapillonError, ValueError):
    """An edit, a photo or a night that cannot be taken."""


class TooLargeError(PapillonError, OSError):
    """An input over its size limit.

    Also an OSError, so a caller that reports unreadable files (``cannot read X (strerror)``)
    reports this one too; ``str(error)`` is one line naming the file.

    >>> error = TooLargeError("/dev/zero", 1_000_000)
    >>> print(error)
    /dev/zero: over 1 MB: is this the right file?
    >>> error.strerror, isinstance(error, OSError)
    ('over 1 MB: is this the right file?', True)
    """

    def __init__(self, path: str | Path, limit: int) -> None:
        super().__init__(errno.EFBIG, f"over {_size(limit)}: is this the right file?", str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def _size(limit: int) -> str:
    return f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1000} kB"
