"""The balance lab: the same seeds under several editions, rule settings or bots, compared.

- :mod:`~papillon.balance.variants`: what is compared (editions, ``--set`` values, bots);
- :mod:`~papillon.balance.lab`: playing the games and summarising them;
- :mod:`~papillon.balance.stats`: means, confidence intervals, the paired t test;
- :mod:`~papillon.balance.table`: the report as text; :mod:`~papillon.balance.report`: as HTML with
  plots (matplotlib, imported only there).

docs/BALANCE.md explains the numbers.
"""

from papillon.balance.lab import BalanceReport, Collector, play, summarise
from papillon.balance.variants import Variant, bot_variants, build_variants, parse_set

LADDER = ("random", "greedy", "search:1", "search:2", "search:4")
"""The bot ladder: from the weakest to (we expect) the strongest; ``search`` is ``search:2``."""

__all__ = ["LADDER", "BalanceReport", "Collector", "Variant", "bot_variants", "build_variants", "parse_set", "play", "summarise"]
