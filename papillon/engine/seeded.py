"""A ``random.Random`` seeded on its first draw: the same draws, and no seeding for a decision that draws nothing.

Every decision of a bot gets a generator of its own (``derive_seed(seed, "bot", n)``,
:mod:`papillon.engine.log`), and seeding a Mersenne Twister costs more than most
decisions: the greedy bot draws only to break a tie, and a decision with one legal
action draws nothing at all.  :class:`LazyRandom` hashes its seed and seeds itself
the first time anything reads its state, so its draws are exactly those of
``random.Random(derive_seed(*key))`` (tests/test_engine.py checks it).
"""

from __future__ import annotations

import _random
import random
from hashlib import blake2b
from typing import Any

_seed = _random.Random.seed
_random_float = _random.Random.random
_getrandbits = _random.Random.getrandbits
_getstate = random.Random.getstate
_setstate = random.Random.setstate


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed for one use of the game seed ``seed`` (stable across runs and machines)."""
    text = ":".join(map(str, (seed, *parts)))
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big")


class LazyRandom(random.Random):
    """``random.Random(derive_seed(*key))``, seeded when first drawn from.

    Every draw of ``random.Random`` goes through :meth:`random` or :meth:`getrandbits`
    (defining both keeps ``_randbelow`` the one ``random.Random`` uses), and reading or
    replacing the state seeds it first too, so nothing can see the difference.
    """

    def __init__(self, key: tuple[Any, ...] = (0,)) -> None:  # the default: copy and pickle build one empty, then set its state
        self._key: tuple[Any, ...] | None = key
        self.gauss_next = None

    def _start(self) -> None:
        key = self._key
        self._key = None
        if key is not None:
            _seed(self, derive_seed(*key))

    def random(self) -> float:
        if self._key is not None:
            self._start()
        return _random_float(self)

    def getrandbits(self, k: int, /) -> int:
        if self._key is not None:
            self._start()
        return _getrandbits(self, k)

    def randbytes(self, n: int) -> bytes:
        return self.getrandbits(n * 8).to_bytes(n, "little")

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._key = None
        super().seed(a, version)

    def getstate(self) -> tuple[Any, ...]:
        if self._key is not None:
            self._start()
        return _getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key = None
        _setstate(self, state)
