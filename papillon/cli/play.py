"""``papillon play``: Papillon Gardens in the terminal, hot-seat, with bots.

A thin terminal driver over :class:`papillon.session.PlaySession`, the play
session the web app drives too: the session plays the bots, matches and
explains choices, undoes, autosaves the log after every round (the log *is*
the save file) and records results in the score history.  This module only
draws the sheets as text, reads lines and turns errors into one line each.
"""

from __future__ import annotations

import re
import shlex
import tempfile
import textwrap
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from papillon.cli import EXIT_INTERRUPTED, usage_error
from papillon.cli.common import EDITION_FILE, edition_option
from papillon.coach import hint_for
from papillon.daily import daily_seed, parse_day, share_text, today
from papillon.edition import Edition
from papillon.engine.actions import Kind
from papillon.engine.bots import BOTS
from papillon.engine.levels import levels_help
from papillon.engine.log import GameLog
from papillon.engine.state import GameState, card_text, die_text
from papillon.engine.tables import COLOUR_CODE
from papillon.errors import HistoryError, IllegalActionError, SessionError, UnknownEditionError, quote
from papillon.files import write_atomic
from papillon.grid import SIZE, plot_at
from papillon.history import History, record_played
from papillon.notation import CELL_WIDTH, ROW_LABEL_END, cell_column, format_grid
from papillon.report import Scored, breakdown
from papillon.session import (
    Move,
    PlaySession,
    Seat,
    check_name,
    check_names,
    check_player_count,
    check_seed,
    explain_choices,
    name_seats,
    numbered,
    random_seed,
    read_log,
    standings,
)
from papillon.words import plural

HELP = """\
Type the number of a choice, or the choice itself: 'plot C3', or just 'C3',
'B1-C1' or 'red' where only one choice has it.
  ?     what each choice does and scores    ? N   explain choice N
  v     show the whole view again           g N   look at player N's garden
  b     your score, category by category    t     every player's score
  u     undo back to the start of your turn this round (never across a reveal)
  hint  the coach's choice and what it and the best other are expected to score
  s     save now                            q     save and quit (--resume FILE)"""

WIDTH = 78
"""Columns the play screen keeps to, so an 80-column terminal never wraps a line mid-word."""

_STYLES: dict[str, dict[str, Any]] = {
    "R": {"fg": "red", "bold": True},
    "B": {"fg": "blue", "bold": True},
    "Y": {"fg": "yellow", "bold": True},
    "P": {"fg": "magenta", "bold": True},
    "X": {"fg": "bright_black"},
    ".": {"dim": True},
}


def coloured_garden(state: GameState, player: int) -> str:
    """The garden grid as in the notation, each cell styled (click drops the styles off a non-terminal)."""
    garden = state.garden(player)
    header, *lines = format_grid(garden).rstrip("\n").split("\n")
    out = [header]
    for line in lines:
        label = line[:ROW_LABEL_END].strip()
        if not label.isdigit():  # the bricks below a row
            out.append(click.style(line, fg="bright_red"))
            continue
        row = int(label) - 1
        styled = line[: cell_column(0)]
        for col in range(SIZE):
            plot = plot_at(col, row)
            code = garden.cells[plot].code
            star = plot in garden.butterflies
            styled += click.style(code, **_STYLES.get(code, {"fg": "green"}))
            styled += click.style("*", fg="bright_cyan", bold=True) if star else ""
            styled += " " * max(0, CELL_WIDTH - len(code) - star)
            if col + 1 < SIZE:  # the gap to the next cell, holding a brick's | if there is one
                gap = line[cell_column(col) + CELL_WIDTH : cell_column(col + 1)]
                styled += gap.replace("|", click.style("|", fg="bright_red"))
        out.append(styled.rstrip())
    return "\n".join(out) + "\n"  # ends like the notation, with a newline: a blank line after it


