"""A game being played by people (and bots): the play session any front end drives.

A :class:`PlaySession` holds the engine state and its log, lets the bots and
chance play until a person must decide (:meth:`~PlaySession.advance`), applies
a person's action (:meth:`~PlaySession.act`), undoes back to the start of that
person's turn this round (:meth:`~PlaySession.undo`), and saves the log (the
log *is* the save file) atomically after every round.  Saved games live in the
user's data folder (:func:`data_dir`); :func:`list_games` lists them and
:meth:`PlaySession.resume` carries one on.  Results are recorded
(:func:`record_results`) in the score history in the same folder
(:mod:`papillon.history`).

The web app uses it; the terminal ``play`` command has the same logic in its
own module for now and can adopt this one.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> session = PlaySession.new(seed=5, seats=[Seat("Ann"), Seat("greedy bot", "greedy")], folder=folder)
>>> session.state.legal_actions()  # Ann chooses her starting field; the deal was played for her
('start B4', 'start D2')
>>> moves = session.act("start B4")  # the bot chooses its start, then round 1 is rolled
>>> [m.who for m in moves], session.state.round, session.state.player
(['greedy bot'], 1, 0)
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from papillon.edition import Edition, edition_from_toml, standard_edition
from papillon.engine.bots import BOTS, Bot, make_bot
from papillon.engine.log import GameLog, GameLogError, decide, parse_log, replay, step
from papillon.engine.state import GameState, new_game
from papillon.errors import SessionError
from papillon.files import write_atomic
from papillon.history import FILE_NAME as HISTORY_FILE
from papillon.history import History, HistoryError, Result, record_played

GAME_ID = re.compile(r"^[0-9]{1,12}-[0-9a-f]{8}$")
"""A saved game's id: its seed and 8 random hex digits (the file is ``<id>.jsonl`` in :func:`games_dir`)."""
NAME_MAX = 30
"""The longest player name."""


