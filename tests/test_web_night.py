"""Score night over ASGI: a sheet from a photo (corrected), tapped in, pasted; uploads refused; a game night; the history pages."""

from __future__ import annotations

import io
import re
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

from PIL import Image
from starlette.testclient import TestClient

from papillon.garden import Cell, Garden
from papillon.grid import EDGES, PLOTS, plot_name
from papillon.history import History
from papillon.notation import format_garden, parse
from papillon.web.app import CSRF_COOKIE, create_app

EXAMPLES = Path(__file__).parent.parent / "sheets" / "examples"


def _csrf(c: TestClient) -> str:
    value = c.cookies.get(CSRF_COOKIE)
    assert value
    return value


def _total(html: str) -> int:
    found = re.search(r'<span class="total" id="total">(\d+)</span>', html)
    assert found, html[:500]
    return int(found.group(1))


def _expected_total(path: Path) -> int:
    found = re.search(r"^# expected:.* total (\d+)$", path.read_text(), re.MULTILINE)
    assert found
    return int(found.group(1))


def tap_actions(garden: Garden) -> list[str]:
    """The taps that turn a blank sheet (standard starting fields) into ``garden``."""
    blank = Garden.empty()
    taps = [f"set {plot_name(p)} {garden.cells[p].code}" for p in PLOTS if garden.cells[p] != blank.cells[p]]
    taps += [f"edge {e.name}" for e in EDGES if e in garden.bricks]
    taps += [f"butterfly {plot_name(p)}" for p in sorted(garden.butterflies)]
    return taps


def _photo(c: TestClient, data: bytes, name: str = "sheet.jpg", **fields: str) -> tuple[int, str, str]:
    r = c.post("/score/photo", data={"csrf": _csrf(c)} | fields, files={"photo": (name, data, "image/jpeg")}, follow_redirects=False)
    return r.status_code, r.headers.get("location", ""), r.text


def test_the_score_page_asks_the_phone_camera_for_a_photo(client: TestClient) -> None:
    html = client.get("/score").text
    assert '<input type="file" name="photo" accept="image/*" capture="environment" required>' in html
    assert "/score" in client.get("/").text


@pytest.mark.parametrize("example", ["bird-feeder.garden", "nested-ring.garden", "full-game.garden"])
def test_tap_in_a_hand_checked_garden_gives_its_known_score(client: TestClient, example: str) -> None:
    path = EXAMPLES / example
    garden = parse(path.read_text())
    r = client.post("/score/new", data={"csrf": _csrf(client)}, follow_redirects=False)
    sheet = r.headers["location"]
    assert _total(client.get(sheet).text) == 0
    for action in tap_actions(garden):
        r = client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": action}, follow_redirects=False)
        assert r.status_code == 303, r.text
    html = client.get(sheet).text
    assert _total(html) == _expected_total(path)
    downloaded = client.get(f"{sheet}/garden")
    assert downloaded.headers["content-disposition"] == 'attachment; filename="sheet.garden"'
    assert parse(downloaded.text).cells == garden.cells and parse(downloaded.text).bricks == garden.bricks


def test_a_plot_tap_opens_its_chooser_and_a_bad_edit_is_one_line(client: TestClient) -> None:
    sheet = client.post("/score/new", data={"csrf": _csrf(client)}, follow_redirects=False).headers["location"]
    r = client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": "plot C3"}, follow_redirects=False)
    assert r.headers["location"] == f"{sheet}?plot=C3#chooser"
    html = client.get(f"{sheet}?plot=C3").text
    assert "Plot C3: now empty" in html and 'value="set C3 lb"' in html and "field with a Ladybug" in html
    bad = client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": "set C3 Q"})
    assert bad.status_code == 400
    assert "C3: Q is not a plot content here (one of . R B Y P F X or a critter or feature code)" in bad.text
    assert "Traceback" not in bad.text
    r = client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": "plot c3"}, follow_redirects=False)
    assert r.headers["location"] == f"{sheet}?plot=C3#chooser"  # plot names read as everywhere else (papillon.grid)
    r = client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": "plot F9"})
    assert r.status_code == 400 and _alert(r.text) == "not a plot name: 'F9' (expected A1 to E5)"


