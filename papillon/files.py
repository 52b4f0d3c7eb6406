"""Reading and writing files safely.

Writing: a failure never leaves a half-written output (a temporary file and a
rename), a device or a pipe is written as a stream (never replaced by a file),
and a symbolic link is followed: the file it names is replaced, the link stays.

Reading: every input has a size limit (``/dev/zero`` is refused, not read
until memory runs out), a UTF-8 byte order mark is dropped, and JSON and TOML
are bounded in nesting and in the digits of an integer, so a hostile file is
one clear error, never a ``RecursionError`` or a ``MemoryError``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from papillon.errors import TooLargeError

MAX_JSON_DEPTH = 64
"""Levels of nesting a JSON input may have: a garden has 3, a game log 4."""

MAX_TOML_DEPTH = 32
"""Levels of nesting a TOML input may have: an edition has 4."""

MAX_INT_DIGITS = 100
"""Digits of an integer in JSON: far above any seed or score, far below Python's 4,300-digit limit."""

MAX_TEXT_BYTES = 1_000_000
"""An edition, a sheet definition or a garden is a few kilobytes; anything this big is the wrong file."""

MAX_LOG_BYTES = 50_000_000
"""A game log is about 30 kB; a history file grows by 150 bytes a game."""

STALE_SECONDS = 600
"""A temporary file older than this is left over from a write that was killed: no write takes 10 minutes."""

TEMP_SUFFIX = ".papillon-tmp"


# --------------------------------------------------------------------------- reading


def read_bytes(path: str | Path, *, limit: int) -> bytes:
    """The bytes of ``path``, read once (a pipe or FIFO works); TooLargeError past ``limit`` bytes."""
    with open(path, "rb", buffering=0) as handle:
        data, _ = read_bounded(handle.read, lambda head: limit)
    if len(data) > limit:
        raise TooLargeError(path, limit)
    return data


def read_bounded(read: Callable[[int], bytes], limit_for: Callable[[bytes], int]) -> tuple[bytes, int]:
    """The bytes ``read`` gives (up to N a call, none at the end), up to one past the limit ``limit_for``
    names for their first bytes (a photo may be larger than a garden); and that limit.

    A pipe may give fewer bytes a call than asked, so the reading goes on to the end, in chunks: one
    read of the whole limit would set aside all of it (a megabyte for every garden read).
    """
    data = read(READ_CHUNK)
    while 0 < len(data) < HEAD_BYTES and (more := read(READ_CHUNK)):
        data += more  # a trickling pipe: enough first bytes to tell what the input is
    limit = limit_for(data[:HEAD_BYTES])
    chunks, size = [data], len(data)
    while 0 < size <= limit and (chunk := read(min(READ_CHUNK, limit + 1 - size))):
        chunks.append(chunk)
        size += len(chunk)
    return (data if len(chunks) == 1 else b"".join(chunks)), limit


READ_CHUNK = 1 << 16
"""Bytes of a read: more than a garden needs, little to set aside."""
HEAD_BYTES = 16
"""First bytes that tell what an input is (a photo's format)."""


