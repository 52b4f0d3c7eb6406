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
_randrange = random.Random.randrange
_ONE = 1
"""``randrange``'s default step: ``random.Random.randrange`` tells a missing step by identity with the int 1."""


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed for one use of the game seed ``seed`` (stable across runs and machines).

    The blake2b digest of ``"seed:part:…:part"``.  A game derives one for every decision
    and chance event, the keys differing in their last part only (``(s, "bot", n)``), so
    the hash of the text before it is kept and copied: hashing is a stream, and the text's
    bytes are the prefix's followed by the last part's, so the digest is the same.
    """
    if len(parts) == 2:  # (s, "bot", n), (s, "chance", k): a game's every decision and chance event
        head, last = parts
        key: tuple[object, ...] = (seed, head)
        prefix = _PREFIXES.get(key)
        if prefix is not None and last.__class__ is int:
            return _prefixed_seed(prefix, last)
    elif not parts:
        return int.from_bytes(blake2b(str(seed).encode(), digest_size=8).digest(), "big")
    else:
        *heads, last = parts
        key = (seed, *heads)
    hasher = hash_prefix(seed, *key[1:]).copy()
    hasher.update(_NUMBERS[last] if last.__class__ is int and 0 <= last < NUMBERS else str(last).encode())
    return _from_bytes(hasher.digest(), "big")


_from_bytes = int.from_bytes


NUMBERS = 1024
_NUMBERS = tuple(str(n).encode() for n in range(NUMBERS))
"""The text of each small number, as the hash reads it (a game's decisions and chance events are numbered)."""


def hash_prefix(seed: int, *head: object) -> Any:
    """The hash of the text of ``(seed, *head)`` followed by ``:``: :func:`derive_seed` ``(seed, *head, n)``
    copies it and reads ``n``.  A driver that numbers its decisions gives it to each :class:`LazyRandom`."""
    key = (seed, *head)
    prefix = _PREFIXES.get(key)
    if prefix is None:
        if len(_PREFIXES) >= PREFIXES:
            _PREFIXES.clear()
        prefix = _PREFIXES[key] = blake2b((":".join(map(str, key)) + ":").encode(), digest_size=8)
    return prefix


def _plain_derive_seed(seed: int, *parts: object) -> int:
    """:func:`derive_seed` the plain way (tests/test_fast_evaluation.py checks that the two agree)."""
    text = ":".join(map(str, (seed, *parts)))
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big")


_PREFIXES: dict[tuple[object, ...], Any] = {}
"""The hash of each key's text before its last part (forgotten all at once when full)."""
PREFIXES = 1024


def _prefixed_seed(prefix: Any, number: int) -> int:
    """:func:`derive_seed` of a key whose text before its last part, ``number``, hashes to ``prefix`` (:func:`hash_prefix`)."""
    hasher = prefix.copy()
    hasher.update(_NUMBERS[number] if 0 <= number < NUMBERS else str(number).encode())
    return _from_bytes(hasher.digest(), "big")


def _below(generator: Any, n: int) -> int:
    """``random.Random.randrange(n)`` for ``n > 0``, as it draws it: ``getrandbits(n.bit_length())`` until below ``n``."""
    bits = n.bit_length()
    found = _getrandbits(generator, bits)
    while found >= n:
        found = _getrandbits(generator, bits)
    return found


def reseed(generator: Any, prefix: Any, number: int) -> Any:
    """``generator`` (a ``random.Random`` nothing else needs) made ``random.Random(derive_seed(*key))``, ``number``
    being the key's last part and ``prefix`` the hash of the text before it (:func:`hash_prefix`); seeding sets the
    whole state, so its draws are a new one's."""
    _seed(generator, _prefixed_seed(prefix, number))
    generator.gauss_next = None
    return generator


def index_draw(generator: Any, prefix: Any, number: int, n: int) -> int:
    """``LazyRandom(key, prefix).randrange(n)``, ``number`` being the key's last part, drawn by reseeding ``generator``
    (a ``random.Random`` nothing else needs): a random bot's whole decision in one Python frame, where the
    generator's methods take three."""
    if n <= 0:  # as randrange: drawing below 0 would never end
        raise ValueError(f"empty range for randrange({n})")
    _seed(generator, _prefixed_seed(prefix, number))
    return _below(generator, n)


class LazyRandom(random.Random):
    """``random.Random(derive_seed(*key))``, seeded when first drawn from.

    Every draw of ``random.Random`` goes through :meth:`random` or :meth:`getrandbits`
    (defining both keeps ``_randbelow`` the one ``random.Random`` uses), and reading or
    replacing the state seeds it first too, so nothing can see the difference.
    """

    def __init__(self, key: tuple[Any, ...] = (0,), prefix: Any = None) -> None:
        # The default key: copy and pickle build one empty, then set its state.  ``prefix``: the hash of the key's
        # text before its last part (:func:`hash_prefix`), when the caller has it, the last part being a number.
        self._key: tuple[Any, ...] | None = key
        self._prefix = prefix
        self.gauss_next = None

    def restart(self, key: tuple[Any, ...]) -> None:
        """Become ``LazyRandom(key, prefix)``, the prefix kept (``key`` differs in its last part only).

        Making a generator costs a Mersenne Twister's 2.5 kB of state, allocated, zeroed and freed: about
        as much as a random bot's decision.  A driver that made the last one and knows nothing else holds
        it gives it the next key instead; the next draw seeds it afresh, as it would a new one."""
        self._key = key
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

    def randrange(self, start: int, stop: int | None = None, step: int = _ONE) -> int:
        # ``randrange(n)`` (a bot's pick among n actions) drawn as ``random.Random`` draws it, by
        # ``getrandbits(n.bit_length())`` until below n, without its three Python frames; the rest as it is.
        if stop is None and step is _ONE and start.__class__ is int and start > 0:
            key = self._key
            if key is not None:  # _start, without its frame (nor derive_seed's, given the prefix)
                self._key = None
                prefix = self._prefix
                _seed(self, derive_seed(*key) if prefix is None else _prefixed_seed(prefix, key[-1]))
            return _below(self, start)
        return _randrange(self, start, stop, step)

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
