"""Many seeded solo games of a bot: the runner behind ``papillon simulate`` and ``papillon balance``.

Game *i* of a run with master seed *s* gets the seed :func:`game_seed` ``(s, i)``,
so a game depends only on its seed, its bot and its edition.  The runner cuts the
games into :class:`Batch` es, plays them here, in a pool of processes or on a Dask
cluster, and yields the results in game order: the output of a run never depends
on where its games were played.  Batches are made lazily and only a few are in
flight at a time, so a run of a hundred million games needs no more memory than
a run of a hundred.

>>> from papillon.edition import standard_edition
>>> [r.index for r in simulate(7, "random", 3, standard_edition())]
[0, 1, 2]
"""

from __future__ import annotations

import gc
import json
import math
import os
import re
import signal
import socket
import sys
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from papillon.edition import Edition, edition_from_toml
from papillon.engine.bots import BOTS, Bot, SearchBot, make_bot
from papillon.engine.evaluate import board_evaluation
from papillon.engine.log import game_seed, play_game
from papillon.errors import SimulationError, quote
from papillon.score import CATEGORY_TITLES
from papillon.words import plural

MAX_GAMES = 10**9
"""Games in one run: far more than anyone waits for, small enough to catch a typo's extra zeros."""

MAX_JOBS = 256
"""Worker processes on one machine: more would only wait for the same cores (a cluster scales further)."""

MAX_ROLLOUTS = 64
"""The search bot's largest iteration budget (``search:64`` takes about half a minute a game)."""

IN_FLIGHT_PER_WORKER = 4
"""Batches submitted ahead per worker: enough to keep it busy, few enough to bound memory."""


# --------------------------------------------------------------------------- bots by name


def bot_names() -> tuple[str, ...]:
    """The bot names a run accepts, besides ``search:N``."""
    return tuple(BOTS)


