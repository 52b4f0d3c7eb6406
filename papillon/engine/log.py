"""Game logs: every game as JSON lines that replay it exactly.

The first line is a header::

    {"format": "papillon-game-log", "version": 2, "seed": 17, "edition": "standard",
     "fingerprint": "bf3e7bc81d2a", "edition_data": {...}, "players": [{"name": "Ann", "bot": null}]}

``edition_data`` is the whole edition the game was played with, so the log
replays after papillon's standard edition changes.  Then one line per event, in
order: ``{"chance": "deal po,sh,bf,tr,ha,gz"}``, ``{"chance": "reveal 4.17.30"}``
and ``{"chance": "roll 2 6 1"}`` for the deal and each round's cards and dice,
``{"player": 0, "action": "plot C3"}`` for each decision (in the order received: the seats of
a round act in any interleaving), and, once the game
is over, ``{"end": {"scores": [...], "gardens": [...]}}`` with each final
garden in notation.  A hint a player asked for is a line of its own where it was asked,
``{"hint": {"player": 0, "action": "pair 2"}}`` (the coach's suggestion, :mod:`papillon.coach`):
it is kept for a review to mention and plays no part in the game's course.  :func:`replay` re-runs the events through the engine (so
every decision is checked again) and compares the final gardens.

A version-1 log (papillon before the rules revision: no edition data, the whole
card order dealt at setup, gnome options by number) is read when its edition is
known, the standard edition of that time (``editions/standard-v1.toml``) or the
one given, and translated to version 2 event by event; otherwise it is refused
with one line that says why.

Randomness: the chance event number *k* of the game with seed *s* is drawn
from ``random.Random`` seeded by :func:`derive_seed` ``(s, "chance", k)``, and
a bot's decision number *n* from ``derive_seed(s, "bot", n)``; a game
therefore depends only on its seed and its decisions, whoever plays it and
however it is interrupted and resumed.  In a game driven simultaneously
(:func:`play_simultaneous`) a bot's *n*-th decision in seat *p* draws from
``derive_seed(s, "seat", p, n)`` and looks at its own seat alone
(:meth:`~papillon.engine.state.GameState.alone`), so its choices never depend
on the interleaving.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import is_
from sys import getrefcount
from typing import Any

from papillon.edition import Edition, earlier_standard_editions, edition_from_data, standard_edition
from papillon.engine.actions import Action
from papillon.engine.bots import Bot, RandomBot
from papillon.engine.seeded import LazyRandom, derive_seed, hash_prefix, index_draw, reseed
from papillon.engine.state import GNOME_VERB, GameState, after_legal, draw_chance, gnome_slugs, new_game
from papillon.engine.tasks import GnomeBonus, Stage
from papillon.errors import EditionError, GameLogError, IllegalActionError, UnknownEditionError, quote
from papillon.files import json_reason, loads_json
from papillon.notation import player_name
from papillon.seeds import MAX_SEED

LOG_FORMAT = "papillon-game-log"
LOG_VERSION = 2
READS_VERSIONS = (1, 2)
S_OVER = Stage.OVER
S_TURN = Stage.TURN
S_BONUS = Stage.BONUS
S_START = Stage.START


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with seed ``master`` (same for any ``--jobs``)."""
    return derive_seed(master, "game", index) % 10**9


