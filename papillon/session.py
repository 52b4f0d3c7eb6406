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
>>> [str(a) for a in session.state.legal_actions()]  # Ann chooses her starting field; the deal was played for her
['start B4', 'start D2']
>>> moves = session.act("start B4")  # the bot chooses its start, then round 1 is rolled
>>> [m.who for m in moves], session.state.round, session.state.player
(['greedy bot'], 1, 0)
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import secrets
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from papillon.datafolder import data_dir, games_dir, history_path
from papillon.edition import Edition, edition_from_toml, standard_edition
from papillon.engine.actions import Action, Kind
from papillon.engine.bots import BOTS, Bot, GreedyBot, make_bot
from papillon.engine.log import GameLog, GameLogError, SeatTurn, decide, parse_log, replay, seat_decisions, seat_step, seat_turn, step
from papillon.engine.state import GameState, new_game
from papillon.engine.text import done_text
from papillon.errors import QUOTE_MAX, IllegalActionError, SessionError, UnknownEditionError, quote
from papillon.files import MAX_LOG_BYTES, MAX_TEXT_BYTES, loads_json, read_text, write_atomic
from papillon.history import History, HistoryError, Result, record_played
from papillon.names import check_name, check_names
from papillon.report import Standing, rank
from papillon.seeds import MAX_SEED, check_seed, parse_seed, random_seed

GAME_ID = re.compile(r"^[0-9]{1,12}-[0-9a-f]{8}$")
"""A saved game's id: its seed and 8 random hex digits (the file is ``<id>.jsonl`` in :func:`games_dir`)."""


def new_game_id(seed: int) -> str:
    """A fresh game id: the seed and 8 random hex digits (a history records each game once by it)."""
    return f"{seed}-{secrets.token_hex(4)}"