def wrap(label: str, items: list[str], width: int = WIDTH) -> str:
    """``label`` then ``items`` two spaces apart, broken between items to fit ``width``.

    An item too long for a line of its own is broken between its words, never inside one (a
    terminal would cut "bramble" or a file name in two). Styles do not count: the length of an
    item is that of its text.
    """
    indent = " " * len(click.unstyle(label))
    room = width - len(indent)
    lines, line, used = [], label, len(click.unstyle(label))
    for item in items:
        pieces = [item] if len(click.unstyle(item)) <= room else item.split(" ")
        for n, piece in enumerate(pieces):
            size = len(click.unstyle(piece))
            gap = "" if used == len(indent) else ("  " if n == 0 else " ")
            if used > len(indent) and used + len(gap) + size > width:
                lines.append(line)
                line, used = indent + piece, len(indent) + size
            else:
                line, used = line + gap + piece, used + len(gap) + size
    lines.append(line)
    return "\n".join(lines)


def say(text: str, command: str = "") -> None:
    """Print a sentence broken between words to fit the screen (a file name in it stays whole).

    A ``command`` to copy ends the sentence on the same line when it fits, else goes on lines of its
    own, broken between arguments with the shell's `` \\`` (it still pastes as one command).
    """
    own_line = bool(command) and len(text) + 1 + len(command) > WIDTH
    if command and not own_line:
        text, command = f"{text} {command}", ""
    lines = textwrap.fill(text, WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
    if own_line:
        broken = textwrap.wrap(command, WIDTH - 4, break_long_words=False, break_on_hyphens=False)
        lines += "\n  " + " \\\n    ".join(broken)
    click.echo(lines)


def file_part(name: str) -> str:
    """A player's name made safe to put into a file name (``a/b`` -> ``a_b``)."""
    return re.sub(r"[^\w.-]", "_", name)


def fill_sheet(state: GameState, player: int) -> str:
    """The Fill sheet in three lines."""
    board = state.boards[player]
    tables = state.game.tables
    edition = state.edition
    fill = edition.fill
    rungs = zip(tables.critters, board.ladders, tables.ladders, strict=True)
    ladders = "  ".join(f"{edition.occupant_name(code)} {'●' * n}{'○' * (h - n)}" for code, n, h in rungs)  # split again by wrap
    height = len(fill.flower_track)

    def track(name: str, n: int) -> str:
        nxt = fill.flower_track[n].replace("_", " ") if n < height else "full"
        return f"{click.style(name, **_STYLES[COLOUR_CODE[name]])} {n}/{height} (next: {nxt or 'no icon'})"

    tracks = [track(name, n) for name, n in zip(tables.colours, board.tracks, strict=True)]
    gnomes = [s for s in fill.caterpillar_gnome_spaces if s > board.caterpillars]
    cater = f"caterpillars {board.caterpillars}/{fill.caterpillar_track}" + (f" (next gnome at {gnomes[0]})" if gnomes else "")
    lost = [code for code, plot in board.critters if plot < 0]
    status = [f"rondel {board.rondel}/{len(fill.rondel)}", cater]
    if lost:
        status.append(f"lost critters: {', '.join(edition.occupant_name(c) for c in lost)}")
    return "\n".join(
        [wrap("  ladders: ", ladders.split("  ")), wrap("  tracks:  ", tracks), wrap("  ", [" ".join(status[:2]), *status[2:]])]
    )


def offer(state: GameState) -> str:
    """The pairs on offer this round."""
    cards, dice = state.cards(), state.dice()
    lines = [f"Round {state.round}/{state.edition.rules.rounds}: the pairs on offer"]
    for i, card in enumerate(cards):
        parts = [f"{part.strip()}" for part in card_text(card).split(" | ")]
        if i < len(dice):
            parts.append(f"die: {die_text(dice[i])}")
        lines.append(wrap(f"  pair {i + 1}: ", [f"{part}{' |' if n + 1 < len(parts) else ''}" for n, part in enumerate(parts)]))
    names = [state.edition.occupant_name(c) for c in state.display]
    lines.append(wrap("  display: ", [f"{name}," for name in names[:-1]] + names[-1:]))
    return "\n".join(lines)


def view(state: GameState, player: int) -> str:
    name = state.game.players[player]
    parts = [f"── {name} ── score now {state.score(player)}", coloured_garden(state, player), fill_sheet(state, player)]
    if state.round >= 1 and state.roll and not state.tasks:
        parts.append(offer(state))
    return "\n".join(parts)


def prompt_text(state: GameState) -> str:
    """What the game waits for, wrapped to the screen."""
    return textwrap.fill(state.prompt(), WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)


def choices(state: GameState) -> str:
    """The numbered choices in columns; many of one kind (41 edges) are listed compactly under their kind."""
    legal = state.legal_actions()
    kinds = {action.kind for action in legal if action.kind is not Kind.SKIP}
    compact = len(legal) > 12 and len(kinds) == 1
    heading = f"  {kinds.pop()} (type the number or the name):\n" if compact else ""
    items = [
        f"{i + 1:>2}{' ' if compact else '. '}{action.subject if compact and action.kind is not Kind.SKIP else action}"
        for i, action in enumerate(legal)
    ]
    width = max(len(item) for item in items) + 2
    per_line = max(1, WIDTH // width)
    rows = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return heading + "\n".join("  " + "".join(item.ljust(width) for item in row).rstrip() for row in rows)


def explain_text(state: GameState, only: int | None = None) -> str:
    """The choices explained (:func:`papillon.session.explain_choices`) as lines (``? N``: choice N only)."""
    return "\n".join(wrap(f"  {c.number:>2}. ", [c.words, c.outcome]) for c in explain_choices(state, only))


def scores_text(state: GameState) -> str:
    """Every player's score now, the leader first."""
    table = standings(state)
    width = max(len(s.player) for s in table)
    return "\n".join(f"  {s.player:<{width}}  {s.total:>3}" for s in table)


@dataclass
class Terminal:
    """The terminal's side of a game: the library's play session and the ``--edition FILE`` for command hints."""

    session: PlaySession
    edition_file: str | None = None
    """The ``--edition FILE`` the game is played with: replaying or resuming it needs the same."""

    @property
    def save(self) -> Path:
        return self.session.path

    def autosave(self) -> None:
        """Write the log to the save file; a failure is one line and exit status 1."""
        try:
            self.session.save()
        except OSError as error:
            raise self.save_failed(error) from None

    def save_failed(self, error: OSError) -> click.ClickException:
        # The write is atomic, so a failed save leaves the previous one whole.
        kept = " (the file there is left as it was)" if self.save.is_file() else ""
        return click.ClickException(f"cannot save the game to {self.save}: {error.strerror or error}{kept}")

    def hint(self, *words: str) -> str:
        """A papillon command line about this game, with its ``--edition FILE`` when it has one."""
        edition = ["--edition", self.edition_file] if self.edition_file else []
        return shlex.join(["papillon", *words, *edition])


def _given(ctx: click.Context, *options: tuple[str, str]) -> list[str]:
    """The flags of ``options`` (flag, parameter name) that the command line set to something other than their default."""
    return [flag for flag, name in options if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)]


def _check_save(save: Path, force: bool, resume: str | None) -> None:
    """Refuse, before the game starts, a save file that would overwrite another game or cannot be written."""
    if save.is_dir():
        raise click.UsageError(f"cannot save to {save}: it is a directory")
    if save.exists() and not force and (resume is None or not save.samefile(resume)):
        if resume is None:
            raise click.UsageError(f"{save} exists: carry that game on with --resume {save}, or overwrite it with --force")
        raise click.UsageError(f"{save} exists (use --force to overwrite it)")
    directory = save.parent
    if not directory.is_dir():
        raise click.UsageError(f"cannot save to {save}: no directory {directory}")
    try:  # the autosave writes through a temporary file in that directory: try one now
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:  # a failed write (exit 1), not a mistake on the command line
        raise click.ClickException(f"cannot save to {save}: {error.strerror or error}") from None


def _picture_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "none" or Path(value).suffix.lower() in (".png", ".pdf"):
        return value
    raise click.BadParameter(f"expected a .png or .pdf file, or 'none', got {quote(value)}", ctx=ctx, param=param)


def read_game_log(path: str | Path, edition: Edition) -> GameLog:
    """The game log in ``path`` (:func:`papillon.session.read_log`); one-line ClickException if unusable."""
    try:
        return read_log(path, edition)
    except SessionError as error:
        raise log_problem(error) from None


def log_problem(error: SessionError) -> click.ClickException:
    """A game log that cannot be used, in one line; the option to give its edition where that is what it needs."""
    hint = " (--edition FILE)" if isinstance(error.__cause__, UnknownEditionError) else ""
    return click.ClickException(f"{error}{hint}")


@click.command(name="play")
@click.option("--seed", type=int, help="Seed of the deal and the dice (random if not given; printed).")
@click.option(
    "--players",
    "humans",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="People playing hot-seat (with the bots, as many players as the edition allows: 6 in the standard one).",
)
@click.option("--name", "names", multiple=True, metavar="NAME", help="A person's name (repeat for each player).")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    type=click.Choice(sorted(BOTS)),
    help=f"Add a bot opponent (repeatable): {levels_help()}.",
)
@click.option("--resume", "resume", type=click.Path(dir_okay=False, exists=True), help="Carry on a saved game.")
@click.option("--save", "save", type=click.Path(dir_okay=False), help="Save file (the game log) [default: papillon-<seed>.jsonl].")
@click.option("--force", is_flag=True, help="Overwrite an existing save file.")
@click.option(
    "--history",
    type=click.Path(dir_okay=False),
    help="Score history file (SQLite) [default: history.sqlite3 in $PAPILLON_DATA_DIR or the XDG data dir].",
)
@click.option(
    "--picture",
    type=click.Path(dir_okay=False),
    callback=_picture_path,
    help="Picture of the final garden: a .png or .pdf path, or 'none' [default: next to the save file].",
)
@click.option("--daily", is_flag=True, help="Today's garden: a solo game whose seed is the local date's (the same for everyone).")
@click.option("--date", "day", metavar="YYYY-MM-DD", help="With --daily: that day's garden instead of today's.")
@click.option("--color/--no-color", default=None, help="Colour the garden (default: on a colour terminal, unless NO_COLOR or TERM=dumb).")
@edition_option
@click.pass_context
def command(
    ctx: click.Context,
    seed: int | None,
    humans: int,
    names: tuple[str, ...],
    bots: tuple[str, ...],
    resume: str | None,
    save: str | None,
    force: bool,
    history: str | None,
    picture: str | None,
    daily: bool,
    day: str | None,
    color: bool | None,
    edition: Edition,
) -> None:
    """Play Papillon Gardens in the terminal: solo, hot-seat and against bots (1 to 6 players in the standard edition)."""
    today_is = None
    if day is not None and not daily:
        raise click.UsageError("--date picks the day of --daily: give --daily too")
    if daily:
        given = _given(ctx, ("--seed", "seed"), ("--players", "humans"), ("--bot", "bots"), ("--resume", "resume"))
        if given:
            raise click.UsageError(f"--daily is a solo game with the day's own seed: drop {', '.join(given)}")
        try:
            today_is = parse_day(day) if day is not None else today()
        except SessionError as error:
            raise click.BadParameter(str(error), param_hint="'--date'") from None
        seed = daily_seed(today_is)
    if resume:
        # The saved game has its own players and seed: an option that would change them is a mistake.
        given = _given(ctx, ("--seed", "seed"), ("--players", "humans"), ("--name", "names"), ("--bot", "bots"))
        if given:
            raise click.UsageError(f"--resume carries on the saved game with its own players and seed: drop {', '.join(given)}")
        _check_save(Path(save or resume), force, resume)
        try:
            session = PlaySession.open(resume, edition)
        except SessionError as error:
            raise log_problem(error) from None
        if save:
            session.path = Path(save)
        game = Terminal(session, ctx.meta.get(EDITION_FILE))
        if session.state.is_over():
            # Already played to the end, recorded and drawn: show the result again, change nothing.
            say(f"{resume}: this game is over (seed {session.log.seed}); its result:")
            _show_result(game, color)
            persons = [i for i in range(len(session.agents)) if session.is_person(i)]
            if persons:  # recorded once: the history adds it only when it is missing (a failed write at its end)
                _record(session, persons, history)
            return
        say(f"Resuming {resume}: round {session.state.round}, seed {session.log.seed}.")
    else:
        if len(names) > humans and ctx.get_parameter_source("humans") == ParameterSource.DEFAULT:
            humans = len(names)  # --name Ann --name Ben: two people play
        if humans + len(bots) == 0:
            raise click.UsageError("nobody plays: give --players 1 or more, or a --bot")
        if len(names) > humans:
            raise click.UsageError(f"{len(names)} names for {plural(humans, 'person', 'people')} (--players {humans})")
        try:  # before a seat is made for each, or a save file named after the seed: the library's rules and words
            check_player_count(humans + len(bots), edition)
            seed = random_seed() if seed is None else check_seed(seed)
        except SessionError as error:
            raise usage_error(error) from None
        try:
            names = tuple(check_name(name) for name in names)
        except SessionError as error:
            raise click.BadParameter(str(error), param_hint="'--name'") from None
        seats = name_seats([Seat(name) for name in names] + [Seat("")] * (humans - len(names)) + [Seat("", bot) for bot in bots])
        people = [seat for seat in seats if seat.bot is None]
        target = Path(save or f"papillon-{seed}.jsonl")
        try:
            check_names([seat.name for seat in people])
        except SessionError as error:
            raise click.UsageError(str(error)) from None
        _check_save(target, force, None)
        try:
            session = PlaySession.start(seed=seed, seats=seats, path=target, edition=edition)
        except SessionError as error:  # the edition's player count, the seed's range: the library's rules and words
            raise usage_error(error) from None
        game = Terminal(session, ctx.meta.get(EDITION_FILE))
        say(f"Papillon Gardens, seed {seed}. Saving to {game.save}. Type 'h' for help.")
    unsaved: click.ClickException | None = None
    try:
        _moves(session.moves)
        session.moves = []
        finished = _loop(game, color)
    except (click.Abort, KeyboardInterrupt) as error:
        game.autosave()
        click.echo()
        say(f"Saved to {game.save}; carry on with:", game.hint("play", "--resume", str(game.save)))
        interrupted = isinstance(error, KeyboardInterrupt) or isinstance(error.__context__, KeyboardInterrupt)
        if interrupted:  # Ctrl-C: the shell's status for an interrupted command; the end of the input is a quit
            ctx.exit(EXIT_INTERRUPTED)
        return
    except OSError as error:  # an autosave failed: mid-game that ends the game; at the end, show the result all the same
        if not session.state.is_over():
            raise game.save_failed(error) from None
        unsaved, finished = game.save_failed(error), True
    if not finished:
        return
    _end(game, history, picture, color, unsaved)
    if today_is is not None:
        _daily_end(game, today_is)


