"""One vocabulary (issue 18, part 2): the words for things, one quoting helper, every count through words.plural."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from papillon import words
from papillon.edition import standard_edition
from papillon.engine import text
from papillon.render import svg
from papillon.score import _describe

PACKAGE = Path(__file__).resolve().parents[1] / "papillon"
SOURCES = {p.relative_to(PACKAGE).as_posix(): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_front_end_names_a_plot_the_same_way():
    edition = standard_edition()
    for code, spoken, short in [
        ("R", "a red flower", "red flower"),
        (".", "empty", "empty"),
        ("F", "an empty field", "field"),
        ("X", "a bramble", "bramble"),
        ("hh", "a field with a Hedgehog", "field with a Hedgehog"),
    ]:
        assert words.cell_words(code, edition) == spoken
        assert words.cell_words(code, edition, article=False) == short
    assert _describe("Y", edition) == "yellow flower" and _describe("gz", edition) == "Gazebo"
    assert text.cell_words is words.cell_words and text.card_text is words.card_text and text.die_text is words.die_text


def test_cards_and_dice_in_words_and_in_the_pictures_labels():
    edition = standard_edition()
    card = edition.cards[0]
    assert f"corner: {words.corner_text(card)}" in svg.card_svg(card, number=1)
    field_die = next(f for f in edition.die_faces if f.extra == "field")
    assert words.die_text(field_die) == "1 caterpillar + add a field"
    assert f"die 1: {words.die_text(field_die)}" in svg.die_svg(field_die, number=1)


def test_one_quoting_helper():
    defined = {
        f"{path}:{node.name}"
        for path, source in SOURCES.items()
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and re.fullmatch(r"_?(quote|short|short_value)", node.name)
    }
    assert defined == {"errors.py:quote"}


def test_no_hand_written_plural():
    hand_written = re.compile(r"""\{['"](s|es|y|ies)['"] if [^}]*(!=|==|>) ?1""")
    found = [
        f"{path}:{n}" for path, source in SOURCES.items() for n, line in enumerate(source.splitlines(), 1) if hand_written.search(line)
    ]
    found += [
        f"{path}:{n}"
        for path, source in SOURCES.items()
        for n, line in enumerate(source.splitlines(), 1)
        if re.search(r"""['"]1 \w+['"] if len\(""", line) and path != "words.py"
    ]
    assert found == []
