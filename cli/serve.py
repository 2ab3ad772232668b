"""``spelbok serve``: a local web table for any spec (needs ``pip install spelbok[web]``)."""

from __future__ import annotations

import click
from spelbok.errors import SpelbokError

from .options import allow_path_option


@click.command("serve")
@click.argument("specs", nargs=-1, metavar="[SPEC...]")
@click.option("--port", "-p", type=click.IntRange(0, 65535), default=8000, show_default=True,
              metavar="P", help="The port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="HOST",
              help="The address to listen on (the default serves this computer only).")
@allow_path_option
def serve_cmd(specs: tuple[str, ...], port: int, host: str,
              allow_paths: tuple[str, ...]) -> None:
    """Play in the browser: serve the shipped specs and SPEC files on a local web page.

    Open the printed address: choose a spec, the players, readings and bots, then
    play your seat by clicking cards, watch bots play, or open a log saved with
    'spelbok play --log' and step through it.  The address followed by /workbench
    is the reading workbench: edit a spec and see its errors, its rules, its
    reading file's cases and a small audit as you go.  Ctrl-C stops the server.
    """
    try:
        import uvicorn
        from spelbok.web.app import create_app
    except ImportError as exc:
        raise SpelbokError(f"'serve' needs the web extra ({exc.name} is missing): "
                           "pip install 'spelbok[web]'") from None
    import spelbok

    for spec in specs:  # a bad spec is reported now, not on the page
        spelbok.load(spec, allow_paths=allow_paths)
    if port == 0:  # a free port, chosen now so that the address can be printed
        import socket

        with socket.socket() as sock:
            sock.bind((host, 0))
            port = sock.getsockname()[1]
    app = create_app(specs, allow_paths)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"spelbok serve: http://{shown}:{port}/ (Ctrl-C stops)")
    server.run()
