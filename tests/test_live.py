"""Live pages: the versions of :class:`papillon.web.live.Changes`, its event streams, who may open them, and a prompt stop."""

from __future__ import annotations

import asyncio
import dataclasses
import html
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import httpx
from starlette.exceptions import HTTPException

from papillon.web.app import CSRF_COOKIE, App, create_app
from papillon.web.live import TOO_MANY, Changes

# --------------------------------------------------------------------------- Changes


async def _next(stream: Any, seconds: float = 5.0) -> str:
    return str(await asyncio.wait_for(anext(stream), seconds))


def test_a_stream_sends_the_version_at_once_and_a_publish_from_a_thread_wakes_it() -> None:
    changes = Changes()

    async def follow() -> list[str]:
        stream = changes.events("night:abc")
        first = await _next(stream)
        threading.Thread(target=changes.publish, args=("night:abc",)).start()  # as a worker thread does
        second = await _next(stream)
        changes.publish("night:other")  # another channel: this stream stays asleep
        changes.publish("night:abc")
        third = await _next(stream)
        await stream.aclose()
        return [first, second, third]

    assert asyncio.run(follow()) == ["retry: 3000\nid: 0\ndata: 0\n\n", "id: 1\ndata: 1\n\n", "id: 2\ndata: 2\n\n"]
    assert changes.version("night:abc") == 2 and changes.version("night:other") == 1 and changes.version("table:x") == 0
    assert changes.waiting == {}  # the closed stream is no longer waited on


def test_an_idle_stream_sends_a_comment_heartbeat() -> None:
    changes = Changes(heartbeat=0.05)

    async def follow() -> list[str]:
        stream = changes.events("table:t")
        said = [await _next(stream), await _next(stream)]
        await stream.aclose()
        return said

    assert asyncio.run(follow())[1] == ": still here\n\n"


def test_every_stream_ends_when_the_server_stops() -> None:
    changes = Changes()

    async def follow() -> tuple[list[str], str]:
        streams = [changes.events("game:g"), changes.events("table:t")]
        for stream in streams:
            await _next(stream)
        threading.Thread(target=changes.close).start()
        ended = []
        for stream in streams:
            try:
                await _next(stream)
            except StopAsyncIteration:
                ended.append("ended")
        with pytest.raises(HTTPException) as refused:
            changes.response("game:g")
        return ended, str(refused.value.detail)

    assert asyncio.run(follow()) == (["ended", "ended"], "The server is stopping.")


def test_open_streams_are_bounded() -> None:
    changes = Changes(limit=2)
    changes.response("table:a")
    changes.response("table:b")
    with pytest.raises(HTTPException) as refused:
        changes.response("table:c")
    assert refused.value.status_code == 503 and refused.value.detail == TOO_MANY


