"""Every sentence papillon generates with a count in it has the noun in the right number (issue 10, item 21).

The sentences are generated here from every template: every task prompt, effect, tile, card, die
face, score count and score explanation, with counts 0, 1, 2 and 5; then each "N noun" is checked.
"""

from __future__ import annotations

import itertools
import re

import pytest

from papillon import Garden, score
from papillon.edition import COLOUR_NAMES, EFFECT_ACTIONS, EFFECT_PER, SCORE_COUNTS, Card, DieFace, edition_from_toml, standard_edition
from papillon.engine import tasks
from papillon.engine.text import card_text, die_text, effect_text, feature_text, task_prompt
from papillon.grid import EDGES, parse_plot
from papillon.words import counted_text, noun, plural, score_text

NOUNS = {
    "field": "fields",
    "edge": "edges",
    "brick edge": "brick edges",
    "point": "points",
    "caterpillar": "caterpillars",
    "tile": "tiles",
    "card number": "card numbers",
    "face": "faces",
    "die": "dice",
}
WORDS = {w for pair in NOUNS.items() for w in pair}
COUNTED = re.compile(r"\b(\d+) ((?:brick |card )?[a-z]+)")


def wrong_numbers(sentence: str) -> list[str]:
    """Each "N noun" of ``sentence`` whose noun does not agree with N."""
    wrong = []
    for number, word in COUNTED.findall(sentence):
        if word not in WORDS:
            continue
        singular = word in NOUNS
        if (int(number) == 1) != singular:
            wrong.append(f"{number} {word}")
    return wrong


def sentences() -> list[str]:
    edition = standard_edition()
    found: list[str] = []
    counts = (0, 1, 2, 5)
    for count, up_to in itertools.product(counts, (True, False)):
        found += [task_prompt(tasks.AddField(count, up_to), edition), task_prompt(tasks.AddBrick(count, up_to), edition)]
    for fields, moves in itertools.product(counts, (0, 1)):
        found.append(task_prompt(tasks.FieldAndMove(fields, moves), edition))
    for task in (tasks.Stamp("R"), tasks.StampAny(), tasks.Move(), tasks.MoveFrom(3), tasks.Fill(), tasks.CritterFill()):
        found.append(task_prompt(task, edition))
    for task in (tasks.PlaceCritter("lb"), tasks.GnomeBonus(), tasks.GnomeBonus(True), tasks.ChooseFeature()):
        found.append(task_prompt(task, edition))
    for task in (tasks.PlaceFeature("po"), tasks.FillOrMove(), tasks.PlaceBramble()):
        found.append(task_prompt(task, edition))
    for action, count, per, adjacency in itertools.product(EFFECT_ACTIONS, counts[1:], (None, *EFFECT_PER), ("king", "orthogonal")):
        found.append(effect_text_of(action, count, per, adjacency))
    for count, colour, cap, points in itertools.product(SCORE_COUNTS, (None, *COLOUR_NAMES), (None, 1, 8), counts):
        found.append(score_text(points, count, colour, cap))
    found += [feature_text(feature, edition) for feature in edition.features.values()]
    for centre, corner in itertools.product(("move", "field_move"), ("feature", "brick", "fill")):
        found.append(card_text(Card(centre, corner)))
    found += [card_text(Card("stamp", corner, "red")) for corner in ("feature", "brick", "fill")]
    found += [die_text(DieFace(n, extra)) for n in range(4) for extra in (None, "field", "fill", "bramble")]
    return found


def effect_text_of(action: str, count: int, per: str | None, adjacency: str) -> str:
    from papillon.edition import Effect

    return effect_text(Effect(action, count, per), adjacency)


def test_plural_and_noun():
    assert [plural(n, "field") for n in (0, 1, 2)] == ["0 fields", "1 field", "2 fields"]
    assert plural(1, "die", "dice") == "1 die" and plural(3, "die", "dice") == "3 dice"
    assert noun(1, "patch", "patches") == "patch" and noun(4, "patch", "patches") == "patches"


def test_the_checker_catches_the_wordings_of_the_issue():
    assert wrong_numbers("add up to 1 fields") == ["1 fields"]
    assert wrong_numbers("place 2 brick edge") == ["2 brick edge"]
    assert wrong_numbers("1 caterpillar + bramble; 2 caterpillars") == []


@pytest.mark.parametrize("sentence", sentences())
def test_every_generated_sentence_has_counts_that_agree(sentence):
    assert not wrong_numbers(sentence), sentence
    for bad in ("(s)", "patche ", "patche,", " per adjacent", "per distinct", "per flowers", "per patch colours", "brick edging)"):
        assert bad not in sentence, sentence


def test_the_words_of_what_a_tile_counts():
    assert counted_text("adjacent_critters") == "critter among its 8 surrounding plots"
    assert counted_text("adjacent_flowers", "red", "orthogonal") == "red flower in the 4 plots beside it"
    assert score_text(2, "adjacent_critters", cap=8) == "2 points per critter among its 8 surrounding plots (max 8 points)"
    assert score_text(1, "patch_colours") == "1 point per colour that has a flower patch"
    edition = standard_edition()
    assert feature_text(edition.features["tr"], edition) == (
        "Tree (type B); when placed: fill a space for each field among its 8 surrounding plots, "
        "then fill a space for each flower patch among its 8 surrounding plots"
    )
    assert feature_text(edition.features["sh"], edition) == "Shed (type A); when placed: place 3 brick edges, then add 1 field"
    orthogonal = edition_from_toml('[features.bf]\nadjacency = "orthogonal"\n')
    assert feature_text(orthogonal.features["bf"], orthogonal) == (
        "Bird Feeder (type A); scores 2 points per critter in the 4 plots beside it (max 8 points)"
    )


def score_sentences() -> list[str]:
    rows = ["lb lb bb R* R*", "hh bf lb R* R*", "R* R* gz po .", ". X Y B P", "F ha . . ."]
    card = score(Garden.from_codes([row.split() for row in rows], ["A4-B4"]))
    found = [item.summary() for item in card.features]
    found += [p.why_open or "" for p in card.patches]
    inside = {parse_plot(name) for name in ("B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4")}
    walls = [e for e in EDGES if (e.a in inside) != (e.b in inside)]
    pocket = Garden.from_codes([row.split() for row in (". . . . .", ". R R R .", ". R . R .", ". R R R .", ". . . . .")], walls)
    found += [p.why_open or "" for p in score(pocket).patches]
    return found


@pytest.mark.parametrize("sentence", score_sentences())
def test_every_score_explanation_has_counts_that_agree(sentence):
    assert not wrong_numbers(sentence), sentence
    assert "(s)" not in sentence
