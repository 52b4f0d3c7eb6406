"""Nothing lost: a real ``papillon serve`` killed with SIGKILL at random moments while clients click.

Three kinds of client click at once: players taking the first choice of their own games, a dealer
revealing rounds at a table, and a phone tapping flowers into a sheet.  Every click the server
answered (303) is written down; the server is killed at seeded random moments, started again on the
same data folder, and the clients go on.  At the end every answered decision is in its game's log,
the table shows at least every answered reveal, and the sheet holds every answered flower.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from papillon.engine.log import parse_log  # noqa: E402
from papillon.garden import Garden  # noqa: E402
from papillon.grid import parse_plot  # noqa: E402

CHOICE = re.compile(r'name="action" value="([^"]+)" class="choice')
KILLS = 4
CLICKS_BETWEEN_KILLS = 10
PLOTS = [f"{col}{row}" for row in "12345" for col in "ABCDE"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, folder: Path) -> None:
        self.port = _free_port()
        self.env = os.environ | {"PAPILLON_DATA_DIR": str(folder)}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "papillon", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/favicon.ico", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def _client(url: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=10, follow_redirects=True)
    c.get("/")
    return c


def test_every_answered_click_survives_sigkill(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.start()
    stop = threading.Event()
    made: dict[str, str] = {}
    games: dict[str, list[str]] = {}
    reveals = [0]
    flowers: list[str] = []
    problems: list[str] = []

    def csrf(c: httpx.Client) -> str:
        return str(c.cookies.get("papillon_csrf"))

    def player(index: int) -> None:
        c = _client(server.url)
        r = c.post("/games", data={"csrf": csrf(c), "seed": str(100 + index), "seat1": "human", "name1": "Ann", "seat2": "greedy"})
        game = str(r.url.path)
        games[game] = []
        while not stop.is_set():
            try:
                choices = CHOICE.findall(c.get(game).text)
                if not choices:
                    return  # the game is over
                r = c.post(f"{game}/act", data={"csrf": csrf(c), "action": choices[0]}, follow_redirects=False)
                if r.status_code == 303:
                    games[game].append(choices[0])
            except httpx.HTTPError:
                time.sleep(0.2)  # the server is down: try again when it is back

    def dealer() -> None:
        c = _client(server.url)
        table = str(c.post("/tables", data={"csrf": csrf(c), "seed": "5"}).url.path)
        made["table"] = table
        while not stop.is_set() and reveals[0] < 10:
            try:
                if c.post(f"{table}/step", data={"csrf": csrf(c)}, follow_redirects=False).status_code == 303:
                    reveals[0] += 1
                time.sleep(0.8)  # a table reveals slowly: the kills fall between and during its reveals
            except httpx.HTTPError:
                time.sleep(0.2)

    def phone() -> None:
        c = _client(server.url)
        sheet = str(c.post("/score/new", data={"csrf": csrf(c)}).url.path)
        made["sheet"] = sheet
        for plot in PLOTS:
            while not stop.is_set():
                try:
                    r = c.post(f"{sheet}/act", data={"csrf": csrf(c), "action": f"set {plot} R"}, follow_redirects=False)
                    if r.status_code == 303:
                        flowers.append(plot)
                    elif r.status_code != 400:  # an edit that cannot be made (a starting field) is skipped
                        problems.append(f"{plot}: {r.status_code}")
                    time.sleep(0.3)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)

    threads = [threading.Thread(target=player, args=(i,)) for i in range(3)]
    threads += [threading.Thread(target=dealer), threading.Thread(target=phone)]
    for thread in threads:
        thread.start()
    chance = random.Random(19)

    def clicks() -> int:
        return sum(len(actions) for actions in games.values())

    def answered_again() -> bool:
        """Wait until the players were answered again (a loaded machine starts the server slowly): whether they were."""
        answered, deadline = clicks(), time.monotonic() + 60
        while clicks() < answered + CLICKS_BETWEEN_KILLS:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    windows = []
    try:
        for _ in range(KILLS):
            windows.append(answered_again())
            time.sleep(chance.uniform(0.0, 1.0))  # the kill falls anywhere: between clicks or during one
            server.kill()
            time.sleep(chance.uniform(0.0, 0.3))
            server.start()
        windows.append(answered_again())
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
        server.kill()

    assert not problems
    assert all(windows), "the players' clicks were answered between every two kills"
    assert reveals[0] >= 3 and len(flowers) >= 5
    for game, answered in games.items():
        log = parse_log((tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl").read_text(encoding="utf-8"))
        taken = iter(str(e["action"]) for e in log.events if e.get("player") == 0)
        assert all(action in taken for action in answered), f"{game}: an answered decision is missing"  # in order

    server.start()
    try:
        table, sheet = made["table"], made["sheet"]
        shown = re.search(r"<h1>Round (\d+) of", httpx.get(server.url + table).text)
        assert shown and reveals[0] <= int(shown.group(1)) <= reveals[0] + 1
        garden = Garden.from_notation(httpx.get(server.url + sheet + "/garden").text)
        for plot in flowers:
            assert garden.cells[parse_plot(plot)].code == "R", plot
    finally:
        server.kill()