# --------------------------------------------------------------------------- a real server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Running:
    """``app`` served by :meth:`App.server` in a thread on a free loopback port."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = app.server(host="127.0.0.1", port=self.port, log_level="warning")
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> float:
        """Stop it as Ctrl-C does; the seconds it took."""
        began = time.monotonic()
        self.server.should_exit = True
        self.thread.join(timeout=20)
        return time.monotonic() - began


@pytest.fixture
def network(tmp_path: Path) -> Iterator[Running]:
    running = Running(create_app(folder=tmp_path, token="tok", base_url="http://192.168.1.5:8000", loopback=False))
    yield running
    running.stop()


def _first_event(client: httpx.Client, path: str) -> tuple[int, str]:
    """The status of an event route and its first event (or its refusal's words)."""
    with client.stream("GET", path, timeout=10) as response:
        if response.status_code != 200:
            response.read()
            found = re.search(r'role="alert">([^<]*)<', response.text)
            return response.status_code, html.unescape(found.group(1)) if found else response.text[:200]
        assert response.headers["content-type"].startswith("text/event-stream")
        text = ""
        for chunk in response.iter_text():
            text += chunk
            if text.endswith("\n\n"):
                return 200, text
    raise AssertionError("the stream ended before its first event")


def _host(running: Running) -> httpx.Client:
    host = httpx.Client(base_url=running.url, follow_redirects=True)
    host.get("/?token=tok")
    return host


def test_each_event_route_is_opened_by_the_keys_of_its_page(network: Running) -> None:
    host = _host(network)
    csrf = host.cookies[CSRF_COOKIE]
    game = host.post("/games", data={"csrf": csrf, "seed": "11", "seat1": "human", "name1": "Ann", "seat2": "greedy"}).url.path
    table = host.post("/tables", data={"csrf": csrf, "seed": "7"}).url.path
    night = host.post("/nights", data={"csrf": csrf, "players": "Ann\nBob"}).url.path
    papillon = network.app.papillon
    night_id = night.rsplit("/", 1)[1]
    ann_key, bob_key = (row.key for row in sorted(papillon.store.keys_for("night", night_id), key=lambda row: row.player))
    watch = f"/watch/{papillon.table(table.rsplit('/', 1)[1]).watch_id}"
    ann = httpx.Client(base_url=network.url, follow_redirects=True)
    ann.get(f"{night}?key={ann_key}")
    ann_sheet = ann.post("/score/new", data={"csrf": ann.cookies[CSRF_COOKIE]}).url.path
    bob = httpx.Client(base_url=network.url, follow_redirects=True)
    bob.get(f"{night}?key={bob_key}")
    stranger = httpx.Client(base_url=network.url, follow_redirects=True)
    first = "retry: 3000\nid: 0\ndata: 0\n\n"
    made = "retry: 3000\nid: 1\ndata: 1\n\n"  # the sheet was published as it was made

    game_id = game.rsplit("/", 1)[1]
    at = papillon.changes.version(f"game:{game_id}")  # the bot's first turn was published as the game started
    assert at >= 1
    assert _first_event(host, f"{game}/events") == (200, f"retry: 3000\nid: {at}\ndata: {at}\n\n")
    for path in (f"{table}/events", f"{night}/events", f"{watch}/events"):
        assert _first_event(host, path) == (200, first), path
    assert _first_event(host, f"{ann_sheet}/events") == (200, made)
    assert _first_event(stranger, f"{watch}/events") == (200, first)  # a watch page is open, as its address is its key
    assert _first_event(ann, f"{night}/events") == (200, first)
    assert _first_event(ann, f"{ann_sheet}/events") == (200, made)
    needs_token = "This papillon server needs its token: open the link with ?token=… that the server printed."
    for path in (f"{game}/events", f"{table}/events", f"{night}/events", f"{ann_sheet}/events"):
        assert _first_event(stranger, path) == (403, needs_token), path
    ann_only = "This link lets Ann's phone add and fix Ann's sheet of one game night, nothing else."
    assert _first_event(ann, f"{game}/events") == (403, ann_only)
    assert _first_event(ann, f"{table}/events") == (403, ann_only)
    assert _first_event(ann, "/nights/0123456789ab/events") == (403, ann_only)  # another night
    assert _first_event(bob, f"{ann_sheet}/events") == (403, "This link lets a phone fix only its own player's sheet.")
    assert _first_event(stranger, "/watch/0123456789abcdef/events") == (404, "There is no such table.")
    assert _first_event(host, "/games/nosuchgame/events")[0] == 404
    deadline = time.monotonic() + 5
    while papillon.changes.open and time.monotonic() < deadline:  # each client above went after its first event
        time.sleep(0.05)
    assert papillon.changes.open == 0 and papillon.changes.waiting == {}


def test_a_step_a_saved_sheet_and_a_recorded_night_are_published(network: Running) -> None:
    host = _host(network)
    csrf = host.cookies[CSRF_COOKIE]
    changes = network.app.papillon.changes
    table = host.post("/tables", data={"csrf": csrf, "seed": "7"}).url.path
    host.post(f"{table}/step", data={"csrf": csrf, "do": "next"})
    host.post(f"{table}/step", data={"csrf": csrf, "do": "undo"})
    assert changes.version(f"table:{table.rsplit('/', 1)[1]}") == 2
    night = host.post("/nights", data={"csrf": csrf, "players": "Ann\nBob"}).url.path
    sheet = host.post("/score/new", data={"csrf": csrf, "night": night.rsplit("/", 1)[1], "player": "Ann"}).url.path
    host.post(f"{sheet}/act", data={"csrf": csrf, "action": "set C3 R"})
    assert changes.version(f"sheet:{sheet.rsplit('/', 1)[1]}") == 2  # made, then changed
    assert changes.version(f"night:{night.rsplit('/', 1)[1]}") == 0  # a sheet being tapped in is not the night's yet
    assert host.post(f"{sheet}/record", data={"csrf": csrf}).url.path == night
    assert changes.version(f"night:{night.rsplit('/', 1)[1]}") == 1


def test_a_followed_stream_gets_the_change_and_the_server_still_stops_at_once(tmp_path: Path) -> None:
    running = Running(create_app(folder=tmp_path))
    try:
        host = httpx.Client(base_url=running.url, follow_redirects=True)
        host.get("/")
        table = host.post("/tables", data={"csrf": host.cookies[CSRF_COOKIE], "seed": "7"}).url.path
        said: list[str] = []
        with host.stream("GET", f"{table}/events", timeout=10) as response:
            chunks = response.iter_text()
            said.append(next(chunks))
            host.post(f"{table}/step", data={"csrf": host.cookies[CSRF_COOKIE], "do": "next"})
            said.append(next(chunks))
            took = running.stop()  # the stream still open
            rest = "".join(chunks)  # it ends: the server closed it
        assert said == ["retry: 3000\nid: 0\ndata: 0\n\n", "id: 1\ndata: 1\n\n"] and rest == ""
        assert not running.thread.is_alive() and took < 10, took  # a plain uvicorn.Server waits for the stream for ever
    finally:
        running.stop()


def test_ctrl_c_stops_papillon_serve_promptly_with_a_page_following_it(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "PAPILLON_DATA_DIR": str(tmp_path)}
    served = subprocess.Popen([sys.executable, "-m", "papillon", "serve", "--port", str(port)], env=env, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120  # its imports take seconds on a loaded machine
        while True:
            try:
                host = httpx.Client(base_url=url, follow_redirects=True)
                host.get("/")
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and served.poll() is None, "papillon serve did not start"
                time.sleep(0.1)
        table = host.post("/tables", data={"csrf": host.cookies[CSRF_COOKIE], "seed": "7"}).url.path
        watch = host.get(table).text.split('href="/watch/', 1)[1].split('"', 1)[0]
        with host.stream("GET", f"/watch/{watch}/events", timeout=10) as response:
            assert next(response.iter_text()).startswith("retry: ")
            began = time.monotonic()
            served.send_signal(signal.SIGINT)
            code = served.wait(timeout=30)  # without ending the streams first it would wait for ever
            took = time.monotonic() - began
        assert code == 0 and took < 10, took  # a bound for a loaded machine: what matters is that it stops at all
        assert b"Traceback" not in (served.stderr.read() if served.stderr else b"")
    finally:
        if served.poll() is None:
            served.kill()
            served.wait()


# --------------------------------------------------------------------------- without JavaScript


def test_every_tap_in_action_is_a_plain_form(client: Any) -> None:
    from papillon.grid import EDGES, PLOTS, plot_name

    csrf = client.cookies[CSRF_COOKIE]
    sheet = client.post("/score/new", data={"csrf": csrf}, follow_redirects=False).headers["location"]
    page = client.get(sheet).text
    bricks, butterflies = [f"edge {e.name}" for e in EDGES], [f"butterfly {plot_name(p)}" for p in PLOTS]
    for form, choices in (("brick-form", bricks), ("butterfly-form", butterflies)):
        found = re.search(rf'<form method="post" action="{sheet}/act" class="pick" id="{form}">(.*?)</form>', page, re.S)
        assert found, form
        assert re.findall(r'<option value="([^"]+)">', found.group(1)) == choices
        assert f'<input type="hidden" name="csrf" value="{csrf}">' in found.group(1)
    for action in ("edge C3-D3", "butterfly C3"):  # what the two forms post, as a browser without JavaScript sends them
        answer = client.post(f"{sheet}/act", data={"csrf": csrf, "action": action}, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == f"{sheet}#sheet"
    page = client.get(sheet).text
    assert '<option value="edge C3-D3">C3-D3, a brick</option>' in page and '<option value="butterfly C3">C3, a butterfly</option>' in page
    assert " 3   .     .     .*  | .     ." in html.unescape(client.get(f"{sheet}/garden").text).splitlines()


def test_only_pages_that_follow_others_reload_on_a_timer_without_javascript(client: Any) -> None:
    csrf = client.cookies[CSRF_COOKIE]
    table = client.post("/tables", data={"csrf": csrf, "seed": "7"}, follow_redirects=False).headers["location"]
    watch = re.search(r'href="(/watch/[0-9a-f]{16})"', client.get(table).text).group(1)  # type: ignore[union-attr]
    night = client.post("/nights", data={"csrf": csrf, "players": "Ann"}, follow_redirects=False).headers["location"]
    sheet = client.post("/score/new", data={"csrf": csrf}, follow_redirects=False).headers["location"]
    refresh = re.compile(r'<noscript><meta http-equiv="refresh" content="(\d+)"></noscript>')
    assert {path: refresh.findall(client.get(path).text) for path in (watch, night, table, sheet)} == {
        watch: ["5"],
        night: [],  # a timer would lose the photo being chosen: a reload link instead
        table: [],
        sheet: [],
    }
    assert f'<a href="{night}">reload it</a>' in client.get(night).text
    assert f'<main data-events="{watch}/events" data-version="0">' in client.get(watch).text  # the version it shows
    client.post(f"{table}/step", data={"csrf": csrf, "do": "next"})
    assert f'<main data-events="{watch}/events" data-version="1">' in client.get(watch).text
    assert f'<main data-events="{night}/events" data-version="0">' in client.get(night).text


def test_a_doubt_checked_without_javascript_returns_to_the_list(client: Any) -> None:
    from papillon.scoresheet import Doubt

    csrf = client.cookies[CSRF_COOKIE]
    sheet = client.post("/score/new", data={"csrf": csrf}, follow_redirects=False).headers["location"]
    found = client.app.papillon.score_night.sheet(sheet.rsplit("/", 1)[1])  # two doubts, as a photo read leaves them
    found.entry = dataclasses.replace(found.entry, doubts=(Doubt("field D2", "unsure"), Doubt("field A4", "unsure")))
    opened = client.post(f"{sheet}/act", data={"csrf": csrf, "action": "plot D2", "from": "doubts"}, follow_redirects=False)
    assert opened.headers["location"] == f"{sheet}?plot=D2&from=doubts#chooser"
    assert '<input type="hidden" name="from" value="doubts">' in client.get(opened.headers["location"].split("#")[0]).text
    answer = client.post(f"{sheet}/act", data={"csrf": csrf, "action": "confirm field D2", "from": "doubts"}, follow_redirects=False)
    assert answer.headers["location"] == f"{sheet}#doubts"  # one doubt left: back to the list
    answer = client.post(f"{sheet}/act", data={"csrf": csrf, "action": "confirm field A4", "from": "doubts"}, follow_redirects=False)
    assert answer.headers["location"] == f"{sheet}#sheet"  # none left: the list is gone
