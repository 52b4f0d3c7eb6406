"""papillon serve, part 2: nothing lost (logs, the store), nobody let in (keys, Host), nothing frozen (the bots' pool)."""

from __future__ import annotations

import errno
import json
import re
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import papillon.session
from papillon.engine.log import parse_log
from papillon.web import games as web_games
from papillon.web import state as web_state
from papillon.web.app import CSRF_COOKIE, create_app
from papillon.web.store import FILE_NAME, MIGRATIONS, Store, StoreError

EXAMPLES = Path(__file__).resolve().parent.parent / "sheets" / "examples"
LOCAL = "http://localhost"


def _client(folder: Path, **options: object) -> TestClient:
    c = TestClient(create_app(folder=folder, **options), base_url=LOCAL, raise_server_exceptions=False)  # type: ignore[arg-type]
    c.get("/")
    return c


def _csrf(c: TestClient) -> str:
    return str(c.cookies.get(CSRF_COOKIE))


def _choices(html: str) -> list[str]:
    return re.findall(r'name="action" value="([^"]+)" class="choice', html)


def _new_game(c: TestClient, **fields: str) -> str:
    data = {"csrf": _csrf(c), "seed": "11", "seat1": "human", "name1": "Ann", "seat2": "greedy"} | fields
    r = c.post("/games", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.headers["location"])


# --------------------------------------------------------------------------- nothing lost


