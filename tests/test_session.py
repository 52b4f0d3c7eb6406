"""The library play session's helpers the terminal and the web share: names, choices, standings, saved games."""

from __future__ import annotations

import os
import random
import re
import threading
from pathlib import Path

import pytest

from papillon.edition import standard_edition
from papillon.engine import GreedyBot
from papillon.engine.actions import Action, Kind
from papillon.errors import IllegalActionError, PapillonError, SessionError
from papillon.files import MAX_LOG_BYTES, MAX_TEXT_BYTES
from papillon.report import Standing, rank
from papillon.session import (
    PlaySession,
    Seat,
    check_name,
    check_names,
    check_player_count,
    check_seed,
    explain_choices,
    list_games,
    match_choice,
    standings,
)
from papillon.table import Table

LEGAL = ("skip", "plot C3", "plot D3", "edge B1-C1", "colour red", "colour blue")


@pytest.mark.parametrize(
    ("typed", "action"),
    [("2", "plot C3"), ("c3", "plot C3"), ("C1-B1", "edge B1-C1"), ("b1-c1", "edge B1-C1"), (" RED ", "colour red"), ("skip", "skip")],
)
def test_a_choice_by_number_or_by_its_object(typed, action):
    assert match_choice(typed, LEGAL) == action


def test_a_choice_that_is_out_of_range_or_ambiguous_is_refused():
    with pytest.raises(IllegalActionError, match=r"^choose 1 to 6 \('\?' explains them\)$"):
        match_choice("7", LEGAL)
    with pytest.raises(IllegalActionError, match=r"^'c3' could be 1\. plot C3 or 2\. from C3: type the number$"):
        match_choice("c3", ("plot C3", "from C3"))
    assert match_choice("plot Q9", LEGAL) == "plot Q9", "the engine says why it is not allowed"


def test_one_name_check_for_every_front_end():
    assert check_name("  Zoé ") == "Zoé"
    assert check_names(["Ann", " Bob"]) == ("Ann", "Bob")
    for bad, message in [
        ("", "a name cannot be empty or only spaces"),
        ("Ann #1", "a name cannot hold '#'"),
        ("a\tb", "a name cannot hold the invisible or control character U+0009"),
        ("x" * 61, "a name has at most 60 characters, got 61"),
    ]:
        with pytest.raises(SessionError, match="^" + re.escape(message)):
            check_name(bad)
    with pytest.raises(SessionError, match=r"^each player needs a different name$"):
        check_names(["Ann", "Ann "])
    assert issubclass(SessionError, PapillonError)


def test_the_web_session_refuses_the_same_names(tmp_path):
    with pytest.raises(SessionError, match=r"^a name cannot hold '#'"):
        PlaySession.new(seed=5, seats=[Seat("Ann #1")], folder=tmp_path)
    assert PlaySession.new(seed=5, seats=[Seat("x" * 60)], folder=tmp_path).state.game.players == ("x" * 60,)


def test_ties_share_a_place_in_the_order_given():
    # Worked out by hand: 40 first; the two 30s share place 2 in the order given; 10 is 4th, not 3rd.
    assert rank([("Cy", 30, ""), ("Ann", 40, "a"), ("Bo", 30, ""), ("Di", 10, "")]) == [
        Standing(1, "Ann", 40, "a"),
        Standing(2, "Cy", 30, ""),
        Standing(2, "Bo", 30, ""),
        Standing(4, "Di", 10, ""),
    ]


def test_choices_explained_and_standings_of_a_fresh_game(tmp_path):
    session = PlaySession.new(seed=5, seats=[Seat("Ann"), Seat("Bob")], folder=tmp_path)
    # Nobody has scored before the first start: both at 0, in seat order.
    assert standings(session.state) == [Standing(1, "Ann", 0), Standing(1, "Bob", 0)]
    explained = explain_choices(session.state)
    assert [c.action for c in explained] == list(session.state.legal_actions())
    assert [c.number for c in explained] == list(range(1, len(explained) + 1))
    # Choosing a start fills its butterfly space: 1 point (the terminal's play test shows "score now 1" after "start B4").
    first = explained[0]
    assert (first.action, first.score, first.change, first.outcome) == ("start B4", 1, 1, "→ score 1 (+1)")
    assert session.choose("B4") == [] and session.state.player == 1


# --------------------------------------------------------------------------- saved games: bounded, never a hang


def _grow(path: Path, size: int) -> None:
    """Make ``path`` ``size`` bytes long: what it held stays at the start, zeros follow (a sparse file: no disk is used)."""
    with open(path, "r+b") as handle:
        handle.truncate(size)


