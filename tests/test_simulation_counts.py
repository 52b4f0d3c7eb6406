"""A run's game results count what the score card says, though they are counted without shapely."""

from __future__ import annotations

import subprocess
import sys

import pytest

from papillon.balance.variants import build_variants, parse_set
from papillon.edition import standard_edition
from papillon.engine import play_game
from papillon.engine.log import game_seed
from papillon.simulation import _edition, make_player, play_one


def _editions():
    yield standard_edition()
    # Rings round the border, and only the best copy of a tile scoring: enclosures and zeroed copies to count.
    settings = [parse_set("rules.border_encloses=true"), parse_set("scoring.feature_copies=best"), parse_set("scoring.enclosed=2")]
    for variant in build_variants(["standard"], settings, "greedy"):
        yield _edition(variant.toml)


@pytest.mark.parametrize("edition", list(_editions()), ids=lambda edition: edition.name)
def test_a_result_counts_what_the_score_card_says(edition):
    enclosed = 0
    for index in range(12):
        result = play_one(edition, "greedy", 3, index)
        state, _ = play_game(game_seed(3, index), [make_player("greedy")], edition)
        card = state.score_card(0)
        assert result.total == card.total
        assert dict(result.categories) == dict(card.categories)
        assert result.features == tuple((item.code, item.points) for item in card.features)
        assert result.critters == tuple(item.code for item in card.critters)
        assert (result.patches, result.enclosed) == (len(card.patches), sum(1 for p in card.patches if p.enclosed))
        enclosed += result.enclosed
    if edition.rules.border_encloses:
        assert enclosed  # the comparison met enclosures


def test_a_run_leaves_shapely_alone():
    # In a process of its own: another test may have loaded shapely here.  Game 1 of seed 3 encloses a patch.
    code = (
        "import sys\n"
        "from papillon.balance.variants import build_variants, parse_set\n"
        "from papillon.simulation import _edition, play_one\n"
        "variant = build_variants(['standard'], [parse_set('rules.border_encloses=true')], 'greedy')[0]\n"
        "assert play_one(_edition(variant.toml), 'greedy', 3, 1).enclosed\n"
        "print('shapely' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
