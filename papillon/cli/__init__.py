"""The command line: a thin layer that parses options, calls the library and formats results.

Each command lives in its own module; this one holds the group and the one
place that turns papillon's errors into a message and an exit code: a usage
mistake exits 2, a bad input or a failed write 1, Ctrl-C 130, and a standard
output that cannot be written (a full disk, a closed pipe) is one line too.
"""

from __future__ import annotations

import difflib
import errno
import importlib
import os
import sys
import warnings
from typing import Any

import click

from papillon import __version__
from papillon.errors import PapillonError, ScanError, quote

# Command name -> module under papillon.cli that defines a click command `command`.
# A new command is one line here.
COMMANDS = {
    "play": "play",
    "replay": "replay",
    "review": "review",
    "simulate": "simulate",
    "balance": "balance",
    "score": "score",
    "new": "new",
    "scan": "scan",
    "format": "format",
    "sheet": "sheet",
    "render": "render",
    "serve": "serve",
    "history": "history",
}

EXIT_INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C, as shells report it (128 + SIGINT)."""


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

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if name not in COMMANDS and not name.startswith("-"):
            close = difflib.get_close_matches(name, COMMANDS, n=1, cutoff=0.6)
            hint = f": did you mean '{close[0]}'?" if close else f" (the commands: {', '.join(sorted(COMMANDS))})"
            raise click.UsageError(f"no command {quote(name)}{hint}", ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its first sentence in full (click would cut it with '...')."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1000)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the CLI; a usage mistake is one line on stderr and exit status 2."""
        kwargs["standalone_mode"] = False
        if no_colour():
            kwargs.setdefault("color", False)  # every click.echo of every command then drops its styles
        real_stdout = sys.stdout
        sys.stdout = _GuardedOutput(real_stdout)
        try:
            with warnings.catch_warnings():
                if not sys.warnoptions:  # a library's warning (numpy, Pillow) is not for the user: papillon says what went wrong
                    warnings.simplefilter("ignore")
                status = super().main(*args, **kwargs)
            sys.stdout.flush()  # a full disk may show only now, for buffered output
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help() if error.ctx else error.format_message())
            sys.exit(0)
        except click.UsageError as error:
            path = error.ctx.command_path if error.ctx else "papillon"
            message = error.format_message().rstrip(".")
            see = "" if message.endswith("?") else f"; see '{path} --help'"  # a question ("did you mean ...?") says it all
            click.echo(f"{path}: error: {message}{see}", err=True)
            sys.exit(2)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("Interrupted.", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except OutputError as failure:
            sys.stdout = real_stdout
            _silence_stdout()
            cause = failure.error
            if cause.errno != errno.EPIPE:  # a reader that stopped reading (| head) needs no message
                click.echo(f"papillon: error: cannot write to standard output ({cause.strerror or cause})", err=True)
            sys.exit(1)
        finally:
            if sys.stdout is not real_stdout and isinstance(sys.stdout, _GuardedOutput):
                sys.stdout = real_stdout
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        # Errors a command raises get the same one-line form as usage errors: "papillon CMD: error: ...".
        try:
            return super().invoke(ctx)
        except PapillonError as error:
            # A user mistake the command did not handle itself: one line, no traceback.  A bad value of one of
            # the command's options is a usage error, worded as click words its own: "Invalid value for '--jobs': ...".
            command = self.get_command(ctx, ctx.invoked_subcommand) if ctx.invoked_subcommand else None
            if command is not None and option_of(error, command) is not None:
                raise usage_error(error, click.Context(command, info_name=ctx.invoked_subcommand, parent=ctx)) from None
            click.echo(f"{_command_path(ctx)}: error: {error}", err=True)
            ctx.exit(1)
        except click.UsageError:
            raise
        except click.ClickException as error:
            click.echo(f"{_command_path(ctx)}: error: {error.format_message()}", err=True)
            ctx.exit(error.exit_code)


def no_colour() -> bool:
    """Whether the user asked for no escape sequences: ``NO_COLOR`` set and not empty (no-color.org), or ``TERM=dumb``.

    An explicit ``--color`` still wins, as the convention asks of an option given for one run.
    """
    return bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb"


class OutputError(Exception):
    """Standard output refused a write (a full disk, a closed pipe): carries the OSError."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _GuardedOutput:
    """Standard output (text, or its binary ``buffer``) whose write failures are an :class:`OutputError`.

    Any command may print; this tells a failure to print from every other OSError, in one place.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, data: Any) -> Any:
        try:
            return self._stream.write(data)
        except OSError as error:
            raise OutputError(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputError(error) from None

    @property
    def buffer(self) -> _GuardedOutput:
        return _GuardedOutput(self._stream.buffer)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so Python's own flush at exit cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
        pass


def option_of(error: PapillonError, command: click.Command) -> click.Parameter | None:
    """The option of ``command`` for the library parameter ``error`` is about (``fields``: ``--fields``), if it has one.

    Library messages name no option: the parameter's name is the library argument's, and the
    commands name their options after the arguments they pass.
    """
    if error.parameter is None:
        return None
    return next((p for p in command.params if p.name == error.parameter and isinstance(p, click.Option)), None)


def usage_error(error: PapillonError, ctx: click.Context | None = None) -> click.UsageError:
    """A library error about what the user asked for, as a usage error (exit 2) of the running command.

    When it is about an option's value it reads as click's own: ``Invalid value for '--fields': plot B4 is given twice``.
    """
    ctx = ctx or click.get_current_context()
    option = option_of(error, ctx.command)
    if option is not None:
        return click.BadParameter(str(error), ctx=ctx, param=option)
    return click.UsageError(str(error), ctx=ctx)


def error_line(error: PapillonError) -> str:
    """A library error about one input, met while the running command works through them, as one line in the command's words.

    The option is named when the error comes from its value (``x.jpg: B4=po: B4 was read as red, not a field
    (from --fields)``); a photo whose readings need review says how to score it anyway when the command can.
    """
    ctx = click.get_current_context(silent=True)
    command = ctx.command if ctx is not None else None
    option = option_of(error, command) if command is not None else None
    line = f"{error} (from {option.opts[-1]})" if option is not None else str(error)
    if isinstance(error, ScanError) and command is not None and any(p.name == "accept_uncertain" for p in command.params):
        from papillon.scan import ScanReviewError  # light: OpenCV loads only to read a photo

        if isinstance(error, ScanReviewError):
            line += ", or pass --accept-uncertain"
    return line


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
