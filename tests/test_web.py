"""papillon serve's app over ASGI (Starlette's TestClient): pages, security, play, undo, resume, hot-seat, table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

from cli_helpers import serve_without_listening
from click.testing import CliRunner
from starlette.testclient import TestClient

from papillon.cli import main
from papillon.engine.log import parse_log, replay
from papillon.web.app import CSRF_COOKIE, MAX_BODY_BYTES, create_app


def _csrf(c: TestClient) -> str:
    value = c.cookies.get(CSRF_COOKIE)
    assert value
    return value


def _new(c: TestClient, **fields: str) -> str:
    data = {"csrf": _csrf(c), "seed": "11", "seat1": "human", "name1": "Ann", "seat2": "greedy"} | fields
    r = c.post("/games", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.headers["location"])


def _choices(html: str) -> list[str]:
    return re.findall(r'name="action" value="([^"]+)" class="choice', html)


def test_home_sets_csrf_cookie_and_security_headers(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "New game" in r.text and "Table mode" in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"
    assert len(_csrf(client)) == 32


def test_a_post_without_the_csrf_token_is_refused_with_the_friendly_page(client: TestClient) -> None:
    r = client.post("/games", data={"seat1": "human"})
    assert r.status_code == 403
    assert "This form has expired: reload the page and try again." in r.text and "Traceback" not in r.text


def test_a_post_from_another_origin_is_refused(client: TestClient) -> None:
    r = client.post("/games", data={"csrf": _csrf(client), "seat1": "human"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "This form came from another site." in r.text


def test_state_changes_only_by_post(client: TestClient) -> None:
    game = _new(client)
    r = client.get(f"{game}/act?action=pair+1")
    assert r.status_code == 405 and "This address cannot be used that way." in r.text


def test_unknown_pages_and_game_ids_that_look_like_paths(client: TestClient) -> None:
    for url in ("/nowhere", "/games/..%2F..%2Fetc%2Fpasswd", "/games/123-zzzzzzzz", "/static/..%2Fapp.py", "/fonts/OFL.txt"):
        r = client.get(url)
        assert r.status_code == 404, url
        assert "<h1>Not found</h1>" in r.text and "Traceback" not in r.text


def test_a_large_request_is_refused(client: TestClient) -> None:
    r = client.post("/games", content=b"x" * (MAX_BODY_BYTES + 1), headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413 and "The request is too large." in r.text


def test_bad_new_game_inputs_are_one_clear_message(client: TestClient) -> None:
    r = client.post("/games", data={"csrf": _csrf(client), "seed": "12x", "seat1": "human"})
    assert r.status_code == 400 and "the seed is a whole number from 0 to 999999999999, not &#39;12x&#39;" in r.text
    assert 'value="12x"' in r.text and '<option value="human" selected>' in r.text  # the form comes back as it was
    r = client.post("/games", data={"csrf": _csrf(client), "seed": "1000000000000", "seat1": "human"})
    assert r.status_code == 400 and "the seed is a whole number from 0 to 999999999999, not &#39;1000000000000&#39;" in r.text
    r = client.post("/games", data={"csrf": _csrf(client), "seat1": "none"})
    assert r.status_code == 400 and "a game has 1 to 6 players, got 0" in r.text
    r = client.post("/games", data={"csrf": _csrf(client), "seat1": "human", "name1": "Al", "seat2": "human", "name2": "Al"})
    assert r.status_code == 400 and "each player needs a different name" in r.text
    files = {"edition": ("mine.toml", b"[rules]\nrounds = 'ten'\n", "application/toml")}
    r = client.post("/games", data={"csrf": _csrf(client), "seat1": "human"}, files=files)
    assert r.status_code == 400 and "Traceback" not in r.text


def test_with_a_token_every_request_needs_it(tmp_path: Path) -> None:
    c = TestClient(create_app(folder=tmp_path, token="s3cret", base_url="http://192.168.1.5:8000", loopback=False))
    r = c.get("/")
    assert r.status_code == 403 and "needs its token" in r.text
    assert r.headers["x-frame-options"] == "DENY" and "papillon_token" not in r.headers.get("set-cookie", "")
    assert c.get("/?token=wrong").status_code == 403
    assert c.get("/?token=s3cret").status_code == 200
    assert c.get("/").status_code == 200  # the cookie carries it from now on
    stranger = TestClient(create_app(folder=tmp_path, token="s3cret", loopback=False))
    assert stranger.get("/history").status_code == 403 and stranger.get("/games/1-00000000").status_code == 403
    assert stranger.get("/static/app.js").status_code == 200  # the page's own files need no key


def test_illegal_action_is_the_engines_message(client: TestClient) -> None:
    game = _new(client)
    r = client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "plot Z9"})
    assert r.status_code == 400
    assert "&#x27;plot Z9&#x27; is not allowed: Ann: choose the starting field whose butterfly space you fill" in r.text


def test_undo_goes_back_to_the_start_of_the_turn(client: TestClient) -> None:
    game = _new(client)
    client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "start B4"})
    before = client.get(game).text
    pairs = _choices(before)
    assert pairs == ["pair 1", "pair 2", "pair 3"]
    client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "pair 2"})
    assert _choices(client.get(game).text) != pairs
    assert client.post(f"{game}/undo", data={"csrf": _csrf(client)}, follow_redirects=False).status_code == 303
    assert _choices(client.get(game).text) == pairs


def _play_to_the_end(c: TestClient, game: str) -> str:
    for _ in range(400):
        html = c.get(game).text
        if "The game is over" in html:
            return html
        if "Pass the screen to" in html:
            c.post(f"{game}/ready", data={"csrf": _csrf(c)})
            continue
        action = _choices(html)[-1]  # the last choice: "skip" where a gain may be declined, else a target
        r = c.post(f"{game}/act", data={"csrf": _csrf(c), "action": action}, follow_redirects=False)
        assert r.status_code == 303, r.text
    raise AssertionError("the game did not end")


def test_a_whole_game_ends_with_the_score_of_the_saved_garden(client: TestClient, tmp_path: Path) -> None:
    game = _new(client)
    html = _play_to_the_end(client, game)
    game_id = game.rsplit("/", 1)[1]
    log = parse_log((tmp_path / "games" / f"{game_id}.jsonl").read_text())
    final = replay(log)
    assert log.end is not None
    garden = tmp_path / "ann.garden"
    garden.write_text(final.garden(0).to_notation())
    result = CliRunner().invoke(main, ["score", str(garden)])
    total = int(re.search(r"Total\s+(\d+)", result.output).group(1))  # type: ignore[union-attr]
    assert re.search(rf"Ann: <span class=\"total\">{total}</span> points", html)
    assert f"Ann: first game recorded: {total}." in html
    # Seen again, the end page does not record the game twice: the best is this game's total.
    assert f"Ann: {total}; personal best {total}." not in client.get(game).text
    assert "first game recorded" in client.get(game).text


def test_unnamed_seats_are_named_as_the_terminal_names_them(client: TestClient) -> None:
    seats = {"seat1": "greedy", "seat2": "human", "seat3": "random", "seat4": "greedy", "seat5": "human", "name5": "Zoé"}
    r = client.post("/games", data={"csrf": _csrf(client), "seed": "3"} | seats, follow_redirects=False)
    assert r.status_code == 303
    # The terminal's rule (session.name_seats): the N-th person, a bot by its kind, numbered among the bots when several.
    assert "greedy bot 1, Player 1, random bot, greedy bot 3, Zoé" in client.get("/").text


def test_resume_after_a_restart(client: TestClient, tmp_path: Path) -> None:
    game = _new(client)
    client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "start D2"})
    client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "pair 1"})
    before = _choices(client.get(game).text)
    # Round 1 is not finished, but every accepted decision is on disk: Ann resumes after her "pair 1".
    again = TestClient(create_app(folder=tmp_path), base_url="http://localhost")
    home = again.get("/").text
    assert game in home and "Ann, greedy bot" in home
    resumed = again.get(game).text
    assert "round 1/10" in resumed and _choices(resumed) == before and before[0].startswith("part ")


def test_a_save_over_the_size_limit_is_left_off_the_list_and_says_why(client: TestClient, tmp_path: Path) -> None:
    from papillon.files import MAX_LOG_BYTES

    game = _new(client)
    game_id = game.rsplit("/", 1)[1]
    with open(tmp_path / "games" / f"{game_id}.jsonl", "r+b") as save:
        save.truncate(MAX_LOG_BYTES + 1)  # sparse: its good header stays, zeros follow
    again = TestClient(create_app(folder=tmp_path), base_url="http://localhost", raise_server_exceptions=False)
    assert game_id not in again.get("/").text
    r = again.get(game)
    assert r.status_code == 404 and "Traceback" not in r.text
    assert f"the saved game {game_id} cannot be read: {game_id}.jsonl: over 50 MB: is this the right file?" in r.text
    assert str(tmp_path) not in r.text  # the data folder is the server's business
    missing = again.get("/games/5-0123abcd")
    assert missing.status_code == 404 and "There is no such game." in missing.text


def test_hot_seat_shows_the_hand_over_screen_and_plays_to_the_end(client: TestClient, tmp_path: Path) -> None:
    game = _new(client, seat2="human", name2="Bea")
    assert "Pass the screen to Ann" in client.get(game).text
    client.post(f"{game}/ready", data={"csrf": _csrf(client)})
    client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "start B4"})
    assert "Pass the screen to Bea" in client.get(game).text
    client.post(f"{game}/ready", data={"csrf": _csrf(client)})
    assert "Bea: choose the starting field" in client.get(game).text
    html = _play_to_the_end(client, game)
    log = parse_log((tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.jsonl").read_text())
    final = replay(log)
    for player, name in enumerate(("Ann", "Bea")):
        assert re.search(rf"{name}: <span class=\"total\">{final.score(player)}</span> points", html)
    assert html.count("first game recorded") == 2


def test_a_table_takes_a_seed_by_the_games_rule(client: TestClient) -> None:
    r = client.post("/tables", data={"csrf": _csrf(client), "seed": "-7"})
    assert r.status_code == 400 and "the seed is a whole number from 0 to 999999999999, not &#x27;-7&#x27;" in r.text
    r = client.post("/tables", data={"csrf": _csrf(client), "seed": " 999999999999 "}, follow_redirects=False)
    assert r.status_code == 303


def test_table_mode_and_its_read_only_watch_link(client: TestClient) -> None:
    r = client.post("/tables", data={"csrf": _csrf(client), "seed": "7"}, follow_redirects=False)
    table = r.headers["location"]
    page = client.get(table).text
    assert "Ready to deal" in page and "papillon serve --host 0.0.0.0" in page  # loopback: phones cannot reach it
    watch = re.search(r'href="(/watch/[0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.get(f"{watch}/version").json() == {"version": 0}
    client.post(f"{table}/step", data={"csrf": _csrf(client), "do": "next"})
    assert client.get(f"{watch}/version").json() == {"version": 1}
    watched = client.get(watch).text
    assert "Round 1 of 10" in watched and 'method="post"' not in watched
    assert client.post(watch, data={"csrf": _csrf(client)}).status_code == 405
    client.post(f"{table}/step", data={"csrf": _csrf(client), "do": "next"})
    assert "Bonus round" in client.get(watch).text  # round 2 is a bonus round in the standard edition
    client.post(f"{table}/step", data={"csrf": _csrf(client), "do": "undo"})
    assert "Round 1 of 10" in client.get(watch).text


def test_a_network_table_shows_a_qr_of_the_watch_link_with_the_token(tmp_path: Path) -> None:
    c = TestClient(create_app(folder=tmp_path, token="tok", base_url="http://192.168.1.5:8000", loopback=False))
    c.get("/?token=tok")
    table = c.post("/tables", data={"csrf": c.cookies.get(CSRF_COOKIE), "seed": "7"}, follow_redirects=False).headers["location"]
    page = c.get(table).text
    assert 'aria-label="QR code of the watch link"' in page
    # The watch link carries its own watch key (the address), never the host key.
    watch = re.search(r'id="watch-link" href="http://192\.168\.1\.5:8000(/watch/[0-9a-f]{16})"', page)
    assert watch and "tok" not in watch.group(0)


def test_serve_command_on_loopback_has_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = serve_without_listening(monkeypatch)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 0, result.output
    assert result.output == "papillon serve: open http://127.0.0.1:8000/\n"
    assert calls[0]["host"] == "127.0.0.1" and calls[0]["port"] == 8000


def test_serve_command_on_the_network_prints_a_token_link_and_refuses_without_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PAPILLON_DATA_DIR", str(tmp_path))
    calls = serve_without_listening(monkeypatch)
    result = CliRunner().invoke(main, ["serve", "--host", "192.168.1.5", "--port", "8123"])
    assert result.exit_code == 0, result.output
    link = re.match(r"papillon serve: open (http://192\.168\.1\.5:8123/\?token=([A-Za-z0-9_-]{20,}))\n", result.output)
    assert link, result.output
    app = calls[0]["app"]
    web = TestClient(app, base_url="http://localhost")  # type: ignore[arg-type]
    assert web.get("/").status_code == 403
    assert web.get(f"/?token={link.group(2)}").status_code == 200


def test_serve_command_checks_its_port() -> None:
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 2 and "0 is not in the range 1<=x<=65535" in result.output


def test_an_unexpected_error_is_the_friendly_page_not_a_traceback(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from papillon.web import views

    game = _new(client)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("internal detail that must not be shown")

    monkeypatch.setattr(views, "play_view", broken)
    r = client.get(game)
    assert r.status_code == 500
    assert "Something went wrong on the server. Every decision taken was saved." in r.text
    assert "internal detail" not in r.text and "Traceback" not in r.text


HOUSE = b"""[edition]
name = "house"

