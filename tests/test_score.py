"""One test per scoring rule of RULES.md §2-§5, on small hand-checked gardens."""

import pytest

from papillon import Garden, score
from papillon.edition import edition_from_toml
from papillon.grid import EDGES, parse_plot, plot_name


def garden(*rows: str, bricks: str = "") -> Garden:
    """A garden from five rows of space-separated codes and a brick list like 'A1-A2 B3-C3'."""
    return Garden.from_codes([row.split() for row in rows], bricks.split())


def ring(*plots: str) -> str:
    """The bricks around a set of plots (its outline), as 'A1-A2 ...'."""
    inside = {parse_plot(p) for p in plots}
    return " ".join(e.name for e in EDGES if (e.a in inside) != (e.b in inside))


BLANK = ". . . . ."


def test_flowers_and_a_patch_of_three():
    card = score(garden(BLANK, ". R R R .", BLANK, BLANK, BLANK))
    assert dict(card.categories) == {
        "flowers": 3,
        "patches": 3,
        "enclosed": 0,
        "butterflies": 0,
        "critters": 0,
        "features": 0,
        "unique_features": 0,
    }
    (patch,) = card.patches
    assert patch.colour == "red" and sorted(map(plot_name, patch.plots)) == ["B2", "C2", "D2"]
    assert patch.why_open == "no closed ring of bricks around it"


def test_two_flowers_or_a_diagonal_are_no_patch():
    assert score(garden(BLANK, ". R R . .", BLANK, BLANK, BLANK)).categories["patches"] == 0
    assert score(garden(BLANK, ". R . . .", ". . R . .", ". . . R .", BLANK)).categories["patches"] == 0


def test_a_brick_splits_a_patch():
    split = garden(BLANK, ". R R R R", BLANK, BLANK, BLANK, bricks="C2-D2")
    assert score(split).categories["patches"] == 0
    assert score(garden(BLANK, ". R R R R", BLANK, BLANK, BLANK, bricks="D2-E2")).categories["patches"] == 3


def test_an_enclosed_patch_scores_three_per_flower():
    plots = ("B2", "C2", "B3", "C3")
    card = score(garden(BLANK, ". R R . .", ". R R . .", BLANK, BLANK, bricks=ring(*plots)))
    assert card.total == 12
    (patch,) = card.patches
    assert patch.enclosed and sorted(map(plot_name, patch.enclosure.plots)) == ["B2", "B3", "C2", "C3"]
    assert patch.enclosure.polygon.area == 4


def test_two_patches_share_one_enclosure_with_a_bramble():
    plots = ("B2", "C2", "D2", "B3", "C3", "D3", "C4")
    g = garden(BLANK, ". R R R .", ". B B B .", ". . X . .", BLANK, bricks=ring(*plots))
    card = score(g)
    assert [p.enclosed for p in card.patches] == [True, True]
    assert card.categories["enclosed"] == 6 and card.total == 18


def test_a_ring_with_one_brick_missing_encloses_nothing():
    bricks = ring("B2", "C2", "B3", "C3").split()[1:]
    card = score(garden(BLANK, ". R R . .", ". R R . .", BLANK, BLANK, bricks=" ".join(bricks)))
    assert card.categories["enclosed"] == 0
    assert card.patches[0].why_open == "no closed ring of bricks around it"


@pytest.mark.parametrize(("code", "kind"), [(".", "empty"), ("F", "field"), ("lb", "field")])
def test_an_empty_plot_or_field_in_the_ring_spoils_it(code, kind):
    g = garden(BLANK, f". R R {code} .", ". . R . .", BLANK, BLANK, bricks=ring("B2", "C2", "D2", "C3"))
    (patch,) = score(g).patches
    assert not patch.enclosed
    assert patch.why_open == f"its ring also holds {kind} plot D2"


def test_an_inner_ring_is_not_part_of_the_outer_region():
    outer = set(ring("B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4").split())
    inner = set(ring("C3").split())
    g = garden(BLANK, ". R R R .", ". R . R .", ". R R R .", BLANK, bricks=" ".join(outer | inner))
    (patch,) = score(g).patches
    assert patch.enclosed and len(patch.plots) == 8
    assert "C3" not in map(plot_name, patch.enclosure.plots)


