"""The ``# expected:`` line of a hand-checked garden (sheets/examples, tests/independent_gardens)."""

import re

CATEGORIES = ("flowers", "patches", "enclosed", "butterflies", "critters", "features", "unique_features")
EXPECTED = re.compile(r"# expected: " + ", ".join(rf"{name} (\d+)" for name in (*CATEGORIES, "total")))
