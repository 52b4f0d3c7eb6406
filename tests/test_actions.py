"""Actions as values (issue 18, part 1): typed fields, the log text both ways, and no front end splitting it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from papillon.edition import Adjacency, CardCentre, CardCorner, DieExtra, EffectAction, FeatureCopies, edition_from_toml, standard_edition
from papillon.engine import GreedyBot, play_game
from papillon.engine.actions import Action, Kind, Part, fill_action
from papillon.errors import EditionError

PACKAGE = Path(__file__).resolve().parents[1] / "papillon"
VERBS = tuple(f"{kind} " for kind in Kind)
SPLITTERS = ("partition", "rpartition", "split", "rsplit")
OWN_GRAMMARS = {
    "notation.py": "the .garden notation's lines",
    "scoresheet.py": "a score sheet's own taps ('set A1 R', 'butterfly C3')",
    "scan/detect.py": "the scanner's item names",
}


def test_the_fields_and_the_text_agree():
    edge = Action.parse("edge B1-C1")
    assert (edge.kind, edge.edge_name, str(edge)) == (Kind.EDGE, "B1-C1", "edge B1-C1")
    assert Action.parse("pair 2").pair == 1 and Action.parse("part die").part is Part.DIE
    assert fill_action("red").colour == "red" and fill_action("hh").colour == "" and fill_action("hh").code == "hh"
    assert Action.parse("plot C3") is Action.parse("plot C3"), "interned"
    assert Action.parse("gnome bricks") == "gnome bricks" and hash(Action.parse("skip")) == hash("skip")
    for bad in ("plot Z9", "edge A1-C3", "jump C3", "skip now", "pair x", "plot", ""):
        with pytest.raises(ValueError):
            Action.parse(bad)


def test_every_action_of_real_games_reads_back_as_itself():
    _, log = play_game(seed=11, agents=[GreedyBot(), GreedyBot()])
    texts = [e["action"] for e in log.events if "action" in e]
    assert texts and all(str(Action.parse(t)) == t for t in texts)


def _splits_an_action(node: ast.Call) -> str | None:
    """Why this call splits text the way only the engine may split an action, or None."""
    func = node.func
    if not isinstance(func, ast.Attribute):
        return None
    args = node.args
    if func.attr in SPLITTERS and (not args or (isinstance(args[0], ast.Constant) and args[0].value == " ")):
        return f".{func.attr}({'' if not args else repr(' ')})"
    first = args[0] if args else None
    if func.attr == "startswith" and isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith(VERBS):
        return f".startswith({first.value!r})"
    return None


def _receiver(node: ast.Call) -> str:
    target = node.func.value  # type: ignore[attr-defined]
    return ast.unparse(target)


def test_no_module_outside_the_engine_splits_an_action():
    """A split or a verb test on anything named like an action, or a test for an action's verb on
    any text, outside papillon/engine: a front end reads an action's fields instead."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("engine/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (why := _splits_an_action(node)):
                receiver = _receiver(node)
                own_text = relative in OWN_GRAMMARS and not why.startswith(".startswith")
                if ("action" in receiver or "legal" in receiver or why.startswith(".startswith")) and not own_text:
                    found.append(f"{relative}:{node.lineno}: {receiver}{why}")
    assert found == []


def test_the_scan_catches_what_it_is_meant_to_catch():
    tree = ast.parse('verb, _, arg = action.partition(" ")\nok = a.startswith("fill ")\nn = text.split()')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert [_splits_an_action(c) for c in calls] == [".partition(' ')", ".startswith('fill ')", ".split()"]


def test_the_editions_choices_are_enums_and_a_bad_one_is_one_line_naming_its_key():
    edition = standard_edition()
    assert type(edition.rules.adjacency) is Adjacency and edition.rules.adjacency is Adjacency.KING
    assert type(edition.scoring.feature_copies) is FeatureCopies
    assert {type(c.centre) for c in edition.cards} == {CardCentre} and {type(c.corner) for c in edition.cards} == {CardCorner}
    assert {type(f.extra) for f in edition.die_faces} == {DieExtra, type(None)}
    assert {type(o.action) for o in edition.gnome} == {EffectAction}
    assert (
        edition.features["gz"].adjacency is None
        and edition_from_toml('[features.po]\nadjacency = "orthogonal"\n').features["po"].adjacency is Adjacency.ORTHOGONAL
    )
    for text, message in [
        ('[scoring]\nfeature_copies = "all"\n', "x.toml: scoring.feature_copies: expected one of 'each', 'best', got 'all'"),
        ('[[gnome.options]]\naction = "dig"\n', "x.toml: gnome.options[0].action: expected one of 'brick', 'field', 'fill', 'move',"),
    ]:
        with pytest.raises(EditionError) as error:
            edition_from_toml(text, "x.toml")
        assert str(error.value).startswith(message) and "\n" not in str(error.value)
