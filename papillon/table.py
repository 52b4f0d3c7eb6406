"""The table dealer: cards and dice for a group playing on paper sheets, round by round, from a seed.

The deal and every roll come from the engine's own chance events (the same as a
digital game with that seed: :func:`papillon.engine.log.chance_rng`).  Between
reveals the engine needs someone to play; a hidden seat played by the random
bot stands in, and its choices never touch the chance draws (they are seeded by
their own index), so the cards and dice depend only on the seed.

>>> table = Table.new(seed=7)
>>> table.reveal().round, len(table.now().cards), len(table.now().dice)
(1, 3, 3)
>>> table.undo(); table.now().round
0
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from papillon.edition import Card, DieFace, Edition, Feature, standard_edition
from papillon.engine.bots import RandomBot
from papillon.engine.log import GameLog, step
from papillon.engine.state import GameState, new_game
from papillon.seeds import check_seed, random_seed


@dataclass(frozen=True)
class Reveal:
    """What the table shows after a reveal: the round, its cards and dice, and whether a bonus came before it."""

    round: int
    cards: tuple[Card, ...]
    dice: tuple[DieFace, ...]
    bonus: bool
    over: bool = False


@dataclass
class Table:
    """A dealer for one paper game; :attr:`version` grows with every change, so watchers see news."""

    id: str
    watch_id: str
    seed: int
    edition: Edition
    display: tuple[Feature, ...]
    states: list[GameState] = field(default_factory=list)
    """The engine state at each reveal (the first is before round 1)."""
    logs: list[int] = field(default_factory=list)
    log: GameLog | None = None
    version: int = 0

    @classmethod
    def new(cls, *, seed: int | None = None, edition: Edition | None = None, table_id: str = "", watch_id: str = "") -> Table:
        """A dealer for the game of ``seed`` (a random one if None); SessionError for a seed no game takes.

        ``table_id`` and ``watch_id`` name a table being rebuilt (:meth:`restore`); a new one gets random ones.
        """
        seed = random_seed() if seed is None else check_seed(seed)  # a table deals as a game of that seed would
        edition = edition or standard_edition()
        log = GameLog(seed, edition, [{"name": "table", "bot": "random"}])
        state = new_game(("table",), edition)
        state = step(state, log, [RandomBot()])  # the deal
        display = tuple(edition.features[code] for code in state.display)
        table = cls(table_id or secrets.token_hex(6), watch_id or secrets.token_hex(8), seed, edition, display, log=log)
        table.states.append(state)
        table.logs.append(len(log.events))
        return table

    @classmethod
    def restore(cls, table_id: str, watch_id: str, seed: int, reveals: int) -> Table:
        """The table of ``seed`` after ``reveals`` reveals: what it showed before a restart (the deal depends on the seed only)."""
        table = cls.new(seed=seed, table_id=table_id, watch_id=watch_id)
        for _ in range(reveals):
            table.reveal()
        table.version = reveals
        return table

    @property
    def reveals(self) -> int:
        """How many rounds are revealed."""
        return len(self.states) - 1

    def now(self) -> Reveal:
        state = self.states[-1]
        if state.round == 0 or state.stage == "deal" or (state.stage != "turn" and not state.is_over()):
            return Reveal(0, (), (), False)
        bonus = state.round in self.edition.rules.bonus_rounds
        return Reveal(state.round, state.cards(), state.dice(), bonus, over=state.round >= self.edition.rules.rounds)

    def reveal(self) -> Reveal:
        """The next round's cards and dice (after the hidden seat finishes the current round)."""
        assert self.log is not None
        state = self.states[-1]
        if self.now().over:
            return self.now()
        agents = [RandomBot()]
        target = state.round + 1
        # Play on until the roll of the next round has happened.
        while not (state.stage == "turn" and state.round == target and state.roll):
            state = step(state, self.log, agents)
        self.states.append(state)
        self.logs.append(len(self.log.events))
        self.version += 1
        return self.now()

    def undo(self) -> None:
        """Take back the last reveal (the same cards and dice come again: they depend on the seed only)."""
        if len(self.states) > 1:
            self.states.pop()
            self.logs.pop()
            assert self.log is not None
            del self.log.events[self.logs[-1] :]
            self.version += 1


__all__ = ["Reveal", "Table"]
