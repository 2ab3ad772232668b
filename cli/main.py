"""The ``spelbok`` command: a click group whose commands load on demand.

Every command lives in its own module and is imported only when it runs (or
when its own ``--help`` is asked for), so ``spelbok --help`` stays fast and a
command whose module is missing still shows up with a short help text.

Errors: the group's :meth:`SpelbokGroup.invoke` is the one place that turns a
:class:`spelbok.SpelbokError` into ``error: ...`` (or located
``path:line:col: message`` lines) on stderr and exit status 1; usage errors
exit with 2 (click), an interrupt with 130, and none of them shows a traceback.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import click
from spelbok import __version__
from spelbok.errors import SpelbokError, escape_controls
from spelbok.errors import error_lines as error_lines  # (its home since the web page shows it too)

# the shared options are declared in options.py; these names stay importable from here
from .options import allow_path_option as allow_path_option
from .options import no_color_option as no_color_option
from .options import option_option as option_option
from .options import parse_bots as parse_bots
from .options import parse_options as parse_options
from .options import spec_argument as spec_argument

#: command name -> ("module:attribute", short help shown without importing the module)
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("spelbok.cli.spec_commands:validate_cmd", "Check specs: schema, structure, formulas."),
    "describe": ("spelbok.cli.spec_commands:describe_cmd", "Explain a spec's rules in prose, with citations."),
    "convert": ("spelbok.cli.spec_commands:convert_cmd", "Convert a spec between YAML and the DSL."),
    "schema": ("spelbok.cli.spec_commands:schema_cmd", "Print the JSON Schema of YAML specs."),
    "play": ("spelbok.cli.play:play_cmd", "Play a game in the terminal against bots (or watch bots)."),
    "replay": ("spelbok.cli.play:replay_cmd", "Replay a match saved with 'play --log' and check it."),
    "simulate": ("spelbok.cli.simulate:simulate_cmd", "Play many matches between bots and report measures."),
    "compare": ("spelbok.cli.simulate:compare_cmd", "Compare specs or readings on the same measures."),
    "verify": ("spelbok.cli.verify:verify_cmd", "Run rule-reading scenario files."),
    "audit": ("spelbok.cli.audit:audit_cmd", "Sweep a spec's readings over bot matches: report and plots."),
    "serve": ("spelbok.cli.serve:serve_cmd", "Play in the browser: a local web table for any spec."),
    "list": ("spelbok.cli.spec_commands:list_cmd", "List the shipped games (and variants)."),
}


def use_color(stream: Any = None, no_color: bool = False) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set or ``--no-color``."""
    stream = sys.stdout if stream is None else stream
    if no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def report_error(exc: BaseException) -> None:
    """Print ``exc`` to stderr the one way spelbok prints errors."""
    color = use_color(sys.stderr)
    for line in error_lines(exc):
        if color and line.startswith("error:"):
            line = click.style("error:", fg="red", bold=True) + line[len("error:"):]
        click.echo(line, err=True, color=color)


# -- the output boundary ------------------------------------------------------------------

# Spec names, `about`, actions, log contents and file names reach the terminal: none of
# them may move the cursor, set a title, or clear the screen (spelbok.errors.escape_controls).
class EscapingStream:
    """A text stream that escapes control characters on their way to ``raw``.

    Installed as ``sys.stdout`` and ``sys.stderr`` while a command runs (see
    :meth:`SpelbokGroup.main`), so every echo of every command passes through it.
    Colour codes survive (``click.echo`` strips them anyway when the stream is
    no terminal); everything else reads ``\x1b``.  ``raw`` is the real stream,
    for the progress bar, which redraws its line with ``\r`` on purpose.
    """

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError("write() argument must be str")
        safe = escape_controls(text)
        try:
            self.raw.write(safe)
        except UnicodeEncodeError:  # a terminal that cannot show some character
            enc = getattr(self.raw, "encoding", None) or "ascii"
            self.raw.write(safe.encode(enc, "replace").decode(enc))
        return len(text)

    def writelines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":  # bytes written there would bypass the escaping
            raise AttributeError(name)
        return getattr(self.raw, name)


def raw_stream(stream: Any) -> Any:
    """The real stream under an :class:`EscapingStream` (the stream itself otherwise)."""
    return stream.raw if isinstance(stream, EscapingStream) else stream


