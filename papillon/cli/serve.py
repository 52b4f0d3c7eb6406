"""``papillon serve``: the web app, on this computer (loopback) or, with ``--host``, on the home network with a token."""

from __future__ import annotations

import contextlib
import ipaddress
import secrets
import sys
import webbrowser

import click

from papillon.cli import no_colour

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
STARTUP_FAILURE = 3
"""uvicorn's exit code when it cannot start (uvicorn.run exits with it; its module name is shadowed by its command)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on; another than loopback needs the printed token.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
def command(host: str, port: int, open_browser: bool) -> None:
    """Play in the browser, or deal cards and dice for a table playing on paper."""
    try:
        import uvicorn  # noqa: F401  (the 'serve' extra is installed: said here in one line, before anything starts)

        from papillon.web.app import create_app
    except ImportError as error:
        raise click.ClickException(
            f"papillon serve needs the 'serve' extra: pip install 'papillon-gardens[serve]' ({error.name} is missing)"
        ) from None
    loopback = is_loopback(host)
    token = None if loopback else secrets.token_urlsafe(18)
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{port}"
    if host in ("0.0.0.0", "::"):
        base = f"http://{_lan_address()}:{port}"
    url = base + (f"/?token={token}" if token else "/")
    from papillon.errors import PapillonError

    try:
        app = create_app(token=token, base_url=base, loopback=loopback)
    except PapillonError as error:  # the server's store cannot be opened: one line, no path, no traceback
        raise click.ClickException(str(error)) from None
    click.echo(f"papillon serve: open {url}")
    if token:
        click.echo("Anyone on your network with this link (and its token) can play and watch; stop the server with Ctrl+C.")
    if open_browser:
        webbrowser.open(url)
    colours = False if no_colour() else None  # None: uvicorn colours its log on a terminal
    # app.server, not uvicorn.run: its server ends the live pages' streams when it stops (uvicorn would wait for them).
    server = app.server(host=host, port=port, log_level="warning", server_header=False, date_header=False, use_colors=colours)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:  # uvicorn said why (the port is taken, say); its exit code, as uvicorn.run's
        sys.exit(STARTUP_FAILURE)


def _lan_address() -> str:
    """This computer's address on the home network (the one a phone would use), found without sending anything."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP sends no packet
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