def finished_game_id(log: GameLog, path: Path) -> str:
    """The id of a finished game saved outside the games folder: its seed and 8 hex digits of its file and its log.

    The same save read again has the same id, so the history records it once however often it is resumed;
    the same moves played again into another file are another game.
    """
    lines = list(log.lines())
    body = lines[:-1] if log.end is not None else lines  # the header, events and hints, not the end
    played = "\n".join([str(path.absolute()), *body])
    return f"{log.seed}-{hashlib.blake2b(played.encode(), digest_size=4).hexdigest()}"


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
    return log  # parse_log checked the players' names as a game takes them


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
    """The state and event count at the start of this person's turn this round (undo goes back there)."""
    edition_text: str | None = None
    """The TOML of a custom edition (saved beside the log, so a resume finds it)."""
    moves: list[Move] = field(default_factory=list)
    """The bots' decisions since a person last decided."""
    stage_start: tuple[GameState, int] | None = None
    """The state and event count where this round's decisions began (the seats' undo replays from there)."""
    note: str = ""
    """What a resume had to repair (a last line cut off by a crash), to tell the players once."""
    written: list[str] | None = None
    """The log's lines on disk (None: unknown, the next save rewrites the file)."""
    simultaneous: bool = False
    """Whether the seats play at once, each on its own device (a server's play together): then a bot plays
    its seat's round as soon as it may, deciding on its seat alone with its seat's own draws
    (:func:`~papillon.engine.log.seat_step`), so its choices never depend on when the people decide.
    False (every sequential driver): a bot plays when it is the lowest acting seat, as always."""

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
            state, checkpoint, stage_start = _replay_with_undo_marks(log)
            agents: list[Bot | None] = [make_bot(str(p["bot"])) if p.get("bot") else None for p in log.players]
        except ValueError as error:  # GameLogError is one
            raise SessionError(f"{path}: {error}") from None
        game_id = path.stem if GAME_ID.match(path.stem) else new_game_id(log.seed)
        session = cls(game_id, state, log, agents, path, checkpoint, stage_start=stage_start)
        session.advance()
        session._name_finished()
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
            state, checkpoint, stage_start = _replay_with_undo_marks(log)
            agents: list[Bot | None] = [make_bot(str(p["bot"])) if p.get("bot") else None for p in log.players]
        except ValueError as error:  # GameLogError and EditionError are ValueErrors
            raise SessionError(f"the saved game {game_id} cannot be read: {error}") from None
        session = cls(game_id, state, log, agents, path, checkpoint, edition_text, note=note, stage_start=stage_start)
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
        while self.bots_to_play():
            moves += self._step(on_move)
        if moves:
            self.save()
        return moves

    def play_bots(self, lock: AbstractContextManager[object], on_move: Callable[[Move], None] | None = None) -> None:
        """:meth:`advance`, for a session that several people's requests share under ``lock``: in a game
        played together each bot decision is thought over with the lock released, so the people decide
        meanwhile; the session itself changes only under the lock."""
        made = False
        while True:
            with lock:
                if not self.bots_to_play():
                    if made:
                        self.save()
                    return
                turn = self.bot_turn()
                if turn is None:  # chance, or a bot of a game on one screen: at once, as advance() plays it
                    made |= bool(self._step(on_move))
                    continue
            action = turn.think()
            with lock:
                made |= self.take(turn, action, on_move)

    def bot_turn(self) -> SeatTurn | None:
        """The next bot decision of a game played together, to think over apart (:meth:`take`); None when
        chance moves next, no bot may act, or the seats play in turn."""
        state = self.state
        if not self.simultaneous or state.is_over() or state.is_chance():
            return None
        bots = self._acting_bots()
        return seat_turn(state, self.log, self.agents, bots[0]) if bots else None

    def take(self, turn: SeatTurn, action: Action | str, on_move: Callable[[Move], None] | None = None) -> bool:
        """A bot decision thought over apart, taken if its seat is still where it was (False: think again).

        The people's decisions meanwhile never change a bot's seat (nor its draws), so what it thought
        holds while its seat still waits for this decision."""
        if turn.seat not in self._acting_bots() or seat_decisions(self.log, turn.seat) != turn.decisions:
            return False
        state = self.state
        self._bot_moved(state, decide(state, self.log, action, turn.seat), turn.seat, on_move)
        return True

    def _step(self, on_move: Callable[[Move], None] | None) -> list[Move]:
        """One event of chance or of a bot; the bot's move, if any."""
        state = self.state
        if state.is_chance() or not self.simultaneous:
            mover = state.player
            after = step(state, self.log, self.agents)
        else:
            mover = self._acting_bots()[0]
            after = seat_step(state, self.log, self.agents, mover)
        return self._bot_moved(state, after, mover, on_move)

    def _bot_moved(self, state: GameState, after: GameState, mover: int, on_move: Callable[[Move], None] | None) -> list[Move]:
        moves = []
        if mover >= 0:
            action = Action.parse(str(self.log.events[-1]["action"]))
            moves.append(Move(state.game.players[mover], str(action), done_text(state.seat(mover), action)))
            self.moves += moves
            if on_move is not None:
                on_move(moves[-1])
        self._moved(state, after)
        return moves

    def act(self, action: Action | str, player: int | None = None) -> list[Move]:
        """A person's decision (seat ``player``, default the lowest acting one; IllegalActionError
        leaves everything as it was), then the bots' turns."""
        self.decide(action, player)
        return self.advance()

    def decide(self, action: Action | str, player: int | None = None) -> None:
        """A person's decision (seat ``player``, default the lowest acting one), on disk when this returns
        (IllegalActionError leaves everything as it was); no bot plays yet."""
        state = self.state
        seat = state.player if player is None else player
        if state.is_over() or state.is_chance() or not self.is_person(seat) or seat not in state.acting_players():
            raise SessionError("it is nobody's turn to decide here")
        after = decide(state, self.log, action, seat)
        self.moves = []
        self._moved(state, after)
        self.save()

    def bots_to_play(self) -> bool:
        """Whether chance or a bot moves next (:meth:`advance` has work to do): simultaneously, whether
        any bot may act now."""
        state = self.state
        if state.is_over():
            return False
        if state.is_chance():
            return True
        return bool(self._acting_bots()) if self.simultaneous else not self.is_person(state.player)

    def _acting_bots(self) -> list[int]:
        return [p for p in self.state.acting_players() if not self.is_person(p)]

    def seat_moment(self, player: int) -> tuple[object, ...]:
        """Where seat ``player`` is in the game: the round and its decisions in it.  The same moment of that
        seat whatever the others decided meanwhile (a hint asked there holds while it is)."""
        since = self.stage_start[1] if self.stage_start is not None else 0
        decided = tuple(str(e["action"]) for e in self.log.events[since:] if e.get("player") == player)
        return (self.state.round, self.state.is_over(), decided)

    def acting_people(self) -> list[int]:
        """The person seats that may decide now (in seat order)."""
        return [p for p in self.state.acting_players() if self.is_person(p)]

    def choose(self, text: str) -> list[Move]:
        """What a person typed (a number, an action, or its object alone; :func:`match_choice`), then the bots' turns."""
        return self.act(match_choice(text, self.state.legal_actions(), self.state.edition))

    def _moved(self, before: GameState, after: GameState) -> None:
        self.state = after
        self.checkpoint, self.stage_start = _undo_marks(before, after, len(self.log.events), (self.checkpoint, self.stage_start))
        if after.round != before.round or after.is_over():
            if after.is_over():
                self.log.finish(after)
                self._name_finished()
            self.save()

    def _name_finished(self) -> None:
        """A finished game outside the games folder takes the id its log gives (:func:`finished_game_id`)."""
        if self.state.is_over() and not GAME_ID.match(self.path.stem):
            self.id = finished_game_id(self.log, self.path)

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

    def can_undo_seat(self, player: int) -> bool:
        """Whether seat ``player`` has decided anything since this round's decisions began."""
        if self.stage_start is None:
            return False
        return any(e.get("player") == player for e in self.log.events[self.stage_start[1] :])

    def undo_seat(self, player: int) -> bool:
        """Seat ``player`` back to the start of its turn this round, the other seats' decisions kept
        (they never depend on it), and saved; False if that seat has nothing to undo this round.

        The round's other decisions are replayed in the order they were received."""
        if self.stage_start is None:
            return False
        start, count = self.stage_start
        kept = [e for e in self.log.events[count:] if e.get("player") != player]
        if len(kept) == len(self.log.events) - count:
            return False
        state = start
        for event in kept:
            state = state.apply(event["action"], event["player"])
        del self.log.events[count:]
        self.log.events += kept
        self.state = state
        self.moves = []
        self.checkpoint = (state, len(self.log.events))
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


