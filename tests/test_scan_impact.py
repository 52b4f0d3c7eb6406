"""Which of a photo's doubts are asked: those whose answer can change the score, the most consequential first."""

from __future__ import annotations

from papillon.edition import standard_edition
from papillon.garden import Garden
from papillon.grid import EDGES, PLOTS, parse_plot
from papillon.scan.classify import Reading
from papillon.scan.impact import moot_line, weigh_doubts
from papillon.scan.transcribe import transcribe
from papillon.score import compact, score

EDITION = standard_edition()


def sure(item: str, kind: str, value: str, other: str) -> Reading:
    return Reading(item, kind, ((value, 0.99), (other, 0.01)))


def unsure(item: str, kind: str, value: str, other: str, p: float = 0.6) -> Reading:
    return Reading(item, kind, ((value, p), (other, 1 - p)))


def edge_name(i: int) -> str:
    a, b = EDGES[i]
    return f"edge {'ABCDE'[a % 5]}{a // 5 + 1}-{'ABCDE'[b % 5]}{b // 5 + 1}"


def readings_of(rows: list[str], bricks: set[int], unsure_items: dict[int, Reading]) -> list[Reading]:
    """Sure readings of a garden given by rows of plot letters and brick edge indices, some replaced by doubts."""
    names = {".": "empty", "R": "red", "B": "blue", "Y": "yellow", "P": "purple", "F": "field", "X": "bramble"}
    cells = [names[c] for row in rows for c in row]
    readings = [sure(f"{'ABCDE'[p % 5]}{p // 5 + 1}", "plot", cells[p], "empty" if cells[p] != "empty" else "red") for p in PLOTS]
    readings += [
        sure(edge_name(i), "edge", "brick" if i in bricks else "none", "none" if i in bricks else "brick") for i in range(len(EDGES))
    ]
    readings += [sure(f"butterfly {'ABCDE'[p % 5]}{p // 5 + 1}", "butterfly", "empty", "filled") for p in PLOTS]
    for slot, reading in unsure_items.items():
        readings[slot] = reading
    return readings


def edge_slot(a: str, b: str) -> int:
    return len(PLOTS) + EDGES.index((parse_plot(a), parse_plot(b)))


def test_a_lone_brick_between_empty_plots_is_not_asked_but_a_butterfly_is() -> None:
    edge = edge_slot("A1", "B1")
    bubble = len(PLOTS) + len(EDGES) + parse_plot("C3")
    doubts = {edge: unsure("edge A1-B1", "edge", "none", "brick"), bubble: unsure("butterfly C3", "butterfly", "empty", "filled")}
    readings = readings_of(["....."] * 5, set(), doubts)
    empty = Garden.from_codes([["."] * 5] * 5)
    weighed = weigh_doubts(*compact(empty), readings, sorted(doubts), [], EDITION)
    assert [r.item for r in weighed.asked] == ["butterfly C3"]
    assert [r.item for r in weighed.moot] == ["edge A1-B1"]
    assert weighed.stakes == {"edge A1-B1": 0, "butterfly C3": 1}


def test_the_edge_that_closes_a_ring_is_asked_first() -> None:
    # B2-D2 is a red patch walled in but for the brick under C2, which closes the ring (enclosed: +1 a flower).
    sides = (("B1", "B2"), ("C1", "C2"), ("D1", "D2"), ("A2", "B2"), ("D2", "E2"), ("B2", "B3"), ("D2", "D3"))
    walls = [EDGES.index((parse_plot(a), parse_plot(b))) for a, b in sides]
    closing = edge_slot("C2", "C3")
    bubble = len(PLOTS) + len(EDGES) + parse_plot("E5")
    doubts = {bubble: unsure("butterfly E5", "butterfly", "empty", "filled"), closing: unsure("edge C2-C3", "edge", "none", "brick")}
    rows = [".....", ".RRR.", ".....", ".....", "....."]
    readings = readings_of(rows, set(walls), doubts)
    cells = Garden.from_codes([list(r) for r in rows]).cells
    garden = Garden(cells, frozenset(EDGES[i] for i in walls), frozenset())
    walled = Garden(cells, frozenset(EDGES[i] for i in [*walls, closing - len(PLOTS)]), frozenset())
    gain = score(walled, EDITION).total - score(garden, EDITION).total
    assert gain == 3  # the premise: closing the ring scores more than a butterfly's 1 point
    weighed = weigh_doubts(*compact(garden), readings, sorted(doubts), [], EDITION)
    assert [r.item for r in weighed.asked] == ["edge C2-C3", "butterfly E5"]
    assert weighed.stakes == {"edge C2-C3": 3, "butterfly E5": 1}
    assert weighed.moot == ()


def test_transcription_says_moot_doubts_once_and_marks_only_the_others() -> None:
    edge = edge_slot("A1", "B1")
    readings = readings_of(["....."] * 5, set(), {edge: unsure("edge A1-B1", "edge", "none", "brick")})
    result = transcribe(readings, edition=EDITION)
    assert [r.item for r in result.review] == ["edge A1-B1"]  # still unsure: review: true in --json
    assert result.asked == () and not result.needs_review
    assert "# 1 unsure edge does not change the score: edge A1-B1" in result.notation
    assert "# ?" not in result.notation


def test_moot_line_names_each_kind() -> None:
    e = unsure("edge B2-B3", "edge", "none", "brick")
    b = unsure("butterfly C3", "butterfly", "empty", "filled")
    assert moot_line([e, e, b]) == "2 unsure edges and 1 unsure butterfly bubble do not change the score"
    assert moot_line([]) is None