def make_player(spec: str) -> Bot:
    """A bot from its name, or ``search:N`` for the search bot with an iteration budget of N rollouts."""
    name, colon, level = spec.partition(":")
    if name == "search" and colon:  # "search:" with no budget is a slip, not the default search bot
        if not (level.isascii() and level.isdigit() and 1 <= int(level) <= MAX_ROLLOUTS):
            raise SimulationError(f"bad bot {spec!r}: search:N takes a whole number N from 1 to {MAX_ROLLOUTS}")
        bot = SearchBot(rollouts=int(level))
        bot.name = spec
        return bot
    if name not in BOTS or level:
        raise SimulationError(f"unknown bot {spec!r}: expected one of {', '.join(BOTS)} or search:N")
    return make_bot(name)


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameResult:
    """What one solo game left behind: its scores and what the bot took."""

    index: int
    seed: int
    bot: str
    total: int
    categories: Mapping[str, int]
    features: tuple[tuple[str, int], ...]
    """(tile code, points it scored) for each feature tile in the final garden."""
    critters: tuple[str, ...]
    """The code of each critter in the final garden."""
    patches: int
    enclosed: int
    """Patches in the final garden, and how many of them are enclosed."""
    garden: str
    log: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The line ``papillon simulate --json`` prints for the game (its log goes to a file of its own)."""
        return {"seed": self.seed, "bot": self.bot, "total": self.total, "categories": dict(self.categories), "garden": self.garden}


def play_one(edition: Edition, bot: str, master: int, index: int, keep_log: bool = False) -> GameResult:
    """Game ``index`` of a run with seed ``master``, played solo by ``bot``."""
    seed = game_seed(master, index)
    state, log = play_game(seed, [make_player(bot)], edition)
    # The score card's numbers, counted without what it draws or says (a ring's polygon would load shapely).
    found = board_evaluation(state.boards[0], edition)
    return GameResult(
        index=index,
        seed=seed,
        bot=bot,
        total=found.total,
        categories=found.categories,
        features=tuple((item.code, item.points if item.best_copy else 0) for item in found.features),
        critters=tuple(code for _, code, _ in found.critters),
        patches=len(found.patches),
        enclosed=sum(1 for patch in found.patches if patch.enclosed),
        garden=state.garden(0).to_notation(),
        log=log.text() if keep_log else None,
    )


# --------------------------------------------------------------------------- batches


@dataclass(frozen=True)
class Batch:
    """Games ``start`` to ``stop - 1`` of a run: what one worker plays in one go.

    The edition travels as TOML text (see :func:`edition_toml`): small, the same
    for every machine, and rebuilt once per worker.
    """

    edition: str
    bot: str
    seed: int
    start: int
    stop: int
    keep_logs: bool = False


def play_batch(batch: Batch) -> list[GameResult]:
    """Play one batch (a top-level function, so process pools and Dask workers can call it)."""
    edition = _edition(batch.edition)
    return [play_one(edition, batch.bot, batch.seed, i, batch.keep_logs) for i in range(batch.start, batch.stop)]


@lru_cache(maxsize=16)
def _edition(text: str) -> Edition:
    return edition_from_toml(text, source="<simulation>")


def batches(edition: str, bot: str, seed: int, games: int, size: int, keep_logs: bool = False) -> Iterator[Batch]:
    """The batches of a run of ``games`` games, made one at a time."""
    for start in range(0, games, size):
        yield Batch(edition, bot, seed, start, min(games, start + size), keep_logs)


def batch_size(games: int, workers: int) -> int:
    """Games per batch: one at a time in this process (an interrupted run then loses nothing); for several
    workers, a few batches each, at most 16 games (a batch is the unit a worker is sent)."""
    if workers <= 1:
        return 1
    return max(1, min(16, games // (workers * 8)))


# --------------------------------------------------------------------------- where the games run


class _Future(Protocol):
    def result(self) -> Any: ...

    def cancel(self) -> Any: ...


Submit = Callable[[Batch], _Future]
"""Starts a batch somewhere and returns its future (a process pool's or a Dask client's)."""


@dataclass(frozen=True)
class Workers:
    """Where batches run: ``submit`` is None for this process; ``count`` workers play at once."""

    count: int
    submit: Submit | None = None


def run(plan: Iterable[Batch], workers: Workers | None = None) -> Iterator[GameResult]:
    """Play the batches of ``plan`` and yield their games in plan order, wherever they run."""
    if workers is None or workers.submit is None:
        for batch in plan:
            yield from play_batch(batch)
        return
    pending: deque[_Future] = deque()
    todo = iter(plan)
    try:
        for batch in todo:
            pending.append(workers.submit(batch))
            if len(pending) >= workers.count * IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        # Stopped early (Ctrl-C, or the caller had enough): nothing still queued may run on.
        for future in pending:
            future.cancel()


@contextmanager
def local_workers(jobs: int) -> Iterator[Workers]:
    """``jobs`` worker processes on this machine (one: this process)."""
    check_jobs(jobs)
    if jobs <= 1:
        yield Workers(1)
        return
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    context = get_context("spawn" if sys.platform == "darwin" else "fork")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker)
    try:
        yield Workers(jobs, lambda batch: pool.submit(play_batch, batch))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


WORKER_GC_THRESHOLD = 1_000_000
"""Container objects a worker may keep (allocated and not yet freed) before a garbage collection (Python's default:
700).  The memos hold most of them, a few hundred thousand when full: a worker collects seldom, if ever, and its
games leave about ten objects in cycles per hundred games."""


def _start_worker() -> None:
    # Ctrl-C is the parent's to handle: it stops submitting and reports the games done so far.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker only plays games, whose objects die by reference counting (a hundred games leave about ten
    # objects in cycles), while the collector's passes over the memos and the heap inherited from the parent
    # took about a tenth of a worker's time (with a threshold of 50,000 still 3 %): the inherited objects are
    # left out of every pass, and the passes are made rare.  Nothing a game computes depends on when memory is freed.
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD)


class ClusterTimeoutError(SimulationError):
    """A Dask scheduler did not answer in time (a front end may say how to wait longer)."""


CLUSTER_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler to answer: a peer that accepts and says nothing must not hang a run."""

_CLUSTER_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})")
_IN_PROCESS = re.compile(r"inproc://[\w.:/-]+")
"""A scheduler in this very process (Dask's ``LocalCluster(processes=False)``, as tests make)."""


def check_cluster_address(address: str) -> str:
    """``local``, or ``tcp://HOST:PORT`` (Dask's other schemes too; ``HOST:PORT`` means tcp); SimulationError about ``cluster`` if not.

    >>> check_cluster_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    """
    match = _CLUSTER_ADDRESS.fullmatch(address)
    if address != "local" and not _IN_PROCESS.fullmatch(address) and (match is None or not 1 <= int(match[2]) <= 65535):
        shown = quote(address)
        raise SimulationError(f"{shown}: expected tcp://HOST:PORT (like tcp://10.0.0.5:8786), or 'local'", parameter="cluster")
    return address