UndoMark = tuple[GameState, int]
"""A state and the number of log events that led to it: where an undo goes back to."""


def _undo_marks(
    before: GameState, after: GameState, count: int, marks: tuple[UndoMark, UndoMark | None]
) -> tuple[UndoMark, UndoMark | None]:
    """The undo marks (a person's turn start, the round's decisions' start) once ``before`` became ``after``, ``count`` events in."""
    checkpoint, stage_start = marks
    if before.is_chance() or after.stage != before.stage or after.round != before.round:
        stage_start = (after, count)
    if before.is_chance() or after.player != before.player or after.round != before.round:
        checkpoint = (after, count)
    return checkpoint, stage_start


def _replay_with_undo_marks(log: GameLog) -> tuple[GameState, UndoMark, UndoMark | None]:
    """A log replayed, with the undo marks an unbroken session would hold: a resumed game (after a restart,
    or a room evicted from a server's memory) undoes as far back as if it had never stopped."""
    previous = new_game(log.names, log.edition)  # what replay starts from
    count = 0
    marks: tuple[UndoMark, UndoMark | None] = ((previous, 0), None)

    def seen(after: GameState, _event: object) -> None:
        nonlocal previous, count, marks
        count += 1
        marks = _undo_marks(previous, after, count, marks)
        previous = after

    state = replay(log, seen)
    return state, *marks


# --------------------------------------------------------------------------- choices


def numbered(text: str, most: int) -> int | None:
    """The number 1 to ``most`` that ``text`` is (ASCII digits only), or None.

    The digits are counted before they are read: a pasted page of them is simply not a choice
    (Python refuses to read a number of more than 4,300 digits).

    >>> numbered("2", 3), numbered("4", 3), numbered("9" * 5000, 3), numbered("²", 3)
    (2, None, None, None)
    """
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(most)):
        return None
    number = int(text)
    return number if 1 <= number <= most else None


