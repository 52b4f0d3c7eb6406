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

The web app and the terminal ``play`` command both drive it; what a person
types or clicks is matched to an action (:func:`match_choice`) and explained
(:func:`explain_choices`) here, so both front ends say the same.

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

import os
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from papillon.datafolder import data_dir, games_dir, history_path
from papillon.edition import Edition, edition_from_toml, standard_edition
from papillon.engine.bots import BOTS, Bot, make_bot
from papillon.engine.log import GameLog, GameLogError, decide, parse_log, replay, step
from papillon.engine.state import GameState, new_game
from papillon.errors import QUOTE_MAX, IllegalActionError, SessionError, UnknownEditionError, quote
from papillon.files import MAX_LOG_BYTES, MAX_TEXT_BYTES, loads_json, read_text, write_atomic
from papillon.history import History, HistoryError, Result, record_played
from papillon.names import check_name, check_names
from papillon.notation import player_name
from papillon.report import Standing, rank
from papillon.seeds import MAX_SEED, check_seed, parse_seed, random_seed

GAME_ID = re.compile(r"^[0-9]{1,12}-[0-9a-f]{8}$")
"""A saved game's id: its seed and 8 random hex digits (the file is ``<id>.jsonl`` in :func:`games_dir`)."""


def new_game_id(seed: int) -> str:
    """A fresh game id: the seed and 8 random hex digits (a history records each game once by it)."""
    return f"{seed}-{secrets.token_hex(4)}"


def check_player_count(count: int, edition: Edition) -> int:
    """The number of players (people and bots), if the edition allows it; SessionError if not.

    The edition says how many players a game has (``play.max_players``), so an edition file can change it.
    """
    most = edition.play.max_players  # the edition says how many pencils the box holds
    if not 1 <= count <= most:
        raise SessionError(f"a game has 1 to {most} players, got {count}")
    return count


