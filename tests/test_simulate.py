"""The simulation runner (papillon.simulation) and `papillon simulate` on top of it."""

from __future__ import annotations

import io
import json
import statistics
import sys
import tomllib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import papillon.cli.simulate
from papillon.cli import main
from papillon.edition import edition_from_toml, standard_edition
from papillon.engine import play_game
from papillon.engine.log import game_seed
from papillon.simulation import (
    IN_FLIGHT_PER_WORKER,
    Batch,
    SimulationError,
    Tally,
    Workers,
    batches,
    default_jobs,
    edition_toml,
    make_player,
    play_batch,
    run,
    simulate,
    toml_text,
)


def test_a_result_is_the_game_play_game_plays():
    edition = standard_edition()
    [result] = list(simulate(5, "greedy", 1, edition))
    state, _ = play_game(game_seed(5, 0), [make_player("greedy")], edition)
    card = state.score_card(0)
    assert (result.seed, result.total, dict(result.categories)) == (game_seed(5, 0), card.total, dict(card.categories))
    assert result.garden == state.garden(0).to_notation()
    assert len(result.features) == len(card.features) and result.total == sum(result.categories.values())


def test_jobs_are_made_one_batch_at_a_time():
    plan = batches("", "random", 1, 10**9, 16)
    assert next(plan) == Batch("", "random", 1, 0, 16)
    assert next(plan).start == 16  # a billion games, and only two batches exist so far


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value

    def cancel(self):
        return False


def test_the_runner_keeps_only_a_few_batches_in_flight_and_yields_in_order():
    text = edition_toml(standard_edition())
    submitted = []

    def submit(batch):
        submitted.append(batch)
        return _Done(play_batch(batch))

    plan = batches(text, "random", 3, 40, 2)
    stream = run(plan, Workers(2, submit))
    first = next(stream)
    assert first.index == 0 and len(submitted) == 2 * IN_FLIGHT_PER_WORKER
    assert [r.index for r in stream] == list(range(1, 40))
    serial = [r.total for r in run(batches(text, "random", 3, 40, 7))]
    assert serial == [r.total for r in run(batches(text, "random", 3, 40, 2), Workers(2, submit))]


def test_bot_names():
    assert make_player("search:3").rollouts == 3  # type: ignore[attr-defined]
    assert make_player("search:3").name == "search:3"
    with pytest.raises(SimulationError, match=r"^bad bot 'search:0': search:N takes a whole number N from 1 to 64$"):
        make_player("search:0")
    with pytest.raises(SimulationError, match=r"^unknown bot 'greedy:2': expected one of random, greedy, search, expert or search:N$"):
        make_player("greedy:2")


@given(st.dictionaries(st.text(min_size=1), st.one_of(st.text(), st.integers(), st.booleans(), st.lists(st.integers()))))
def test_toml_text_reads_back(data):
    assert tomllib.loads(toml_text({"t": data})) == {"t": data}


def test_an_edition_survives_the_trip_to_a_worker(tmp_path):
    mine = edition_from_toml('[scoring]\nenclosed = 3\n[features.gz]\nname = "Gazebo \\"big\\""\n', name="mine")
    back = edition_from_toml(edition_toml(mine))
    assert back.fingerprint == mine.fingerprint and back.name == "mine" and back.features["gz"].name == 'Gazebo "big"'


@given(st.lists(st.integers(0, 120), min_size=1, max_size=60))
def test_tally_quantiles_are_the_statistics_modules(totals):
    tally = Tally("x", Counter(totals))
    expected = statistics.quantiles(totals, n=4, method="inclusive") if len(totals) > 1 else [totals[0]] * 3
    assert [tally.quantile(q) for q in (0.25, 0.5, 0.75)] == pytest.approx(expected)


# --------------------------------------------------------------------------- the command


def test_jobs_default_to_the_cpus_this_process_may_use(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    assert default_jobs() == 3
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(1000)), raising=False)
    assert default_jobs() == 256  # MAX_JOBS
    # Where the system keeps no affinity mask (macOS, Windows), every core.
    monkeypatch.delattr("os.sched_getaffinity", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    assert default_jobs() == 6
    monkeypatch.setattr("os.cpu_count", lambda: None)
    assert default_jobs() == 1


def test_the_help_says_what_jobs_defaults_to(runner):
    for command in ("simulate", "balance"):
        result = runner.invoke(main, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0
        assert f"[default: (the CPUs this process may use, {default_jobs()} here)" in " ".join(result.stdout.split())


def test_the_default_jobs_give_the_bytes_of_one_job(runner, monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    args = ["simulate", "-n", "5", "--bot", "greedy", "--seed", "4", "--json"]
    default = runner.invoke(main, args)
    one = runner.invoke(main, [*args, "--jobs", "1"])
    assert default.exit_code == 0 and one.exit_code == 0
    assert default.stdout == one.stdout and len(default.stdout.splitlines()) == 5


def test_jobs_and_games_are_bounded(runner):
    result = runner.invoke(main, ["simulate", "--jobs", "100000000000000000000", "-n", "3"])
    assert result.exit_code == 2
    assert "Invalid value for '--jobs': 100000000000000000000 is not in the range 1<=x<=256" in result.stderr
    result = runner.invoke(main, ["simulate", "-n", "10000000000"])
    assert result.exit_code == 2 and "is not in the range 1<=x<=1000000000" in result.stderr


def test_simulate_takes_search_levels(runner):
    result = runner.invoke(main, ["simulate", "-n", "1", "--bot", "search:1", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["bot"] == "search:1"


def test_ctrl_c_prints_the_summary_of_the_games_done(runner, monkeypatch):
    real = papillon.cli.simulate.simulate

    def interrupted(*args, **kwargs):
        for number, result in enumerate(real(*args, **kwargs)):
            if number == 3:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(papillon.cli.simulate, "simulate", interrupted)
    result = runner.invoke(main, ["simulate", "-n", "50", "--bot", "random"])
    assert result.exit_code == 130
    assert "interrupted after 3 of 50 games" in result.stderr
    assert result.stdout.startswith("3 solo games, bot random\n")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_shows_the_time_left_on_a_terminal_only(monkeypatch):
    from papillon.cli.simulate import progress

    clock = iter([0.0, 1.0, 2.0, 3.0, 4.0])
    monkeypatch.setattr(papillon.cli.simulate.time, "monotonic", lambda: next(clock))
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert list(progress(["a", "b", "c", "d"], 4, "bot playing")) == ["a", "b", "c", "d"]
    drawn = terminal.getvalue()
    # after 1 of 4 games in 1 s: 3 s left; after 2 in 2 s: 2 s left
    assert "1/4  3s left" in drawn and "2/4  2s left" in drawn and "4/4  0s left" in drawn
    assert drawn.endswith("\r\x1b[K")
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert list(progress(["a"], 1, "bot playing")) == ["a"] and pipe.getvalue() == ""