def _connect(address: str, timeout: float) -> tuple[Any, int]:
    """A Dask client of the scheduler at ``address`` and its worker threads; SimulationError (one line) if none answers.

    Dask's own timeout covers the TCP connection only: a peer that accepts and then says nothing
    would hold the handshake for minutes.  So the connection is made in a thread of its own,
    waited for ``timeout`` seconds, and left to die with the process when it does not answer.
    """
    from distributed import Client

    outcome: dict[str, Any] = {}

    def attempt() -> None:
        try:
            client = Client(address, timeout=f"{timeout}s")
            outcome["workers"] = client.scheduler_info().get("workers", {})
            outcome["client"] = client
        except BaseException as error:  # whatever a peer that is not Dask makes the client raise: reported below
            outcome["error"] = error

    thread = threading.Thread(target=attempt, name="papillon-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)  # Dask's own connect timeout first, when it is the one that fires
    if thread.is_alive():
        raise ClusterTimeoutError(f"no answer from a Dask scheduler at {address} within {timeout:g} s (is one running there?)")
    error = outcome.get("error")
    if isinstance(error, OSError):  # refused, unreachable, timed out connecting
        # Dask retries a refused connection until its timeout, then says only "Timed out trying to connect
        # to ADDRESS after N s": the refusal is in the cause, and the address is said once already.
        refused = isinstance(error, ConnectionRefusedError) or "ConnectionRefusedError" in repr(error.__cause__) or _refuses(address)
        said = quote(str(error).replace(f" to {address}", ""), "")
        why = "the connection is refused (is a scheduler running there?)" if refused else said
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {why}")
    if error is not None:
        raise SimulationError(f"{address} is not a Dask scheduler (it answered, but not in Dask's protocol: {type(error).__name__})")
    workers = outcome["workers"]
    count = max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))
    return outcome["client"], count


def _refuses(address: str) -> bool:
    """Whether a TCP connection to ``address`` is refused now.  Dask's timeout can cut its last attempt short (on
    a busy machine), and then its error no longer holds the refusal: one plain attempt tells."""
    match = _CLUSTER_ADDRESS.fullmatch(address)
    if match is None or ("://" in address and not address.startswith("tcp://")):
        return False
    host = match[1].strip("[]")
    try:
        socket.create_connection((host, int(match[2])), timeout=1).close()
    except ConnectionRefusedError:
        return True
    except OSError:
        return False
    return False


@contextmanager
def cluster_workers(address: str, local_workers: int = 2, timeout: float = CLUSTER_TIMEOUT) -> Iterator[Workers]:
    """The workers of a Dask cluster at ``address`` (``tcp://host:8786``), or of a new local one (``local``).

    ``local`` starts ``local_workers`` worker processes on this machine, bound to
    the loopback interface, and stops them at the end.  A scheduler that does not
    answer within ``timeout`` seconds is a SimulationError.
    """
    check_cluster_address(address)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SimulationError("playing on a Dask cluster needs Dask: pip install 'papillon-gardens[cluster]'") from None
    cluster = None
    if address == "local":
        check_jobs(local_workers)
        try:
            cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
            client = Client(cluster)
        except OSError as error:
            if cluster is not None:
                cluster.close()
            raise SimulationError(f"cannot start a local Dask cluster: {error}") from None
        count = max(1, sum(int(w.get("nthreads", 1)) for w in client.scheduler_info().get("workers", {}).values()))
    else:
        client, count = _connect(address, timeout)
    try:
        yield Workers(count, lambda batch: client.submit(play_batch, batch, pure=False))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def workers_for(jobs: int | None = 1, cluster: str | None = None, *, timeout: float = CLUSTER_TIMEOUT) -> Iterator[Workers]:
    """Local processes, or a Dask cluster when ``cluster`` names one (``jobs`` then sizes a ``local`` one).

    ``jobs=None`` is :func:`default_jobs`.
    """
    if jobs is None:
        jobs = default_jobs()
    if cluster is None:
        with local_workers(jobs) as workers:
            yield workers
    else:
        with cluster_workers(cluster, max(2, jobs), timeout) as workers:
            yield workers