def read_log(path: str | Path, edition: Edition) -> GameLog:
    """The game log in ``path`` (bounded in size, a byte order mark dropped); SessionError naming the file if unusable."""
    try:
        log = parse_log(read_text(path, limit=MAX_LOG_BYTES), edition)
    except UnknownEditionError as error:
        raise SessionError(f"{path}: {error}") from error  # the cause tells a front end to ask for the edition file
    except GameLogError as error:
        raise SessionError(f"{path}: {error}") from None
    except OSError as error:
        raise SessionError(f"{path}: cannot read the game log ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise SessionError(f"{path}: cannot read the game log (not UTF-8 text)") from None
    try:
        _check_log_names(log)
    except ValueError as error:
        raise SessionError(f"{path}: {error}") from None
    return log


def _check_log_names(log: GameLog) -> None:
    """ValueError naming the player whose name in a log no game takes (hand-edited, or written before names were checked)."""
    for number, entry in enumerate(log.players, start=1):
        try:
            player_name(entry["name"])
        except ValueError as error:
            raise ValueError(f"player {number}: {error}") from None


def _read_save(game_id: str, path: Path, limit: int) -> str:
    """A saved game's file (its log or its edition), bounded; SessionError naming the file, not the user's folder."""
    try:
        return read_text(path, limit=limit)
    except OSError as error:  # TooLargeError is one
        raise SessionError(f"the saved game {game_id} cannot be read: {path.name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise SessionError(f"the saved game {game_id} cannot be read: {path.name}: not UTF-8 text") from None


@dataclass(frozen=True)
class Seat:
    """A player: a person (``bot=None``) or a bot by name (``greedy``)."""

    name: str
    bot: str | None = None


def name_seats(seats: Sequence[Seat]) -> list[Seat]:
    """The seats, each without a name given one: ``Player N`` for the N-th person, ``greedy bot`` for a bot.

    Several bots of one kind are numbered by their place among the bots, so every front end names a game's
    players alike.

    >>> [s.name for s in name_seats([Seat(""), Seat("Ann"), Seat("", "greedy"), Seat("", "random"), Seat("", "greedy")])]
    ['Player 1', 'Ann', 'greedy bot 1', 'random bot', 'greedy bot 3']
    """
    bots = [seat.bot for seat in seats if seat.bot is not None]
    named, people, robots = [], 0, 0
    for seat in seats:
        if seat.bot is None:
            people += 1
            named.append(seat if seat.name.strip() else Seat(f"Player {people}"))
        else:
            robots += 1
            default = f"{seat.bot} bot" if bots.count(seat.bot) == 1 else f"{seat.bot} bot {robots}"
            named.append(seat if seat.name.strip() else Seat(default, seat.bot))
    return named


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
    note: str = ""
    """What a resume had to repair (a last line cut off by a crash), to tell the players once."""
    written: list[str] | None = None
    """The log's lines on disk (None: unknown, the next save rewrites the file)."""

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
        play_bots: bool = True,
    ) -> PlaySession:
        """A new game, played up to the first person's decision (``play_bots=False``: not yet), and saved."""
        for seat in seats:
            if seat.bot is not None and seat.bot not in BOTS:
                raise SessionError(f"unknown bot {seat.bot!r}: expected one of {', '.join(BOTS)}")
        if edition_text is not None and edition is None:
            edition = edition_from_toml(edition_text, "the edition file")
        seed = random_seed() if seed is None else check_seed(seed)
        directory = games_dir(folder)
        directory.mkdir(parents=True, exist_ok=True)
        game_id = new_game_id(seed)
        session = cls.start(
            seed=seed, seats=seats, path=directory / f"{game_id}.jsonl", edition=edition, edition_text=edition_text, play_bots=play_bots
        )
        if edition_text is not None:
            write_atomic(session.path.with_suffix(".toml"), edition_text)
        session.save()
        return session

    @classmethod
    def start(
        cls,
        *,
        seed: int,
        seats: Sequence[Seat],
        path: Path,
        edition: Edition | None = None,
        edition_text: str | None = None,
        play_bots: bool = True,
    ) -> PlaySession:
        """A new game saved to ``path`` (at the first round's end), played up to the first person's decision.

        The names are checked by :func:`check_names`; SessionError for a bad name, seed, bot or player count.
        """
        check_seed(seed)
        names = check_names([seat.name for seat in seats])
        edition = edition or standard_edition()
        check_player_count(len(seats), edition)
        try:
            agents: list[Bot | None] = [make_bot(s.bot) if s.bot else None for s in seats]
        except ValueError as error:
            raise SessionError(str(error)) from None
        state = new_game(list(names), edition)
        log = GameLog(seed, edition, [{"name": n, "bot": s.bot} for n, s in zip(names, seats, strict=True)])
        game_id = path.stem if GAME_ID.match(path.stem) else new_game_id(seed)
        session = cls(game_id, state, log, agents, path, (state, 0), edition_text)
        if play_bots:
            session.advance()
        return session

    @classmethod
    def open(cls, path: str | Path, edition: Edition) -> PlaySession:
        """A game saved in any file (the terminal's ``--resume FILE``), replayed from its log, played up to a person's decision.

        SessionError, naming the file, when it cannot be read or replayed.
        """
        path = Path(path)
        log = read_log(path, edition)
        try:
            state = replay(log)
            agents: list[Bot | None] = [make_bot(str(p["bot"])) if p.get("bot") else None for p in log.players]
        except ValueError as error:  # GameLogError is one
            raise SessionError(f"{path}: {error}") from None
        game_id = path.stem if GAME_ID.match(path.stem) else new_game_id(log.seed)
        session = cls(game_id, state, log, agents, path, (state, len(log.events)))
        session.advance()
        return session

    @classmethod
    def resume(cls, game_id: str, folder: str | Path | None = None, *, play_bots: bool = True) -> PlaySession:
        """A saved game by id, replayed from its log (with its own edition, if it had one).

        A last line cut off by a crash (no line end, not a whole record) is dropped, and :attr:`note` says so.

        SessionError about ``game_id`` when there is no such game; a SessionError of one line, naming the
        file but not the folder, when the save cannot be read (over its size limit, not UTF-8, damaged).
        """
        path = games_dir(folder) / f"{game_id}.jsonl"
        if not GAME_ID.match(game_id) or not path.is_file():  # a pipe or a device is no save, and opening one may wait forever
            raise SessionError(f"no saved game {quote(game_id)}", parameter="game_id")
        custom = path.with_suffix(".toml")
        edition_text = _read_save(game_id, custom, MAX_TEXT_BYTES) if custom.is_file() else None
        text, note = drop_torn_line(_read_save(game_id, path, MAX_LOG_BYTES))
        try:
            edition = edition_from_toml(edition_text, custom.name) if edition_text is not None else standard_edition()
            log = parse_log(text, edition)
            _check_log_names(log)
            state = replay(log)
            agents: list[Bot | None] = [make_bot(str(p["bot"])) if p.get("bot") else None for p in log.players]
        except ValueError as error:  # GameLogError and EditionError are ValueErrors
            raise SessionError(f"the saved game {game_id} cannot be read: {error}") from None
        session = cls(game_id, state, log, agents, path, (state, len(log.events)), edition_text, note=note)
        if note:
            session.save()  # the file whole again, without the torn line
        else:
            session.written = list(log.lines())
        if play_bots:
            session.advance()
        return session

    # -- playing ------------------------------------------------------------------

    @property
    def waiting_for(self) -> int:
        """The player who must decide now (-1 when the game is over)."""
        return self.state.player

    def is_person(self, player: int) -> bool:
        return 0 <= player < len(self.agents) and self.agents[player] is None

    def advance(self, on_move: Callable[[Move], None] | None = None) -> list[Move]:
        """Play chance and the bots up to a person's decision or the end; saves after each round and at the end.

        ``on_move`` hears of each bot decision as it is taken (a web page shows the bots' progress).
        """
        moves: list[Move] = []
        while not self.state.is_over() and (self.state.is_chance() or not self.is_person(self.state.player)):
            state = self.state
            mover = state.player
            after = step(state, self.log, self.agents)
            if mover >= 0:
                action = str(self.log.events[-1]["action"])
                moves.append(Move(state.game.players[mover], action, state.describe(action)))
                if on_move is not None:
                    on_move(moves[-1])
            self._moved(state, after)
        self.moves += moves
        if moves:
            self.save()
        return moves

    def act(self, action: str) -> list[Move]:
        """A person's decision (IllegalActionError leaves everything as it was), then the bots' turns."""
        self.decide(action)
        return self.advance()

    def decide(self, action: str) -> None:
        """A person's decision, on disk when this returns (IllegalActionError leaves everything as it was); no bot plays yet."""
        state = self.state
        if state.is_over() or state.is_chance() or not self.is_person(state.player):
            raise SessionError("it is nobody's turn to decide here")
        after = decide(state, self.log, action)
        self.moves = []
        self._moved(state, after)
        self.save()

    def bots_to_play(self) -> bool:
        """Whether chance or a bot moves next (:meth:`advance` has work to do)."""
        return not self.state.is_over() and (self.state.is_chance() or not self.is_person(self.state.player))

    def choose(self, text: str) -> list[Move]:
        """What a person typed (a number, an action, or its object alone; :func:`match_choice`), then the bots' turns."""
        return self.act(match_choice(text, self.state.legal_actions()))

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
        self.save()
        return True

    def save(self) -> None:
        """Put the log on disk: the new lines appended and flushed to the disk when the file holds the rest,
        else the whole log written atomically (a failed save leaves the previous one whole)."""
        lines = list(self.log.lines())
        old = self.written
        appendable = old is not None and len(old) <= len(lines) and lines[: len(old)] == old and self.path.is_file()
        if appendable and self.log.end is None:  # the end is written whole, once: a failed end save leaves the rounds'
            assert old is not None
            if len(old) < len(lines):
                try:
                    append_synced(self.path, "".join(line + "\n" for line in lines[len(old) :]))
                except OSError:
                    self.written = None  # a part may be on disk: the next save writes the whole log again
                    raise
        else:
            write_atomic(self.path, "\n".join(lines) + "\n")
        self.written = lines

    def summary(self) -> GameInfo:
        return GameInfo(self.id, self.log.seed, self.log.names, self.state.round, self.state.is_over(), _now())


def append_synced(path: Path, text: str) -> None:
    """Append ``text`` to ``path`` and wait until it is on the disk (an answer may say it was accepted)."""
    with open(path, "ab") as stream:
        stream.write(text.encode("utf-8"))
        stream.flush()
        os.fsync(stream.fileno())


def drop_torn_line(text: str) -> tuple[str, str]:
    """A log's text without a last line that a crash cut off mid-write, and a note saying so ("" if none was).

    Lines are written whole and end with a line end; a last line without one that is not a whole JSON
    record was being written when the power went.

    >>> drop_torn_line('{"a":1}\\n{"player":0,"act')
    ('{"a":1}\\n', 'the last decision was being saved when the server stopped and was lost: it is yours to take again')
    """
    if not text or text.endswith("\n"):
        return text, ""
    head, _, last = text.rpartition("\n")
    try:
        loads_json(last)
    except ValueError:
        note = "the last decision was being saved when the server stopped and was lost: it is yours to take again"
        return (head + "\n" if head else ""), note
    return text + "\n", ""


def delete_game(game_id: str, folder: str | Path | None = None) -> None:
    """Remove a saved game (its log and its edition file); SessionError about ``game_id`` if there is none."""
    path = games_dir(folder) / f"{game_id}.jsonl"
    if not GAME_ID.match(game_id) or not path.is_file():
        raise SessionError(f"no saved game {quote(game_id)}", parameter="game_id")
    path.unlink()
    path.with_suffix(".toml").unlink(missing_ok=True)


# --------------------------------------------------------------------------- choices


def match_choice(text: str, legal: Sequence[str]) -> str:
    """The action a person meant: a number, the action itself, or its object alone where only one action has it.

    ``C3`` is ``plot C3`` when that is a choice, ``B1-C1`` (or ``C1-B1``) ``edge B1-C1``, ``red`` ``colour red``;
    case does not matter.  Text that matches nothing comes back as it is (the engine says why it is not
    allowed); IllegalActionError when it is a number out of range or matches several choices.

    >>> match_choice("c1-b1", ("edge B1-C1", "edge B2-C2")), match_choice("2", ("skip", "plot C3"))
    ('edge B1-C1', 'plot C3')
    """
    legal = tuple(legal)
    words = " ".join(text.split())
    if words.isascii() and words.isdigit():
        if not 1 <= int(words) <= len(legal):
            raise IllegalActionError(f"choose 1 to {len(legal)} ('?' explains them)")
        return legal[int(words) - 1]
    if words in legal:
        return words
    folded = words.casefold()
    spellings = {folded, "-".join(reversed(folded.split("-")))}  # an edge either way round
    exact = [a for a in legal if a.casefold() in spellings]
    if len(exact) == 1:
        return exact[0]
    named = [a for a in legal if a.partition(" ")[2].casefold() in spellings]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        options = " or ".join(f"{legal.index(a) + 1}. {a}" for a in named)
        raise IllegalActionError(f"{quote(words)} could be {options}: type the number")
    if len(words) > QUOTE_MAX:  # no choice is this long: say so without echoing a pasted page
        raise IllegalActionError(f"{quote(words)} is not a choice ('?' explains them)")
    return words


@dataclass(frozen=True)
class Choice:
    """A legal action explained: its number (from 1), what it does, and the score it leaves now."""

    number: int
    action: str
    words: str
    score: int
    change: int
    """The score after it minus the score now."""

    @property
    def outcome(self) -> str:
        return f"→ score {self.score} ({self.change:+d})" if self.change else "→ score unchanged"


def explain_choices(state: GameState, only: int | None = None) -> list[Choice]:
    """Each legal action of the player to decide, explained (``only``: the one at that index)."""
    legal = state.legal_actions()
    player = state.player
    now = state.score(player)
    out = []
    for i, action in enumerate(legal):
        if only is not None and i != only:
            continue
        after = state.apply(action).score(player)
        out.append(Choice(i + 1, action, state.describe(action), after, after - now))
    return out


def standings(state: GameState) -> list[Standing]:
    """Every player's score now, the leader first (ties share a place, in seat order)."""
    return rank((name, state.score(i), "") for i, name in enumerate(state.game.players))


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
        if not GAME_ID.match(path.stem) or not path.is_file():  # a pipe or a device: opening it may wait forever
            continue
        try:
            lines = read_text(path, limit=MAX_LOG_BYTES).splitlines()  # TooLargeError is an OSError
            header = loads_json(lines[0])  # bounded in nesting and digits: a hostile line is left out, not a crash
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
    "MAX_SEED",
    "Choice",
    "GameInfo",
    "Move",
    "PlaySession",
    "Result",
    "Seat",
    "SessionError",
    "Standing",
    "check_name",
    "check_names",
    "check_player_count",
    "check_seed",
    "data_dir",
    "delete_game",
    "drop_torn_line",
    "explain_choices",
    "games_dir",
    "history_path",
    "list_games",
    "match_choice",
    "name_seats",
    "new_game_id",
    "parse_seed",
    "personal_best",
    "random_seed",
    "read_log",
    "record_results",
    "standings",
]
