"""Game logs: golden games replay to known gardens, saves resume identically, bad logs say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papillon.edition import edition_from_toml, standard_edition
from papillon.engine import GameLogError, GreedyBot, SearchBot, make_bot, parse_log, play_game, replay
from papillon.engine.log import GameLog, step
from papillon.engine.state import new_game
from papillon.notation import parse
from papillon.score import score

GAMES = Path(__file__).parent / "games"

GOLDEN = {
    # log file: final scores, as recorded when the log was made (regression guards)
    "solo-random-seed11.jsonl": [19],
    "solo-greedy-seed12.jsonl": [51],
    "solo-search-seed13.jsonl": [91],
    "three-players-seed14.jsonl": [47, 22, 95],
}


@pytest.mark.parametrize(("name", "scores"), GOLDEN.items())
def test_golden_games_replay_to_their_final_gardens(name, scores):
    log = parse_log((GAMES / name).read_text(encoding="utf-8"))
    assert log.end is not None
    final = replay(log)  # raises if the final gardens differ from the recorded ones
    assert final.is_over()
    assert [final.score(i) for i in range(len(scores))] == scores == log.end["scores"]
    for i, text in enumerate(log.end["gardens"]):
        garden = parse(text)
        assert garden == final.garden(i)
        assert score(garden).total == scores[i]


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_games_are_what_the_bots_play_today(name):
    log = parse_log((GAMES / name).read_text(encoding="utf-8"))
    bots = [make_bot(p["bot"]) for p in log.players]
    _, again = play_game(log.seed, bots, names=log.names)
    assert again.text() == (GAMES / name).read_text(encoding="utf-8")


def test_save_then_resume_continues_identically():
    bots = [make_bot("greedy"), make_bot("random")]
    _, whole = play_game(31, bots, names=["g", "r"])
    for cut in (0, 1, 40, 117, len(whole.events) - 1):
        partial = GameLog(whole.seed, whole.edition, whole.players, whole.events[:cut])
        saved = partial.text()
        resumed = parse_log(saved)
        state = replay(resumed)
        while not state.is_over():
            state = step(state, resumed, bots)
        resumed.finish(state)
        assert resumed.text() == whole.text(), f"resumed after event {cut}"


def test_log_lines_are_json_events():
    _, log = play_game(5, [make_bot("random")])
    lines = [json.loads(line) for line in log.text().splitlines()]
    assert lines[0]["format"] == "papillon-game-log" and lines[0]["seed"] == 5
    assert lines[0]["fingerprint"] == standard_edition().fingerprint
    assert lines[1]["chance"].startswith("deal ")
    assert all(set(e) in ({"chance"}, {"player", "action"}) for e in lines[1:-1])
    assert set(lines[-1]) == {"end"}


def _golden_text() -> str:
    return (GAMES / "solo-greedy-seed12.jsonl").read_text(encoding="utf-8")


def test_a_log_from_another_edition_is_refused():
    other = edition_from_toml("[rules]\nbutterfly_steps = 2\n")
    with pytest.raises(GameLogError, match=r"played with the 'standard' edition .* pass the game's --edition FILE"):
        parse_log(_golden_text(), other)


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda lines: [*lines[:3], "{not json", *lines[4:]], r"^line 4: not valid JSON"),
        (lambda lines: [*lines[:2], '{"player": 0}', *lines[3:]], r"^line 3: expected \{\"chance\""),
        (lambda lines: [*lines[:2], '{"player": 0, "action": "start Q7"}', *lines[3:]], r"^line 3: 'start Q7' is not allowed"),
        (lambda lines: [*lines[:2], '{"chance": "roll 1 1 1"}', *lines[3:]], r"^line 3: a chance event where the game expects a decision"),
        (lambda lines: ['{"format": "something"}', *lines[1:]], r"^line 1: not a papillon game log"),
        (lambda lines: [], r"empty file"),
        (lambda lines: [*lines, '{"chance": "roll 1 1 1"}'], r"event after the end"),
        (lambda lines: [*lines[:-1], lines[-1].replace("player: greedy", "player: other", 1)], r"does not give the final gardens"),
    ],
)
def test_a_corrupt_log_names_its_line(mangle, message):
    lines = _golden_text().splitlines()
    with pytest.raises(GameLogError, match=message):
        replay(parse_log("\n".join(mangle(lines)) + "\n"))


def test_an_unfinished_log_replays_to_where_it_stops():
    lines = _golden_text().splitlines()[:30]
    state = replay(parse_log("\n".join(lines)))
    assert not state.is_over() and state.round >= 1


def test_new_game_refuses_bad_player_counts():
    with pytest.raises(ValueError, match="1 to 6 players"):
        new_game(())
    with pytest.raises(ValueError, match="1 to 6 players"):
        new_game([str(i) for i in range(7)])


def test_the_search_bot_has_one_greedy_policy_and_no_time_budget_by_default():
    # Determinism: a time budget would make a seeded game depend on the machine's speed
    # (the golden search game above checks that the default bot replays exactly).
    bot = make_bot("search")
    assert isinstance(bot, SearchBot) and bot.seconds is None
    assert isinstance(bot.greedy, GreedyBot) and not hasattr(bot, "policy"), "one greedy policy, not two identical ones"
    assert "seed no longer gives the same game" in " ".join((SearchBot.__doc__ or "").split())
