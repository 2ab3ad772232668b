"""Reading spec files: sources, surfaces, ``extends``, schema validation.

:func:`read_spec` is the one entry point: it finds the text (a file, a shipped
spec name, or raw text), parses it with the right surface (YAML, or the DSL
for ``.spel`` files), merges ``extends`` parents, checks the format version,
validates against the JSON Schema (collecting *all* errors, each located at
its YAML line and column) and returns a :class:`~spelbok.lang.model.SpecDoc` whose
``tree`` is the canonical model.  Where the text comes from, and which files a spec
may reach, is :mod:`~spelbok.lang.sources`; the schema check is
:mod:`~spelbok.lang.schema_check`.

>>> doc = read_spec("example")
>>> doc.tree["name"], doc.surface, doc.tree["hand"][0]["deal"]["size"]
('Example', 'yaml', '5')
>>> read_spec("spelbok: 1\\nname: x\\nplayers: {min: 2, max: 4}\\n")
Traceback (most recent call last):
...
spelbok.errors.SpecErrors: <spec>:1:1: missing required keys 'deck', 'hand', 'end' at the top level
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

from ..errors import SpecError, SpecErrors, did_you_mean
from ..limits import MAX_STEPS, short_repr
from .model import Position, SpecDoc, normalize
from .schema_check import (
    _describe,
    load_schema,
    schema_errors,
)
from .sources import (
    AllowPaths,
    SpecText,
    _resolve,
    _resolve_extends,
    _Source,
    allow_list,
    is_system_path,
    local_file,
    read_file_bytes,
    referenced_spec,
    shipped_spec_names,
)
from .vocabulary import inner_steps, step_kind
from .yamlio import (
    KEY,
    ScalarPosition,
    key_path,
    load_yaml,
)

__all__ = [
    "FORMAT_VERSION",
    "load_schema",
    "read_spec",
    "schema_errors",
    "shipped_spec_names",
    "SpecText",
    # in sources.py, imported from here by the commands and the tests
    "is_system_path",
    "local_file",
    "read_file_bytes",
    "referenced_spec",
]

#: The only spec format version this spelbok reads.
FORMAT_VERSION = 1
_MAX_EXTENDS_DEPTH = 32

PosTable = dict[tuple[Any, ...], Position]


# --------------------------------------------------------------------------- parsing


def _parse(src: _Source) -> tuple[Any, PosTable]:
    text = src.load_text()
    if src.surface == "dsl":
        try:  # imported lazily: the DSL (and lark) are only needed for .spel files
            dsl = importlib.import_module(f"{__package__}.dsl")
        except ImportError:
            raise SpecError("DSL support is not available", path=src.display) from None
        parse = getattr(dsl, "parse_dsl", None)
        if parse is None:
            raise SpecError("DSL support is not available", path=src.display)
        tree, raw_positions = parse(text, src.display)
        if not isinstance(tree, dict):
            raise SpecError("the spec is empty", path=src.display, line=1, col=1)
    else:
        tree, raw_positions = load_yaml(text, src.display)
    positions: PosTable = {}
    for path, pos in dict(raw_positions or {}).items():
        if isinstance(pos, tuple) and len(pos) == 3:
            at: Position = (str(pos[0]), pos[1], pos[2])
        elif isinstance(pos, tuple) and len(pos) == 2:
            at = (src.display, pos[0], pos[1])
        else:
            continue
        # a string whose characters the file spreads out keeps its map (formula errors)
        positions[tuple(path)] = pos.moved(at) if isinstance(pos, ScalarPosition) else at
    return tree, positions


def _at(positions: PosTable, path: tuple[Any, ...], display: str) -> Position:
    return positions.get(path) or positions.get(()) or (display, None, None)


def _check_version(tree: dict[str, Any], positions: PosTable, display: str) -> None:
    if "spelbok" not in tree:
        return
    version = tree["spelbok"]
    file, line, col = _at(positions, ("spelbok",), display)
    if isinstance(version, int) and not isinstance(version, bool):
        if version != FORMAT_VERSION:
            raise SpecError(
                f"unsupported spec format version {version} (this spelbok reads version {FORMAT_VERSION})",
                path=file,
                line=line,
                col=col,
            )
        return
    raise SpecError(
        f"the format version must be the integer {FORMAT_VERSION} ('spelbok: {FORMAT_VERSION}'), "
        f"got {_describe(version)}",
        path=file,
        line=line,
        col=col,
    )


def _copy_positions(value: Any, path: tuple[Any, ...], src: PosTable, dst: PosTable) -> None:
    for p in (path, key_path(path)):
        if p in src:
            dst[p] = src[p]
    if isinstance(value, dict):
        for k, v in value.items():
            _copy_positions(v, (*path, k), src, dst)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _copy_positions(v, (*path, i), src, dst)


def _merge(
    parent: dict[str, Any] | None,
    child: dict[str, Any],
    path: tuple[Any, ...],
    ppos: PosTable,
    cpos: PosTable,
    out: PosTable,
) -> dict[str, Any]:
    """Merge ``child`` over ``parent``: maps recursively, lists replace, null removes."""
    base = parent or {}
    result: dict[str, Any] = {}
    for k in [*base, *(k for k in child if k not in base)]:
        sub = (*path, k)
        if k in child:
            value = child[k]
            if value is None:
                continue
            prior = base.get(k)
            if isinstance(value, dict) and isinstance(prior, list):
                result[k] = _merge_by_label(prior, value, sub, ppos, cpos, out)
            elif isinstance(value, dict):
                result[k] = _merge(
                    prior if isinstance(prior, dict) else None, value, sub, ppos, cpos, out
                )
                for p in (sub, key_path(sub)):
                    if p in cpos:
                        out[p] = cpos[p]
            else:
                result[k] = value
                _copy_positions(value, sub, cpos, out)
        else:
            result[k] = base[k]
            _copy_positions(base[k], sub, ppos, out)
    return result


def _merge_by_label(
    parent: list[Any],
    child: dict[str, Any],
    path: tuple[Any, ...],
    ppos: PosTable,
    cpos: PosTable,
    out: PosTable,
) -> list[Any]:
    """A map given for a list of steps changes the parent's steps by their ``label``.

    Each key names a labelled step of the parent list: a map merges into that
    step (maps merge, lists replace, null removes a key), null removes the step.
    """
    labels = {
        item.get("label"): i
        for i, item in enumerate(parent)
        if isinstance(item, dict) and isinstance(item.get("label"), str)
    }
    for name in child:
        if name not in labels:
            file, line, col = _at(cpos, key_path((*path, name)), "")
            if line is None:
                file, line, col = _at(cpos, (*path, name), "")
            raise SpecError(
                f"the base has no step labelled {name!r} here"
                + (f" (labels: {', '.join(map(str, labels))})" if labels else " (it labels no step)"),
                path=file or None,
                line=line,
                col=col,
                hint=did_you_mean(str(name), [str(x) for x in labels]),
            )
    result: list[Any] = []
    for i, item in enumerate(parent):
        label = item.get("label") if isinstance(item, dict) else None
        j = len(result)
        if label in child:
            change = child[label]
            if change is None:
                continue
            if not isinstance(change, dict):
                file, line, col = _at(cpos, (*path, label), "")
                raise SpecError(
                    f"a change to step {label!r} must be a map of keys (or null to remove it)",
                    path=file or None, line=line, col=col,
                )
            moved: PosTable = {}
            _copy_positions(item, (*path, i), ppos, moved)
            shifted = _rebase(moved, (*path, i), (*path, j))
            result.append(_merge(item, change, (*path, j), {**ppos, **shifted}, _rebase(cpos, (*path, label), (*path, j)), out))
        else:
            result.append(item)
            _copy_positions(item, (*path, i), ppos, _Shift(out, (*path, i), (*path, j)))
    return result


class _Shift(dict):
    """Writes positions of ``old`` paths under ``new`` (a step moved up after a removal)."""

    def __init__(self, target: PosTable, old: tuple[Any, ...], new: tuple[Any, ...]) -> None:
        super().__init__()
        self.target, self.old, self.new = target, old, new

    def __setitem__(self, key: Any, value: Any) -> None:
        self.target[_moved(key, self.old, self.new)] = value


def _moved(p: tuple[Any, ...], old: tuple[Any, ...], new: tuple[Any, ...]) -> tuple[Any, ...]:
    """Path ``p`` with its prefix ``old`` replaced by ``new``; key paths move with their node."""
    if p[: len(old)] == old:
        return (*new, *p[len(old):])
    if p[:1] == (KEY,) and p[1 : len(old) + 1] == old:
        return (KEY, *new, *p[len(old) + 1:])
    return p


def _rebase(pos: PosTable, old: tuple[Any, ...], new: tuple[Any, ...]) -> PosTable:
    return {_moved(p, old, new): v for p, v in pos.items()}


def _load(src: _Source, chain: list[_Source], allow_paths: AllowPaths = ()
          ) -> tuple[dict[str, Any], PosTable, list[str]]:
    tree, positions = _parse(src)
    _check_version(tree, positions, src.display)
    if "extends" not in tree:
        return tree, positions, []
    value = tree["extends"]
    file, line, col = _at(positions, ("extends",), src.display)
    if not isinstance(value, str) or not value.strip():
        raise SpecError(
            f"'extends' must name a base spec (a path or a shipped spec name), got {_describe(value)}",
            path=file,
            line=line,
            col=col,
        )
    parent_src = _resolve_extends(value.strip(), src.folder, allow_paths, (file, line, col))
    if parent_src is None:
        raise SpecError(
            f"cannot find the base spec {value!r} (looked next to this file and among the shipped specs)",
            path=file,
            line=line,
            col=col,
            hint=did_you_mean(value, shipped_spec_names()),
        )
    seen = [s.identity for s in (*chain, src)]
    if parent_src.identity in seen:
        names = [s.display for s in (*chain, src)][seen.index(parent_src.identity) :]
        loop = " -> ".join([*names, parent_src.display])
        raise SpecError(f"'extends' makes a cycle: {loop}", path=file, line=line, col=col)
    if len(chain) >= _MAX_EXTENDS_DEPTH:
        raise SpecError(
            f"'extends' chain is too long (more than {_MAX_EXTENDS_DEPTH} files)",
            path=file,
            line=line,
            col=col,
        )
    ptree, ppos, pparents = _load(parent_src, [*chain, src], allow_paths)
    child = {k: v for k, v in tree.items() if k != "extends"}
    merged_pos: PosTable = {}
    merged = _merge(ptree, child, (), ppos, positions, merged_pos)
    merged_pos[()] = positions.get(()) or (src.display, 1, 1)
    return merged, merged_pos, [parent_src.display, *pparents]


def _step_beyond(tree: Any) -> tuple[Any, ...] | None:
    """The path of the step past :data:`MAX_STEPS` in a (not yet checked) tree, or None."""
    count = 0
    todo: list[tuple[Any, tuple[Any, ...]]] = [(tree.get("hand"), ("hand",))]
    while todo:
        steps, path = todo.pop()
        if not isinstance(steps, list):
            continue
        for i, item in enumerate(steps):
            count += 1
            if count > MAX_STEPS:
                return (*path, i)
            for inner, node in inner_steps(item, step_kind(item)):
                todo.append((node, (*path, i, *inner)))
    return None


def _mixed_options(tree: dict[str, Any], locate: Callable[[tuple[Any, ...], bool], Position]
                   ) -> list[SpecError]:
    """Options whose values mix numbers, texts and true/false (``[４, 8, 1]``: a formula
    comparing the option with a number would meet a text in play)."""
    out = []
    options = tree.get("options")
    for name, opt in (options if isinstance(options, dict) else {}).items():
        values = opt.get("values") if isinstance(opt, dict) else None
        if isinstance(values, list) and len({type(x) for x in values}) > 1:
            odd = next(i for i, x in enumerate(values) if type(x) is not type(values[-1]))
            file, line, col = locate(("options", name, "values", odd), False)
            out.append(SpecError(
                f"option '{name}' mixes numbers, words or true/false in its values "
                f"({short_repr(values[odd])} among {type(values[-1]).__name__} values): give them "
                "all as one kind (numbers in ASCII digits)", path=file, line=line, col=col))
    return out


def read_spec(source: str | os.PathLike[str], *, text: str | None = None,
              allow_paths: AllowPaths = ()) -> SpecDoc:
    """Read, merge, validate and normalize one spec; return its :class:`SpecDoc`.

    ``source`` is a file path, a shipped spec name (``"example"``), or raw
    YAML spec text (any string holding a newline).  With ``text=``, ``source``
    only names the file (for messages, the surface and relative ``extends``).
    Files ending in ``.spel`` use the DSL surface; everything else is YAML.
    ``extends`` may name a shipped spec or a file in the spec's own folder (or
    below); ``allow_paths`` lists further folders it may reach.

    Every problem is raised as a located :class:`SpecError`; schema problems
    are collected and raised together as :class:`SpecErrors`.

    >>> read_spec("no/such/file.yaml")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: no/such/file.yaml: no such spec file or shipped spec
    >>> read_spec("x.yaml", text="spelbok: 2\\nname: x\\n")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: x.yaml:1:10: unsupported spec format version 2 (this spelbok reads version 1)
    """
    src = _resolve(source, text)
    tree, positions, parents = _load(src, [], allow_list(allow_paths))
    if "spelbok" not in tree:
        file, line, col = _at(positions, (), src.display)
        raise SpecError("missing 'spelbok: 1' format version", path=file, line=line, col=col)

    def locate(path: tuple[Any, ...], key: bool) -> Position:
        if key and key_path(path) in positions:
            return positions[key_path(path)]
        p = path
        while p and p not in positions:
            p = p[:-1]
        return positions.get(p) or (src.display, None, None)

    over = _step_beyond(tree)
    if over is not None:  # before the schema: its checks cost each step its share
        file, line, col = locate(over, False)
        raise SpecError(f"more than {MAX_STEPS} steps: a spec may have at most {MAX_STEPS}, "
                        "nested steps included (a 'repeat' step runs its steps many times)",
                        path=file, line=line, col=col)
    errors = schema_errors(tree, locate) or _mixed_options(tree, locate)
    if errors:
        raise SpecErrors(errors)
    return SpecDoc(
        tree=normalize(tree),
        raw=tree,
        positions=positions,
        path=src.display,
        surface=src.surface,
        parents=tuple(parents),
    )
