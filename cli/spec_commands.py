"""Commands about specs themselves: ``validate``, ``describe``, ``convert``, ``schema``."""

from __future__ import annotations

import os
import re
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import click
from spelbok.errors import SpecError, SpelbokError

from .main import check_output_file
from .options import allow_path_option, force_option, players_option, spec_argument

_SUFFIX_SURFACE = {".spel": "dsl", ".yaml": "yaml", ".yml": "yaml"}
_UNSAFE_PLAIN = "\r\x85\u2028\u2029\ufeff"  # read as line breaks (or dropped) unless escaped
# what the terminal filter rewrites as \x9b or \u202e: lossless only inside double quotes,
# where YAML reads those escapes back as the characters
_ESCAPED_ON_OUTPUT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@click.command("validate")
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--quiet", "-q", is_flag=True, help="Print only the errors and warnings.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@allow_path_option
@click.pass_context
def validate_cmd(ctx: click.Context, specs: tuple[str, ...], quiet: bool, strict: bool,
                 allow_paths: tuple[str, ...]) -> None:
    """Check each SPEC: the schema, the structure, every formula, every deck size.

    Prints 'SPEC: ok' for a valid spec and one 'path:line:col: message' line
    per problem otherwise; exits with 1 when any spec has an error.  A warning
    ('path:line:col: warning: message') flags what is valid but probably not
    meant; it fails the spec only with --strict.
    """
    from spelbok.validation import diagnose

    failed = 0
    for spec in specs:
        errors, warnings = diagnose(spec, allow_paths=allow_paths)
        for problem in [*errors, *warnings]:
            click.echo(str(problem))
        if errors or (strict and warnings):
            failed += 1
        elif not quiet:
            note = f" ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})" if warnings else ""
            click.echo(f"{spec}: ok{note}")
    if failed:
        if len(specs) > 1:
            what = "errors or warnings" if strict else "errors"
            click.echo(f"{failed} of {len(specs)} specs have {what}", err=True)
        ctx.exit(1)


@click.command("describe")
@spec_argument()
@players_option(shown="every count")
@click.option("--program", "program", is_flag=True,
              help="Print the compiled program instead: one instruction a line, with the "
                   "spec step it comes from.")
@allow_path_option
def describe_cmd(spec: str, players: int | None, allow_paths: tuple[str, ...],
                 program: bool = False) -> None:
    """Explain the rules of SPEC in prose, with the source citations.

    With --players, the cards section shows that player count's pack and how
    it divides between the hands, the turn-up and the stock.  With --program,
    the compiled program (for N players, default the fewest) is listed instead.
    """
    from spelbok.lang.describe import describe
    from spelbok.lang.loader import read_spec

    if program:
        import spelbok

        click.echo(spelbok.load(spec, players=players, allow_paths=allow_paths)
                   .program.listing())
        return
    click.echo(describe(read_spec(spec, allow_paths=allow_paths), players=players), nl=False)


