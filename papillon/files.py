"""Writing files safely: a failure never leaves a half-written output."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: bytes | str, *, force: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    With ``force=False`` an existing file is refused with FileExistsError.
    """
    path = Path(path)
    if not force and path.exists():
        raise FileExistsError(f"{path} exists (use --force to overwrite it)")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
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


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
