"""``papillon replay``: re-run a game log to its final gardens."""

from __future__ import annotations

from typing import Any

import click

from papillon.cli.common import edition_option
from papillon.cli.play import read_game_log
from papillon.edition import Edition
from papillon.engine.log import GameLogError, replay
from papillon.engine.state import GameState
from papillon.notation import format_grid
from papillon.report import Scored, breakdown


@click.command(name="replay")
@click.argument("log_file", metavar="LOG", type=click.Path(dir_okay=False, exists=True))
@click.option("--step", is_flag=True, help="Show every player's garden at the end of each round.")
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

    shown = 0

    def show_round(state: GameState, event: dict[str, Any]) -> None:
        nonlocal shown
        done = state.round if state.is_over() else state.round - 1
        if done > shown:
            shown = done
            click.echo(f"== after round {done} ==")
            for i in players:
                click.echo(f"{log.names[i]}: score now {state.score(i)}")
                click.echo(format_grid(state.garden(i)))

    try:
        final = replay(log, show_round if step else None)
    except GameLogError as error:
        raise click.ClickException(f"{log_file}: {error}") from None
    if not final.is_over():
        click.echo(f"(the log stops in round {final.round}: {final.prompt()})", err=True)
    for i in players:
        garden = final.garden(i).with_meta(seed=str(log.seed))
        if garden_only:
            click.echo(garden.to_notation(), nl=False)
            continue
        click.echo(garden.to_notation())
        click.echo(breakdown(Scored("Final garden", garden, final.score_card(i))))