def data_dir() -> Path:
    """The user's papillon data folder: $PAPILLON_DATA_DIR, else the XDG data dir."""
    if os.environ.get("PAPILLON_DATA_DIR"):
        return Path(os.environ["PAPILLON_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "papillon"


def games_dir(folder: str | Path | None = None) -> Path:
    return Path(folder) / "games" if folder is not None else data_dir() / "games"


@dataclass(frozen=True)
class Seat:
    """A player: a person (``bot=None``) or a bot by name (``greedy``)."""

    name: str
    bot: str | None = None


@dataclass(frozen=True)
class Move:
    """A decision taken by a bot, for a short visible summary."""

    who: str
    action: str
    words: str


@dataclass
class PlaySession:
    """One game in play; mutable (it is the driver), the engine states it holds are not."""

    id: str
    state: GameState
    log: GameLog
    agents: list[Bot | None]
    path: Path
    checkpoint: tuple[GameState, int]
    edition_text: str | None = None
    """The TOML of a custom edition (saved beside the log, so a resume finds it)."""
    moves: list[Move] = field(default_factory=list)
    """The bots' decisions since a person last decided."""

    # -- starting -----------------------------------------------------------------

    @classmethod
    def new(
        cls,
        *,
        seed: int | None,
        seats: Sequence[Seat],
        folder: str | Path | None = None,
        edition: Edition | None = None,
        edition_text: str | None = None,
    ) -> PlaySession:
        """A new game, played up to the first person's decision, and saved."""
        names = [seat.name.strip() for seat in seats]
        if any(not name or len(name) > NAME_MAX for name in names):
            raise SessionError(f"each player needs a name of 1 to {NAME_MAX} characters")
        if len(set(names)) != len(names):
            raise SessionError("each player needs a different name")
        for seat in seats:
            if seat.bot is not None and seat.bot not in BOTS:
                raise SessionError(f"unknown bot {seat.bot!r}: expected one of {', '.join(BOTS)}")
        if edition_text is not None and edition is None:
            edition = edition_from_toml(edition_text, "the edition file")
        edition = edition or standard_edition()
        most = edition.play.max_players  # the edition says how many pencils the box holds
        if not 1 <= len(seats) <= most:
            raise SessionError(f"a game has 1 to {most} players, got {len(seats)}")
        seed = secrets.randbelow(10**9) if seed is None else seed
        if not 0 <= seed < 10**12:
            raise SessionError("the seed is a whole number from 0 to 999999999999")
        agents: list[Bot | None] = [make_bot(s.bot) if s.bot else None for s in seats]
        state = new_game(names, edition)
        log = GameLog(seed, edition, [{"name": n, "bot": s.bot} for n, s in zip(names, seats, strict=True)])
        directory = games_dir(folder)
        directory.mkdir(parents=True, exist_ok=True)
        game_id = f"{seed}-{secrets.token_hex(4)}"
        session = cls(game_id, state, log, agents, directory / f"{game_id}.jsonl", (state, 0), edition_text)
        if edition_text is not None:
            write_atomic(session.path.with_suffix(".toml"), edition_text)
        session.advance()
        session.save()
        return session

    @classmethod
    def resume(cls, game_id: str, folder: str | Path | None = None) -> PlaySession:
        """A saved game by id, replayed from its log (with its own edition, if it had one)."""
        if not GAME_ID.match(game_id):
            raise SessionError(f"no saved game {game_id!r}")
        path = games_dir(folder) / f"{game_id}.jsonl"
        custom = path.with_suffix(".toml")
        try:
            edition_text = custom.read_text(encoding="utf-8") if custom.is_file() else None
            edition = edition_from_toml(edition_text, custom.name) if edition_text is not None else standard_edition()
            log = parse_log(path.read_text(encoding="utf-8"), edition)
            state = replay(log)
            agents: list[Bot | None] = [make_bot(str(p["bot"])) if p.get("bot") else None for p in log.players]
        except FileNotFoundError:
            raise SessionError(f"no saved game {game_id!r}") from None
        except (GameLogError, ValueError, OSError) as error:
            raise SessionError(f"the saved game {game_id} cannot be read: {error}") from None
        session = cls(game_id, state, log, agents, path, (state, len(log.events)), edition_text)
        session.advance()
        return session

    # -- playing ------------------------------------------------------------------

    @property
    def waiting_for(self) -> int:
        """The player who must decide now (-1 when the game is over)."""
        return self.state.player

    def is_person(self, player: int) -> bool:
        return 0 <= player < len(self.agents) and self.agents[player] is None

    def advance(self) -> list[Move]:
        """Play chance and the bots up to a person's decision or the end; saves after each round."""
        moves: list[Move] = []
        while not self.state.is_over() and (self.state.is_chance() or not self.is_person(self.state.player)):
            state = self.state
            mover = state.player
            after = step(state, self.log, self.agents)
            if mover >= 0:
                action = str(self.log.events[-1]["action"])
                moves.append(Move(state.game.players[mover], action, state.describe(action)))
            self._moved(state, after)
        self.moves += moves
        return moves

    def act(self, action: str) -> list[Move]:
        """A person's decision (IllegalActionError leaves everything as it was), then the bots' turns."""
        state = self.state
        if state.is_over() or state.is_chance() or not self.is_person(state.player):
            raise SessionError("it is nobody's turn to decide here")
        after = decide(state, self.log, action)
        self.moves = []
        self._moved(state, after)
        return self.advance()

    def _moved(self, before: GameState, after: GameState) -> None:
        self.state = after
        if before.is_chance() or after.player != before.player or after.round != before.round:
            self.checkpoint = (after, len(self.log.events))
        if after.round != before.round or after.is_over():
            if after.is_over():
                self.log.finish(after)
            self.save()

    def can_undo(self) -> bool:
        return self.checkpoint[1] < len(self.log.events)

    def undo(self) -> bool:
        """Back to the start of this person's turn this round (never across a roll); False if nothing to undo."""
        previous, count = self.checkpoint
        if count >= len(self.log.events):
            return False
        del self.log.events[count:]
        self.state = previous
        self.moves = []
        return True

    def save(self) -> None:
        """Write the log atomically (a failed save leaves the previous one whole)."""
        write_atomic(self.path, self.log.text())

    def summary(self) -> GameInfo:
        return GameInfo(self.id, self.log.seed, self.log.names, self.state.round, self.state.is_over(), _now())


# --------------------------------------------------------------------------- saved games


@dataclass(frozen=True)
class GameInfo:
    """A saved game, for a list to choose from."""

    id: str
    seed: int
    players: tuple[str, ...]
    round: int
    over: bool
    saved: str
    """When it was last saved (UTC, ISO 8601 to the minute)."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M")


def list_games(folder: str | Path | None = None) -> list[GameInfo]:
    """The saved games, newest first; a file that is not a readable game log is left out."""
    directory = games_dir(folder)
    if not directory.is_dir():
        return []
    found = []
    for path in directory.glob("*.jsonl"):
        if not GAME_ID.match(path.stem):
            continue
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
            header = json.loads(lines[0])
            players = tuple(str(p["name"]) for p in header["players"])
            seed = int(header["seed"])
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            continue
        rolls = sum(1 for line in lines if line.startswith('{"chance":"roll'))
        over = bool(lines) and lines[-1].startswith('{"end":')
        when = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M")
        found.append((path.stat().st_mtime, GameInfo(path.stem, seed, players, rolls, over, when)))
    return [info for _, info in sorted(found, key=lambda item: -item[0])]


# --------------------------------------------------------------------------- the history


def history_path(folder: str | Path | None = None) -> Path:
    """The score history (:mod:`papillon.history`) of a data folder (default: the user's)."""
    return (Path(folder) if folder is not None else data_dir()) / HISTORY_FILE


def personal_best(player: str, folder: str | Path | None = None) -> int | None:
    return History(history_path(folder)).personal_best(player)


def record_results(session: PlaySession, folder: str | Path | None = None) -> list[Result]:
    """Record each person's final score in the history (once per game) and compare with their best before it.

    The old personal-best file (``history.json``) of the same folder is imported first, once.
    """
    if not session.state.is_over():
        raise SessionError("the game is not over")
    people = [i for i in range(len(session.agents)) if session.is_person(i)]
    try:
        return record_played(session.state, game=session.id, seed=session.log.seed, people=people, folder=folder)
    except HistoryError as error:
        raise SessionError(str(error)) from None


__all__ = [
    "GameInfo",
    "Move",
    "PlaySession",
    "Result",
    "Seat",
    "SessionError",
    "data_dir",
    "games_dir",
    "history_path",
    "list_games",
    "personal_best",
    "record_results",
]
