"""Play together under load: simultaneous three-device games (a host screen and two phones) on loopback.

    python bench/bench_together.py                 # 20 games of Ann, Bob and a greedy bot, played to the end
    python bench/bench_together.py --games 5
    python bench/bench_together.py --games 3 --bot expert   # a bot that thinks while the phones decide

``papillon serve`` runs in a subprocess (uvicorn on a free loopback port, its own data folder).  For each
game the host posts the new-game form and reads the two join links from its page; each phone opens its
link (the seat key then rides in its game's cookie) and plays its seat: it asks for the game's data
(``Accept: application/json``), posts the first of its actions and follows the answer to the page, as a
browser does, or waits 0.2 s when its turn this round is done.  The host screen reloads its page
(the table: cards, dice, who is done) every second until the end.

Reported: errors (any answer but 200 and the form's 303), connections the server closed without an
answer (counted, and the request sent again), the requests of each kind with their median
and 95th percentile (wall time, so with the load average beside it), and whether anything acknowledged
was lost: after the server stopped, every game's log on disk holds each decision a phone was answered
303 for, in the order answered, and replays to the scores the phones last saw.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from papillon.engine.log import parse_log, replay

JOIN = re.compile(r'<a class="join" data-seat="(\d)" href="([^"]+)"')
CSRF_COOKIE = "papillon_csrf"


class Tally:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.dropped: list[str] = []

    async def request(self, kind: str, client: httpx.AsyncClient, method: str, url: str, **options: object) -> httpx.Response:
        """The answer, timed; a connection closed without an answer is counted (``dropped``) and the request sent
        again (a decision sent again is no harm: it was not acknowledged, and a taken one is refused as not legal)."""
        for _ in range(5):
            start = time.perf_counter()
            try:
                response = await client.request(method, url, **options)  # type: ignore[arg-type]
            except httpx.TransportError as error:
                self.dropped.append(f"{kind} {url}: {type(error).__name__}")
                await asyncio.sleep(0.1)
                continue
            self.times[kind].append(time.perf_counter() - start)
            if response.status_code not in (200, 303):
                self.errors.append(f"{kind} {url}: {response.status_code} {response.text[:120]!r}")
            return response
        raise RuntimeError(f"{kind} {url}: no answer in 5 tries")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _client(base: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=30)
    await client.get("/favicon.ico")  # a CSRF cookie
    return client


async def _phone(tally: Tally, base: str, link: str, game: str, acked: list[str]) -> dict[str, int]:
    phone = await _client(base)
    await tally.request("join", phone, "GET", link)
    try:
        while True:
            data = (await tally.request("data", phone, "GET", game, headers={"accept": "application/json"})).json()
            if data.get("over"):
                return dict(data["scores"])
            if not data.get("actions"):
                await asyncio.sleep(0.2)
                continue
            action = data["actions"][0]
            form = {"csrf": str(phone.cookies.get(CSRF_COOKIE)), "action": action}
            answer = await tally.request("act", phone, "POST", f"{game}/act", data=form)
            if answer.status_code == 303:
                acked.append(action)
                await tally.request("page", phone, "GET", answer.headers["location"])
    finally:
        await phone.aclose()


async def _game(
    tally: Tally, base: str, index: int, acked: dict[str, dict[int, list[str]]], seen: dict[str, dict[str, int]], bot: str
) -> None:
    host = await _client(base)
    form = {"csrf": str(host.cookies.get(CSRF_COOKIE)), "seed": str(1000 + index), "seat1": "human", "name1": "Ann"}
    form |= {"seat2": "human", "name2": "Bob", "seat3": bot}
    made = await tally.request("create", host, "POST", "/games", data=form)
    game = made.headers["location"]
    links = dict(JOIN.findall((await tally.request("host", host, "GET", game)).text))
    acked[game] = {0: [], 1: []}
    phones = [asyncio.create_task(_phone(tally, base, links[str(seat)], game, acked[game][seat])) for seat in (0, 1)]
    while not all(p.done() for p in phones):
        await tally.request("host", host, "GET", game)
        await asyncio.wait(phones, timeout=1.0)
    seen[game] = phones[0].result()
    await host.aclose()


def _lost(folder: Path, acked: dict[str, dict[int, list[str]]], seen: dict[str, dict[str, int]]) -> list[str]:
    """What the disk does not hold of what was acknowledged, game by game ([] : nothing lost)."""
    problems = []
    for game, seats in acked.items():
        log = parse_log((folder / "games" / f"{game.rsplit('/', 1)[1]}.jsonl").read_text(encoding="utf-8"))
        for seat, actions in seats.items():
            logged = [str(e["action"]) for e in log.events if e.get("player") == seat]
            taken = iter(logged)
            if not all(action in taken for action in actions):  # each answered decision, in order
                problems.append(f"{game} seat {seat}: {len(actions)} answered, not all of them in order in its {len(logged)}")
        final = replay(log)
        scores = {name: final.score(i) for i, name in enumerate(final.game.players)}
        if not final.is_over() or scores != seen.get(game):
            problems.append(f"{game}: the log replays to {scores}, the phones saw {seen.get(game)}")
    return problems


async def _all(base: str, games: int, bot: str) -> tuple[Tally, dict[str, dict[int, list[str]]], dict[str, dict[str, int]], float]:
    tally = Tally()
    acked: dict[str, dict[int, list[str]]] = {}
    seen: dict[str, dict[str, int]] = {}
    start = time.perf_counter()
    await asyncio.gather(*(_game(tally, base, i, acked, seen, bot) for i in range(games)))
    return tally, acked, seen, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bot", default="greedy", help="the third seat's bot (default greedy)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="papillon-together-"))
    port = _free_port()
    command = [sys.executable, "-m", "papillon", "serve", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, env=os.environ | {"PAPILLON_DATA_DIR": str(folder)}, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/favicon.ico", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        cpu = time.process_time()
        tally, acked, seen, wall = asyncio.run(_all(base, args.games, args.bot))
        cpu = time.process_time() - cpu
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    print(f"{args.games} games of 3 devices (host screen, 2 phones) and a {args.bot} bot, played to the end in {wall:.1f} s")
    print(f"load average at the end: {Path('/proc/loadavg').read_text().split()[:3]}; the clients' CPU {cpu:.1f} s")
    print(f"errors: {len(tally.errors)}; connections closed without an answer (sent again): {len(tally.dropped)}")
    for line in tally.errors[:10] + tally.dropped[:5]:
        print("  ", line)
    print(f"{'kind':8} {'requests':>8} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for kind, times in sorted(tally.times.items()):
        ms = sorted(t * 1000 for t in times)
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        print(f"{kind:8} {len(ms):8d} {statistics.median(ms):10.1f} {p95:8.1f} {ms[-1]:8.1f}")
    decisions = sum(len(a) for seats in acked.values() for a in seats.values())
    problems = _lost(folder, acked, seen)
    print(f"acknowledged decisions: {decisions}; lost or different on disk: {len(problems)}")
    for line in problems[:10]:
        print("  ", line)
    if tally.errors or problems:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
