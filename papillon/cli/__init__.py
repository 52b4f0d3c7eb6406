"""The command line: a thin layer that parses options, calls the library and formats results.

Each command lives in its own module; this one holds the group and the one
place that turns papillon's errors into a message and an exit code.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from papillon import __version__
from papillon.errors import PapillonError

# Command name -> module under papillon.cli that defines a click command `command`.
COMMANDS = {
    "play": "play",
    "replay": "replay",
    "simulate": "simulate",
    "score": "score",
    "new": "new",
    "scan": "scan",
    "format": "format",
    "sheet": "sheet",
    "render": "render",
    "serve": "serve",
    "history": "history",
}


class PapillonGroup(click.Group):
    """Loads each command's module only when it runs (a PDF-free `score` starts fast)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"papillon.cli.{COMMANDS[name]}")
        command: click.Command = module.command
        return command

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the CLI; a usage mistake is one line on stderr and exit status 2."""
        kwargs["standalone_mode"] = False
        try:
            status = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help() if error.ctx else error.format_message())
            sys.exit(0)
        except click.UsageError as error:
            path = error.ctx.command_path if error.ctx else "papillon"
            click.echo(f"{path}: error: {error.format_message().rstrip('.')} (see '{path} --help')", err=True)
            sys.exit(2)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        # Errors a command raises get the same one-line form as usage errors: "papillon CMD: error: ...".
        try:
            return super().invoke(ctx)
        except PapillonError as error:
            # A user mistake the command did not handle itself: one line, no traceback.
            click.echo(f"{_command_path(ctx)}: error: {error}", err=True)
            ctx.exit(1)
        except click.UsageError:
            raise
        except click.ClickException as error:
            click.echo(f"{_command_path(ctx)}: error: {error.format_message()}", err=True)
            ctx.exit(error.exit_code)


def _command_path(ctx: click.Context) -> str:
    """``papillon score`` for an error raised while the score command ran."""
    return " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand)))


@click.group(cls=PapillonGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="papillon")
def main() -> None:
    """papillon: print, score and play Papillon Gardens.

    \b
    Score a garden typed as text:   papillon score sheets/examples/*.garden
    Start a blank garden to fill:   papillon new > mine.garden
    Print sheets for the table:     papillon sheet -o sheets.pdf
    Score a photo of a sheet:       papillon score photo.jpg
    Play a game against a bot:      papillon play --bot greedy
    Every command has --help.
    """