def test_a_save_over_the_size_limit_is_one_line_and_left_out_of_the_list(tmp_path: Path) -> None:
    session = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path)
    assert [game.id for game in list_games(tmp_path)] == [session.id]
    _grow(session.path, MAX_LOG_BYTES + 1)  # its header line is still good: only the size says it is not a save
    assert list_games(tmp_path) == []
    with pytest.raises(SessionError) as caught:
        PlaySession.resume(session.id, tmp_path)
    assert str(caught.value) == f"the saved game {session.id} cannot be read: {session.id}.jsonl: over 50 MB: is this the right file?"
    assert caught.value.parameter is None  # the game is there: the id was right


def test_a_saved_games_edition_over_the_size_limit_is_one_line(tmp_path: Path) -> None:
    session = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path, edition_text="[rules]\nbutterfly_steps = 2\n")
    _grow(session.path.with_suffix(".toml"), MAX_TEXT_BYTES + 1)
    with pytest.raises(SessionError) as caught:
        PlaySession.resume(session.id, tmp_path)
    assert str(caught.value) == f"the saved game {session.id} cannot be read: {session.id}.toml: over 1 MB: is this the right file?"


def test_a_save_that_is_not_utf8_names_its_file(tmp_path: Path) -> None:
    session = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path)
    session.path.write_bytes(b"\xff\xfe{}\n")
    with pytest.raises(SessionError) as caught:
        PlaySession.resume(session.id, tmp_path)
    assert str(caught.value) == f"the saved game {session.id} cannot be read: {session.id}.jsonl: not UTF-8 text"


def test_a_save_with_a_name_no_game_takes_is_refused_as_the_terminal_refuses_it(tmp_path: Path) -> None:
    # Hand-edited, or saved before names were checked: read_log (play --resume FILE) refuses it, and so does a resume by id.
    session = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path)
    session.path.write_text(session.path.read_text().replace('"name":"Ann"', '"name":"Ann #1"', 1))
    with pytest.raises(SessionError) as caught:
        PlaySession.resume(session.id, tmp_path)
    reason = "a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'"
    assert str(caught.value) == f"the saved game {session.id} cannot be read: player 1: {reason}"


def test_a_missing_save_is_about_the_game_id(tmp_path: Path) -> None:
    with pytest.raises(SessionError) as caught:
        PlaySession.resume("5-0123abcd", tmp_path)
    assert (str(caught.value), caught.value.parameter) == ("no saved game '5-0123abcd'", "game_id")