def test_paste_notation_then_save_in_the_history(client: TestClient, tmp_path: Path) -> None:
    path = EXAMPLES / "bird-feeder.garden"
    r = client.post("/score/new", data={"csrf": _csrf(client), "notation": path.read_text()}, follow_redirects=False)
    sheet = r.headers["location"]
    assert _total(client.get(sheet).text) == 29  # the file's "# expected: ... total 29"
    r = client.post(f"{sheet}/record", data={"csrf": _csrf(client), "player": "Gus"}, follow_redirects=False)
    assert r.headers["location"] == f"{sheet}?saved=yes"
    (entry,) = History(tmp_path / "history.sqlite3").entries()
    assert (entry.player, entry.total, entry.source) == ("Gus", 29, "typed")
    page = client.get("/history?player=Gus").text
    assert "Gus: 1 game, 0 wins, best 29, average 29.0" in page
    for kind in ("time", "profile"):
        picture = client.get(f"/history/plot.png?player=Gus&kind={kind}")
        assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    assert client.get("/history/plot.png?player=Nobody&kind=time").status_code == 404


def test_a_photo_read_then_corrected_scores_the_true_garden(client: TestClient, tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    from photos.synth import synthetic_photo

    from papillon.score import score

    photo = synthetic_photo(1, megapixels=(1.5, 1.5), blur_px=0.0, dark=1.0)
    status, sheet, _ = _photo(client, photo.jpeg)
    assert status == 303 and sheet.startswith("/sheets/")
    html = client.get(sheet).text
    assert "Read from the photo" in html and "the rectified sheet with every reading drawn on it" in html
    flagged = re.findall(r"<li><b>([^<]+)</b>:", html)
    assert flagged, "the fields at least cannot be read from a photo"
    assert 'class="doubt hit' in html
    # Saving is refused while anything is doubtful, in the words a night uses (SheetEntry.check_counts).
    refused = client.post(f"{sheet}/record", data={"csrf": _csrf(client), "player": "Ann"})
    count = len(flagged)
    assert refused.status_code == 400
    assert _alert(refused.text) == f"{count} item{'s' if count > 1 else ''} still to check before the sheet counts"
    for item in flagged:  # each "Correct" or "Change it" button sends the tap that corrects its item
        kind, _, name = item.rpartition(" ")
        tap = f"plot {name}" if kind in ("", "field") else item
        assert f'<button name="action" value="{tap}" class="button">' in html
    truth = photo.garden
    for item in flagged:
        kind, _, name = item.rpartition(" ")
        plot = PLOTS[[plot_name(p) for p in PLOTS].index(name)]
        if kind in ("", "field"):
            action = f"set {name} {truth.cells[plot].code}"
        elif kind == "butterfly":
            right = (plot in truth.butterflies) == _read_butterfly(client, sheet, name)
            action = f"confirm {item}" if right else f"butterfly {name}"
        else:
            action = f"confirm {item}"
        client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": action})
    html = client.get(sheet).text
    assert "against the paper" not in html
    assert _total(html) == score(truth).total
    assert not (tmp_path / "photos").exists()  # not kept unless asked


def _read_butterfly(c: TestClient, sheet: str, name: str) -> bool:
    label = re.search(rf'id="bubble-{name}"[^>]*aria-label="bubble {name}, (butterfly|empty)', c.get(sheet).text)
    assert label
    return label.group(1) == "butterfly"


def test_a_photo_is_kept_only_when_asked(client: TestClient, tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    from photos.synth import synthetic_photo

    photo = synthetic_photo(3, megapixels=(1.5, 1.5), blur_px=0.0, dark=1.0)
    status, sheet, _ = _photo(client, photo.jpeg, keep="yes")
    assert status == 303
    assert (tmp_path / "photos" / f"{sheet.rsplit('/', 1)[1]}.img").read_bytes() == photo.jpeg


def test_uploads_refused_by_content_not_name(client: TestClient) -> None:
    status, _, html = _photo(client, b"papillon garden v1\n" * 20, name="sheet.jpg")
    assert status == 400
    assert "this file is not a photo (JPEG, PNG, WebP, HEIC, ...): its content says so, whatever its name" in html
    assert "Hint: photograph the whole sheet from above" in html and "Traceback" not in html


def _png(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("1", size).save(out, format="PNG")
    return out.getvalue()


def test_too_many_pixels_and_decompression_bombs_are_refused_before_decoding(client: TestClient) -> None:
    status, _, html = _photo(client, _png((10_000, 6_000)), name="big.png")  # 60 Mpx, a few kB
    assert status == 400 and "the photo has too many pixels (10000x6000; at most 50 megapixels)" in html
    status, _, html = _photo(client, _png((15_000, 13_000)), name="bomb.png")  # 195 Mpx: Pillow's bomb guard
    assert status == 400 and "the photo has too many pixels (more than 50 megapixels)" in html


def test_a_photo_that_is_not_a_sheet_says_why_with_a_hint(client: TestClient) -> None:
    pytest.importorskip("cv2")
    out = io.BytesIO()
    Image.new("RGB", (800, 600), (200, 180, 160)).save(out, format="JPEG")
    status, _, html = _photo(client, out.getvalue())
    assert status == 400
    reason = re.search(r'<p role="alert" class="reason">([^<]+)</p>', html)
    assert reason and reason.group(1).startswith("the photo: ") and "\n" not in reason.group(1)
    assert "Hint:" in html


def test_an_oversized_upload_is_refused(client: TestClient) -> None:
    r = client.post(
        "/score/photo", content=b"x" * 10, headers={"content-length": str(16 * 1024 * 1024), "content-type": "multipart/form-data"}
    )
    assert r.status_code == 413
    small = client.post("/score/new", content=b"x" * 70_000, headers={"content-type": "application/x-www-form-urlencoded"})
    assert small.status_code == 413  # other forms keep the 64 KiB cap


def test_a_game_night_from_two_phones(tmp_path: Path) -> None:
    app = create_app(folder=tmp_path)
    ann, bob = TestClient(app, base_url="http://localhost"), TestClient(app, base_url="http://localhost")
    ann.get("/")
    bob.get("/")
    night = ann.post("/nights", data={"csrf": _csrf(ann), "players": "Ann, Bob\nCy"}, follow_redirects=False).headers["location"]
    version = ann.get(f"{night}/version").json()["version"]
    garden = (EXAMPLES / "bird-feeder.garden").read_text()  # 29
    night_id = night.rsplit("/", 1)[1]
    for who, c, text in (("Ann", ann, garden), ("Bob", bob, "")):
        sheet = c.post(
            "/score/new", data={"csrf": _csrf(c), "night": night_id, "player": who, "notation": text}, follow_redirects=False
        ).headers["location"]
        if who == "Bob":
            for action in ("set A1 R", "set B1 R", "set C1 R"):  # 3 flowers in a patch of 3 by the edge: flowers 3 + patch
                c.post(f"{sheet}/act", data={"csrf": _csrf(c), "action": action})
        r = c.post(f"{sheet}/record", data={"csrf": _csrf(c)}, follow_redirects=False)
        assert r.headers["location"] == night
    assert bob.get(f"{night}/version").json()["version"] == version + 2
    page = bob.get(night).text
    rows = re.findall(r"<tr[^>]*><td>([^<]+)</td><td>([^<]+)</td><td>([^<]+)</td>", page)
    assert rows[0] == ("1", "Ann", "29")
    assert rows[1][:2] == ("2", "Bob") and rows[2] == ("–", "Cy", "no sheet yet")
    png = ann.get(f"{night}/results.png")
    assert png.content.startswith(b"\x89PNG") and Image.open(io.BytesIO(png.content)).size[0] == 720
    # Ann adds her sheet again: it replaces her entry of this night in the history
    sheet = ann.post(
        "/score/new", data={"csrf": _csrf(ann), "night": night_id, "player": "Ann", "notation": garden}, follow_redirects=False
    ).headers["location"]
    ann.post(f"{sheet}/record", data={"csrf": _csrf(ann)})
    entries = History(tmp_path / "history.sqlite3").entries()
    assert sorted((e.player, e.game) for e in entries) == [("Ann", f"night-{night_id}"), ("Bob", f"night-{night_id}")]
    assert "Ann: 1 game, 1 win, best 29, average 29.0" in ann.get("/history?player=Ann").text


def test_a_night_needs_different_names(client: TestClient) -> None:
    r = client.post("/nights", data={"csrf": _csrf(client), "players": "Ann, ann"})
    assert r.status_code == 400 and "each player needs a different name" in r.text


def _alert(html: str) -> str:
    found = re.search(r'<p role="alert"[^>]*>(.*?)</p>', html)
    assert found, html
    return unescape(found[1])


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann #1, Bob", "a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"),
        ("Ann, Bo\u200bb", "a name cannot hold the invisible or control character U+200B: 'Bo\\u200bb'"),
        ("Ann, " + "Z" * 61, f"a name has at most 60 characters, got 61: '{'Z' * 40}…'"),
    ],
)
def test_a_night_refuses_a_name_as_every_front_end_does(client: TestClient, players: str, message: str) -> None:
    r = client.post("/nights", data={"csrf": _csrf(client), "players": players}, follow_redirects=False)
    assert r.status_code == 400
    assert _alert(r.text) == message  # the words of papillon.session.check_name, the one name rule


def test_a_night_takes_any_name_a_game_takes(client: TestClient) -> None:
    long_name = "Bartholomew " * 4 + "the Third"  # 57 characters: once refused here (30 at most), a game's name all the same
    r = client.post("/nights", data={"csrf": _csrf(client), "players": f"Ann\n{long_name}"}, follow_redirects=False)
    assert r.status_code == 303
    night = r.headers["location"]
    assert f"<h2>{long_name}</h2>" in client.get(night).text
    night_id = night.rsplit("/", 1)[1]
    tapped = client.post("/score/new", data={"csrf": _csrf(client), "night": night_id, "player": long_name}, follow_redirects=False)
    sheet = tapped.headers["location"]
    client.post(f"{sheet}/act", data={"csrf": _csrf(client), "action": "set A1 R"})
    assert client.post(f"{sheet}/record", data={"csrf": _csrf(client)}, follow_redirects=False).headers["location"] == night
    assert f"<h2>{long_name}: 1 point</h2>" in client.get(night).text


def test_a_sheet_saved_alone_needs_a_name_by_the_same_rule(client: TestClient) -> None:
    sheet = client.post("/score/new", data={"csrf": _csrf(client)}, follow_redirects=False).headers["location"]
    assert '<input name="player" maxlength="60" required>' in client.get(sheet).text
    r = client.post(f"{sheet}/record", data={"csrf": _csrf(client), "player": "  "})
    assert r.status_code == 400 and _alert(r.text) == "a name cannot be empty or only spaces"
    r = client.post(f"{sheet}/record", data={"csrf": _csrf(client), "player": "Ann #1"})
    assert r.status_code == 400 and _alert(r.text) == "a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"
    saved = client.post(f"{sheet}/record", data={"csrf": _csrf(client), "player": " Zoé "}, follow_redirects=False)
    assert saved.status_code == 303 and saved.headers["location"] == f"{sheet}?saved=yes"


def test_the_photo_form_needs_its_csrf_token_and_the_same_origin(client: TestClient) -> None:
    png = _png((10, 10))
    r = client.post("/score/photo", data={"csrf": "0" * 32}, files={"photo": ("a.png", png, "image/png")})
    assert r.status_code == 403 and "This form has expired" in r.text
    r = client.post(
        "/score/photo",
        data={"csrf": _csrf(client)},
        files={"photo": ("a.png", png, "image/png")},
        headers={"origin": "http://evil.example"},
    )
    assert r.status_code == 403 and "This form came from another site." in r.text


def test_six_phones_adding_sheets_at_once_lose_and_mix_nothing(tmp_path: Path) -> None:
    import threading

    app = create_app(folder=tmp_path)
    host = TestClient(app, base_url="http://localhost")
    host.get("/")
    names = [f"P{i}" for i in range(6)]
    night = host.post("/nights", data={"csrf": _csrf(host), "players": ",".join(names)}, follow_redirects=False).headers["location"]
    night_id = night.rsplit("/", 1)[1]
    errors: list[str] = []

    def phone(index: int) -> None:
        c = TestClient(app, base_url="http://localhost")
        c.get("/")
        # P<i> has i % 5 + 1 red flowers in row 1
        garden = Garden.empty()
        for col in range(index % 5 + 1):
            garden = garden.with_cell(col, Cell.parse("R"))
        text = format_garden(garden)
        sheet = c.post(
            "/score/new", data={"csrf": _csrf(c), "night": night_id, "player": names[index], "notation": text}, follow_redirects=False
        ).headers["location"]
        r = c.post(f"{sheet}/record", data={"csrf": _csrf(c)}, follow_redirects=False)
        if r.status_code != 303:
            errors.append(r.text)

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    entries = History(tmp_path / "history.sqlite3").entries()
    assert sorted(e.player for e in entries) == names
    mine = {e.player: parse(e.notation).cells[:5] for e in entries}
    for i, name in enumerate(names):  # each entry holds its own player's garden
        assert sum(cell.is_flower for cell in mine[name]) == i % 5 + 1
    assert host.get(f"{night}/version").json()["version"] == 6
