"""The sheets as SVG (papillon.render.svg): addressable, accessible, targets only where the engine allows."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from papillon.edition import standard_edition
from papillon.engine import new_game
from papillon.garden import Garden, flower
from papillon.grid import EDGES, PLOTS, parse_edge, parse_plot, plot_name
from papillon.render.svg import FillMarks, card_svg, die_svg, fill_svg, garden_svg, qr_svg, tile_svg

SVG = "{http://www.w3.org/2000/svg}"


def _by_id(markup: str) -> dict[str, ET.Element]:
    root = ET.fromstring(markup)  # well-formed XML, or this raises
    return {el.attrib["id"]: el for el in root.iter() if "id" in el.attrib}


def _targets(markup: str) -> dict[str, str]:
    """data-action of every target, by id."""
    return {i: el.attrib["data-action"] for i, el in _by_id(markup).items() if "data-action" in el.attrib}


def test_blank_garden_addresses_every_plot_edge_bubble_and_round() -> None:
    ids = _by_id(garden_svg())
    assert {f"plot-{plot_name(p)}" for p in PLOTS} <= ids.keys()
    assert {f"bubble-{plot_name(p)}" for p in PLOTS} <= ids.keys()
    assert {f"edge-{e.name}" for e in EDGES} <= ids.keys()
    assert {f"round-{n}" for n in range(1, 11)} <= ids.keys()
    # The standard sheet prints fields at B4 and D2; nothing else is drawn in a plot.
    assert ids["plot-C3"].attrib["aria-label"] == "plot C3, empty"
    assert ids["plot-B4"].attrib["aria-label"] == "plot B4, field"
    assert ids["edge-B1-C1"].attrib["aria-label"] == "edge B1-C1, no brick"
    assert ids["bubble-A1"].attrib["aria-label"] == "bubble A1, empty"
    assert ids["round-2"].attrib["aria-label"] == "round 2, to come, gnome bonus"
    assert _targets(garden_svg()) == {}


def test_filled_garden_names_what_each_plot_holds() -> None:
    garden = Garden.empty().with_cell(parse_plot("C3"), flower("red"))
    garden = garden.with_brick(parse_edge("B1-C1")).with_butterfly(parse_plot("A1"))
    markup = garden_svg(garden, round=3)
    ids = _by_id(markup)
    assert ids["plot-C3"].attrib["aria-label"] == "plot C3, red flower"
    assert ids["edge-B1-C1"].attrib["aria-label"] == "edge B1-C1, brick"
    assert ids["bubble-A1"].attrib["aria-label"] == "bubble A1, butterfly"
    assert ids["round-2"].attrib["aria-label"] == "round 2, played, gnome bonus"
    assert ids["round-3"].attrib["aria-label"] == "round 3, now"
    # Colour is never the only signal: the flower carries its letter (an empty garden draws R in its colour key too).
    assert markup.count(">R</text>") == _count_letter(garden_svg(Garden.empty()), "R") + 1


def _count_letter(markup: str, letter: str) -> int:
    return markup.count(f">{letter}</text>")


def test_legal_actions_become_targets_and_nothing_else() -> None:
    actions = ("plot C3", "plot A1", "edge B1-C1", "skip", "gnome 1")
    targets = _targets(garden_svg(actions=actions))
    assert targets == {"plot-C3": "plot C3", "plot-A1": "plot A1", "edge-B1-C1": "edge B1-C1"}
    el = _by_id(garden_svg(actions=actions))["plot-C3"]
    assert el.attrib["role"] == "button" and el.attrib["tabindex"] == "0" and "target" in el.attrib["class"]


def test_a_butterfly_on_a_plot_that_is_also_a_target_gets_its_own_bubble_target() -> None:
    # An empty plot with a butterfly during "add fields & move": "plot B2" and "from B2" are both legal.
    targets = _targets(garden_svg(actions=("plot B2", "from B2", "from D4")))
    assert targets == {"plot-B2": "plot B2", "bubble-B2": "from B2", "plot-D4": "from D4"}


def test_the_engine_start_choice_is_clickable() -> None:
    state = new_game(("Ann",))
    state = state.apply(state.sample_chance(random.Random(1)))
    legal = state.legal_actions()
    targets = _targets(garden_svg(state.garden(0), actions=legal))
    assert sorted(targets.values()) == sorted(map(str, legal)) == ["start B4", "start D2"]
    assert _by_id(garden_svg(state.garden(0), actions=legal))["plot-B4"].attrib["aria-label"] == "plot B4, field: start here"


def test_fill_sheet_marks_and_next_space_target() -> None:
    edition = standard_edition()
    marks = FillMarks(ladders=(2, 0, 0), tracks=(1, 0, 6, 0), rondel=0, caterpillars=5)
    markup = fill_svg(marks, edition=edition, actions=("fill lb", "fill red", "fill yellow", "skip"))
    ids = _by_id(markup)
    # The ladybug ladder has 3 spaces, 2 filled: the third is next.  Red has 1 filled: the second is next.
    assert ids["ladder-lb-2"].attrib["aria-label"] == "Ladybug ladder space 2, filled"
    assert ids["ladder-lb-3"].attrib["aria-label"] == "Ladybug ladder space 3, next"
    assert ids["caterpillar-5"].attrib["aria-label"] == "caterpillar space 5, filled"
    assert ids["caterpillar-8"].attrib["aria-label"] == "caterpillar space 8, empty, gnome bonus"
    assert ids["gnome-3"].attrib["aria-label"] == "gnome bonus 3: add a field"
    # Yellow is full (6 of 6): no space of it can be a target even if asked.
    assert _targets(markup) == {"ladder-lb-3": "fill lb", "track-red-2": "fill red"}
    assert {f"petal-{i}" for i in range(1, 5)} <= ids.keys()
    assert "ladder-hh-7" in ids and "ladder-hh-8" not in ids


def test_pictures_name_what_they_show() -> None:
    edition = standard_edition()
    card = edition.cards[0]
    root = ET.fromstring(card_svg(card, number=1, action="pair 1"))
    assert root.attrib["data-action"] == "pair 1" and root.attrib["aria-label"].startswith("card 1: ")
    face = next(f for f in edition.die_faces if f.extra == "bramble")
    label = ET.fromstring(die_svg(face, number=2)).attrib["aria-label"]
    assert label == f"die 2: {face.caterpillars} caterpillar{'s' if face.caterpillars != 1 else ''} + bramble"
    tile = edition.features["po"]
    assert ET.fromstring(tile_svg(tile)).attrib["aria-label"] == f"tile po: {tile.name} (type {tile.type})"


def test_qr_has_finder_patterns() -> None:
    markup = qr_svg("http://192.168.1.5:8000/watch/abc")
    root = ET.fromstring(markup)
    n = int(root.attrib["viewBox"].split()[2])
    # Version 3 (29 modules) or more for this length, plus two quiet zones of 4.
    assert n >= 29 + 8 and re.search(r'd="M4,4h7', markup)  # the top-left finder's first run is 7 modules
