"""Editions: the standard data, a player's corrections, and errors that name the key."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papillon import Garden, score
from papillon.edition import earlier_standard_editions, edition_from_toml, load_edition, standard_edition
from papillon.engine import make_bot, parse_log, play_game, replay
from papillon.errors import EditionError
from papillon.grid import parse_plot


def test_standard_edition_holds_the_rulebook_numbers():
    ed = standard_edition()
    assert ed.name == "standard"
    assert ed.rules.starting_fields == (parse_plot("B4"), parse_plot("D2"))
    assert ed.rules.border_encloses is False and ed.rules.adjacency == "king"
    assert ed.rules.enclosure == "encircled" and ed.rules.enclosure_forbids == ("empty", "field")
    assert ed.rules.bramble_on_bramble is False and ed.rules.butterfly_counts == "steps"
    assert ed.fill.ladders_repeat is False and ed.fill.rondel_after == "all_tracks"
    assert ed.play.max_players == 6 and ed.play.feature_without_field == "lost" and ed.display_exclude == ()
    assert {c: (x.points, x.ladder) for c, x in ed.critters.items()} == {"lb": (1, 3), "bb": (3, 5), "hh": (5, 7)}
    assert list(ed.features) == ["po", "sh", "bf", "tr", "fp", "ha", "gz"]
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
        ('[rules]\nadjacency = "hex"\n', "x.toml: rules.adjacency: expected one of 'king', 'orthogonal', got 'hex'"),
        ('[rules]\nenclosure = "inside"\n', "x.toml: rules.enclosure: expected one of 'encircled', 'reachable', got 'inside'"),
        (
            '[rules]\nenclosure_forbids = ["weeds"]\n',
            "x.toml: rules.enclosure_forbids[0]: expected one of 'empty', 'field', 'bramble', got 'weeds'",
        ),
        ('[rules]\nbutterfly_counts = "all"\n', "x.toml: rules.butterfly_counts: expected one of 'steps', 'new', got 'all'"),
        ("[rules]\nbramble_on_bramble = 1\n", "x.toml: rules.bramble_on_bramble: expected true or false, got a whole number"),
        ('[fill]\nrondel_after = "never"\n', "x.toml: fill.rondel_after: expected one of 'all_tracks', 'any_track', 'always', got 'never'"),
        ('[fill]\nladders_repeat = "no"\n', "x.toml: fill.ladders_repeat: expected true or false, got a string"),
        ("[play]\nmax_players = 7\n", "x.toml: play.max_players: expected a whole number from 1 to 6, got 7"),
        (
            '[play]\nfeature_without_field = "kept"\n',
            "x.toml: play.feature_without_field: expected one of 'lost', 'not_offered', got 'kept'",
        ),
        ('[features.po]\nadjacency = "hex"\n', "x.toml: features.po.adjacency: expected one of 'king', 'orthogonal', got 'hex'"),
        ('[display]\nexclude = ["bh"]\n', "x.toml: display.exclude: 'bh' is not a feature tile of this edition"),
        ("[display]\nexclude = [3]\n", "x.toml: display.exclude[0]: expected a tile code, got a whole number"),
        ("[cards]\ndeck_size = 9\n", "x.toml: cards.deck_size: decks of 9 cards cannot last 10 rounds (rules.rounds)"),
        ("[rules]\nrounds = 20\n", "x.toml: cards.deck_size: decks of 12 cards cannot last 20 rounds (rules.rounds)"),
        (
            "[rules]\nrounds = 13\n[cards]\ndeck_size = 13\n",
            "x.toml: cards.mix: 36 cards cannot fill 3 decks of 13",
        ),
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


def test_a_tile_can_be_removed_or_left_out_of_the_display():
    no_pond = edition_from_toml("[features]\npo = false\n")
    assert "po" not in no_pond.features and len(no_pond.features) == 6
    hidden = edition_from_toml('[display]\nexclude = ["po"]\n')
    assert "po" in hidden.features and hidden.display_exclude == ("po",)


def test_the_edition_of_earlier_logs_is_kept_as_data():
    (v1,) = earlier_standard_editions()
    assert v1.fingerprint == "1bc5faf49f21" and v1.name == "standard"
    assert "bh" in v1.features and v1.rules.adjacency == "orthogonal"
    # keys added by the revision are absent from its data and mean what papillon did then
    assert v1.rules.enclosure == "reachable" and v1.fill.ladders_repeat is True and v1.rules.bramble_on_bramble is True
    assert "enclosure" not in v1.data["rules"]


def test_the_old_birdhouse_code_is_refused_with_what_to_write():
    ed = standard_edition()
    assert ed.retired_note("bh") == "the Birdhouse is the Bird Feeder: write bf"
    assert ed.retired_note("bf") is None and ed.retired_note("zz") is None
    assert earlier_standard_editions()[0].retired_note("bh") is None


EDITION_VALUES = {
    "rules.rounds": ["1", "2", "12", "20", "0"],
    "rules.bonus_rounds": ["[]", "[1]", "[1, 2, 3]", "[12]"],
    "rules.patch_min": ["2", "25"],
    "rules.butterfly_steps": ["1", "4"],
    "rules.corner_bricks": ["0", "40"],
    "rules.centre_fields": ["0", "25"],
    "rules.starting_fields": ['["A1"]', '["A1", "B1", "C1", "D1"]'],
    "rules.butterfly_diagonal": ["true"],
    "rules.border_encloses": ["true"],
    "rules.butterfly_counts": ['"new"'],
    "rules.bramble_on_bramble": ["true"],
    "rules.enclosure": ['"reachable"'],
    "cards.deck_size": ["1", "9", "10"],
    "cards.decks": ["1", "6"],
    "dice.count": ["1", "6"],
    "dice.faces": ["[{caterpillars = 0}]", '[{caterpillars = 10, extra = "bramble"}]', '[{caterpillars = 1, extra = "field"}]'],
    "display.A": ["0", '"all"', "20"],
    "display.B": ["0", "5"],
    "display.exclude": ['["po", "sh", "bf"]', '["tr", "fp", "ha", "gz"]'],
    "fill.flower_track": ['[""]', '["gnome", "gnome"]'],
    "fill.rondel": ['["stamp"]', '["gnome"]'],
    "fill.caterpillar_track": ["1", "100"],
    "fill.caterpillar_gnome_spaces": ["[]", "[1]"],
    "fill.ladders_repeat": ["true"],
    "fill.rondel_after": ['"always"', '"any_track"'],
    "gnome.options": ['[{action = "move"}]', '[{action = "fill", count = 3}]', '[{action = "brick", count = 40}]'],
    "play.decline_gains": ["false"],
    "play.die_order": ['"extra_first"'],
    "play.feature_without_field": ['"not_offered"'],
    "play.round_bonus": ['[{action = "stamp_any", count = 5}]'],
    "features.po": ["false"],
    "features.sh": ["false"],
    "features.tr": ["false"],
}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(sorted(EDITION_VALUES)), st.integers(0, 4), max_size=6), st.sampled_from(["random", "greedy"]))
def test_every_edition_that_loads_plays_to_the_end(choices, bot):
    tables: dict[str, list[str]] = {}
    for key, index in choices.items():
        table, name = key.split(".")
        values = EDITION_VALUES[key]
        tables.setdefault(table, []).append(f"{name} = {values[index % len(values)]}")
    text = "".join(f"[{table}]\n" + "\n".join(lines) + "\n" for table, lines in tables.items())
    try:
        edition = edition_from_toml(text, source="x.toml")
    except EditionError as error:
        assert str(error).startswith("x.toml: ") and "\n" not in str(error)
        return
    final, log = play_game(3, [make_bot(bot)], edition=edition)
    assert final.is_over() and final.round == edition.rules.rounds
    assert replay(parse_log(log.text())).score(0) == final.score(0)
