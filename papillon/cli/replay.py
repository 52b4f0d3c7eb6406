"""``papillon replay``: re-run a game log to its final gardens."""

from __future__ import annotations

import sys
import textwrap
from typing import Any

import click

from papillon.cli.common import edition_option
from papillon.cli.play import read_game_log
from papillon.edition import Edition
from papillon.engine.actions import Action
from papillon.engine.log import GameLogError, replay
from papillon.engine.state import GameState
from papillon.engine.text import card_text, die_text, done_text
from papillon.notation import format_grid
from papillon.report import Scored, breakdown


@click.command(name="replay")
@click.argument("log_file", metavar="LOG", type=click.Path(dir_okay=False, exists=True))
@click.option(
    "--step",
    is_flag=True,
    help="Round by round: the cards revealed, the dice rolled, each choice and the gardens (Enter for the next round in a terminal).",
)
@click.option(
    "--garden",
    "garden_only",
    is_flag=True,
    help="Print only the final garden in notation (pipe into `papillon score -`); a game of several players needs --player N.",
)
@click.option("--player", type=int, metavar="N", help="Only player N (from 1).")
@edition_option
def command(log_file: str, step: bool, garden_only: bool, player: int | None, edition: Edition) -> None:
    """Replay a game log (JSON lines written by `play` or `simulate`) to its final gardens.

    Every decision is checked again by the engine; a log from another edition,
    a corrupt line or a final garden that does not match is an error.
    """
    log = read_game_log(log_file, edition)
    players = range(len(log.players))
    if player is not None:
        if not 1 <= player <= len(log.players):
            raise click.BadParameter(f"the game has players 1 to {len(log.players)}", param_hint="--player")
        players = range(player - 1, player)
    elif garden_only and len(log.players) > 1:
        # `papillon score -` reads one garden: two in a row would not score.
        raise click.UsageError(f"--garden prints one garden and the game has {len(log.players)} players: pick one with --player N")

    stepper = Stepper(log.names, players, pause=step and not garden_only and interactive())
    try:
        final = replay(log, stepper.show if step else None)
    except GameLogError as error:
        raise click.ClickException(f"{log_file}: {error}") from None
    except StopReplay:
        return
    if not final.is_over():
        click.echo(f"(the log stops in round {final.round}: {final.prompt()})", err=True)
    for i in players:
        garden = final.garden(i).with_meta(seed=str(log.seed))
        if garden_only:
            click.echo(garden.to_notation(), nl=False)
            continue
        click.echo(garden.to_notation())
        title = "Final garden" if final.is_over() else f"Garden so far (round {final.round} of {final.edition.rules.rounds}, unfinished)"
        click.echo(breakdown(Scored(title, garden, final.score_card(i))))


def interactive() -> bool:
    """Whether a person reads along at a terminal (then --step waits for Enter between rounds)."""
    return sys.stdin.isatty()


class StopReplay(Exception):
    """The person stepping through a game typed q."""


class Stepper:
    """``replay --step``: each round's cards, dice and choices as the log replays, then the gardens."""

    def __init__(self, names: tuple[str, ...] | list[str], players: range, *, pause: bool) -> None:
        self.names = names
        self.players = players
        self.pause = pause
        self.announced = 0
        self.shown = 0
        self.choices: dict[int, list[str]] = {}
        self.before: GameState | None = None
        """The state before the event being shown (a decision is told in words from it, as play tells a bot's)."""

    def show(self, state: GameState, event: dict[str, Any]) -> None:
        before, self.before = self.before, state
        if "chance" in event:
            if state.cards() and state.dice() and state.round > self.announced:  # the round's reveal and roll are both in
                self.announced = state.round
                click.echo(f"== round {state.round} ==")
                click.echo("revealed: " + "\n          ".join(card_text(card) for card in state.cards()))  # a card a line
                click.echo(_wrapped("rolled: ", [die_text(face) for face in state.dice()], ", "))
        elif event["player"] in self.players:
            action = Action.parse(str(event["action"]))
            said = done_text(before.seat(event["player"]), action) if before is not None else str(action)
            self.choices.setdefault(event["player"], []).append(said)
        done = state.round if state.is_over() else state.round - 1
        if done <= self.shown:
            return
        self.shown = done
        for i in self.players:
            if i in self.choices:
                click.echo(f"{self.names[i]}:")
                for said in self.choices[i]:  # one decision a line, in words: "drew a red flower in C1"
                    click.echo(textwrap.fill(said, 80, initial_indent="  ", subsequent_indent="    ", break_long_words=False))
            click.echo(f"{self.names[i]}: score now {state.score(i)}")
            click.echo(format_grid(state.garden(i)))
        self.choices = {}
        if self.pause and not state.is_over():
            click.echo(f"(Enter: round {done + 1}, q: stop) ", nl=False)
            answer = sys.stdin.readline()
            if not answer or answer.strip().lower() in ("q", "quit"):
                raise StopReplay


def _wrapped(label: str, items: list[str], separator: str) -> str:
    """``label`` and the items on lines of at most 80 columns, never cutting an item."""
    return textwrap.fill(separator.join(items), 80, initial_indent=label, subsequent_indent="  ", break_long_words=False)