def test_a_dangling_brick_changes_nothing():
    base = garden(BLANK, ". R R . .", ". R R . .", BLANK, BLANK, bricks=ring("B2", "C2", "B3", "C3"))
    dangling = base.with_brick(EDGES[0])
    assert score(dangling).categories == score(base).categories


def test_border_patches_are_open_unless_the_edition_says_the_border_encloses():
    g = garden("R R R . .", BLANK, BLANK, BLANK, BLANK, bricks=ring("A1", "B1", "C1"))
    assert score(g).patches[0].why_open == "touches the garden border"
    border = edition_from_toml("[rules]\nborder_encloses = true\n")
    assert score(g, border).categories["enclosed"] == 3
    # With the border as brick the whole garden is one face: an empty plot spoils it.
    (patch,) = score(garden("R R R . .", BLANK, BLANK, BLANK, BLANK), border).patches
    assert patch.why_open == "its ring also holds empty plot D1, empty plot E1, empty plot A2 and 19 more"


def test_butterflies_count_on_any_plot():
    assert score(garden("R* .* F* X* lb*", BLANK, BLANK, BLANK, BLANK)).categories["butterflies"] == 5


def test_critters_score_their_value():
    card = score(garden("lb bb hh . .", BLANK, BLANK, BLANK, BLANK))
    assert card.categories["critters"] == 9
    assert [(i.name, i.points) for i in card.critters] == [("Ladybug", 1), ("Bumblebee", 3), ("Hedgehog", 5)]


def test_pond_counts_different_neighbours_not_empty_plots_or_fields():
    card = score(garden(". R . . .", "B po Y . .", ". F . . .", BLANK, BLANK))
    assert card.categories["features"] == 3
    assert card.features[0].counted == ("red flower (B1)", "yellow flower (C2)", "blue flower (A2)")
    same = score(garden(". R . . .", "R po R . .", ". R . . .", BLANK, BLANK))
    assert same.categories["features"] == 1


def test_pond_tells_critters_features_and_brambles_apart():
    card = score(garden(". lb . . .", "sh po X . .", ". hh . . .", BLANK, BLANK))
    assert card.categories["features"] == 4


def test_bird_feeder_scores_two_per_adjacent_critter_up_to_eight():
    assert score(garden(". lb . . .", "bb bf hh . .", BLANK, BLANK, BLANK)).categories["features"] == 6
    assert score(garden(". lb . . .", "bb bf hh . .", ". lb . . .", BLANK, BLANK)).categories["features"] == 8


def test_hammock_scores_per_patch_colour_and_gazebo_per_flower_with_butterfly():
    g = garden("R R R ha .", "B B B . .", "Y* Y* . gz .", BLANK, BLANK)
    card = score(g)
    points = {i.code: i.points for i in card.features}
    assert points == {"ha": 4, "gz": 2}


def test_unique_features_count_each_kind_once_and_duplicates_each_score():
    card = score(garden("po R po . .", BLANK, BLANK, BLANK, "bh sh tr fp ."))
    assert [i.points for i in card.features if i.code == "po"] == [1, 1]
    assert card.unique_features == ("po", "sh", "bh", "tr", "fp")
    assert card.categories["unique_features"] == 15


def test_brambles_score_nothing():
    assert score(garden("X X X X X", "X X X X X", BLANK, BLANK, BLANK)).total == 0


def test_details_are_plain_json_data():
    import json

    card = score(garden(BLANK, ". R R . .", ". R R . .", BLANK, BLANK, bricks=ring("B2", "C2", "B3", "C3")))
    details = json.loads(json.dumps(card.details()))
    assert details["patches"][0]["enclosure"] == ["B2", "C2", "B3", "C3"]
    assert details["patches"][0]["polygon"].startswith("POLYGON ((")


def test_each_copy_of_a_tile_scores_unless_the_edition_says_only_the_best():
    g = garden("R* R* R* . .", "gz . gz . .", BLANK, BLANK, BLANK)
    assert [i.points for i in score(g).features] == [3, 3]
    best = edition_from_toml('[scoring]\nfeature_copies = "best"\n')
    card = score(g, best)
    assert [i.points for i in card.features] == [3, 0]
    assert card.features[1].counted == ("another copy scores",)
    assert card.categories["unique_features"] == 3
