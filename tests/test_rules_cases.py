"""docs/RULES.md's worked cases, read from the page itself and scored (issue 23, Decisions).

A walled-off plot that meets the outside only at a corner is still a pocket (RULES.md §2.2): the
page shows that garden, and what it says the garden scores is what papillon scores.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from papillon import Garden, score
from papillon.edition import edition_from_toml
from papillon.grid import parse_plot

RULES = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"


def rules_garden(player: str) -> Garden:
    """The ```garden block of docs/RULES.md whose player is ``player``."""
    fenced = re.findall(r"^( *)```garden\n(.*?)^\1```", RULES.read_text(encoding="utf-8"), flags=re.S | re.M)
    blocks = [textwrap.dedent(block) for _, block in fenced]  # a block inside a list item is indented
    found = [b for b in blocks if f"\nplayer: {player}\n" in b]
    assert len(found) == 1, f"docs/RULES.md shows one garden of {player}, found {len(found)}"
    return Garden.from_notation(found[0])


def test_a_walled_off_plot_meeting_the_outside_only_at_a_corner_is_still_a_pocket():
    garden = rules_garden("Cor")
    assert garden.cells[parse_plot("C3")].code == "." and garden.cells[parse_plot("D4")].code == "."
    card = score(garden)
    (patch,) = card.patches
    assert not patch.enclosed
    assert "C3" in patch.why_open and "walled off by its own bricks" in patch.why_open
    assert dict(card.categories) == {
        "flowers": 7,
        "patches": 7,
        "enclosed": 0,
        "butterflies": 1,
        "critters": 0,
        "features": 0,
        "unique_features": 0,
    }
    assert card.total == 15
    # Looking at the region only (no pockets), the same seven reds are enclosed: the corner is what decides.
    reachable = edition_from_toml('[rules]\nenclosure = "reachable"\n')
    assert score(garden, reachable).categories["enclosed"] == 7
