"""The library play session's helpers the terminal and the web share: names, choices, standings."""

from __future__ import annotations

import re

import pytest

from papillon.errors import IllegalActionError, PapillonError, SessionError
from papillon.report import Standing, rank
from papillon.session import PlaySession, Seat, check_name, check_names, explain_choices, match_choice, standings

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
    with pytest.raises(IllegalActionError, match=r"^'c3' could be 1\. plot C3 or 2\. edge C3: type the number$"):
        match_choice("c3", ("plot C3", "edge C3"))
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
