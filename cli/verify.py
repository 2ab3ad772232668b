"""``spelbok verify``: run rule-reading scenario files.

Each case is reported PASS or FAIL; a failure shows, at the step where the
reading and the engine part, the actions so far and the expected and actual
values side by side.  ``--spec`` runs the same cases against another spec or
variant (cases naming their own spec keep it), which is how two readings are
compared: cases that assume another reading than the spec's are run under
both and reported as *separating* the readings when the results differ.

Exit status: 0 when every case passes, 1 when any fails (or a file cannot be
read), 2 for a usage error.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace

import click
from spelbok.analysis.readings import ReadingReport, run_reading

from .options import allow_path_option, json_option, option_option


def _color() -> bool:
    try:
        from spelbok.cli.main import use_color
    except ImportError:  # pragma: no cover - main is always shipped
        return bool(getattr(sys.stdout, "isatty", lambda: False)())
    return use_color(sys.stdout)


def _file_path(shown: str) -> str:
    """A shipped reading's file as a path (``spelbok.specs/readings/x.yaml`` is where the
    package keeps it, not a path one can open): relative to the working folder when in it."""
    if not shown.startswith("spelbok.specs/") or os.path.exists(shown):
        return shown
    from importlib import resources

    item = resources.files("spelbok.specs").joinpath(shown[len("spelbok.specs/"):])
    if not isinstance(item, os.PathLike):  # inside a zip: no path to show
        return shown
    full = os.path.abspath(os.fspath(item))
    try:
        rel = os.path.relpath(full)
    except ValueError:  # another drive on Windows
        return full
    return full if rel.startswith("..") else rel


@click.command("verify")
@click.argument("files", nargs=-1, required=True, metavar="READING...")
@click.option("--spec", "spec", metavar="SPEC",
              help="Run the cases against this spec or variant instead of the file's.")
@option_option
@click.option("--case", "-k", "only", metavar="TEXT",
              help="Run only the cases whose name contains TEXT.")
@json_option
@click.option("--verbose", "-v", is_flag=True, help="Show the citations of passing cases too.")
@allow_path_option
def verify_cmd(files: tuple[str, ...], spec: str | None, options: dict[str, str],
               only: str | None, as_json: bool, verbose: bool,
               allow_paths: tuple[str, ...]) -> None:
    """Run rule-reading scenario files (READING: a path or a shipped name).

    \b
    Examples:
      spelbok verify specs/readings/knektpass-1847.yaml
      spelbok verify --spec specs/variants/knektpass-void-any.yaml knektpass-1847
      spelbok verify -o void_rule=any --json knektpass-1847
    """
    needle = only.lower() if only else None
    reports: list[ReadingReport] = []
    for path in files:
        reports.append(run_reading(
            path, spec=spec, options=options, allow_paths=allow_paths,
            only=(lambda name: needle in name.lower()) if needle else None))
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in reports], indent=2))  # ASCII: \u escapes survive the terminal filter
    else:
        color = _color()
        for k, r in enumerate(reports):
            if k:
                click.echo("")
            shown = replace(r, path=_file_path(r.path))  # the header names the file itself
            click.echo(shown.format(verbose=verbose, style=click.style if color else None),
                       color=color)
        if len(reports) > 1:
            passed = sum(r.passed for r in reports)
            failed = sum(r.failed for r in reports)
            click.echo(f"\n{len(reports)} files: {passed} passed, {failed} failed")
    if not all(r.ok for r in reports):
        sys.exit(1)
