"""``papillon play``: Papillon Gardens in the terminal, hot-seat, with bots.

The engine decides what is legal; this module only shows the sheets, reads
choices and keeps the log.  The log *is* the save file: it is written
atomically after every round, and ``--resume`` replays it and carries on.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import tempfile
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from papillon.cli import EXIT_INTERRUPTED
from papillon.cli.common import EDITION_FILE, edition_option
from papillon.edition import Edition
from papillon.engine.bots import BOTS, Bot, make_bot
from papillon.engine.log import GameLog, GameLogError, decide, parse_log, replay, step
from papillon.engine.state import GameState, card_text, die_text, new_game
from papillon.engine.tables import COLOUR_CODE
from papillon.errors import QUOTE_MAX, IllegalActionError, quote
from papillon.files import MAX_LOG_BYTES, loads_json, read_text, write_atomic
from papillon.grid import SIZE, plot_at
from papillon.notation import CELL_WIDTH, ROW_LABEL_END, cell_column, format_grid, player_name
from papillon.report import Scored, breakdown

HELP = """\
Type the number of a choice, or the choice itself: 'plot C3', or just 'C3',
'B1-C1' or 'red' where only one choice has it.
  ?     what each choice does and scores    ? N   explain choice N
  v     show the whole view again           g N   look at player N's garden
  b     your score, category by category    t     every player's score
  u     undo back to the start of your turn this round (never across a reveal)
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