@click.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema (draft 2020-12) that YAML specs follow."""
    import json

    from spelbok.lang.loader import load_schema

    click.echo(json.dumps(load_schema(), indent=2, ensure_ascii=False))


def schema_reference(output: str | None) -> str:
    """What a converted YAML file's ``$schema`` comment points to: the shipped schema,
    relative to the output's folder (or the current folder), else the schema's ``$id``.
    """
    item = resources.files("spelbok.lang").joinpath("spec.schema.json")
    if isinstance(item, Path) and item.is_file():
        base = os.path.dirname(os.path.abspath(output)) if output else os.getcwd()
        try:
            rel = Path(os.path.relpath(item, base)).as_posix()
        except ValueError:  # another drive
            return item.as_uri()
        return rel if rel.count("../") <= 2 else item.as_posix()
    from spelbok.lang.loader import load_schema

    return str(load_schema().get("$id", "spec.schema.json"))


def yaml_text(tree: dict[str, Any], schema_ref: str) -> str:
    """A canonical tree as a YAML spec: the schema comment, ``spelbok: 1`` first.

    >>> print(yaml_text({"name": "x", "spelbok": 1}, "spec.schema.json"), end="")
    # yaml-language-server: $schema=spec.schema.json
    spelbok: 1
    name: x
    """
    import yaml
    from spelbok.lang.yamlio import plain_value

    class Dumper(yaml.SafeDumper):
        """Short lists of plain values on one line (``ranks: [A, K, Q]``)."""

    def represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
        flow = all(isinstance(x, str | int | bool) for x in data) and \
            sum(len(str(x)) + 2 for x in data) < 70
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    def represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
        # PyYAML writes YAML 1.1: quote what this reader would read otherwise (1e3, 0o7)
        # and the line breaks a plain or block scalar would fold (NEL, U+2028, CR)
        try:
            risky = not isinstance(plain_value(data), str) or any(
                c in data for c in _UNSAFE_PLAIN) or _ESCAPED_ON_OUTPUT.search(data) is not None
        except SpelbokError:  # a number too large to read: a string, quoted
            risky = True
        return dumper.represent_scalar("tag:yaml.org,2002:str", data,
                                       style='"' if risky else None)

    Dumper.add_representer(list, represent_list)
    Dumper.add_representer(str, represent_str)
    ordered = {"spelbok": tree.get("spelbok", 1), **{k: v for k, v in tree.items() if k != "spelbok"}}
    body = yaml.dump(ordered, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=88,
                     default_flow_style=False)
    return f"# yaml-language-server: $schema={schema_ref}\n{body}"


def _path_of(tree: Any, value: Any) -> tuple[Any, ...] | None:
    """The path of a string ``value`` in ``tree`` (to locate a refused value)."""
    if not isinstance(value, str):
        return None
    todo: list[tuple[tuple[Any, ...], Any]] = [((), tree)]
    while todo:
        path, node = todo.pop()
        if node == value:
            return path
        if isinstance(node, dict):
            todo.extend(((*path, k), v) for k, v in node.items())
        elif isinstance(node, list):
            todo.extend(((*path, i), v) for i, v in enumerate(node))
    return None


def _write(path: str, text: str, force: bool) -> None:
    check_output_file(path, "'-o' / '--output'")
    if os.path.exists(path) and not force:
        raise click.BadParameter(f"'{path}' already exists; add --force to overwrite it",
                                 param_hint="'-o' / '--output'")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".spelbok-", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise SpelbokError(f"cannot write {path}: {exc.strerror or exc}") from None


@click.command("convert")
@spec_argument()
@click.option("--to", "to", type=click.Choice(["yaml", "dsl"], case_sensitive=False),
              help="The surface to write (default: from the output's suffix, else the other "
                   "surface than SPEC's).")
@click.option("--output", "-o", default=None, metavar="FILE",
              help="Write to FILE instead of standard output.")
@force_option
@allow_path_option
def convert_cmd(spec: str, to: str | None, output: str | None, force: bool,
                allow_paths: tuple[str, ...]) -> None:
    """Convert SPEC between YAML and the DSL, without loss.

    The result is the spec's canonical model: 'extends' is merged in and every
    default is written out, so both surfaces describe exactly the same game.
    """
    from spelbok.lang.loader import read_spec

    doc = read_spec(spec, allow_paths=allow_paths)
    if to is None:
        suffix = os.path.splitext(output)[1].lower() if output else ""
        to = _SUFFIX_SURFACE.get(suffix) or ("yaml" if doc.surface == "dsl" else "dsl")
    to = to.lower()
    if to == "dsl":
        try:
            from spelbok.lang.dslwrite import to_dsl
        except ImportError as exc:
            raise SpelbokError(f"DSL output is not available: {exc}") from None
        try:
            text = to_dsl(doc.tree)
        except ValueError as exc:
            where = _path_of(doc.tree, getattr(exc, "value", None))
            if where is None:
                raise SpelbokError(f"{doc.path}: cannot be written as DSL: {exc}") from None
            file, line, col = doc.locate(where)
            raise SpecError(f"cannot be written as DSL: {exc}", file, line, col) from None
    else:
        text = yaml_text(doc.tree, schema_reference(output))
    if not text.endswith("\n"):
        text += "\n"
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    _write(output, text, force)
    click.echo(f"wrote {output} ({'DSL' if to == 'dsl' else 'YAML'})", err=True)


@click.command("list")
@click.option("--variants", is_flag=True, help="Also list the shipped variants.")
def list_cmd(variants: bool) -> None:
    """List the shipped games: name, players and what each is, for 'play', 'describe'...

    \b
    Example:
      spelbok list --variants
    """
    from spelbok.lang.loader import read_spec, shipped_spec_names

    names = [n for n in shipped_spec_names() if variants or "/" not in n]
    width = max(map(len, names), default=10)
    for name in names:
        tree = read_spec(name).tree
        players = tree.get("players") or {}
        lo, hi = players.get("min"), players.get("max")
        count = f"{lo}" if lo == hi else f"{lo}-{hi}"
        about = " ".join(str(tree.get("about") or "").split())
        first = about.split(". ")[0].rstrip(".")
        room = max(30, 100 - width - 16)
        first = first if len(first) <= room else first[:room - 3].rstrip() + "..."
        click.echo(f"{name:<{width}} {count:>5} players  {first}")