[rules]
rounds = 8
bonus_rounds = [2, 4, 6, 8]
"""


def test_a_game_with_an_edition_file_keeps_it_when_resumed(client: TestClient, tmp_path: Path) -> None:
    files = {"edition": ("house.toml", HOUSE, "application/toml")}
    data = {"csrf": _csrf(client), "seed": "3", "seat1": "human", "name1": "Ann"}
    game = client.post("/games", data=data, files=files, follow_redirects=False).headers["location"]
    client.post(f"{game}/act", data={"csrf": _csrf(client), "action": "start B4"})
    assert "round 1/8" in client.get(game).text
    # A new server finds the edition saved beside the game, never a path from the client.
    again = TestClient(create_app(folder=tmp_path), base_url="http://localhost")
    assert "round 1/8" in again.get(game).text
    assert (tmp_path / "games" / f"{game.rsplit('/', 1)[1]}.toml").read_bytes() == HOUSE


def test_a_large_body_without_a_length_is_cut_off_while_it_streams(client: TestClient) -> None:
    def chunks() -> object:
        for _ in range(10):
            yield b"seed=" + b"1" * (MAX_BODY_BYTES // 8)

    r = client.post("/games", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"})  # type: ignore[arg-type]
    assert r.status_code == 413 and "The request is too large." in r.text
