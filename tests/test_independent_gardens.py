"""Gardens scored by hand from ../shared/RULES.md by someone who had not read papillon's code.

``tests/independent_gardens/*.garden`` were written, with their ``# expected:`` lines, before any
scorer was run on them (see the commit that added them); they are data papillon was never tuned
on.  A disagreement is a bug to investigate, never a reason to edit an expectation.  A file whose
expectation is ``invalid`` must be refused with one clear error.
"""

from pathlib import Path

import pytest
from hand_checked import CATEGORIES, EXPECTED

from papillon.errors import PapillonError
from papillon.notation import parse
from papillon.score import score

GARDENS = sorted((Path(__file__).resolve().parent / "independent_gardens").glob("*.garden"))


def expectation(path: Path) -> dict[str, int] | None:
    """The hand-checked categories and total, or None for a garden that must be refused."""
    line = path.read_text(encoding="utf-8").splitlines()[1].strip()
    if line == "# expected: invalid":
        return None
    match = EXPECTED.fullmatch(line)
    assert match, f"{path.name}: line 2 must be the '# expected: ...' line, found {line!r}"
    return dict(zip((*CATEGORIES, "total"), map(int, match.groups()), strict=True))


def test_the_independent_set_is_complete():
    assert len(GARDENS) == 24


@pytest.mark.parametrize("path", GARDENS, ids=[p.stem for p in GARDENS])
def test_independent_garden(path: Path):
    expected = expectation(path)
    text = path.read_text(encoding="utf-8")
    if expected is None:
        with pytest.raises(PapillonError, match=r"Bird Feeder.*\bbf\b"):
            score(parse(text))
        return
    card = score(parse(text))
    found = {name: dict(card.categories)[name] for name in CATEGORIES} | {"total": card.total}
    assert found == expected