def match_choice(text: str, offered: Sequence[Action | str], edition: Edition | None = None) -> Action | str:
    """The action a person meant: a number, the action itself, or its object alone where only one action has it.

    ``C3`` is ``plot C3`` when that is a choice, ``B1-C1`` (or ``C1-B1``) ``edge B1-C1``, ``red`` ``colour red``,
    and with the ``edition`` a tile or critter by its name (``Gazebo`` is ``feature gz``, ``hedgehog``
    ``fill hh``); case does not matter.  Text that matches nothing comes back as it is (the engine says
    why it is not allowed); IllegalActionError when it is a number out of range or matches several choices.

    >>> legal = tuple(map(Action.parse, ("edge B1-C1", "edge B2-C2", "skip", "plot C3")))
    >>> str(match_choice("c1-b1", legal)), str(match_choice("4", legal))
    ('edge B1-C1', 'plot C3')
    """
    legal = tuple(a if isinstance(a, Action) else Action.parse(a) for a in offered)
    words = " ".join(text.split())
    if words.isascii() and words.isdigit():
        number = numbered(words, len(legal))
        if number is None:
            raise IllegalActionError(f"choose 1 to {len(legal)} ('?' explains them)")
        return legal[number - 1]
    folded = words.casefold()
    spellings = {folded, "-".join(reversed(folded.split("-")))}  # an edge either way round
    exact = [a for a in legal if str(a).casefold() in spellings]
    if len(exact) == 1:
        return exact[0]
    named = [a for a in legal if a.subject.casefold() in spellings or _name_of(a, edition) in spellings]
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
    action: Action
    words: str
    score: int
    change: int
    """The score after it minus the score now."""
    reach: int = 0
    """When the choice itself scores nothing: the gain the rest of this turn can bring after it
    (played on greedily, so a gain that is surely reachable), 0 when none was found."""

    @property
    def outcome(self) -> str:
        """What the choice does to the score: its change, else what it can lead to this turn, else nothing."""
        if self.change:
            return f"→ score {self.score} ({self.change:+d})"
        return f"→ can lead to {self.reach:+d} this turn" if self.reach > 0 else ""


def explain_choices(state: GameState, only: int | None = None) -> list[Choice]:
    """Each legal action of the player to decide, explained (``only``: the one at that index).

    A choice that scores nothing by itself (a pair, a part, a tile, a gnome option, a colour) is
    followed to the end of the turn with the greedy bot's play, so ``?`` can say what it leads to."""
    legal = state.legal_actions()
    player = state.player
    now = state.score(player)
    out = []
    for i, action in enumerate(legal):
        if only is not None and i != only:
            continue
        after = state.apply(action)
        score = after.score(player)
        reach = _reach(after, player, state.round) - now if score == now and action.kind in _LEADS_ON else 0
        out.append(Choice(i + 1, action, state.describe(action), score, score - now, reach))
    return out


_LOOK_AHEAD = GreedyBot()
_LEADS_ON = frozenset(
    {Kind.START, Kind.PAIR, Kind.PART, Kind.FEATURE, Kind.GNOME, Kind.COLOUR, Kind.FILL, Kind.CHOOSE, Kind.FROM, Kind.FIRST}
)
"""Choices that decide what comes next rather than mark the garden: ``?`` follows these to the end of the turn."""


def _reach(state: GameState, player: int, round_: int) -> int:
    """``player``'s score once the rest of their turn this round is played greedily from ``state``."""
    rng = random.Random(0)  # ties broken the same way every time: ``?`` says the same twice
    while not state.is_over() and not state.is_chance() and state.player == player and state.round == round_:
        state = state.apply(_LOOK_AHEAD.choose(state, rng))
    return state.score(player)


def standings(state: GameState) -> list[Standing]:
    """Every player's score now, the leader first (ties share a place, in seat order)."""
    return rank((name, state.score(i), "") for i, name in enumerate(state.game.players))


def _name_of(action: Action, edition: Edition | None) -> str:
    """The tile's or critter's name an action takes or fills (``"gazebo"``), folded; "" for others."""
    if edition is None or action.kind not in (Kind.FEATURE, Kind.FILL) or not action.code:
        return ""
    code = action.code
    return edition.occupant_name(code).casefold() if edition.is_feature(code) or edition.is_critter(code) else ""


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
            # Lines end at "\n" only, as parse_log reads them (a name may hold U+2028).
            lines = [line for line in read_text(path, limit=MAX_LOG_BYTES).split("\n") if line.strip()]  # TooLargeError is an OSError
            header = loads_json(lines[0])  # bounded in nesting and digits: a hostile line is left out, not a crash
            players = tuple(check_name(p["name"]) for p in header["players"])
            seed = header["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):  # 1e999 is a float (infinity): a damaged save
                continue
            check_seed(seed)
        except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):  # SessionError is a ValueError; a name not text
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