def _daily_end(game: Terminal, day: date) -> None:
    """Today's garden over: the text to share, then the review of the person's decisions."""
    from papillon.cli.review import review_text, reviewed

    state = game.session.state
    click.echo("\nTo share:\n" + share_text(day, state.score_card(0).categories) + "\n")
    click.echo(review_text(reviewed(game.session.log, [0])))


def _moves(moves: list[Move]) -> None:
    for move in moves:
        click.echo(
            textwrap.fill(f"  {move.who}: {move.words}", WIDTH, subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)
        )


def _loop(game: Terminal, color: bool | None) -> bool:
    """Play until the end (True) or until a person quits (False); OSError when an autosave fails."""
    session = game.session
    shown: GameState | None = None
    while not session.state.is_over():
        state = session.state
        if shown is not state:
            click.echo("", color=color)
            click.echo(view(state, state.player), color=color)
            click.echo(click.style(prompt_text(state), bold=True), color=color)
            click.echo(choices(state))
            shown = state
        line = click.prompt("", prompt_suffix="> ", default="", show_default=False).strip()
        if not _command(game, line, color):
            return False
    return True


def _command(game: Terminal, line: str, color: bool | None) -> bool:
    """Handle one line a person typed; False to quit."""
    session = game.session
    state = session.state
    word, _, rest = line.partition(" ")
    if line in ("", "v"):
        click.echo(view(state, state.player), color=color)
        click.echo(click.style(prompt_text(state), bold=True), color=color)
        click.echo(choices(state))
        return True
    if line in ("h", "help"):
        click.echo(HELP)
        return True
    if word == "?":
        number = numbered(rest, len(state.legal_actions()))
        if number is not None:
            click.echo(explain_text(state, number - 1))
        else:
            click.echo(explain_text(state))
        return True
    if line in ("b", "breakdown"):
        garden = state.garden(state.player)
        click.echo(breakdown(Scored("Your garden now", garden, state.score_card(state.player)), width=WIDTH))
        return True
    if line in ("t", "scores"):
        click.echo(scores_text(state))
        return True
    if word in ("g", "look"):
        number = numbered(rest, len(state.boards))
        if number is not None:
            player = number - 1
            click.echo(f"── {state.game.players[player]} ── score now {state.score(player)}")
            click.echo(coloured_garden(state, player), color=color)
            click.echo(fill_sheet(state, player), color=color)
        else:
            click.echo(f"  which garden? g 1 to g {len(state.boards)}")
        return True
    if line in ("u", "undo"):
        if session.undo():
            click.echo("  undone: back to the start of your turn")
        else:
            click.echo("  nothing to undo since the start of your turn")
        return True
    if line == "hint":
        advice = hint_for(state, session.log)
        session.save()  # the hint is in the log: a review can say it was used
        number = state.legal_actions().index(advice.action) + 1
        click.echo(textwrap.fill(f"  {advice.text()} It is choice {number}.", WIDTH, subsequent_indent="    ", break_long_words=False))
        return True
    if line in ("s", "save"):
        game.autosave()
        say(f"  saved to {game.save}")
        return True
    if line in ("q", "quit"):
        game.autosave()
        say(f"Saved to {game.save}; carry on with:", game.hint("play", "--resume", str(game.save)))
        return False
    try:
        moves = session.choose(line)
    except IllegalActionError as error:
        say(f"  {error}")  # the refusal quotes the prompt: it wraps like any sentence, between words
        return True
    _moves(moves)
    return True


