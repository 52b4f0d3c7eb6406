"""papillon.scoresheet, the library behind the score-night pages: edits in words, doubts, photo checks, a night's ranking."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from papillon.grid import parse_edge, parse_plot
from papillon.scoresheet import Doubt, EntryError, Night, SheetEntry, check_photo, plot_choices, results_png


def test_edits_toggle_and_set() -> None:
    entry = SheetEntry.blank()
    assert entry.garden.cells[parse_plot("B4")].is_field  # the standard starting fields
    entry = entry.apply("edge B2-B3").apply("edge B3-B2")  # either order names one edge: toggled twice
    assert entry.garden.bricks == frozenset()
    entry = entry.apply("edge C3-C2").apply("butterfly C3").apply("set C3 lb")
    assert entry.garden.bricks == {parse_edge("C2-C3")} and entry.garden.butterflies == {parse_plot("C3")}
    assert entry.garden.cells[parse_plot("C3")].occupant == "lb"
    assert entry.apply("butterfly C3").garden.butterflies == frozenset()


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("set Z9 R", "not a plot: 'Z9'"),
        ("set C3", "C3: nothing is not a plot content here (one of . R B Y P F X or a critter or feature code)"),
        ("edge A1-C3", "not an edge between two plots: 'A1-C3'"),
        ("confirm C3", "nothing to confirm at 'C3'"),
        ("paint C3", "not an edit: 'paint C3' (set PLOT CODE, edge A1-B1, butterfly PLOT or confirm ITEM)"),
    ],
)
def test_bad_edits_are_one_line(action: str, message: str) -> None:
    with pytest.raises(EntryError) as error:
        SheetEntry.blank().apply(action)
    assert str(error.value) == message


def test_doubts_clear_when_changed_or_confirmed() -> None:
    doubts = (Doubt("C3", "read red"), Doubt("edge B2-B3", "read brick"), Doubt("butterfly A1", "read empty"), Doubt("field B4", "?"))
    entry = SheetEntry(SheetEntry.blank().garden, "photo", doubts)
    assert entry.doubt_ids() == ["plot-C3", "edge-B2-B3", "bubble-A1", "plot-B4"]
    entry = entry.apply("set C3 R")
    assert [d.item for d in entry.doubts] == ["edge B2-B3", "butterfly A1", "field B4"]
    entry = entry.apply("confirm edge B2-B3").apply("butterfly A1").apply("set B4 F")  # an empty field is an answer too
    assert entry.doubts == ()


def test_plot_choices_name_every_content() -> None:
    codes = [code for code, _ in plot_choices()]
    assert codes[:6] == [".", "R", "B", "Y", "P", "F"] and codes[-1] == "X"
    assert ("bf", "field with a Bird Feeder") in plot_choices()


def _png(size: tuple[int, int], fmt: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (255, 255, 255)).save(out, format=fmt)
    return out.getvalue()


def test_photo_checks() -> None:
    check_photo(_png((40, 30)))
    check_photo(_png((40, 30), "JPEG"))
    with pytest.raises(EntryError, match=r"^the photo is empty$"):
        check_photo(b"")
    with pytest.raises(EntryError, match=r"^this file is not a photo"):
        check_photo(b"<html>" + b"x" * 100)
    with pytest.raises(EntryError, match=r"^the photo cannot be decoded \(a damaged or unsupported image\)$"):
        check_photo(_png((40, 30))[:40])  # a PNG signature and then a truncated header
    with pytest.raises(EntryError, match=r"^the photo is larger than 15 MB$"):
        check_photo(b"\xff\xd8\xff" + b"\x00" * (15 * 1024 * 1024))


def test_a_night_ranks_with_shared_places() -> None:
    night = Night.new(["Ann", " Bob ", "Cy", "Di", ""])
    assert night.players == ("Ann", "Bob", "Cy", "Di")
    three_reds = SheetEntry.blank().apply("set A1 R").apply("set B1 R").apply("set C1 R")  # 3 flowers + a patch of 3: 6
    one_red = SheetEntry.blank().apply("set A1 R")  # 1
    night.add("Cy", three_reds)
    night.add("Ann", one_red)
    night.add("Bob", three_reds)
    ranking = [(s.place, s.player, s.total) for s in night.ranking()]
    assert ranking == [(1, "Bob", 6), (1, "Cy", 6), (3, "Ann", 1), (0, "Di", None)]
    assert night.version == 3
    with pytest.raises(EntryError, match=r"^'Eve' is not a player of this night$"):
        night.add("Eve", one_red)
    with pytest.raises(EntryError, match=r"^1 item still to check before the sheet counts$"):
        night.add("Di", SheetEntry(one_red.garden, "photo", (Doubt("C3", "?"),)))
    png = results_png(night)
    assert Image.open(io.BytesIO(png)).size == (720, 150 + 64 * 4 + 40)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ([], "a game night has 1 to 12 players, got 0"),
        (["Ann", "ANN"], "each player needs a different name"),
        (["x" * 61], f"a name has at most 60 characters, got 61: '{'x' * 40}…'"),  # session.check_name, the one name rule
        (["Ann #1"], "a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"),
    ],
)
def test_a_night_needs_players_with_names(names: list[str], message: str) -> None:
    with pytest.raises(EntryError) as error:
        Night.new(names)
    assert str(error.value) == message


def test_a_night_takes_names_as_a_game_does() -> None:
    assert Night.new(["  Zoé ", "", "y" * 60]).players == ("Zoé", "y" * 60)
