"""The coordinate module: plot names, edges, neighbours, symmetries."""

import pytest

from papillon.grid import (
    EDGES,
    KING_NEIGHBOURS,
    ORTHOGONAL_NEIGHBOURS,
    PLOTS,
    SYMMETRIES,
    edge_between,
    parse_edge,
    parse_plot,
    plot_name,
    ray,
    regions,
)


def test_plot_names_run_row_by_row_from_the_top_left():
    assert [plot_name(p) for p in PLOTS[:6]] == ["A1", "B1", "C1", "D1", "E1", "A2"]
    assert plot_name(24) == "E5"
    assert all(parse_plot(plot_name(p)) == p for p in PLOTS)
    assert parse_plot(" c3 ") == 12


@pytest.mark.parametrize("text", ["F1", "A6", "A0", "", "AA", "C33"])
def test_bad_plot_names_are_refused(text):
    with pytest.raises(ValueError, match="expected A1 to E5"):
        parse_plot(text)


def test_there_are_40_interior_edges_each_between_neighbours():
    assert len(EDGES) == 40 == len(set(EDGES))
    for edge in EDGES:
        assert edge.b in ORTHOGONAL_NEIGHBOURS[edge.a]
    assert parse_edge("C3-B3") == parse_edge("B3-C3") == edge_between(12, 11)
    assert parse_edge("A1-A2").name == "A1-A2"


@pytest.mark.parametrize("text", ["A1-C1", "A1-B2", "E1-A2", "A1", "A1-A2-A3"])
def test_non_edges_are_refused(text):
    with pytest.raises(ValueError):
        parse_edge(text)


def test_edge_segments_lie_between_the_two_plots():
    assert parse_edge("A1-B1").segment() == ((1, 0), (1, 1))
    assert parse_edge("A1-A2").segment() == ((0, 1), (1, 1))


def test_neighbour_counts():
    assert sorted(len(n) for n in ORTHOGONAL_NEIGHBOURS).count(4) == 9
    assert len(KING_NEIGHBOURS[parse_plot("C3")]) == 8
    assert len(KING_NEIGHBOURS[parse_plot("A1")]) == 3


def test_symmetries_are_permutations_and_keep_adjacency():
    assert len(SYMMETRIES) == 8
    for table in SYMMETRIES.values():
        assert sorted(table) == list(PLOTS)
        for edge in EDGES:
            assert table[edge.b] in ORTHOGONAL_NEIGHBOURS[table[edge.a]]


def test_ray_stops_at_the_border():
    assert [plot_name(p) for p in ray(parse_plot("B2"), "E", 3)] == ["C2", "D2", "E2"]
    assert ray(parse_plot("B2"), "N", 2) is None


def test_regions_split_on_a_closed_ring_only():
    ring = [e for e in EDGES if parse_plot("C3") in e]
    assert sorted(map(len, regions(ring))) == [1, 24]
    assert sorted(map(len, regions(ring[:-1]))) == [25]
