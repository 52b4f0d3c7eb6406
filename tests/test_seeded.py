"""A decision's generator is seeded on its first draw: its draws are exactly random.Random's."""

import copy
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papillon.engine.log import bot_rng, derive_seed, seat_rng
from papillon.engine.seeded import LazyRandom, hash_prefix, index_draw, reseed


def draws(rng: random.Random) -> list[object]:
    """A bit of everything a bot may ask for: every draw of random.Random goes through random() or getrandbits()."""
    return [
        rng.randrange(7),
        rng.random(),
        rng.choice("abcdef"),
        rng.sample(range(40), 5),
        rng.getrandbits(70),
        rng.gauss(0, 1),
        rng.gauss(0, 1),
        rng.randbytes(5),
        rng.uniform(2, 3),
        rng.shuffle(x := list(range(9))) or x,
    ]


@given(st.integers(0, 10**9), st.integers(0, 500))
def test_the_draws_are_those_of_the_seeded_generator(seed: int, decision: int) -> None:
    assert draws(bot_rng(seed, decision)) == draws(random.Random(derive_seed(seed, "bot", decision)))
    assert draws(seat_rng(seed, 2, decision)) == draws(random.Random(derive_seed(seed, "seat", 2, decision)))


def test_its_state_is_the_seeded_state_before_any_draw() -> None:
    assert LazyRandom((5, "bot", 3)).getstate() == random.Random(derive_seed(5, "bot", 3)).getstate()


def test_seeding_or_setting_the_state_replaces_the_pending_seed() -> None:
    rng = LazyRandom((5, "bot", 3))
    rng.seed(11)
    assert rng.random() == random.Random(11).random()
    rng = LazyRandom((5, "bot", 3))
    rng.setstate(random.Random(12).getstate())
    assert rng.random() == random.Random(12).random()


def test_a_copy_or_a_pickle_draws_the_same() -> None:
    for clone in (copy.copy, copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))):
        rng = LazyRandom((8, "bot", 1))
        twin = clone(rng)
        assert [twin.random() for _ in range(3)] == [rng.random() for _ in range(3)]


@given(st.integers(0, 10**9), st.integers(0, 2000), st.integers(1, 70))
def test_play_games_reseeded_draws_are_those_of_the_seeded_generator(seed: int, number: int, n: int) -> None:
    # play_game's own draws: a chance event's generator reseeded, a random bot's choice among n drawn at once.
    spare = random.Random()
    assert draws(reseed(spare, hash_prefix(seed, "chance"), number)) == draws(random.Random(derive_seed(seed, "chance", number)))
    assert index_draw(spare, hash_prefix(seed, "bot"), number, n) == random.Random(derive_seed(seed, "bot", number)).randrange(n)


def test_a_draw_among_no_choices_is_refused_as_randrange_refuses_it() -> None:
    with pytest.raises(ValueError, match=r"empty range for randrange\(0\)"):
        index_draw(random.Random(), hash_prefix(1, "bot"), 0, 0)