def _show_result(game: Terminal, color: bool | None) -> None:
    """Every final garden with its breakdown, and the ranking."""
    state = game.session.state
    for i in range(len(state.boards)):
        garden = state.garden(i).with_meta(seed=str(game.session.log.seed))
        click.echo(coloured_garden(state, i), color=color)
        click.echo(breakdown(Scored("Final garden", garden, state.score_card(i)), width=WIDTH))
    if len(state.boards) > 1:
        ranking = [f"{s.player} {s.total}" for s in standings(state)]
        click.echo(wrap("Ranking: ", [f"{item}," for item in ranking[:-1]] + ranking[-1:]))


def _end(game: Terminal, history: str | None, picture: str | None, color: bool | None, unsaved: click.ClickException | None) -> None:
    session = game.session
    state = session.state
    click.echo("\nThe game is over.\n")
    _show_result(game, color)
    if unsaved is None:
        say(f"Game log: {game.save}", f"({game.hint('replay', str(game.save))})")
    if picture != "none":
        _picture(state, picture, game.save)
    people = [i for i in range(len(state.boards)) if session.is_person(i)]
    if people:
        _record(session, people, history)
    if unsaved is not None:
        raise unsaved


def _record(session: PlaySession, people: list[int], history: str | None) -> None:
    """Record each person's result in the score history (:func:`papillon.history.record_played`) and say how it compares."""
    try:
        if history is None:
            results = record_played(session.state, game=session.id, seed=session.log.seed, people=people)
        else:
            results = History(history).record_game(session.state, game=session.id, seed=session.log.seed, people=people)
    except HistoryError as error:
        click.echo(f"(this game is not recorded in the history: {error})", err=True)
        return
    for result in results:
        say(result.words())


def _picture(state: GameState, picture: str | None, save: Path) -> None:
    """Draw each person's final garden with :mod:`papillon.render`, when that package is there."""
    try:
        from papillon.render import render_garden
    except ImportError:
        click.echo("(no picture of the garden: papillon.render is not available)", err=True)
        return
    for i, name in enumerate(state.game.players):
        # A picture is a bonus: nothing here may cut the end of a game short.
        try:
            if picture is None:
                target = save.with_name(f"{save.stem}-{file_part(name)}.png")
            elif len(state.boards) == 1:
                target = Path(picture)
            else:
                target = Path(picture).with_name(f"{Path(picture).stem}-{file_part(name)}{Path(picture).suffix}")
            fmt = "pdf" if target.suffix.lower() == ".pdf" else "png"
            data = render_garden(state.garden(i), score=state.score_card(i), edition=state.edition, fmt=fmt)
            write_atomic(target, data)
        except OSError as error:
            click.echo(f"(could not write the picture of {name}'s garden: {error.strerror or error})", err=True)
            return
        except Exception as error:
            click.echo(f"(could not draw the picture of {name}'s garden: {error})", err=True)
            return
        say(f"Picture of {name}'s garden: {target}")