def test_a_save_nested_too_deep_is_left_out_of_the_list(tmp_path: Path) -> None:
    # A header line of 100,000 brackets: json.loads would raise RecursionError, which no "unreadable" except catches.
    good = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path)
    (tmp_path / "games" / "6-0123abcd.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    (tmp_path / "games" / "7-0123abcd.jsonl").write_text('{"seed": ' + "9" * 5000 + ', "players": []}\n')
    assert [game.id for game in list_games(tmp_path)] == [good.id]


def test_a_pipe_among_the_saves_is_never_opened(tmp_path: Path) -> None:
    # Opening a FIFO waits for a writer: listing or resuming must not (the web's home page lists the saves).
    (tmp_path / "games").mkdir()
    fifo = tmp_path / "games" / "5-0123abcd.jsonl"
    os.mkfifo(fifo)
    outcome: list[object] = []

    def look() -> None:
        outcome.append([game.id for game in list_games(tmp_path)])
        try:
            PlaySession.resume("5-0123abcd", tmp_path)
        except SessionError as error:
            outcome.append((str(error), error.parameter))

    worker = threading.Thread(target=look, daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # let a reader blocked in open() go: a writer that comes and goes is an end of file
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(timeout=20)
        pytest.fail("a FIFO among the saved games was opened")
    assert outcome == [[], ("no saved game '5-0123abcd'", "game_id")]


# --------------------------------------------------------------------------- one seed rule, one player-count rule


@pytest.mark.parametrize("seed", [-1, 10**12, 10**30])
def test_a_table_takes_a_seed_by_the_games_rule(seed: int) -> None:
    with pytest.raises(SessionError) as caught:
        Table.new(seed=seed)
    assert (str(caught.value), caught.value.parameter) == (f"the seed is a whole number from 0 to 999999999999, not {seed}", "seed")


def test_the_seed_rule_never_prints_a_huge_number() -> None:
    # str() of an int of 5,000 digits is itself a ValueError (Python's 4,300-digit limit): the message must not try.
    for seed in (10**5000, -(10**5000)):
        with pytest.raises(SessionError) as caught:
            check_seed(seed)
        assert str(caught.value) == "the seed is a whole number from 0 to 999999999999, not a number of more than 40 digits"
    with pytest.raises(SessionError, match=r"^the seed is a whole number from 0 to 999999999999, not -1234567890123$"):
        Table.new(seed=-1234567890123)


def test_a_table_deals_from_any_seed_the_rule_allows() -> None:
    # The same seed gives the same cards and dice: the two ends of the range work and differ.
    first, last = Table.new(seed=0), Table.new(seed=999999999999)
    assert (first.seed, last.seed) == (0, 999999999999)
    assert first.reveal() == Table.new(seed=0).reveal()
    assert first.now() != last.reveal()


def test_the_player_count_follows_the_edition() -> None:
    from papillon.edition import edition_from_toml

    three = edition_from_toml("[play]\nmax_players = 3\n")
    assert check_player_count(3, three) == 3
    for count in (0, 4, 10**20):
        with pytest.raises(SessionError, match=rf"^a game has 1 to 3 players, got {count}$"):
            check_player_count(count, three)
    with pytest.raises(SessionError, match=r"^a game has 1 to 3 players, got 4$"):
        PlaySession.start(seed=1, seats=[Seat(f"P{i}") for i in range(4)], path=Path("unused.jsonl"), edition=three)


# --------------------------------------------------------------------------- issue 23, items 5, 8 and 9


def test_a_tile_or_critter_is_typed_by_its_name():
    legal = ("feature po", "feature gz", "skip")
    assert match_choice("Gazebo", legal, standard_edition()) == "feature gz"
    assert match_choice("  gazebo ", legal, standard_edition()) == "feature gz", "any case, any spaces"
    assert match_choice("HEDGEHOG", ("fill lb", "fill hh", "fill red"), standard_edition()) == "fill hh"
    assert match_choice("gz", legal, standard_edition()) == "feature gz", "the code still works"


def test_a_bots_move_says_what_was_done(tmp_path):
    from papillon.engine.text import done_text

    session = PlaySession.new(seed=5, seats=[Seat("Ann"), Seat("greedy bot", "greedy")], folder=tmp_path)
    moves = session.act("start B4")
    assert [(m.who, m.words) for m in moves] == [("greedy bot", "filled the butterfly space of B4 to start")]
    state = session.state
    state = state.apply("pair 1").apply("part centre")  # pair 1 of seed 5: a stamp card
    colour = state.tasks[-1].colour
    name = {"R": "red", "B": "blue", "Y": "yellow", "P": "purple"}[colour]
    assert done_text(state, Action.parse("plot C3")) == f"drew a {name} flower in C3"
    assert done_text(state, Action.parse("skip")) == "declined the gain"


def test_help_says_what_a_choice_that_scores_nothing_yet_can_lead_to(tmp_path):
    session = PlaySession.new(seed=5, seats=[Seat("Ann")], folder=tmp_path)
    session.act("start B4")
    pairs = explain_choices(session.state)
    assert [c.action.kind for c in pairs] == [Kind.PAIR] * 3
    assert all("unchanged" not in c.outcome for c in pairs)
    assert [c.outcome for c in pairs] == [f"→ can lead to {c.reach:+d} this turn" for c in pairs] and all(c.reach > 0 for c in pairs)
    # The gain is real: the rest of the turn played greedily from pair 3 reaches it.
    state = session.state
    best = max(pairs, key=lambda c: c.reach)
    after = state.apply(best.action)
    bot = GreedyBot()
    rng = random.Random(0)
    while after.player == 0 and after.round == 1 and not after.is_chance():
        after = after.apply(bot.choose(after, rng))
    assert after.score(0) - state.score(0) == best.reach


def test_a_tile_typed_by_name_at_the_prompt_is_taken(tmp_path):
    # Issue 23 item 9, through the path the play prompt takes (PlaySession.choose).
    session = PlaySession.new(seed=7, seats=[Seat("Ann")], folder=tmp_path)
    bot, rng = GreedyBot(), random.Random(1)
    while not any(a.kind is Kind.FEATURE for a in session.state.legal_actions()):
        session.act(bot.choose(session.state, rng))
    code = next(a.code for a in session.state.legal_actions() if a.kind is Kind.FEATURE)
    name = session.state.edition.features[code].name
    session.choose(name.upper())
    assert session.log.events[-1]["action"] == f"feature {code}"


def test_a_resumed_game_undoes_as_far_back_as_if_it_had_never_stopped(tmp_path):
    # A server restart, or a room dropped from its memory, resumes the game from its log: undo (one person's
    # turn) and undo_seat (one seat's turn this round) must still reach back to where they did before.
    def played() -> PlaySession:
        session = PlaySession.new(seed=5, seats=[Seat("Ann"), Seat("Bob"), Seat("greedy", bot="greedy")], folder=tmp_path)
        for _ in range(40):  # into the rounds, stopping somewhere inside a person's turn
            session.act(session.state.legal_actions()[0])
        return session

    unbroken = played()
    resumed = PlaySession.resume(unbroken.id, tmp_path)
    assert resumed.checkpoint[1] == unbroken.checkpoint[1] < len(resumed.log.events)
    assert resumed.stage_start is not None and unbroken.stage_start is not None
    assert resumed.stage_start[1] == unbroken.stage_start[1]
    assert resumed.can_undo() and unbroken.undo() and resumed.undo()
    assert resumed.log.events == unbroken.log.events and resumed.state.boards == unbroken.state.boards
    assert resumed.state.legal_actions() == unbroken.state.legal_actions()