def default_jobs() -> int:
    """The CPUs this process may use (its affinity mask where the system keeps one, else every core): ``--jobs``' default.

    A run's results never depend on its number of processes, so the default takes every core it may.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity masks (macOS, Windows)
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_JOBS))


def check_jobs(jobs: int) -> None:
    if not 1 <= jobs <= MAX_JOBS:
        cores = os.cpu_count() or 1
        raise SimulationError(f"{jobs} worker processes: expected 1 to {MAX_JOBS} (this machine has {cores} cores)", parameter="jobs")


def check_games(games: int) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise SimulationError(f"{games:,} games: expected 1 to {MAX_GAMES:,}", parameter="games")


# --------------------------------------------------------------------------- the whole run


def simulate(
    seed: int,
    bot: str,
    games: int,
    edition: Edition,
    *,
    workers: Workers | None = None,
    keep_logs: bool = False,
) -> Iterator[GameResult]:
    """Games 0 to ``games - 1`` of ``bot`` under ``edition``, in order, wherever ``workers`` plays them."""
    check_games(games)
    make_player(bot)  # a bad name is refused before any worker starts
    size = batch_size(games, workers.count if workers and workers.submit else 1)
    yield from run(batches(edition_toml(edition), bot, seed, games, size, keep_logs), workers)


# --------------------------------------------------------------------------- editions as text


def edition_toml(edition: Edition) -> str:
    """TOML text that :func:`~papillon.edition.edition_from_toml` turns back into ``edition``.

    >>> from papillon.edition import edition_from_toml, standard_edition
    >>> edition_from_toml(edition_toml(standard_edition())).fingerprint == standard_edition().fingerprint
    True
    """
    return toml_text(edition.data)


def toml_text(data: Mapping[str, Any]) -> str:
    """A TOML document of one line per top-level key, every table written inline."""
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in data.items())


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    # JSON's escapes are TOML's, except that TOML also wants DEL escaped (and has no surrogate escapes,
    # which ensure_ascii=False avoids).
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


# --------------------------------------------------------------------------- the summary of a run


@dataclass
class Tally:
    """Counts of a run's scores, kept as games arrive: memory does not grow with the number of games."""

    bot: str
    totals: Counter[int] = field(default_factory=Counter)
    category_sums: Counter[str] = field(default_factory=Counter)

    def add(self, result: GameResult) -> None:
        self.totals[result.total] += 1
        self.category_sums.update(result.categories)

    @property
    def games(self) -> int:
        return self.totals.total()

    def text(self) -> str:
        """Mean, spread, quartiles, a small histogram and the per-category averages."""
        n = self.games
        if n == 0:
            return f"no game finished, bot {self.bot}"
        mean = sum(t * c for t, c in self.totals.items()) / n
        sd = math.sqrt(sum(c * (t - mean) ** 2 for t, c in self.totals.items()) / n)
        low, high = min(self.totals), max(self.totals)
        lines = [
            f"{plural(n, 'solo game')}, bot {self.bot}",
            f"  mean {mean:.2f}   sd {sd:.2f}",
            f"  min {low}   Q1 {self.quantile(0.25):g}   median {self.quantile(0.5):g}   Q3 {self.quantile(0.75):g}   max {high}",
            "",
            "  score     games",
        ]
        width = max(1, -(-(high - low + 1) // 10))
        start = low - low % width
        counts: Counter[int] = Counter()
        for total, count in self.totals.items():
            counts[start + (total - start) // width * width] += count
        top = max(counts.values())
        for bin_start in range(start, high + 1, width):
            count = counts[bin_start]
            label = f"{bin_start}" if width == 1 else f"{bin_start}-{bin_start + width - 1}"
            lines.append(f"  {label:>7}  {count:>6} {'#' * round(40 * count / top)}")
        lines += ["", "  category            average"]
        for category in self.category_sums:
            lines.append(f"  {CATEGORY_TITLES.get(category, category):<18}{self.category_sums[category] / n:>8.2f}")
        lines.append(f"  {'Total':<18}{mean:>8.2f}")
        return "\n".join(lines)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile of the totals, interpolated as ``statistics.quantiles(method="inclusive")`` does.

        >>> tally = Tally("x", Counter({1: 1, 2: 1, 4: 2}))
        >>> [tally.quantile(q) for q in (0.25, 0.5, 0.75)]
        [1.75, 3.0, 4.0]
        """
        position = q * (self.games - 1)
        below = math.floor(position)
        low_value = high_value = None
        seen = 0
        for total in sorted(self.totals):
            seen += self.totals[total]
            if low_value is None and seen > below:
                low_value = total
            if seen > below + 1 or (seen > below and position == below):
                high_value = total
                break
        assert low_value is not None
        if high_value is None:
            high_value = low_value
        return low_value + (high_value - low_value) * (position - below)