def read_text(path: str | Path, *, limit: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of ``path`` without a byte order mark; UnicodeDecodeError if not UTF-8."""
    return read_bytes(path, limit=limit).decode("utf-8").removeprefix("\ufeff")


# A string runs to its closing quote, or to the end of the text when it has none: possessive, and always
# matching once begun, so an unterminated string is scanned once (not again from each quote inside it,
# which made 40 kB of escaped quotes take seconds).  json.loads then says what is wrong with it.
_JSON_STRING = r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)'
_JSON_TOKEN = re.compile(_JSON_STRING + r"|[\[{]|[\]}]|\d{" + str(MAX_INT_DIGITS + 1) + ",}", re.DOTALL)


def loads_json(text: str) -> Any:
    """``json.loads`` bounded: deeper than :data:`MAX_JSON_DEPTH` or an integer over :data:`MAX_INT_DIGITS` digits is a JSONDecodeError.

    >>> loads_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: nested deeper than 64 levels: line 1 column 65 (char 64)
    """
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        first = token[0][0]
        if first in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise json.JSONDecodeError(f"nested deeper than {MAX_JSON_DEPTH} levels", text, token.start())
        elif first in "]}":
            depth -= 1
        elif first != '"':
            raise json.JSONDecodeError(f"a number of more than {MAX_INT_DIGITS} digits", text, token.start())
    return json.loads(text)


def json_reason(error: json.JSONDecodeError) -> str:
    """What is wrong, without the dangling "at" json's own message ends with (its position is said apart).

    >>> json_reason(json.JSONDecodeError("Unterminated string starting at", '"ab', 0))
    'Unterminated string'
    """
    return error.msg.removesuffix(" starting at").removesuffix(" at")


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads`` bounded: deeper than :data:`MAX_TOML_DEPTH` or a huge integer is a TOMLDecodeError.

    >>> loads_toml("a = " + "[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    tomllib.TOMLDecodeError: nested deeper than 32 levels
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise tomllib.TOMLDecodeError(f"nested deeper than {MAX_TOML_DEPTH} levels") from None
    except ValueError:  # int() refuses a number of thousands of digits
        raise tomllib.TOMLDecodeError(f"a number of more than {MAX_INT_DIGITS} digits") from None
    if _depth(data) > MAX_TOML_DEPTH:
        raise tomllib.TOMLDecodeError(f"nested deeper than {MAX_TOML_DEPTH} levels")
    if _huge_int(data):
        raise tomllib.TOMLDecodeError(f"a number of more than {MAX_INT_DIGITS} digits")
    return data


def _children(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    return list(value) if isinstance(value, list) else []


def _depth(value: Any) -> int:
    """How deep lists and tables nest, counted without recursion (a deep value must not overflow the stack)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level + 1)
            if deepest > MAX_TOML_DEPTH:
                return deepest
            stack.extend((child, level + 1) for child in _children(item))
    return deepest


def _huge_int(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and abs(item) >= 10**MAX_INT_DIGITS:
            return True
        stack.extend(_children(item))
    return False


# --------------------------------------------------------------------------- writing


def write_atomic(path: str | Path, data: bytes | str, *, force: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    With ``force=False`` an existing file is refused with FileExistsError.
    A device, a FIFO or a terminal (``/dev/null``, ``/dev/stdout``) is written
    as a stream, with or without ``force``: there is no file to replace.  A
    symbolic link is followed: the file it names is replaced (or created),
    the link stays.  Temporary files that a killed write left in the folder
    are removed once they are :data:`STALE_SECONDS` old.
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode: int | None = os.stat(path).st_mode  # follows a link
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a directory", str(path))
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "wb") as stream:
            stream.write(payload)
        return
    if mode is not None and not force:
        raise FileExistsError(errno.EEXIST, "it exists", str(path))  # the front end says how to overwrite it
    if path.is_symlink():
        path = path.resolve()
    directory = path.parent if str(path.parent) else Path(".")
    remove_stale_temporaries(directory, path.name)
    import tempfile  # here, not at start-up: it loads random and shutil, which scoring never needs

    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=directory)
    try:
        # mkstemp makes the file private (0600); an output file gets the usual umask mode.
        os.fchmod(fd, 0o666 & ~_current_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


# mkstemp's random part is 8 characters of [a-z0-9_].  Before TEMP_SUFFIX, papillon used ".tmp": such
# files are only taken for papillon's when they carry the name of the file being written.
_OURS = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def remove_stale_temporaries(directory: Path, name: str) -> list[str]:
    """Delete papillon's temporary files in ``directory`` older than :data:`STALE_SECONDS`; their names."""
    legacy = re.compile(re.escape(f".{name}.") + r"[a-z0-9_]{8}\.tmp")
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        if not (_OURS.fullmatch(entry.name) or legacy.fullmatch(entry.name)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:  # gone already, or not ours to delete: the write goes on
            continue
    return removed


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