@dataclass
class GameLog:
    """A game's header and events so far (mutable: the driver appends as it plays)."""

    seed: int
    edition: Edition
    players: list[dict[str, Any]]
    events: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    event_lines: list[int] = field(default_factory=list, repr=False)
    """The file line of each event, when the log was read from a file."""
    hints: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """The hints asked for: how many events came before each, and its record (``player``, ``action``).
    Kept beside the events, never among them: a bot's draws and the undo marks count events."""
    _chances: tuple[int, object, int] = field(default=(0, None, 0), init=False, repr=False, compare=False)
    """:attr:`chance_count`'s last count: (events counted, the last of them, chance events among them)."""
    _written: tuple[tuple[dict[str, Any], ...], list[str]] | None = field(default=None, init=False, repr=False, compare=False)
    """The events :func:`play_game` recorded and their lines, written as it went (it knows each decision's seat is
    an int and its text a str, so a line is one look-up); :meth:`lines` uses them while the events are those very
    records.  An event is a record: appended, taken back, never edited in place (nothing in papillon edits one)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(str(p["name"]) for p in self.players)

    def header(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "seed": self.seed,
            "edition": self.edition.name,
            "fingerprint": self.edition.fingerprint,
            "edition_data": self.edition.data,
            "players": self.players,
        }

    def header_line(self) -> str:
        """:meth:`header` as its line of the log (the edition's data as :attr:`Edition.data_json` keeps it written)."""
        edition = self.edition
        head = _dump(
            {"format": LOG_FORMAT, "version": LOG_VERSION, "seed": self.seed, "edition": edition.name, "fingerprint": edition.fingerprint}
        )
        return head[:-1] + ',"edition_data":' + edition.data_json + ',"players":' + _dump(self.players) + "}"

    def hint(self, player: int, action: Action | str) -> None:
        """Record that seat ``player`` was shown the hint ``action`` here (the game goes on unchanged)."""
        self.hints.append((len(self.events), {"player": player, "action": str(action)}))

    def lines(self) -> Iterator[str]:
        yield self.header_line()
        if not self.hints:  # a bot's game: the events alone
            events, written = self.events, self._written
            if written is not None and len(written[0]) == len(events) and all(map(is_, written[0], events)):
                yield from written[1]
            else:
                yield from map(_dump_event, events)
            if self.end is not None:
                yield _dump({"end": self.end})
            return
        hints = sorted(self.hints, key=lambda hint: hint[0])  # stable: hints at one place keep their order
        shown = 0
        for index, event in enumerate(self.events):
            while shown < len(hints) and hints[shown][0] <= index:
                yield _dump({"hint": hints[shown][1]})
                shown += 1
            yield _dump_event(event)
        for _, hint in hints[shown:]:  # after the last event (or beyond it, once an undo took events back)
            yield _dump({"hint": hint})
        if self.end is not None:
            yield _dump({"end": self.end})

    def text(self) -> str:
        return "\n".join([*self.lines(), ""])

    @property
    def chance_count(self) -> int:
        # Counted on from the last count while the events only grew (a driver asks at every chance event).
        counted, last, found = self._chances
        events = self.events
        if counted > len(events) or (counted and events[counted - 1] is not last):
            counted, found = 0, 0
        found += sum(1 for e in itertools.islice(events, counted, None) if "chance" in e)
        self._chances = (len(events), events[-1] if events else None, found)
        return found

    def finish(self, state: GameState) -> None:
        """Record the end: each player's score and final garden in notation."""
        self.end = {
            "scores": [state.score(i) for i in range(len(state.boards))],
            "gardens": [state.garden(i).to_notation() for i in range(len(state.boards))],
        }


_dump = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""``json.dumps(data, separators=(",", ":"), ensure_ascii=False)`` with its encoder made once (``dumps`` makes one a call)."""


def _dump_event(event: dict[str, Any]) -> str:
    """:func:`_dump` of an event, written directly when JSON would write it as it is (a game has hundreds)."""
    size = len(event)
    if size == 2:  # a decision, the commonest
        player, action = event.get("player"), event.get("action")
        if player.__class__ is int and action.__class__ is str and next(iter(event)) == "player":
            key = (player, action)
            line = _DECISION_LINES.get(key)
            if line is not None:
                return line
            if _plain(action):
                if len(_DECISION_LINES) >= DECISION_LINES:
                    _DECISION_LINES.clear()
                line = _DECISION_LINES[key] = '{"player":' + str(player) + ',"action":"' + action + '"}'
                return line
    elif size == 1:
        chance = event.get("chance")
        if chance.__class__ is str and _plain(chance):
            return '{"chance":"' + chance + '"}'
    return _dump(event)


_DECISION_LINES: dict[tuple[int, str], str] = {}
"""The line of each plain decision written lately, by seat and action text (a game's decisions repeat a few hundred texts)."""
DECISION_LINES = 4096


def _plain(text: str) -> bool:
    """Whether JSON writes ``text`` between quotes as it is: printable ASCII with no quote or backslash."""
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


def chance_rng(seed: int, index: int) -> random.Random:
    """``random.Random(derive_seed(seed, "chance", index))``: the draws of a game's chance event number ``index``."""
    return random.Random(derive_seed(seed, "chance", index))


_new_random = random.Random.__new__


def bot_rng(seed: int, decision: int) -> random.Random:
    """The draws of the bot's decision number ``decision`` (seeded on its first draw: most decisions draw nothing)."""
    return LazyRandom((seed, "bot", decision))


def seat_rng(seed: int, player: int, decision: int) -> random.Random:
    """The draws of seat ``player``'s decision number ``decision`` in a game driven simultaneously."""
    return LazyRandom((seed, "seat", player, decision))


def step(state: GameState, log: GameLog, agents: Sequence[Bot | None]) -> GameState:
    """Play one event: a chance draw, or the current bot's decision; None agents are refused."""
    if state.is_chance():
        action = state.sample_chance(chance_rng(log.seed, log.chance_count))
        log.events.append({"chance": action})
        return state.apply(action)
    player = state.player
    agent = agents[player]
    if agent is None:
        raise ValueError(f"player {player} is a person: the driver must ask them")
    return decide(state, log, agent.choose(state, bot_rng(log.seed, len(log.events))), player)


@dataclass(frozen=True)
class SeatTurn:
    """Bot seat ``seat``'s next decision in a game driven simultaneously, to be thought over apart from the
    game: on its seat alone (``view``) with its own draws, so whenever it is thought, it is the same."""

    seat: int
    decisions: int
    """How many decisions the log held for this seat: the draws' number, and how a driver tells the
    decision was not taken meanwhile."""
    view: GameState
    bot: Bot
    seed: int

    def think(self) -> Action | str:
        return self.bot.choose(self.view, seat_rng(self.seed, self.seat, self.decisions))


def seat_turn(state: GameState, log: GameLog, agents: Sequence[Bot | None], seat: int) -> SeatTurn:
    """Bot seat ``seat``'s next decision in a game driven simultaneously (:class:`SeatTurn`)."""
    agent = agents[seat]
    if agent is None:
        raise ValueError(f"player {seat} is a person: the driver must ask them")
    return SeatTurn(seat, seat_decisions(log, seat), state.alone(seat), agent, log.seed)


def seat_decisions(log: GameLog, seat: int) -> int:
    return sum(1 for event in log.events if event.get("player") == seat)


def seat_step(state: GameState, log: GameLog, agents: Sequence[Bot | None], seat: int) -> GameState:
    """Bot seat ``seat``'s next decision in a game driven simultaneously, taken at once (:func:`seat_turn`)."""
    return decide(state, log, seat_turn(state, log, agents, seat).think(), seat)


def decide(state: GameState, log: GameLog, action: Action | str, player: int | None = None) -> GameState:
    """Apply seat ``player``'s decision (default: the lowest acting seat) and record it, in its log text
    (IllegalActionError leaves both unchanged)."""
    seat = state.player if player is None else player
    after = state.apply(action, seat)
    log.events.append({"player": seat, "action": action.text if action.__class__ is Action else str(action)})
    return after


def play_game(
    seed: int,
    agents: Sequence[Bot],
    edition: Edition | None = None,
    names: Sequence[str] | None = None,
) -> tuple[GameState, GameLog]:
    """Play a whole game of bots; returns the final state and its log."""
    edition = edition or standard_edition()
    names = list(names or [a.name for a in agents])
    state = new_game(names, edition)
    log = GameLog(seed, edition, [{"name": n, "bot": a.name} for n, a in zip(names, agents, strict=True)])
    # step() and decide() inlined: the log grows only here, so the chance events are counted as they come.
    events = log.events
    append = events.append
    lines: list[str] = []
    line = lines.append
    decision_line = _DECISION_LINES.get
    chances = count = 0  # the chance events and all events so far (len(events))
    bot_prefix = hash_prefix(seed, "bot")  # each decision's LazyRandom((seed, "bot", n)) hashes n after it
    # One generator for the chance events, reseeded for each (sample_chance keeps none); one for the random bot's
    # decisions, reseeded for each; and one for the other bots' decisions, restarted for each (LazyRandom.restart:
    # making one costs about a decision), unless the last bot kept it: then a new one.
    chance_prefix = hash_prefix(seed, "chance")
    chance_generator = _new_random(random.Random)
    draws = _new_random(random.Random)
    rng = LazyRandom((seed, "bot", 0), bot_prefix)
    unheld = getrefcount(rng)  # its reference count while only this function holds it
    while True:
        stage = state.stage  # told by identity: a decision's stages first
        if not (stage is S_TURN or stage is S_BONUS or stage is S_START):
            if stage is S_OVER:
                break
            outcome, state = draw_chance(state, reseed(chance_generator, chance_prefix, chances))  # chance_rng(seed, chances)
            chances += 1
            count += 1
            event: dict[str, Any] = {"chance": outcome}
            append(event)
            line(_dump_event(event))
            continue
        player = state.current  # the lowest acting seat, as state.player
        agent = agents[player]
        if agent is None:
            raise ValueError(f"player {player} is a person: the driver must ask them")
        if agent.__class__ is RandomBot:  # RandomBot itself: a subclass, as any other bot, is asked
            # RandomBot.choose's draw, with its generator's, its own and apply's checking frames left out: they cost
            # more than the rest of its decision.  The generator: the decision's LazyRandom((seed, "bot", count)).
            legal = state.legal_actions()
            action = legal[index_draw(draws, bot_prefix, count, len(legal))]
            count += 1
            state = after_legal(state, action)
        else:
            if getrefcount(rng) == unheld:
                rng.restart((seed, "bot", count))
            else:
                rng = LazyRandom((seed, "bot", count), bot_prefix)
            action = agent.choose(state, rng)
            count += 1
            state = state.apply(action)  # the lowest acting seat's: player's
        text = action.text if action.__class__ is Action else str(action)
        event = {"player": player, "action": text}
        append(event)
        line(decision_line((player, text)) or _dump_event(event))
    log._written = (tuple(events), lines)
    log.finish(state)
    return state, log


def play_simultaneous(
    seed: int,
    agents: Sequence[Bot],
    pick: Callable[[tuple[int, ...]], int],
    edition: Edition | None = None,
    names: Sequence[str] | None = None,
) -> tuple[GameState, GameLog]:
    """Play a whole game of bots as if each sat at their own device: at every moment ``pick`` chooses,
    among the acting seats, the one whose decision arrives next.  Each bot decides on its own seat's
    view with its own seat's draws, so any ``pick`` gives the same gardens; the log records the
    interleaving as received."""
    edition = edition or standard_edition()
    names = list(names or [a.name for a in agents])
    state = new_game(names, edition)
    log = GameLog(seed, edition, [{"name": n, "bot": a.name} for n, a in zip(names, agents, strict=True)])
    decisions = [0] * len(agents)
    while not state.is_over():
        if state.is_chance():
            state = step(state, log, agents)
            continue
        acting = state.acting_players()
        seat = pick(acting)
        if seat not in acting:
            raise ValueError(f"pick chose seat {seat}, not one of the acting seats {acting}")
        action = agents[seat].choose(state.alone(seat), seat_rng(seed, seat, decisions[seat]))
        decisions[seat] += 1
        state = decide(state, log, action, seat)
    log.finish(state)
    return state, log


# --------------------------------------------------------------------------- reading and replaying


def parse_log(text: str, edition: Edition | None = None) -> GameLog:
    """Read a log; GameLogError names the line of the first problem, or an edition it cannot find.

    A version-2 log carries its edition and is read under it (``edition`` is not used);
    a version-1 log is read under ``edition`` or an earlier standard edition, whichever
    it was played with (its fingerprint says), and translated to version 2.
    """
    # Lines end at "\n" only: str.splitlines() also breaks at U+2028, U+0085 and others, which JSON
    # writes as they are inside a string (a tile's name), and would cut such a record in two.
    lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    if not lines:
        raise GameLogError("empty file: expected a papillon game log")
    records = []
    for number, line in lines:
        try:
            record = loads_json(line)  # bounded: a hostile line is one error, not a RecursionError
        except json.JSONDecodeError as error:
            raise GameLogError(f"not valid JSON ({json_reason(error)}, column {error.colno})", number) from None
        if not isinstance(record, dict):
            raise GameLogError("expected a JSON object", number)
        records.append((number, record))
    number, header = records[0]
    if header.get("format") != LOG_FORMAT:
        raise GameLogError(f'not a papillon game log (expected "format": "{LOG_FORMAT}")', number)
    version = header.get("version")
    if version not in READS_VERSIONS or isinstance(version, bool):
        raise GameLogError(f"unsupported log version {_as_json(version)}: this papillon reads versions 1 and 2", number)
    played = _log_edition(header, edition or standard_edition(), number)
    seed = header.get("seed")
    players = header.get("players")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise GameLogError('header: "seed" must be a whole number', number)
    if not 0 <= seed <= MAX_SEED:  # the rule of play --seed: a log cannot hold a game no one could start
        raise GameLogError(f'header: "seed" is a whole number from 0 to {MAX_SEED}, not {_as_json(seed)}', number)
    if not (isinstance(players, list) and players and all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in players)):
        raise GameLogError('header: "players" must be a list of {"name": ..., "bot": ...}', number)
    players = _checked_players(players)
    most = played.play.max_players
    if len(players) > most:
        raise GameLogError(f"header: {len(players)} players, but a game of the {played.name} edition has at most {most}", number)
    log = GameLog(seed, played, players)
    for number, record in records[1:]:
        if log.end is not None:
            raise GameLogError("event after the end of the game", number)
        if set(record) == {"end"} and isinstance(record["end"], dict):
            log.end = record["end"]
        elif _is_hint(record):
            log.hints.append((len(log.events), record["hint"]))
        elif _is_event(record):
            log.events.append(record)
            log.event_lines.append(number)
        else:
            expected = '{"chance": ...}, {"player": N, "action": ...}, {"hint": ...} or {"end": ...}'
            raise GameLogError(f"expected {expected}, got {quote(_dump(record), mark='')}", number)
    if version == 1:
        _translate_v1(log)
    return log


def _checked_players(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players with their names as a game takes them (trimmed: a hand-edited " Ann " is Ann); GameLogError if one cannot be."""
    checked = []
    for number, player in enumerate(players, start=1):
        try:
            checked.append({**player, "name": player_name(player["name"])})
        except ValueError as error:
            raise GameLogError(f"player {number}: {error}") from None  # worded as play --resume always did
    return checked  # two bots of a kind share a name in play_game's logs: names need not differ here


def _log_edition(header: dict[str, Any], given: Edition, line: int) -> Edition:
    """The edition a log was played with: its own data (version 2) or one whose fingerprint it names (version 1)."""
    fingerprint = header.get("fingerprint")
    if header.get("version") == 2:
        try:
            played = edition_from_data(header.get("edition_data"), "the log's edition_data")
        except EditionError as error:
            raise GameLogError(f"header: {error}", line) from None
        if played.fingerprint != fingerprint:
            raise GameLogError("header: the edition data does not match its fingerprint (the log was edited)", line)
        return played
    for candidate in (given, *earlier_standard_editions()):
        if candidate.fingerprint == fingerprint:
            return candidate
    raise UnknownEditionError(
        f"a version-1 log of the {_as_json(header.get('edition'))} edition (fingerprint {_as_json(fingerprint)}), "
        f"which this papillon does not hold: give the edition file it was played with"
    )


def _translate_v1(log: GameLog) -> None:
    """Rewrite a version-1 log's events as version 2: the deal without the card order, each
    round's cards as a ``reveal`` before its roll, gnome options by word (checked by playing them)."""
    state = new_game(log.names, log.edition)
    events: list[dict[str, Any]] = []
    lines: list[int] = []
    decks: list[list[int]] = []
    rolls = 0
    for event, line in zip(log.events, log.event_lines, strict=True):
        todo = [dict(event)]
        chance = event.get("chance")
        if isinstance(chance, str) and chance.startswith("deal "):
            words = chance.split()
            cards = words[2].split(".") if len(words) == 3 else []
            if not all(c.isascii() and c.isdigit() and len(c) < 4 for c in cards) or not cards:
                raise GameLogError(f"a version-1 deal is 'deal <tiles> <cards>', got {_as_json(chance)}", line)
            size = log.edition.deck_size
            numbers = [int(c) for c in cards]
            decks = [numbers[i * size : (i + 1) * size] for i in range(log.edition.decks)]
            todo = [{"chance": f"deal {words[1]}"}]
        elif isinstance(chance, str) and chance.startswith("roll") and state.stage == "reveal":
            rolls += 1
            if not decks or any(len(deck) < rolls for deck in decks):
                raise GameLogError("a version-1 roll before the deal, or past the end of the decks", line)
            todo = [{"chance": "reveal " + ".".join(str(deck[rolls - 1]) for deck in decks)}, dict(event)]
        elif "action" in event and event["action"].startswith(GNOME_VERB + " ") and state.tasks:
            number = event["action"].split(" ", 1)[1]
            task = state.tasks[-1]
            options = task.options(log.edition) if isinstance(task, GnomeBonus) else log.edition.gnome
            if number.isascii() and number.isdigit() and 1 <= int(number) <= len(options):
                todo = [{"player": event["player"], "action": f"{GNOME_VERB} {gnome_slugs(options)[int(number) - 1]}"}]
        for new in todo:
            try:
                state = state.apply(new["chance"] if "chance" in new else new["action"])
            except IllegalActionError as error:
                raise GameLogError(f"cannot translate this version-1 event: {error}", line) from None
            events.append(new)
            lines.append(line)
    log.events = events
    log.event_lines = lines


def _as_json(value: object) -> str:
    """A header value for a message: a scalar as JSON (a string shows its quotes), cut and escaped by errors.quote; else its type."""
    scalar = isinstance(value, (str, int, float, bool, type(None)))
    return quote(json.dumps(value, ensure_ascii=False), mark="") if scalar else type(value).__name__


def _is_hint(record: dict[str, Any]) -> bool:
    hint = record.get("hint")
    if set(record) != {"hint"} or not isinstance(hint, dict) or set(hint) != {"player", "action"}:
        return False
    player = hint["player"]
    return isinstance(hint["action"], str) and isinstance(player, int) and not isinstance(player, bool)


def _is_event(record: dict[str, Any]) -> bool:
    if set(record) == {"chance"}:
        return isinstance(record["chance"], str)
    player = record.get("player")
    return (
        set(record) == {"player", "action"}
        and isinstance(record["action"], str)
        and isinstance(player, int)
        and not isinstance(player, bool)
    )


def replay(log: GameLog, on_state: Callable[[GameState, dict[str, Any]], None] | None = None) -> GameState:
    """Re-run a log's events; returns the last state.  Checks the recorded end if there is one."""
    state = new_game(log.names, log.edition)
    for index, event in enumerate(log.events):
        line = log.event_lines[index] if index < len(log.event_lines) else None
        try:
            if "chance" in event:
                if not state.is_chance():
                    raise GameLogError(f"a chance event where the game expects a decision ({state.prompt()})", line)
                state = state.apply(event["chance"])
            else:
                if state.is_chance() or state.is_over():
                    raise GameLogError(f"a decision where the game expects {'nothing more' if state.is_over() else 'a chance event'}", line)
                if event["player"] not in state.acting_players():
                    raise GameLogError(f"a decision of player {event['player']} on player {state.player}'s turn", line)
                state = state.apply(event["action"], event["player"])
        except IllegalActionError as error:
            raise GameLogError(str(error), line) from None
        if on_state is not None:
            on_state(state, event)
    if log.end is not None:
        if not state.is_over():
            raise GameLogError("the log records an end but its events stop before the game is over")
        scores = [state.score(i) for i in range(len(state.boards))]
        if log.end.get("scores") != scores:
            recorded = quote(json.dumps(log.end.get("scores"), ensure_ascii=False), mark="")
            raise GameLogError(f"the log's end records the scores {recorded}, but replaying its events gives {json.dumps(scores)}")
        gardens = [state.garden(i).to_notation() for i in range(len(state.boards))]
        if log.end.get("gardens") != gardens:
            raise GameLogError("replaying the events does not give the final gardens the log records")
    return state
