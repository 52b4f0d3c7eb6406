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


def test_a_plot_walled_off_inside_a_ring_patch_is_a_pocket_of_the_encircled_area():
    """RULES.md §2.2 worked case: 8 reds round an empty C3 that has its own 4 bricks: not enclosed (16)."""
    outer = set(ring("B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4").split())
    inner = set(ring("C3").split())
    g = garden(BLANK, ". R R R .", ". R . R .", ". R R R .", BLANK, bricks=" ".join(outer | inner))
    card = score(g)
    (patch,) = card.patches
    assert not patch.enclosed and len(patch.plots) == 8 and card.total == 16
    assert patch.why_open == "its ring also holds empty plot C3 (walled off by its own bricks, but inside the ring all the same)"
    reachable = edition_from_toml('[rules]\nenclosure = "reachable"\n')
    (patch,) = score(g, reachable).patches
    assert patch.enclosed and score(g, reachable).total == 24
    assert "C3" not in map(plot_name, patch.enclosure.plots)


def test_a_plot_walled_off_against_the_outer_ring_is_no_pocket():
    """RULES.md §2.2 worked case (nested-ring.garden): C3's walls touch the outer path, which goes round it."""
    outer = set(ring("C3", "D3", "C4", "D4").split())
    g = garden(BLANK, BLANK, ". . hh Y .", ". . Y Y .", BLANK, bricks=" ".join(outer | {"C3-D3", "C3-C4"}))
    (patch,) = score(g).patches
    assert patch.enclosed and sorted(map(plot_name, patch.enclosure.plots)) == ["C4", "D3", "D4"]


@pytest.mark.parametrize(("forbids", "enclosed"), [('["empty", "field"]', True), ('["empty", "field", "bramble"]', False), ("[]", True)])
def test_what_may_not_sit_inside_an_enclosure_is_edition_data(forbids, enclosed):
    g = garden(BLANK, ". R R . .", ". R X . .", BLANK, BLANK, bricks=ring("B2", "C2", "B3", "C3"))
    edition = edition_from_toml(f"[rules]\nenclosure_forbids = {forbids}\n")
    assert score(g, edition).patches[0].enclosed is enclosed
    spoilt = garden(BLANK, ". R R . .", ". R . . .", BLANK, BLANK, bricks=ring("B2", "C2", "B3", "C3"))
    assert score(spoilt, edition).patches[0].enclosed is (forbids == "[]")


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
    assert card.features[0].counted == ("red flower (B1)", "blue flower (A2)", "yellow flower (C2)")
    same = score(garden(". R . . .", "R po R . .", ". R . . .", BLANK, BLANK))
    assert same.categories["features"] == 1


def test_a_feature_counts_its_eight_surrounding_plots_unless_the_edition_says_orthogonal():
    g = garden("R . B . .", ". po . . .", "Y . P . .", BLANK, BLANK)  # four colours, all diagonal
    assert score(g).categories["features"] == 4
    orthogonal = edition_from_toml('[rules]\nadjacency = "orthogonal"\n')
    assert score(g, orthogonal).categories["features"] == 0
    pond_only = edition_from_toml('[features.po]\nadjacency = "orthogonal"\n')
    assert score(g, pond_only).categories["features"] == 0
    feeder = garden("lb . lb . .", ". bf . . .", "lb . . . .", BLANK, BLANK)
    assert score(feeder, pond_only).categories["features"] == 6, "the Bird Feeder keeps the edition's 8 plots"
    patch = garden("R R R . .", "R po . . .", BLANK, BLANK, BLANK)
    assert score(patch).patches[0].plots == frozenset(map(parse_plot, ("A1", "B1", "C1", "A2"))), "patches stay orthogonal"


def test_a_pond_with_eight_different_neighbours_scores_its_cap():
    card = score(garden(BLANK, ". R B lb .", ". Y po P .", ". bb X hh .", BLANK))
    (pond,) = card.features
    assert pond.points == 8 and len(pond.counted) == 8 and pond.uncapped is None


def test_pond_tells_critters_features_and_brambles_apart():
    card = score(garden(". lb . . .", "sh po X . .", ". hh . . .", BLANK, BLANK))
    assert card.categories["features"] == 4


def test_bird_feeder_scores_two_per_adjacent_critter_up_to_eight():
    assert score(garden(". lb . . .", "bb bf hh . .", BLANK, BLANK, BLANK)).categories["features"] == 6
    assert score(garden(". lb . . .", "bb bf hh . .", ". lb . . .", BLANK, BLANK)).categories["features"] == 8


def test_a_capped_feature_says_what_it_counted_and_its_cap():
    card = score(garden("lb lb bb . .", "hh bf lb . .", BLANK, BLANK, BLANK))
    (feeder,) = card.features
    assert (feeder.points, feeder.uncapped, feeder.max) == (8, 10, 8)
    assert feeder.summary() == "Bird Feeder B2 8 (10 counted, max 8): Ladybug A1, Ladybug B1, Bumblebee C1, Hedgehog A2, Ladybug C2"
    assert card.details()["features"][0] | {"counted": []} == {
        "plot": "B2",
        "code": "bf",
        "name": "Bird Feeder",
        "points": 8,
        "counted": [],
        "uncapped": 10,
        "max": 8,
    }
    gazebo = score(garden("R* R* R* R* R*", "R* R* R* R* R*", "R* R* gz . .", BLANK, BLANK)).features[0]
    assert gazebo.summary().startswith("Gazebo C3 8 (12 counted, max 8): red flower A1, ")
    uncapped = score(garden(". lb . . .", "bb bf . . .", BLANK, BLANK, BLANK)).features[0]
    assert (
        uncapped.summary() == "Bird Feeder B2 4: Ladybug B1, Bumblebee A2"
        and "uncapped" not in score(garden(". lb . . .", "bb bf . . .", BLANK, BLANK, BLANK)).details()["features"][0]
    )


def test_hammock_scores_per_patch_colour_and_gazebo_per_flower_with_butterfly():
    g = garden("R R R ha .", "B B B . .", "Y* Y* . gz .", BLANK, BLANK)
    card = score(g)
    points = {i.code: i.points for i in card.features}
    assert points == {"ha": 4, "gz": 2}


def test_unique_features_count_each_kind_once_and_duplicates_each_score():
    card = score(garden("po R po . .", BLANK, BLANK, BLANK, "bf sh tr fp ."))
    assert [i.points for i in card.features if i.code == "po"] == [1, 1]
    assert card.unique_features == ("po", "sh", "bf", "tr", "fp")
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