def data_dir() -> Path:
    """Where the personal-best history lives: $PAPILLON_DATA_DIR, else the XDG data dir."""
    if os.environ.get("PAPILLON_DATA_DIR"):
        return Path(os.environ["PAPILLON_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "papillon"


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
    """``label`` then ``items`` two spaces apart, broken between items (never inside one) to fit ``width``.

    Styles do not count: the length of an item is that of its text.
    """
    indent = " " * len(click.unstyle(label))
    lines, line, used = [], label, len(click.unstyle(label))
    for item in items:
        size = len(click.unstyle(item))
        if used > len(indent) and used + 2 + size > width:
            lines.append(line)
            line, used = indent + item, len(indent) + size
        else:
            gap = "" if used == len(indent) else "  "
            line, used = line + gap + item, used + len(gap) + size
    lines.append(line)
    return "\n".join(lines)


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
    verbs = {action.partition(" ")[0] for action in legal if action != "skip"}
    compact = len(legal) > 12 and len(verbs) == 1
    heading = f"  {verbs.pop()} (type the number or the name):\n" if compact else ""
    items = [
        f"{i + 1:>2}{' ' if compact else '. '}{action.partition(' ')[2] if compact and action != 'skip' else action}"
        for i, action in enumerate(legal)
    ]
    width = max(len(item) for item in items) + 2
    per_line = max(1, WIDTH // width)
    rows = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return heading + "\n".join("  " + "".join(item.ljust(width) for item in row).rstrip() for row in rows)


def match_choice(text: str, legal: tuple[str, ...]) -> str:
    """The action a person meant: a number, the action itself, or its object alone where only one action has it.

    ``C3`` is ``plot C3`` when that is a choice, ``B1-C1`` (or ``C1-B1``) ``edge B1-C1``, ``red`` ``colour red``;
    case does not matter.  Text that matches nothing comes back as it is (the engine says why it is not
    allowed); IllegalActionError when it is a number out of range or matches several choices.
    """
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


def explain_choices(state: GameState, only: int | None = None) -> str:
    """Each choice: what it does and the score it leaves now (``? N``: choice N only)."""
    legal = state.legal_actions()
    player = state.player
    now = state.score(player)
    lines = []
    for i, action in enumerate(legal):
        if only is not None and i != only:
            continue
        after = state.apply(action).score(player)
        scores = f"→ score {after} ({after - now:+d})" if after != now else "→ score unchanged"
        lines.append(wrap(f"  {i + 1:>2}. ", [state.describe(action), scores]))
    return "\n".join(lines)


def scores_table(state: GameState) -> str:
    """Every player's score now, the leader first."""
    totals = sorted(((state.score(i), name) for i, name in enumerate(state.game.players)), key=lambda t: -t[0])
    width = max(len(name) for _, name in totals)
    return "\n".join(f"  {name:<{width}}  {total:>3}" for total, name in totals)


@dataclass
class Session:
    state: GameState
    log: GameLog
    agents: list[Bot | None]
    save: Path
    checkpoint: tuple[GameState, int]
    edition_file: str | None = None
    """The ``--edition FILE`` the game is played with: replaying or resuming it needs the same."""

    def autosave(self) -> None:
        """Write the log to the save file; a failure is one line and exit status 1.

        The write is atomic, so a failed save leaves the previous one whole.
        """
        try:
            write_atomic(self.save, self.log.text())
        except OSError as error:
            kept = " (the file there is left as it was)" if self.save.is_file() else ""
            raise click.ClickException(f"cannot save the game to {self.save}: {error.strerror or error}{kept}") from None

    def hint(self, *words: str) -> str:
        """A papillon command line about this game, with its ``--edition FILE`` when it has one."""
        edition = ["--edition", self.edition_file] if self.edition_file else []
        return shlex.join(["papillon", *words, *edition])


def _new_session(seed: int, humans: list[str], bots: list[str], edition: Edition, save: Path) -> Session:
    names = humans + [f"{b} bot" if bots.count(b) == 1 else f"{b} bot {i + 1}" for i, b in enumerate(bots)]
    agents: list[Bot | None] = [None] * len(humans) + [make_bot(b) for b in bots]
    state = new_game(names, edition)
    players = [{"name": n, "bot": (a.name if a else None)} for n, a in zip(names, agents, strict=True)]
    log = GameLog(seed, edition, players)
    return Session(state, log, agents, save, (state, 0))


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
    except OSError as error:
        raise click.UsageError(f"cannot save to {save}: {error.strerror or error}") from None


def _picture_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "none" or Path(value).suffix.lower() in (".png", ".pdf"):
        return value
    raise click.BadParameter(f"expected a .png or .pdf file, or 'none', got {quote(value)}", ctx=ctx, param=param)


def read_game_log(path: str | Path, edition: Edition) -> GameLog:
    """The game log in ``path`` (bounded in size, a byte order mark dropped); one-line ClickException if unusable."""
    try:
        log = parse_log(read_text(path, limit=MAX_LOG_BYTES), edition)
    except GameLogError as error:
        raise click.ClickException(f"{path}: {error}") from None
    except OSError as error:
        raise click.ClickException(f"{path}: cannot read the game log ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise click.ClickException(f"{path}: cannot read the game log (not UTF-8 text)") from None
    for number, entry in enumerate(log.players, start=1):
        try:
            player_name(entry["name"])
        except ValueError as error:  # hand-edited, or written before names were checked
            raise click.ClickException(f"{path}: player {number}: {error}") from None
    return log


def _resume(path: Path, edition: Edition) -> Session:
    log = read_game_log(path, edition)
    try:
        state = replay(log)
    except GameLogError as error:
        raise click.ClickException(f"{path}: {error}") from None
    try:
        agents: list[Bot | None] = [make_bot(str(p["bot"])) if p.get("bot") else None for p in log.players]
    except ValueError as error:
        raise click.ClickException(f"{path}: {error}") from None
    return Session(state, log, agents, path, (state, len(log.events)))


@click.command(name="play")
@click.option("--seed", type=int, help="Seed of the deal and the dice (random if not given; printed).")
@click.option("--players", "humans", type=click.IntRange(0, 6), default=1, show_default=True, help="People playing hot-seat.")
@click.option("--name", "names", multiple=True, metavar="NAME", help="A person's name (repeat for each player).")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    type=click.Choice(sorted(BOTS)),
    help="Add a bot opponent (repeatable): random is easy, greedy medium, search hard "
    "(mean solo scores 22, 45, 88; see 'papillon balance --ladder').",
)
@click.option("--resume", "resume", type=click.Path(dir_okay=False, exists=True), help="Carry on a saved game.")
@click.option("--save", "save", type=click.Path(dir_okay=False), help="Save file (the game log) [default: papillon-<seed>.jsonl].")
@click.option("--force", is_flag=True, help="Overwrite an existing save file.")
@click.option(
    "--history",
    type=click.Path(dir_okay=False),
    help="Personal-best history file [default: in $PAPILLON_DATA_DIR or the XDG data dir].",
)
@click.option(
    "--picture",
    type=click.Path(dir_okay=False),
    callback=_picture_path,
    help="Picture of the final garden: a .png or .pdf path, or 'none' [default: next to the save file].",
)
@click.option("--color/--no-color", default=None, help="Colour the garden (default: when the terminal supports it).")
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
    color: bool | None,
    edition: Edition,
) -> None:
    """Play Papillon Gardens in the terminal: solo, hot-seat (1-6) and against bots."""
    if resume:
        # The saved game has its own players and seed: an option that would change them is a mistake.
        given = [
            flag
            for flag, name in (("--seed", "seed"), ("--players", "humans"), ("--name", "names"), ("--bot", "bots"))
            if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
        ]
        if given:
            raise click.UsageError(f"--resume carries on the saved game with its own players and seed: drop {', '.join(given)}")
        _check_save(Path(save or resume), force, resume)
        session = _resume(Path(resume), edition)
        if save:
            session.save = Path(save)
        session.edition_file = ctx.meta.get(EDITION_FILE)
        if session.state.is_over():
            # Already played to the end, recorded and drawn: show the result again, change nothing.
            click.echo(f"{resume}: this game is over (seed {session.log.seed}); its result:")
            _show_result(session, color)
            return
        click.echo(f"Resuming {resume}: round {session.state.round}, seed {session.log.seed}.")
    else:
        if len(names) > humans and ctx.get_parameter_source("humans") == ParameterSource.DEFAULT:
            humans = len(names)  # --name Ann --name Ben: two people play
        if humans + len(bots) == 0:
            raise click.UsageError("nobody plays: give --players 1 or more, or a --bot")
        if humans + len(bots) > 6:
            raise click.UsageError(f"a game has at most 6 players, got {humans + len(bots)}")
        if len(names) > humans:
            raise click.UsageError(f"{len(names)} names for {humans} {'person' if humans == 1 else 'people'} (--players {humans})")
        try:
            names = tuple(player_name(name) for name in names)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="'--name'") from None
        seed = secrets.randbelow(10**9) if seed is None else seed
        people = list(names) + [f"Player {i + 1}" for i in range(len(names), humans)]
        if len(set(people)) != len(people):
            raise click.UsageError("each player needs a different name")
        target = Path(save or f"papillon-{seed}.jsonl")
        _check_save(target, force, None)
        session = _new_session(seed, people, list(bots), edition, target)
        session.edition_file = ctx.meta.get(EDITION_FILE)
        click.echo(f"Papillon Gardens, seed {seed}. Saving to {session.save}. Type 'h' for help.")
    try:
        finished = _loop(session, color)
    except (click.Abort, KeyboardInterrupt) as error:
        session.autosave()
        click.echo(f"\nSaved to {session.save}; carry on with: {session.hint('play', '--resume', str(session.save))}")
        interrupted = isinstance(error, KeyboardInterrupt) or isinstance(error.__context__, KeyboardInterrupt)
        if interrupted:  # Ctrl-C: the shell's status for an interrupted command; the end of the input is a quit
            ctx.exit(EXIT_INTERRUPTED)
        return
    if not finished:
        return
    _end(session, history, picture, color)


def _loop(session: Session, color: bool | None) -> bool:
    """Play until the end (True) or until a person quits (False)."""
    shown: GameState | None = None
    while not session.state.is_over():
        state = session.state
        if state.is_chance() or session.agents[state.player] is not None:
            before_round = state.round
            mover = state.player
            after = step(state, session.log, session.agents)
            if mover >= 0:
                click.echo(f"  {state.game.players[mover]}: {session.log.events[-1]['action']}")
            if state.is_chance() or after.player != mover or after.round != before_round:
                session.checkpoint = (after, len(session.log.events))
            session.state = after
            if after.round != before_round or after.is_over():
                session.autosave()
            continue
        if shown is not state:
            click.echo("", color=color)
            click.echo(view(state, state.player), color=color)
            click.echo(click.style(prompt_text(state), bold=True), color=color)
            click.echo(choices(state))
            shown = state
        line = click.prompt("", prompt_suffix="> ", default="", show_default=False).strip()
        if not _command(session, line, color):
            return False
    return True


def _command(session: Session, line: str, color: bool | None) -> bool:
    """Handle one line a person typed; False to quit."""
    state = session.state
    legal = state.legal_actions()
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
        number = rest.strip()
        if number.isascii() and number.isdigit() and 1 <= int(number) <= len(legal):
            click.echo(explain_choices(state, int(number) - 1))
        else:
            click.echo(explain_choices(state))
        return True
    if line in ("b", "breakdown"):
        garden = state.garden(state.player)
        click.echo(breakdown(Scored("Your garden now", garden, state.score_card(state.player)), width=WIDTH))
        return True
    if line in ("t", "scores"):
        click.echo(scores_table(state))
        return True
    if word in ("g", "look"):
        number = rest.strip()
        if number.isascii() and number.isdigit() and 1 <= int(number) <= len(state.boards):
            player = int(rest) - 1
            click.echo(f"── {state.game.players[player]} ── score now {state.score(player)}")
            click.echo(coloured_garden(state, player), color=color)
            click.echo(fill_sheet(state, player), color=color)
        else:
            click.echo(f"  which garden? g 1 to g {len(state.boards)}")
        return True
    if line in ("u", "undo"):
        previous, count = session.checkpoint
        if count == len(session.log.events):
            click.echo("  nothing to undo since the start of your turn")
            return True
        del session.log.events[count:]
        session.state = previous
        click.echo("  undone: back to the start of your turn")
        return True
    if line in ("s", "save"):
        session.autosave()
        click.echo(f"  saved to {session.save}")
        return True
    if line in ("q", "quit"):
        session.autosave()
        click.echo(f"Saved to {session.save}; carry on with: {session.hint('play', '--resume', str(session.save))}")
        return False
    mover = state.player
    try:
        action = match_choice(line, legal)
        after = decide(state, session.log, action)
    except IllegalActionError as error:
        click.echo(f"  {error}")
        return True
    session.state = after
    if after.player != mover or after.round != state.round:
        session.checkpoint = (after, len(session.log.events))
    if after.round != state.round or after.is_over():
        session.autosave()
    return True


def _show_result(session: Session, color: bool | None) -> None:
    """Every final garden with its breakdown, and the ranking."""
    state = session.state
    results = []
    for i, name in enumerate(state.game.players):
        garden = state.garden(i).with_meta(seed=str(session.log.seed))
        click.echo(coloured_garden(state, i), color=color)
        click.echo(breakdown(Scored("Final garden", garden, state.score_card(i)), width=WIDTH))
        results.append((name, state.score(i)))
    if len(results) > 1:
        ranking = sorted(results, key=lambda r: -r[1])
        click.echo(wrap("Ranking: ", [f"{name} {total}," for name, total in ranking[:-1]] + [f"{ranking[-1][0]} {ranking[-1][1]}"]))


def _end(session: Session, history: str | None, picture: str | None, color: bool | None) -> None:
    state = session.state
    session.log.finish(state)
    try:
        session.autosave()
        unsaved = None
    except click.ClickException as error:  # show the end of the game all the same, then fail
        unsaved = error
    click.echo("\nThe game is over.\n")
    _show_result(session, color)
    if unsaved is None:
        click.echo(f"Game log: {session.save} ({session.hint('replay', str(session.save))})")
    if picture != "none":
        _picture(state, picture, session.save)
    people = [i for i, agent in enumerate(session.agents) if agent is None]
    if people:
        _record_history(Path(history) if history else data_dir() / "history.json", state, people, session.log.seed)
    if unsaved is not None:
        raise unsaved


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
        click.echo(f"Picture of {name}'s garden: {target}")


def _read_history(path: Path) -> list[Any] | None:
    """The games recorded in the history file, [] for none; None when it must be left alone.

    A file that is not a papillon history is kept aside (``history.json.bad``), never overwritten.
    """
    try:
        data = loads_json(read_text(path, limit=MAX_LOG_BYTES)) if path.exists() else {"games": []}
    except OSError as error:
        click.echo(f"(could not read the history file {path}: {error.strerror or error}; this game is not recorded)", err=True)
        return None
    except ValueError:  # not JSON, or not UTF-8
        data = None
    games = data.get("games") if isinstance(data, dict) else None
    if isinstance(games, list):
        return games
    aside = path.with_name(f"{path.name}.bad")
    for n in range(1, 1000):
        if not aside.exists():
            break
        aside = path.with_name(f"{path.name}.bad{n}")
    try:
        path.rename(aside)
    except OSError as error:
        click.echo(
            f"(the history file {path} is unreadable and cannot be moved aside: {error.strerror or error}; this game is not recorded)",
            err=True,
        )
        return None
    click.echo(f"(the history file {path} is unreadable: kept it as {aside} and started a new one)", err=True)
    return []


def _is_record(game: Any) -> bool:
    total = game.get("total") if isinstance(game, dict) else None
    return isinstance(game, dict) and isinstance(game.get("player"), str) and isinstance(total, int) and not isinstance(total, bool)


def _record_history(path: Path, state: GameState, people: list[int], seed: int) -> None:
    """Append each person's result to the history file and announce personal bests."""
    games = _read_history(path)
    if games is None:
        return
    bad = sum(1 for g in games if not _is_record(g))
    if bad:  # kept in the file as they are, but no best comes from them
        click.echo(f"(ignoring {bad} unreadable {'entry' if bad == 1 else 'entries'} of the history file {path})", err=True)
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    for i in people:
        name = state.game.players[i]
        total = state.score(i)
        best = max((g["total"] for g in games if _is_record(g) and g["player"] == name), default=None)
        record = {"player": name, "total": total, "seed": seed, "date": when, "edition": state.edition.name, "players": len(state.boards)}
        games.append(record)
        if best is None:
            click.echo(f"{name}: first game recorded: {total}.")
        elif total > best:
            click.echo(f"{name}: new personal best! {total} (previous best {best}).")
        else:
            click.echo(f"{name}: {total}; personal best {best}.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"format": "papillon-history", "version": 1, "games": games}, indent=1) + "\n")
    except OSError as error:
        click.echo(f"(could not write the history file {path}: {error.strerror or error})", err=True)
