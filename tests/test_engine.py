"""The round engine: invariants over random playouts, illegal actions, every nested rule."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys

import pytest
from engine_helpers import EDITION, cells, dealt, rolled, run, with_board, with_tasks

from papillon.edition import edition_from_toml
from papillon.engine import GameState, make_bot, new_game, play_game
from papillon.engine.evaluate import board_categories, board_score
from papillon.engine.log import bot_rng, chance_rng, derive_seed, game_seed
from papillon.engine.state import Board
from papillon.engine.tables import EDGE_BY_NAME, PLOT_BY_NAME, tables_for
from papillon.engine.tasks import (
    AddBrick,
    AddField,
    ChooseFeature,
    CritterFill,
    FieldAndMove,
    Fill,
    FillOrMove,
    GnomeBonus,
    Move,
    PlaceBramble,
    PlaceCritter,
    Stage,
    Stamp,
    StampAny,
)
from papillon.errors import IllegalActionError
from papillon.score import score

# --------------------------------------------------------------------------- invariants over playouts


class Watcher:
    """Checks the invariants of one game after every step."""

    def __init__(self, state: GameState) -> None:
        self.previous = state
        self.gained = [0] * len(state.boards)
        self.steps = 0
        self.brambles_on_brambles = 0

    def check(self, state: GameState) -> None:
        previous = self.previous
        edition = state.edition
        tables = tables_for(edition)
        assert 0 <= state.round <= edition.rules.rounds
        if not state.is_over() and not state.is_chance():
            assert state.legal_actions(), f"dead end: {state.prompt()}"
        for i, (old, new) in enumerate(zip(previous.boards, state.boards, strict=True)):
            assert new.caterpillars >= old.caterpillars, "the caterpillar track never goes back"
            assert new.caterpillars <= edition.fill.caterpillar_track
            assert new.butterflies & old.butterflies == old.butterflies, "a filled butterfly space stays filled"
            assert new.bricks & old.bricks == old.bricks, "bricks are never erased"
            for plot, (was, now) in enumerate(zip(old.cells, new.cells, strict=True)):
                if now in "RBYP" and now != was:
                    assert was == ".", f"a flower stamped on {plot} which held {was!r}"
                if now != was and now in tables.field_codes and now != "F":
                    assert was == "F", f"{now} drawn on {plot} which held {was!r}"
            repeat = edition.fill.ladders_repeat
            for k, (filled, height) in enumerate(zip(new.ladders, tables.ladders, strict=True)):
                assert 0 <= filled < height if repeat else 0 <= filled <= height
                if filled < old.ladders[k] or (not repeat and filled == height > old.ladders[k]):
                    self.gained[i] += 1  # the top bubble was filled: a critter was gained
            if not repeat:
                gained = [code for code, _ in new.critters]
                assert len(gained) == len(set(gained)), f"a critter gained twice: {gained}"
            for code, plot in new.critters[len(old.critters) :]:
                assert plot == -1 or new.cells[plot] == code
            pending = sum(1 for t in state.tasks if isinstance(t, PlaceCritter)) if i == state.current else 0
            assert self.gained[i] == len(new.critters) + pending, "every critter gained is placed, pending or lost"
            if new.cells != old.cells or new.bricks != old.bricks or new.butterflies != old.butterflies or self.steps % 17 == 0:
                garden = new.garden()
                assert garden.problems(edition) == []
        self.previous = state
        self.steps += 1


def watched_game(seed: int, bots: list[str], edition=EDITION) -> GameState:
    agents = [make_bot(b) for b in bots]
    state = new_game([f"p{i}" for i in range(len(bots))], edition)
    watcher = Watcher(state)
    chances = 0
    decisions = 0
    while not state.is_over():
        if state.is_chance():
            state = state.apply(state.sample_chance(chance_rng(seed, chances)))
            chances += 1
        else:
            action = agents[state.player].choose(state, bot_rng(seed, decisions))
            if state.tasks and state.tasks[-1] == PlaceBramble() and not edition.rules.bramble_on_bramble:
                garden = state.boards[state.player].cells
                target = garden[action.plot]
                assert target != "X" or set(garden) == {"X"}, "a bramble on a bramble while another plot exists"
            state = state.apply(action)
            decisions += 1
        watcher.check(state)
    assert chances == 1 + 2 * edition.rules.rounds
    assert state.round == edition.rules.rounds
    for i in range(len(bots)):
        card = score(state.garden(i), edition)
        assert state.score(i) == card.total == board_score(state.boards[i], edition)
    return state


@pytest.mark.parametrize("seed", range(300))
def test_random_playouts_keep_every_invariant(seed):
    watched_game(seed, ["random"])


@pytest.mark.parametrize("seed", range(150))
def test_greedy_playouts_keep_every_invariant(seed):
    watched_game(1000 + seed, ["greedy"])


@pytest.mark.parametrize("players", [2, 3, 6])
def test_hot_seat_playouts_with_every_bot(players):
    for seed in range(4):
        watched_game(2000 + seed * 10 + players, (["random", "greedy"] * 3)[:players])


def test_search_bot_playouts_keep_every_invariant():
    for seed in range(4):
        watched_game(3000 + seed, ["search"])


OPTION_EDITIONS = [
    '[rules]\nadjacency = "orthogonal"\nbutterfly_diagonal = true\n[play]\ndecline_gains = false\ndie_order = "extra_first"\n',
    '[rules]\nbutterfly_counts = "new"\nbramble_on_bramble = true\n[fill]\nladders_repeat = true\nrondel_after = "always"\n',
    '[rules]\nenclosure = "reachable"\nbutterfly_counts = "new"\n[fill]\nrondel_after = "any_track"\n'
    '[play]\nfeature_without_field = "not_offered"\ndecline_gains = false\n',
    '[features]\npo = false\n[display]\nexclude = ["sh", "bf"]\nB = 0\nC = 0\nD = 0\n[play]\ndecline_gains = false\n',
]


@pytest.mark.parametrize("corrections", OPTION_EDITIONS)
def test_playouts_under_editions_with_every_option_flipped(corrections):
    edition = edition_from_toml(corrections)
    for seed in range(12):
        final = watched_game(4000 + seed, ["random", "greedy"][seed % 2 :][:1], edition)
        assert final.is_over()


@pytest.mark.parametrize(
    "corrections",
    ["", '[scoring]\nfeature_copies = "best"\n', '[rules]\nborder_encloses = true\nadjacency = "orthogonal"\nenclosure = "reachable"\n'],
)
def test_the_bots_evaluator_matches_the_scorer_on_playout_gardens(corrections):
    rng = random.Random(5)
    edition = edition_from_toml(corrections)
    checked = 0
    for _seed in range(60):
        state = new_game(("a",), edition)
        while not state.is_over():
            state = state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_actions()))
            if rng.random() < 0.1:
                board = state.boards[0]
                expected = dict(score(board.garden(), edition).categories)
                assert board_categories(board, edition) == expected
                assert board_score(board, edition) == sum(expected.values())
                checked += 1
    assert checked > 300


def test_a_game_depends_only_on_its_seed():
    first = play_game(7, [make_bot("greedy")])[1].text()
    assert play_game(7, [make_bot("greedy")])[1].text() == first
    assert play_game(8, [make_bot("greedy")])[1].text() != first
    # Stable across runs and machines, as ENGINE.md promises: blake2b (8 bytes, big-endian) of "1:game:0".
    assert derive_seed(1, "game", 0) == int.from_bytes(hashlib.blake2b(b"1:game:0", digest_size=8).digest(), "big")
    assert derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    assert game_seed(1, 5) == derive_seed(1, "game", 5) % 10**9


def test_the_engine_loads_no_heavy_library():
    code = "import sys, papillon.engine; print(' '.join(m for m in ('reportlab', 'PIL', 'click') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == []


# --------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("plot C3", "choose a pair .* expected 'pair'"),
        ("pair 9", "'pair 9' is not allowed"),
        ("dance", "expected 'pair'"),
        ("", "is not allowed"),
        (42, "an action is a string"),
    ],
)
def test_an_illegal_action_raises_and_changes_nothing(action, message):
    state = rolled(dealt())
    before = (state, state.legal_actions(), state.boards, state.tasks)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(action)
    assert (state, state.legal_actions(), state.boards, state.tasks) == before


def test_illegal_plot_and_edge_say_why():
    state = with_board(rolled(dealt()), cells=cells(". . . . .  . . . F .  . R . . .  . F . . .  . . . . ."))
    state = with_tasks(state, Stamp("B"))
    with pytest.raises(IllegalActionError, match="B3 is a red flower, not one of A1"):
        state.apply("plot B3")
    with pytest.raises(IllegalActionError, match="'Z9' is not a plot"):
        state.apply("plot Z9")
    with pytest.raises(IllegalActionError, match="write the plot in capitals"):
        state.apply("plot a1")
    state = with_board(with_tasks(rolled(dealt()), AddBrick(2, True)), bricks=1 << EDGE_BY_NAME["A1-B1"])
    with pytest.raises(IllegalActionError, match="A1-B1 already has a brick"):
        state.apply("edge A1-B1")
    with pytest.raises(IllegalActionError, match="not an edge"):
        state.apply("edge A1-C1")


def test_chance_nodes_check_their_outcomes():
    state = new_game(("a",))
    assert state.is_chance() and state.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="expected the deal"):
        state.apply("pair 1")
    with pytest.raises(IllegalActionError, match="the display shows 2 tiles of type B, got 1"):
        state.apply("deal po,sh,bf,tr,ha,gz")
    with pytest.raises(IllegalActionError, match="'po,sh,bf,bh,tr,fp,ha,gz' is not a display of standard feature tiles"):
        state.apply("deal po,sh,bf,bh,tr,fp,ha,gz")
    with pytest.raises(IllegalActionError, match="expected the deal"):
        state.apply("deal po,sh,bf,tr,fp,ha,gz " + ".".join(map(str, range(36))))
    state = dealt()
    assert state.stage == "reveal"
    for bad in ("reveal 1.2", "reveal 1.1.2", "reveal 1.2.36", "reveal 1.2.²", "roll 1 1 1"):
        with pytest.raises(IllegalActionError, match="expected this round's cards"):
            state.apply(bad)
    state = state.apply("reveal 1.2.3")
    for bad in ("roll 1 2", "roll 0 1 1", "roll 7 1 1", "roll ² 1 1", "pair 1"):
        with pytest.raises(IllegalActionError, match="expected the roll of 3 dice"):
            state.apply(bad)
    with pytest.raises(IllegalActionError, match="no chance event"):
        state.apply("roll 1 1 1").sample_chance(random.Random(1))


def test_a_card_is_revealed_once_per_game():
    state = rolled(dealt(), cards="reveal 1.2.3")
    while not state.is_chance():
        legal = state.legal_actions()
        state = state.apply("skip" if "skip" in legal else legal[0])
    while state.stage != "reveal":
        state = state.apply(state.legal_actions()[0]) if not state.is_chance() else state
    with pytest.raises(IllegalActionError, match="none revealed before"):
        state.apply("reveal 3.4.5")


def test_the_state_holds_no_future():
    """Two games with the same deal but different later cards are the same state until the reveal."""
    state = dealt()
    assert state.revealed == () and state.seen == 0 and state.cards() == ()
    assert state.stage == "reveal"
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 * 35 * 34 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    state = state.apply("reveal 5.6.7")
    assert [c.corner for c in state.cards()] == ["fill", "feature", "feature"]
    rolls = state.chance_outcomes()
    assert len(rolls) == 216 and rolls[0] == ("roll 1 1 1", 1 / 216) and rolls[-1][0] == "roll 6 6 6"


def test_the_deal_offers_every_display():
    deals = new_game(("a",)).chance_outcomes()
    # all 3 A tiles, 2 of the 2 B tiles, 1 of 1 C, 1 of 1 D: one display
    assert deals == (("deal po,sh,bf,tr,fp,ha,gz", 1.0),)
    pond_out = edition_from_toml('[display]\nexclude = ["po"]\nB = 1\n')
    assert [d for d, _ in new_game(("a",), pond_out).chance_outcomes()] == ["deal sh,bf,tr,ha,gz", "deal sh,bf,fp,ha,gz"]
    none = edition_from_toml("[display]\nA = 0\nB = 0\nC = 0\nD = 0\n")
    state = new_game(("a",), none)
    assert state.chance_outcomes() == (("deal -", 1.0),)
    state = with_tasks(rolled(state.apply("deal -").apply("start B4")), ChooseFeature())
    assert state.tasks == (), "a feature corner with an empty display is lost"


# --------------------------------------------------------------------------- the round


def test_setup_deals_the_display_of_seven_tiles():
    state = new_game(("a", "b"))
    state = state.apply(state.sample_chance(random.Random(3)))
    assert state.display == ("po", "sh", "bf", "tr", "fp", "ha", "gz")
    assert state.legal_actions() == ("start B4", "start D2") and state.player == 0
    state = state.apply("start D2")
    assert state.player == 1 and state.boards[0].butterflies == 1 << PLOT_BY_NAME["D2"]
    state = state.apply("start B4")
    assert state.stage is Stage.REVEAL and state.stage == "reveal" and state.round == 1


def test_a_turn_and_the_even_round_bonus():
    state = rolled(dealt(("a", "b")))
    assert state.legal_actions() == ("pair 1", "pair 2", "pair 3")
    state = state.apply("pair 2")
    assert state.legal_actions() == ("part corner", "part centre", "part die")
    # Play both players' turns with "skip" wherever possible.
    while state.stage == "turn":
        legal = state.legal_actions()
        state = state.apply("skip" if "skip" in legal else legal[0])
    assert state.stage == "bonus" and state.round == 2 and state.player == 0
    assert state.legal_actions() == ("gnome stamp", "gnome move", "gnome field", "gnome bricks", "gnome critter")
    assert [state.describe(a) for a in state.legal_actions()] == [
        "stamp a flower of any colour",
        "move a butterfly",
        "add 1 field",
        "place 2 brick edges",
        "fill one critter space",
    ]
    state = run(state, "gnome field")
    assert "plot A1" in state.legal_actions() and "skip" in state.legal_actions()
    state = run(state, "plot A1", "gnome stamp", "colour red", "plot A2")
    assert state.boards[0].cells[0] == "F" and state.boards[1].cells[5] == "R"
    assert state.stage == "reveal" and state.round == 2


def test_the_die_caterpillars_gnome_and_bramble():
    state = with_board(rolled(dealt(), "roll 6 6 6"), caterpillars=2)  # 3 caterpillars + bramble
    state = run(state, "pair 1", "part die")
    assert state.boards[0].caterpillars == 5
    assert state.tasks[-1] == GnomeBonus(), "space 4 gives a gnome bonus before the bramble"
    state = run(state, "gnome bricks", "edge A1-B1", "edge B1-C1")
    assert state.tasks[-1] == PlaceBramble() and "skip" not in state.legal_actions()
    state = run(state, "plot C3")
    assert state.boards[0].cells[12] == "X"


def test_a_full_caterpillar_track_takes_no_more():
    state = with_board(rolled(dealt(), "roll 6 6 6"), caterpillars=23)
    state = run(state, "pair 1", "part die")
    assert state.boards[0].caterpillars == 24
    assert state.tasks == (PlaceBramble(), GnomeBonus())


def test_bramble_overwrites_when_no_plot_is_empty():
    full = cells("R R R R R  B B B B B  Y Y Y Y Y  P P P P F  lb R R R R")
    state = with_board(rolled(dealt()), cells=full, butterflies=1)
    state = with_tasks(state, PlaceBramble())
    assert len(state.legal_actions()) == 25
    state = state.apply("plot A1")
    assert state.boards[0].cells[0] == "X" and state.boards[0].butterflies & 1


def test_a_bramble_never_lands_on_a_bramble_while_another_plot_exists():
    full = cells("X X X X X  X X X X X  X X X X X  X X X X F  lb X X X X")
    state = with_tasks(with_board(rolled(dealt()), cells=full), PlaceBramble())
    assert state.legal_actions() == ("plot E4", "plot A5")
    every = with_tasks(with_board(rolled(dealt()), cells=("X",) * 25), PlaceBramble())
    assert len(every.legal_actions()) == 25, "every plot a bramble: then on a bramble"
    allowed = edition_from_toml("[rules]\nbramble_on_bramble = true\n")
    state = with_tasks(with_board(rolled(dealt(edition=allowed)), cells=full), PlaceBramble())
    assert len(state.legal_actions()) == 25


def test_a_critter_without_an_empty_field_is_lost():
    no_field = cells(". . . . .  . . . . .  . . . . .  . po . . .  . . . . .")
    state = with_board(rolled(dealt()), cells=no_field, ladders=(2, 0, 0))
    state = run(with_tasks(state, Fill()), "fill lb")
    assert state.boards[0].ladders == (3, 0, 0) and state.boards[0].critters == (("lb", -1),)
    state = with_board(state, cells=cells(". . . . .  . . . F .  . . . . .  . . . . .  . . . . ."), ladders=(2, 0, 0))
    state = run(with_tasks(state, Fill()), "fill lb")
    assert state.legal_actions() == ("plot D2",), "a critter must be drawn: no skip"
    state = state.apply("plot D2")
    assert state.boards[0].cells[8] == "lb" and state.boards[0].critters[-1] == ("lb", 8)


def test_a_full_ladder_stays_full_unless_the_edition_repeats_them():
    state = with_board(rolled(dealt()), ladders=(3, 4, 0))
    assert "fill lb" not in with_tasks(state, Fill()).legal_actions()
    assert with_tasks(state, CritterFill()).legal_actions() == ("fill bb", "fill hh", "skip")
    state = with_board(state, ladders=(3, 5, 7))
    assert with_tasks(state, CritterFill()).tasks == (), "no critter space left: the fill is lost"
    repeat = edition_from_toml("[fill]\nladders_repeat = true\n")
    state = with_board(rolled(dealt(edition=repeat)), ladders=(2, 0, 0))
    state = run(with_tasks(state, Fill()), "fill lb")
    assert state.boards[0].ladders == (0, 0, 0) and state.tasks[-1] == PlaceCritter("lb")


def test_a_gnome_option_that_cannot_be_carried_out_is_not_offered():
    full = cells("R R R R R  B B B B B  Y Y Y Y Y  P P P P F  lb R R R R")
    state = with_tasks(with_board(rolled(dealt()), cells=full, butterflies=1, ladders=(3, 5, 7)), GnomeBonus())
    assert state.legal_actions() == ("gnome move", "gnome bricks")
    state = with_board(state, bricks=(1 << 40) - 1)
    assert state.legal_actions() == ("gnome move",)


def test_flower_track_icons_and_the_rondel():
    state = rolled(dealt())
    state = run(with_tasks(state, Fill()), "fill red")
    assert not state.tasks or state.tasks[-1] != Stamp("R"), "bubble 1 has no icon"
    state = run(with_tasks(state, Fill()), "fill red")
    assert state.tasks[-1] == Stamp("R") and state.legal_actions()[-1] == "skip"
    state = run(state, "plot A1", *(()))
    state = run(with_tasks(state, Fill()), "fill red")
    assert state.boards[0].caterpillars == 1, "bubble 3: a caterpillar"
    assert "fill rondel" not in with_tasks(with_board(state, tracks=(6, 6, 6, 5)), Fill()).legal_actions()
    state = with_board(state, tracks=(6, 6, 6, 6))
    state = with_tasks(state, Fill())
    assert "fill rondel" in state.legal_actions() and "fill red" not in state.legal_actions()
    state = run(state, "fill rondel")
    assert state.tasks[-1] == StampAny() and state.boards[0].rondel == 1
    state = run(state, "colour purple", "plot E5")
    assert state.boards[0].cells[24] == "P"
    state = with_board(state, rondel=4)
    assert "fill rondel" not in with_tasks(state, Fill()).legal_actions()


@pytest.mark.parametrize(
    ("after", "tracks", "open_"), [("any_track", (6, 0, 0, 0), True), ("any_track", (5, 5, 5, 5), False), ("always", (0, 0, 0, 0), True)]
)
def test_when_the_rondel_opens_is_edition_data(after, tracks, open_):
    edition = edition_from_toml(f'[fill]\nrondel_after = "{after}"\n')
    state = with_tasks(with_board(rolled(dealt(edition=edition)), tracks=tracks), Fill())
    assert ("fill rondel" in state.legal_actions()) is open_
    assert "fill blue" in state.legal_actions()


def test_shed_places_three_bricks_and_a_field():
    state = with_tasks(rolled(dealt()), ChooseFeature())
    state = run(state, "feature sh", "plot B4")
    assert state.boards[0].cells[16] == "sh"
    assert state.tasks[-1] == AddBrick(3, False)
    state = run(state, "edge A1-B1", "edge B1-C1", "edge C1-D1")
    assert state.tasks[-1] == AddField(1, False)
    state = run(state, "plot A1")
    assert state.boards[0].bricks.bit_count() == 3 and state.boards[0].cells[0] == "F"


def test_tree_fills_per_field_and_patch_among_its_eight_surrounding_plots():
    garden = cells(". . F . .  . . . F .  R R R F F  . F . . B  . . . B B")
    state = with_board(rolled(dealt()), cells=garden)
    state = run(with_tasks(state, ChooseFeature()), "feature tr", "plot D3")
    # D3's 8 neighbours: C2 ., D2 F, E2 ., C3 red patch A3-C3, E3 F, C4 ., D4 ., E4 blue patch E4-D5-E5
    # (C1 is a field two rows up, B4 a field two columns left: neither counts)
    assert [t for t in state.tasks if t == Fill()] == [Fill()] * 4
    orthogonal = edition_from_toml('[features.tr]\nadjacency = "orthogonal"\n')
    state = with_board(rolled(dealt(edition=orthogonal)), cells=garden)
    state = run(with_tasks(state, ChooseFeature()), "feature tr", "plot D3")
    # D2 F, E3 F, C3 red patch, D4 empty
    assert [t for t in state.tasks if t == Fill()] == [Fill()] * 3


def test_foot_path_offers_fill_or_move_per_row_with_flowers():
    garden = cells("R . . . .  . . . F .  . . . . .  . F . . P  . . . . Y")
    state = with_board(rolled(dealt()), cells=garden, butterflies=1 << 16)
    state = run(with_tasks(state, ChooseFeature()), "feature fp", "plot D2")
    assert [t for t in state.tasks if t == FillOrMove()] == [FillOrMove()] * 3
    state = run(state, "choose move", "from B4", "to B2")
    assert state.boards[0].butterflies == (1 << 16) | (1 << 11) | (1 << 6)
    state = run(state, "choose fill", "fill hh", "skip")
    assert state.boards[0].ladders == (0, 0, 1)


def test_feature_with_no_empty_field_is_lost():
    state = with_board(rolled(dealt()), cells=cells(". . . . .  . . . lb .  . . . . .  . bb . . .  . . . . ."))
    assert with_tasks(state, ChooseFeature()).tasks == ()
    assert with_tasks(state, Stamp("R")).tasks == (Stamp("R"),)
    full = with_board(state, cells=("R",) * 25)
    assert with_tasks(full, Stamp("R")).tasks == (), "a stamp with no empty plot is lost"
    assert with_tasks(full, AddField(2, True)).tasks == ()


def test_field_and_move_in_any_order():
    state = rolled(dealt(), "roll 1 1 1")
    state = with_tasks(state, FieldAndMove(2, 1))
    state = run(state, "plot A1", "from B4", "to B1")
    assert state.tasks[-1] == FieldAndMove(1, 0)
    state = run(state, "plot E5")
    assert state.tasks == () and state.boards[0].cells[24] == "F"


def test_butterfly_moves_straight_within_the_garden():
    state = with_tasks(rolled(dealt()), Move())
    assert state.legal_actions() == ("from B4", "skip")
    state = state.apply("from B4")
    assert set(state.legal_actions()) == {"to B3", "to B2", "to B1", "to C4", "to D4", "to E4", "to B5", "to A4"}
    assert state.apply("to E4").boards[0].butterflies == sum(1 << p for p in (16, 17, 18, 19))


def test_butterfly_steps_over_filled_spaces_count_unless_the_edition_says_new():
    flies = sum(1 << PLOT_BY_NAME[p] for p in ("A1", "B1", "C1"))
    state = with_tasks(with_board(rolled(dealt()), butterflies=flies), Move())
    state = state.apply("from A1")
    assert set(state.legal_actions()) == {"to B1", "to C1", "to D1", "to A2", "to A3", "to A4"}
    new = edition_from_toml('[rules]\nbutterfly_counts = "new"\n')
    state = with_tasks(with_board(rolled(dealt(edition=new)), butterflies=flies), Move())
    state = state.apply("from A1")
    # east: B1 C1 filled, then D1 E1 new (2 new, the edge stops it); south: A2 A3 A4 new
    assert set(state.legal_actions()) == {"to D1", "to E1", "to A2", "to A3", "to A4"}
    assert state.apply("to E1").boards[0].butterflies == flies | (1 << 3) | (1 << 4)


def test_without_declining_a_stamp_cannot_be_skipped():
    edition = edition_from_toml("[play]\ndecline_gains = false\n")
    state = with_tasks(rolled(dealt(edition=edition)), Stamp("R"))
    assert "skip" not in state.legal_actions()
    state = with_tasks(rolled(dealt(edition=edition)), AddBrick(2, True))
    assert "skip" in state.legal_actions(), "corner bricks are 'up to 2'"
    state = with_tasks(rolled(dealt(edition=edition)), AddBrick(3, False))
    assert "skip" not in state.legal_actions(), "a Shed's bricks are not"


def test_a_game_ends_after_round_ten_with_the_scorers_score():
    final, log = play_game(21, [make_bot("greedy")])
    assert final.is_over() and final.round == 10 and final.legal_actions() == ()
    assert sum(1 for e in log.events if "chance" in e) == 21
    assert log.end is not None and log.end["scores"] == [score(final.garden(0)).total]
    with pytest.raises(IllegalActionError, match="no decision is possible"):
        final.apply("pair 1")


def test_a_feature_corner_with_no_empty_field_can_be_not_offered():
    no_field = cells(". . . . .  . . . lb .  . . . . .  . bb . . .  . . . . .")
    lost = with_board(rolled(dealt()), cells=no_field)
    assert lost.legal_actions() == ("pair 1", "pair 2", "pair 3")
    edition = edition_from_toml('[play]\nfeature_without_field = "not_offered"\n')
    state = with_board(rolled(dealt(edition=edition), cards="reveal 0.2.4"), cells=no_field)
    assert state.legal_actions() == ("pair 2", "pair 3"), "card 0 has a feature corner"
    state = with_board(rolled(dealt(edition=edition), cards="reveal 0.1.6"), cells=no_field)
    assert state.legal_actions() == ("pair 1", "pair 2", "pair 3"), "every pair has one: all are offered"


def test_prompts_and_descriptions_read_well():
    state = rolled(dealt(), "roll 5 1 2")
    assert "choose a pair" in state.prompt()
    assert "die: 2 caterpillars + bramble" in state.describe("pair 1")
    state = run(state, "pair 1")
    assert state.describe("part die") == "the die: 2 caterpillars + bramble"
    state = with_tasks(state, ChooseFeature())
    assert "Shed" in state.describe("feature sh") and "place 3 brick edges" in state.describe("feature sh")
    assert "decline" in state.describe("skip")


def test_board_garden_round_trips_through_notation():
    final, _ = play_game(4, [make_bot("random")])
    garden = final.garden(0)
    assert isinstance(final.boards[0], Board)
    assert type(garden).from_notation(garden.to_notation()) == garden


def test_the_player_count_is_edition_data():
    with pytest.raises(ValueError, match="a game of the standard edition has 1 to 6 players, got 7"):
        new_game(tuple("abcdefg"))
    pair = edition_from_toml("[edition]\nname = 'duo'\n[play]\nmax_players = 2\n")
    assert len(new_game(("a", "b"), pair).boards) == 2
    with pytest.raises(ValueError, match="a game of the duo edition has 1 to 2 players, got 3"):
        new_game(("a", "b", "c"), pair)


def test_the_old_birdhouse_tile_is_refused_with_what_to_choose_instead():
    state = with_tasks(rolled(dealt()), ChooseFeature())
    with pytest.raises(IllegalActionError) as error:
        state.apply("feature bh")
    assert str(error.value).endswith("'bh' is not a tile of the standard edition: the Birdhouse is the Bird Feeder: write bf")