def test_every_accepted_decision_is_in_the_log_before_the_answer(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game = _new_game(c)
    log_file = tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl"
    for _ in range(5):
        action = _choices(c.get(game).text)[0]
        assert c.post(f"{game}/act", data={"csrf": _csrf(c), "action": action}, follow_redirects=False).status_code == 303
        lines = log_file.read_text(encoding="utf-8").splitlines()
        decisions = [json.loads(line) for line in lines if '"player"' in line and '"action"' in line]
        assert {"player": 0, "action": action} in decisions, action


def test_a_torn_last_line_is_dropped_on_resume_with_a_note(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game = _new_game(c)
    c.post(f"{game}/act", data={"csrf": _csrf(c), "action": "start D2"})
    log_file = tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl"
    whole = log_file.read_text(encoding="utf-8")
    log_file.write_text(whole + '{"player":0,"act', encoding="utf-8")  # the power went mid-write
    again = _client(tmp_path)
    page = again.get(game).text
    assert "When the server restarted, the last decision was being saved when the server stopped and was lost" in page
    assert "When the server restarted" not in again.get(game).text  # told once
    assert _choices(page) == _choices(c.get(game).text)
    assert log_file.read_text(encoding="utf-8") == whole  # repaired on disk at once


def test_a_decision_after_a_torn_line_rewrites_the_log_whole(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game = _new_game(c)
    log_file = tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl"
    log_file.write_text(log_file.read_text(encoding="utf-8") + '{"player":0,"act', encoding="utf-8")
    again = _client(tmp_path)
    again.post(f"{game}/act", data={"csrf": _csrf(again), "action": "start D2"})
    text = log_file.read_text(encoding="utf-8")
    assert '"act\n' not in text and '{"player":0,"action":"start D2"}' in text
    parse_log(text)  # whole again


def test_tables_nights_and_sheets_come_back_after_a_restart(tmp_path: Path) -> None:
    c = _client(tmp_path)
    table = c.post("/tables", data={"csrf": _csrf(c), "seed": "7"}, follow_redirects=False).headers["location"]
    for _ in range(3):
        c.post(f"{table}/step", data={"csrf": _csrf(c)})
    shown = re.search(r"<h1>Round (\d+) of", c.get(table).text)
    watch = re.search(r'href="(/watch/[0-9a-f]{16})"', c.get(table).text)
    assert shown and shown.group(1) == "3" and watch
    sheet = c.post("/score/new", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"]
    c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set A1 R"})
    night = c.post("/nights", data={"csrf": _csrf(c), "players": "Ann, Bob"}, follow_redirects=False).headers["location"]
    garden = (EXAMPLES / "bird-feeder.garden").read_text()  # 29
    ann = c.post(
        "/score/new", data={"csrf": _csrf(c), "night": night.rsplit("/", 1)[1], "player": "Ann", "notation": garden}, follow_redirects=False
    ).headers["location"]
    c.post(f"{ann}/record", data={"csrf": _csrf(c)})

    again = _client(tmp_path)  # a new server on the same data folder: nothing in memory
    assert "<h1>Round 3 of" in again.get(table).text and "<h1>Round 3 of" in again.get(watch.group(1)).text
    assert again.get(f"{table}").status_code == 200
    assert 'id="A1" class="hit' in again.get(sheet).text or again.get(sheet).status_code == 200
    assert "A1 R" in again.get(f"{sheet}/garden").text.replace("\n", " ") or "R" in again.get(f"{sheet}/garden").text
    rows = re.findall(r"<tr[^>]*><td>([^<]+)</td><td>([^<]+)</td><td>([^<]+)</td>", again.get(night).text)
    assert rows[0] == ("1", "Ann", "29")
    again.post(f"{table}/step", data={"csrf": _csrf(again)})
    assert "<h1>Round 4 of" in again.get(table).text  # the same deal goes on


def test_a_sheet_edit_is_in_the_store_before_the_answer(tmp_path: Path) -> None:
    c = _client(tmp_path)
    sheet = c.post("/score/new", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"]
    c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set B2 R"})
    row = Store(tmp_path / FILE_NAME).sheet(sheet.rsplit("/", 1)[1])
    assert row is not None and "R" in row.notation


def test_evicted_rooms_tables_and_sheets_reload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_state, "MAX_GAMES_IN_MEMORY", 1)
    monkeypatch.setattr(web_state, "MAX_TABLES", 1)
    c = _client(tmp_path)
    first = _new_game(c)
    c.post(f"{first}/act", data={"csrf": _csrf(c), "action": "start D2"})
    expected = _choices(c.get(first).text)
    _new_game(c, seed="12")  # the first is dropped from memory
    assert _choices(c.get(first).text) == expected
    t1 = c.post("/tables", data={"csrf": _csrf(c), "seed": "1"}, follow_redirects=False).headers["location"]
    c.post(f"{t1}/step", data={"csrf": _csrf(c)})
    c.post("/tables", data={"csrf": _csrf(c), "seed": "2"})
    assert "<h1>Round 1 of" in c.get(t1).text


def test_the_store_migrates_and_refuses_a_newer_one(tmp_path: Path) -> None:
    store = Store(tmp_path / FILE_NAME)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    store.close()
    Store(tmp_path / FILE_NAME).close()  # opening again migrates nothing
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StoreError, match=r"written by a newer papillon \(schema 3, this one knows 2\)"):
        Store(tmp_path / FILE_NAME)


def test_a_saved_game_is_deleted_after_a_confirmation(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game = _new_game(c)
    game_id = game.rsplit("/", 1)[1]
    assert f"/games/{game_id}/delete" in c.get("/").text
    confirm = c.get(f"{game}/delete")
    assert "Delete this saved game?" in confirm.text and 'name="confirm" value="yes"' in confirm.text
    assert c.post(f"{game}/delete", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"] == f"{game}/delete"
    assert (tmp_path / "games" / f"{game_id}.jsonl").is_file()
    r = c.post(f"{game}/delete", data={"csrf": _csrf(c), "confirm": "yes"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert not (tmp_path / "games" / f"{game_id}.jsonl").exists() and game_id not in c.get("/").text
    assert c.get(game).status_code == 404


@pytest.mark.parametrize(
    ("error", "status", "words"),
    [
        (OSError(errno.EROFS, "Read-only file system", "/secret/data/games/x.jsonl"), 503, "cannot write to its data folder"),
        (OSError(errno.ENOSPC, "No space left on device", "/secret/data/games/x.jsonl"), 507, "data folder is full"),
    ],
)
def test_a_data_folder_that_cannot_be_written_is_a_clear_page_without_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: OSError, status: int, words: str
) -> None:
    c = _client(tmp_path)
    game = _new_game(c)

    def fails(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(papillon.session, "append_synced", fails)
    monkeypatch.setattr(papillon.session, "write_atomic", fails)
    r = c.post(f"{game}/act", data={"csrf": _csrf(c), "action": "start D2"})
    assert r.status_code == status and words in r.text
    assert "/secret" not in r.text and str(tmp_path) not in r.text
    assert r.headers["x-frame-options"] == "DENY"


def test_a_refused_form_keeps_its_values_and_links_back(tmp_path: Path) -> None:
    c = _client(tmp_path)
    r = c.post("/nights", data={"csrf": _csrf(c), "players": "Ann, Ann"})
    assert r.status_code == 400 and ">Ann, Ann</textarea>" in r.text
    r = c.post("/score/new", data={"csrf": _csrf(c), "notation": "not a garden"})
    assert r.status_code == 400 and ">not a garden</textarea>" in r.text
    r = c.post("/games", data={"csrf": _csrf(c), "seed": "x", "seat1": "human", "name1": "Zoë", "seat2": "search"})
    assert r.status_code == 400 and 'value="x"' in r.text and 'value="Zoë"' in r.text and '<option value="search" selected>' in r.text
    sheet = c.post("/score/new", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"]
    bad = c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set Z9 R"}, headers={"referer": f"{LOCAL}{sheet}?plot=C3"})
    assert bad.status_code == 400 and f'href="{sheet}?plot=C3">Back to the page</a>' in bad.text
    elsewhere = c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set Z9 R"}, headers={"referer": "http://evil.example/x"})
    assert elsewhere.status_code == 400 and "Back to the page" not in elsewhere.text
    for path in ("//evil.example/x", "/\\evil.example/x"):  # on this host, but a link to another site
        slashes = c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set Z9 R"}, headers={"referer": f"{LOCAL}{path}"})
        assert slashes.status_code == 400 and "Back to the page" not in slashes.text and "evil.example" not in slashes.text


def test_a_pasted_garden_names_its_player(tmp_path: Path) -> None:
    c = _client(tmp_path)
    text = (EXAMPLES / "bird-feeder.garden").read_text()  # player: Gus
    sheet = c.post("/score/new", data={"csrf": _csrf(c), "notation": text}, follow_redirects=False).headers["location"]
    row = Store(tmp_path / FILE_NAME).sheet(sheet.rsplit("/", 1)[1])
    assert row is not None and row.player == "Gus"
    assert c.post(f"{sheet}/record", data={"csrf": _csrf(c)}, follow_redirects=False).status_code == 303  # no name to type


def test_re_adding_a_players_sheet_asks_with_the_old_score(tmp_path: Path) -> None:
    c = _client(tmp_path)
    night = c.post("/nights", data={"csrf": _csrf(c), "players": "Ann"}, follow_redirects=False).headers["location"]
    night_id = night.rsplit("/", 1)[1]
    garden = (EXAMPLES / "bird-feeder.garden").read_text()  # 29
    first = c.post("/score/new", data={"csrf": _csrf(c), "night": night_id, "player": "Ann", "notation": garden}, follow_redirects=False)
    c.post(f"{first.headers['location']}/record", data={"csrf": _csrf(c)})
    second = c.post("/score/new", data={"csrf": _csrf(c), "night": night_id, "player": "Ann"}, follow_redirects=False).headers["location"]
    asked = c.post(f"{second}/record", data={"csrf": _csrf(c)}, follow_redirects=False)
    assert asked.status_code == 200 and "already has a sheet tonight with <strong>29 points</strong>" in asked.text
    assert "This sheet scores <strong>0 points</strong>" in asked.text
    assert re.findall(r"<td>Ann</td><td>(\d+)</td>", c.get(night).text) == ["29"]  # not replaced yet
    done = c.post(f"{second}/record", data={"csrf": _csrf(c), "replace": "yes"}, follow_redirects=False)
    assert done.status_code == 303 and re.findall(r"<td>Ann</td><td>(\d+)</td>", c.get(night).text) == ["0"]


def test_favicon(tmp_path: Path) -> None:
    r = _client(tmp_path).get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content


# --------------------------------------------------------------------------- nobody let in


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost", "localhost:1", "[::1]", "[::1]:8000"])
def test_loopback_answers_its_own_names(tmp_path: Path, host: str) -> None:
    c = TestClient(create_app(folder=tmp_path), base_url=f"http://{host}")
    assert c.get("/").status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.", "192.168.1.5", "[::2]"])
def test_loopback_refuses_another_host_name(tmp_path: Path, host: str) -> None:
    c = TestClient(create_app(folder=tmp_path), base_url=f"http://{host}")
    r = c.get("/")
    assert r.status_code == 421 and "answers only as 127.0.0.1, localhost or [::1]" in r.text
    assert c.get("/history").status_code == 421
    assert r.headers["x-frame-options"] == "DENY"


def test_no_redirect_echoes_the_host(tmp_path: Path) -> None:
    c = _client(tmp_path, token="tok", loopback=False)
    r = c.get("/score/?token=tok", headers={"host": "evil.example"}, follow_redirects=False)
    assert r.status_code == 404 and "evil.example" not in r.headers.get("location", "")


def test_an_origin_that_cannot_be_parsed_is_refused_not_a_500(tmp_path: Path) -> None:
    c = _client(tmp_path)
    r = c.post("/games", data={"csrf": _csrf(c)}, headers={"origin": "http://[::1"})
    assert r.status_code == 403 and "This form came from another site." in r.text


def test_the_size_refusal_comes_after_the_key_and_has_the_headers(tmp_path: Path) -> None:
    c = TestClient(create_app(folder=tmp_path, token="tok", loopback=False))
    big = b"x" * 100_000
    stranger = c.post("/score/new", content=big, headers={"content-type": "application/x-www-form-urlencoded"})
    assert stranger.status_code == 403
    c.get("/?token=tok")
    host = c.post("/score/new", content=big, headers={"content-type": "application/x-www-form-urlencoded"})
    assert host.status_code == 413 and host.headers["x-frame-options"] == "DENY" and "content-security-policy" in host.headers


def _network(folder: Path) -> tuple[TestClient, str]:
    """A host's browser on a network server (token ``tok``) and the base url."""
    base = "http://192.168.1.5:8000"
    c = TestClient(create_app(folder=folder, token="tok", base_url=base, loopback=False), base_url=base)
    c.get("/?token=tok")
    return c, base


def test_a_watch_key_opens_that_watch_page_and_nothing_else(tmp_path: Path) -> None:
    host, base = _network(tmp_path)
    table = host.post("/tables", data={"csrf": _csrf(host), "seed": "7"}, follow_redirects=False).headers["location"]
    other = host.post("/tables", data={"csrf": _csrf(host), "seed": "8"}, follow_redirects=False).headers["location"]
    watch = re.search(r'id="watch-link" href="http://192\.168\.1\.5:8000(/watch/[0-9a-f]{16})"', host.get(table).text)
    assert watch and "tok" not in watch.group(0)
    phone = TestClient(host.app, base_url=base)
    assert phone.get(watch.group(1)).status_code == 200 and phone.get(f"{watch.group(1)}/version").json() == {"version": 0}
    for refused in ("/", table, other, "/history", "/score", f"{table}/step"):
        assert phone.get(refused).status_code == 403, refused
    assert phone.post(f"{table}/step", data={"csrf": "x"}).status_code == 403
    assert phone.get("/watch/0123456789abcdef").status_code == 404  # a guessed key opens nothing
    assert "papillon_token" not in phone.cookies


def test_a_night_key_adds_and_fixes_only_its_own_players_sheet(tmp_path: Path) -> None:
    host, base = _network(tmp_path)
    night = host.post("/nights", data={"csrf": _csrf(host), "players": "Ann, Bob"}, follow_redirects=False).headers["location"]
    other = host.post("/nights", data={"csrf": _csrf(host), "players": "Cy"}, follow_redirects=False).headers["location"]
    page = host.get(night).text
    links = dict(re.findall(r"<figcaption>([^<]+)</figcaption>.*?<code class=\"url\">http://192\.168\.1\.5:8000([^<]+)</code>", page))
    assert set(links) == {"Ann", "Bob"} and "tok" not in "".join(links.values())
    ann = TestClient(host.app, base_url=base)
    mine = ann.get(links["Ann"])
    assert mine.status_code == 200 and "Tap in Ann's garden" in mine.text and "Tap in Bob's garden" not in mine.text
    assert "papillon_key" in ann.cookies
    # Ann's phone adds a sheet: it is Ann's of this night whatever the form says.
    sheet = ann.post(
        "/score/new", data={"csrf": _csrf(ann), "night": other.rsplit("/", 1)[1], "player": "Bob"}, follow_redirects=False
    ).headers["location"]
    assert ann.post(f"{sheet}/act", data={"csrf": _csrf(ann), "action": "set A1 R"}, follow_redirects=False).status_code == 303
    assert ann.post(f"{sheet}/record", data={"csrf": _csrf(ann)}, follow_redirects=False).headers["location"] == night
    assert re.findall(r"<td>(Ann|Bob)</td><td>([^<]+)</td>", host.get(night).text) == [("Ann", "1"), ("Bob", "no sheet yet")]
    # Bob's sheet, added by the host, is out of Ann's reach; so are the other night, the history and the games.
    bobs = host.post(
        "/score/new", data={"csrf": _csrf(host), "night": night.rsplit("/", 1)[1], "player": "Bob"}, follow_redirects=False
    ).headers["location"]
    assert ann.get(bobs).status_code == 403
    assert ann.post(f"{bobs}/act", data={"csrf": _csrf(ann), "action": "set A1 R"}).status_code == 403
    assert ann.post(f"{bobs}/record", data={"csrf": _csrf(ann)}).status_code == 403
    for refused in (other, "/", "/history", "/score", "/tables/0123456789ab"):
        answer = ann.get(refused)
        assert answer.status_code == 403, refused
        assert f'href="{night}">Back to the page</a>' in answer.text  # not only home, which is refused to this phone too
    assert ann.post("/nights", data={"csrf": _csrf(ann), "players": "Eve"}).status_code == 403
    assert ann.post("/games", data={"csrf": _csrf(ann), "seat1": "human"}).status_code == 403


def test_keys_survive_a_restart(tmp_path: Path) -> None:
    host, base = _network(tmp_path)
    night = host.post("/nights", data={"csrf": _csrf(host), "players": "Ann"}, follow_redirects=False).headers["location"]
    link = re.search(r'<code class="url">http://192\.168\.1\.5:8000([^<]+)</code>', host.get(night).text)
    assert link
    again = TestClient(create_app(folder=tmp_path, token="other", base_url=base, loopback=False), base_url=base)
    assert again.get(link.group(1)).status_code == 200


# --------------------------------------------------------------------------- nothing frozen


def test_the_bots_play_off_the_event_loop_and_the_page_shows_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    gate = threading.Event()
    real = papillon.session.step

    def slow_step(*args: object, **kwargs: object) -> object:
        gate.wait(10)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(web_games, "BOT_WAIT_SECONDS", 0.05)
    c = _client(tmp_path)
    game = _new_game(c)
    monkeypatch.setattr(papillon.session, "step", slow_step)
    r = c.post(f"{game}/act", data={"csrf": _csrf(c), "action": "start D2"}, follow_redirects=False)
    assert r.status_code == 303  # answered while the bot waits
    page = c.get(game)
    assert "The bots are playing" in page.text and '<meta http-equiv="refresh" content="1">' in page.text
    assert c.get("/static/style.css").status_code == 200 and c.get(f"{game}/progress").json()["busy"] is True
    # A click meanwhile is not lost in a race: it waits for the bots, then the page shows the turn.
    gate.set()
    for _ in range(100):
        if not c.get(f"{game}/progress").json()["busy"]:
            break
        threading.Event().wait(0.05)
    assert _choices(c.get(game).text)


# --------------------------------------------------------------------------- memory bounded


def test_a_photo_is_reduced_to_the_scanners_size_before_it_is_read() -> None:
    import io

    from PIL import Image

    from papillon.web import photos

    def encoded(size: tuple[int, int], kind: str) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", size, (200, 180, 160)).save(out, format=kind)
        return out.getvalue()

    small = encoded((1600, 1200), "JPEG")
    assert photos.reduced(small) is small  # small enough: not decoded at all
    for kind, size in (("JPEG", (8000, 6000)), ("PNG", (6100, 4000)), ("JPEG", (3001, 10))):
        with Image.open(io.BytesIO(photos.reduced(encoded(size, kind)))) as out:
            assert max(out.size) <= photos.WORK_SIDE_PX and max(out.size) >= photos.WORK_SIDE_PX * 0.9, (kind, size, out.size)
            assert abs(out.size[0] / out.size[1] - size[0] / size[1]) < 0.05 or min(out.size) <= 10
    assert photos.DECODING._value == 2  # type: ignore[attr-defined]  # two photos at once, a third waits


# --------------------------------------------------------------------------- the smaller items


def test_choosing_a_pair_that_adds_a_feature_says_what_each_tile_scores(tmp_path: Path) -> None:
    from papillon.engine.text import feature_text
    from papillon.session import PlaySession

    c = _client(tmp_path)
    game = _new_game(c)
    c.post(f"{game}/act", data={"csrf": _csrf(c), "action": "start D2"})
    page = c.get(game).text
    assert _choices(page) == ["pair 1", "pair 2", "pair 3"]  # seed 11: every card's corner adds a feature
    state = PlaySession.resume(game.rsplit("/", 1)[1], tmp_path).state
    words = [feature_text(state.edition.features[code], state.edition) for code in state.display]
    listed = re.findall(r'<ul class="tile-words">(.*?)</ul>', page, re.DOTALL)
    assert listed and re.findall(r"<li>(.*?)</li>", listed[0]) == [w.replace("'", "&#39;").replace("&", "&amp;") for w in words]


def test_one_point_is_one_point_and_round_0_is_the_start(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game = _new_game(c)
    page = c.get(game).text
    assert "Round 0" not in page and "round 0" not in page and "choosing the starting fields" in page
    sheet = c.post("/score/new", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"]
    c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set A3 R"})  # one flower alone: 1 point
    assert "<title>Sheet 1 point · papillon</title>" in c.get(sheet).text


def test_no_round_0_on_a_delete_page_nor_in_a_tables_title(tmp_path: Path) -> None:
    c = _client(tmp_path)
    game = _new_game(c)
    confirm = c.get(f"{game}/delete").text
    assert "round 0" not in confirm and "· not started ·" in confirm
    table = c.post("/tables", data={"csrf": _csrf(c), "seed": "7"}, follow_redirects=False).headers["location"]
    page = c.get(table).text
    watch = re.search(r'href="(/watch/[0-9a-f]+)"', page)
    assert watch and "<title>Table · ready to deal · papillon</title>" in page
    assert "<title>Watching · ready to deal · papillon</title>" in c.get(watch.group(1)).text
    c.post(f"{table}/step", data={"csrf": _csrf(c)})
    assert "<title>Table · round 1 · papillon</title>" in c.get(table).text


def test_a_doubt_whose_runner_up_is_nothing_says_so_once() -> None:
    from types import SimpleNamespace

    from papillon.garden import Garden
    from papillon.scoresheet import SheetEntry

    readings = [
        SimpleNamespace(item="edge B2-B3", value="brick", confidence=0.6, runner_up=("none", 0.4)),
        SimpleNamespace(item="C3", value="R", confidence=0.55, runner_up=("B", 0.45)),
    ]
    entry = SheetEntry.from_scan(SimpleNamespace(review=readings, asked=readings, fields_unknown=(), garden=Garden.empty()))  # type: ignore[arg-type]
    assert [d.words for d in entry.doubts] == ["read brick (60%), or perhaps nothing there", "read R (55%), else B (45%)"]


def test_the_data_folder_rule_is_one_for_games_history_and_the_server() -> None:
    from papillon import datafolder, history, session

    assert datafolder.HISTORY_FILE == history.FILE_NAME
    assert session.data_dir is datafolder.data_dir and session.check_name.__module__ == "papillon.names"
    assert session.check_seed.__module__ == "papillon.seeds"


def test_serve_with_a_data_folder_it_cannot_use_says_so_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from papillon.cli import main

    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(blocked / "papillon"))
    result = CliRunner().invoke(main, ["serve", "--port", "8765"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "the server's store (serve.sqlite3) cannot be opened: Not a directory" in result.output
    assert str(tmp_path) not in result.output


def test_every_page_answers_its_data_as_json(tmp_path: Path) -> None:
    c = _client(tmp_path)
    as_json = {"accept": "application/json"}
    game = _new_game(c)
    data = c.get(game, headers=as_json).json()
    assert data["page"] == "play" and data["id"] == game.rsplit("/", 1)[1] and data["round"] == 0
    assert data["actions"] == ["start B4", "start D2"] and data["scores"] == {"Ann": 0, "greedy bot": 0}
    assert [ch["action"] for ch in data["choices"]] == data["actions"] and "garden" not in data  # no SVG in the data
    assert c.get("/", headers=as_json).json()["games"][0]["players"] == ["Ann", "greedy bot"]
    table = c.post("/tables", data={"csrf": _csrf(c), "seed": "7"}, follow_redirects=False).headers["location"]
    c.post(f"{table}/step", data={"csrf": _csrf(c)})
    shown = c.get(table, headers=as_json).json()
    assert shown["round"] == 1 and shown["cards"][0] == {"centre": "stamp a red flower", "corner": "fill a space"}
    assert shown["dice"][0] == "2 caterpillars + bramble"
    watch = c.get(shown["watch_url"], headers=as_json).json()
    assert watch["page"] == "watch" and watch["round"] == 1 and watch["id"] is None
    night = c.post("/nights", data={"csrf": _csrf(c), "players": "Ann"}, follow_redirects=False).headers["location"]
    assert c.get(night, headers=as_json).json()["ranking"] == [{"place": 0, "player": "Ann", "total": None, "source": ""}]
    sheet = c.post("/score/new", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"]
    assert c.get(sheet, headers=as_json).json()["total"] == 0
    missing = c.get("/games/1-00000000", headers=as_json)
    assert missing.status_code == 404 and missing.json() == {"error": "There is no such game.", "status": 404}
    assert c.get(game).headers["content-type"].startswith("text/html")  # a browser still gets the page


def test_the_history_pages_data_has_the_players_statistics_and_entries(tmp_path: Path) -> None:
    c = _client(tmp_path)
    as_json = {"accept": "application/json"}
    sheet = c.post("/score/new", data={"csrf": _csrf(c)}, follow_redirects=False).headers["location"]
    c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": "set A3 R"})  # one flower alone: 1 point
    assert c.post(f"{sheet}/record", data={"csrf": _csrf(c), "player": "Ann"}, follow_redirects=False).status_code == 303
    everyone = c.get("/history", headers=as_json).json()["stats"]
    assert [(s["player"], s["games"], s["best_total"]) for s in everyone] == [("Ann", 1, 1)]
    ann = c.get("/history?player=Ann", headers=as_json).json()
    assert ann["chosen"]["games"] == 1 and [(e["player"], e["total"], e["source"]) for e in ann["entries"]] == [("Ann", 1, "typed")]


def test_a_game_is_recorded_in_the_history_when_it_ends_not_when_its_page_is_read(tmp_path: Path) -> None:
    from papillon.history import open_history

    c = _client(tmp_path)
    game = _new_game(c, seed="5")
    log_file = tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl"
    for _ in range(400):
        if '{"end":' in log_file.read_text(encoding="utf-8"):
            break  # over: the end page is not asked for
        choices = _choices(c.get(game).text)
        c.post(f"{game}/act", data={"csrf": _csrf(c), "action": choices[0]}, follow_redirects=False)
    assert [e.player for e in open_history(tmp_path).entries()] == ["Ann"]  # before the end page was shown
    assert "first game recorded" in c.get(game).text
    assert len(open_history(tmp_path).entries()) == 1
