"""Editions: the standard data, a player's corrections, and errors that name the key."""

import pytest

from papillon import Garden, score
from papillon.edition import edition_from_toml, load_edition, standard_edition
from papillon.errors import EditionError
from papillon.grid import parse_plot


def test_standard_edition_holds_the_rulebook_numbers():
    ed = standard_edition()
    assert ed.name == "standard"
    assert ed.rules.starting_fields == (parse_plot("B4"), parse_plot("D2"))
    assert ed.rules.border_encloses is False and ed.rules.adjacency == "orthogonal"
    assert {c: (x.points, x.ladder) for c, x in ed.critters.items()} == {"lb": (1, 3), "bb": (3, 5), "hh": (5, 7)}
    assert list(ed.features) == ["po", "sh", "bf", "bh", "tr", "fp", "ha", "gz"]
    assert len(ed.cards) == 36 and sum(c.centre == "stamp" for c in ed.cards) == 24
    assert len(ed.die_faces) == 6 and ed.dice == 3
    assert ed.fill.caterpillar_gnome_spaces == (4, 8, 12, 16, 20, 24)


def test_a_correction_file_overrides_only_what_it_names():
    ed = edition_from_toml("[scoring]\nunique_feature = 2\n[rules]\nborder_encloses = true\n")
    assert ed.scoring.unique_feature == 2 and ed.scoring.flower == 1
    assert ed.rules.border_encloses is True and ed.rules.patch_min == 3
    assert ed.fingerprint != standard_edition().fingerprint


def test_an_extra_feature_tile_is_parsed_and_scored():
    ed = edition_from_toml('[features.wm]\nname = "Wildflower Meadow"\ntype = "C"\nscore = { count = "adjacent_flowers", points = 1 }\n')
    garden = Garden.from_notation(
        "papillon garden v1\n\n     A     B     C     D     E\n"
        " 1   R     wm    Y     .     .\n 2   .     B     .     .     .\n"
        " 3   .     .     .     .     .\n 4   .     .     .     .     .\n 5   .     .     .     .     .\n",
        ed,
    )
    card = score(garden, ed)
    assert card.categories["features"] == 3
    assert card.categories["unique_features"] == 3
    assert garden.problems(ed) == []
    assert garden.problems() == ["B1: 'wm' is not a critter or feature of the standard edition"]


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[features.po]\nscroe = 1\n", "x.toml: features.po.scroe: unknown key"),
        ('[rules]\nborder_encloses = "yes"\n', "x.toml: rules.border_encloses: expected true or false, got a string"),
        ("[rules]\npatch_min = true\n", "x.toml: rules.patch_min: expected a whole number, got true or false"),
        ('[rules]\nadjacency = "hex"\n', "x.toml: rules.adjacency: expected one of 'orthogonal', 'king', got 'hex'"),
        ('[rules]\nstarting_fields = ["Z9"]\n', "x.toml: rules.starting_fields[0]: not a plot name: 'Z9' (expected A1 to E5)"),
        (
            '[rules]\nstarting_fields = ["A1", "A2", "A3", "A4", "A5"]\n',
            "x.toml: rules.starting_fields: expected 1 to 4 different plots",
        ),
        ("[scoring]\nflower = -1\n", "x.toml: scoring.flower: expected a whole number from 0 to 100, got -1"),
        ('[features.Zz]\nname = "Odd"\ntype = "A"\n', "x.toml: features.Zz: a critter or feature code is two lower-case letters"),
        ('[features.xx]\ntype = "A"\n', "x.toml: features.xx.name: missing"),
        ('[features.xx]\nname = "X"\ntype = "E"\n', "x.toml: features.xx.type: expected one of 'A', 'B', 'C', 'D', got 'E'"),
        (
            '[features.xx]\nname = "X"\ntype = "C"\nscore = { count = "smiles", points = 1 }\n',
            "x.toml: features.xx.score.count: expected one of 'distinct_adjacent', 'adjacent_critters', 'adjacent_flowers', "
            "'adjacent_fields', 'adjacent_brambles', 'adjacent_butterflies', 'patch_colours', 'flowers_with_butterfly', "
            "'flowers', 'patches', 'enclosed_patches', 'butterflies', 'brambles', 'fields', got 'smiles'",
        ),
        ('[critters.po]\nname = "Frog"\npoints = 2\nladder = 4\n', "x.toml: code 'po' is both a critter and a feature"),
        ("[cards]\ndeck_size = 20\n", "x.toml: cards.mix: 36 cards cannot fill 3 decks of 20"),
        (
            "[fill]\nflower_track = ['', 'dance']\n",
            "x.toml: fill.flower_track[1]: expected one of '', 'stamp', 'caterpillar', 'gnome', 'stamp_any', got 'dance'",
        ),
        ("rules = 3\n", "x.toml: rules: expected a table, got a whole number"),
        ("[rules\n", "x.toml: not valid TOML: Expected ']' at the end of a table declaration (at line 1, column 7)"),
    ],
)
def test_bad_edition_files_name_the_key(toml, message):
    with pytest.raises(EditionError) as error:
        edition_from_toml(toml, source="x.toml")
    assert str(error.value) == message


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(EditionError, match=r"nope.toml: cannot read edition file \(No such file or directory\)"):
        load_edition(tmp_path / "nope.toml")
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(EditionError, match="not a text file"):
        load_edition(binary)


def test_a_correction_file_that_does_not_name_itself_gets_a_derived_name(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text("[scoring]\nunique_feature = 2\n")
    assert load_edition(house).name == "standard+house"
    house.write_text('[edition]\nname = "Grandma"\n')
    assert load_edition(house).name == "Grandma"