def oserror_text(exc: OSError) -> str:
    """An OSError on a user's file as one line (the file name, then the reason)."""
    reason = exc.strerror or type(exc).__name__
    if exc.errno == errno.ENAMETOOLONG:
        reason = "the file name is too long"
    name = exc.filename
    if isinstance(name, str | bytes) and len(name) > 200:
        name = f"{name[:60]!r}..."
    return f"{name}: {reason}" if name is not None else reason


class _Unavailable(click.Command):
    """Stands in for a command whose module cannot be imported."""

    def __init__(self, name: str, help_text: str, reason: str) -> None:
        self.reason = reason
        super().__init__(
            name,
            help=f"{help_text}\n\n(Not available in this installation: {reason}.)",
            short_help=help_text,
            context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
            params=[click.Argument(["args"], nargs=-1, required=False)],
            callback=self._fail,
        )

    def _fail(self, args: Sequence[str] = ()) -> None:
        raise SpelbokError(f"the '{self.name}' command is not available: {self.reason}")


class SpelbokGroup(click.Group):
    """A click group that imports each command's module only when needed,
    and handles every :class:`SpelbokError` in one place.
    """

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.lazy, *(n for n in super().list_commands(ctx) if n not in self.lazy)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name not in self.lazy:
            return None
        target, help_text = self.lazy[cmd_name]
        module_name, _, attr = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            missing = getattr(exc, "name", None)
            reason = (f"module {module_name} is not installed" if missing == module_name
                      else f"importing {module_name} failed ({exc})")
            return _Unavailable(cmd_name, help_text, reason)
        command = getattr(module, attr, None)
        if not isinstance(command, click.Command):
            return _Unavailable(cmd_name, help_text, f"{module_name} has no command '{attr}'")
        self.commands[cmd_name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy:
                rows.append((name, self.lazy[name][1]))
            else:
                cmd = self.commands[name]
                if not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(80)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if (name and not name.startswith("-") and not ctx.resilient_parsing
                and self.get_command(ctx, name) is None):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            ctx.fail(f"no such command '{name}'{hint}; see 'spelbok --help'")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SpelbokError as exc:
            report_error(exc)
            ctx.exit(1)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)
        except BrokenPipeError:
            _quiet_broken_pipe()
            ctx.exit(141)  # as a shell reports a pipe closed early (128 + SIGPIPE)
        # the user's input can reach these too: one line each, never a traceback
        except OSError as exc:
            report_error(SpelbokError(oserror_text(exc)))
            ctx.exit(1)
        except UnicodeDecodeError as exc:
            report_error(SpelbokError(f"a file is not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} "
                                      f"at offset {exc.start})"))
            ctx.exit(1)
        except RecursionError:
            report_error(SpelbokError("the input is nested too deeply"))
            ctx.exit(1)
        except MemoryError:
            report_error(SpelbokError("out of memory (the input asks for too much)"))
            ctx.exit(1)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run with standard output and error escaped (see :class:`EscapingStream`)."""
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = EscapingStream(sys.stdout), EscapingStream(sys.stderr)
        try:
            return super().main(*args, **kwargs)
        finally:
            sys.stdout, sys.stderr = saved


# -- options shared by commands ---------------------------------------------------------

def check_output_file(path: str, param_hint: str) -> None:
    """A usage error unless ``path`` is a regular file or none yet (never a device or FIFO)."""
    from spelbok.lang.loader import is_system_path

    if (os.path.lexists(path) and not os.path.isfile(path)) or is_system_path(path):
        raise click.BadParameter(f"'{path}' is not a regular file; name a file to write",
                                 param_hint=param_hint)


def _quiet_broken_pipe() -> None:
    # stdout was closed early (``spelbok play --auto | head``): say nothing more
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


@click.group(
    cls=SpelbokGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", prog_name="spelbok")
def cli() -> None:
    """spelbok runs trick-taking card games from declarative specs.

    SPEC arguments take a file (.yaml or .spel) or the name of a shipped spec,
    such as 'knektpass'.  Exit status: 0 success, 1 a spec, reading or rule
    failure, 2 a usage error.
    """


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``spelbok`` console script."""
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="spelbok")
    except KeyboardInterrupt:  # before a command started
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
