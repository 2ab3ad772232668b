"""Reading spec files: sources, surfaces, ``extends``, schema validation.

:func:`read_spec` is the one entry point: it finds the text (a file, a shipped
spec name, or raw text), parses it with the right surface (YAML, or the DSL
for ``.spel`` files), merges ``extends`` parents, checks the format version,
validates against the JSON Schema (collecting *all* errors, each located at
its YAML line and column) and returns a :class:`~spelbok.lang.model.SpecDoc` whose
``tree`` is the canonical model.

>>> doc = read_spec("example")
>>> doc.tree["name"], doc.surface, doc.tree["hand"][0]["deal"]["size"]
('Example', 'yaml', '5')
>>> read_spec("spelbok: 1\\nname: x\\nplayers: {min: 2, max: 4}\\n")
Traceback (most recent call last):
...
spelbok.errors.SpecErrors: <spec>:1:1: missing required keys 'deck', 'hand', 'end' at the top level
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from ..errors import SpecError, SpecErrors, did_you_mean
from ..limits import MAX_STEPS, short_repr
from .model import STEP_KINDS, Position, SpecDoc, normalize
from .schema import FRENCH_NAMES
from .vocabulary import STEP_COMMON, step_kind, step_lists
from .yamlio import (
    KEY,
    MAX_BYTES,
    ScalarPosition,
    check_text,
    decode_spec_bytes,
    key_path,
    load_yaml,
)

__all__ = [
    "FORMAT_VERSION",
    "load_schema",
    "read_spec",
    "schema_errors",
    "shipped_spec_names",
]

#: The only spec format version this spelbok reads.
FORMAT_VERSION = 1
_MAX_EXTENDS_DEPTH = 32
_NAME_RE = re.compile(r"[A-Za-z0-9_\-]+(/[A-Za-z0-9_\-]+)*\Z")
_SUFFIXES = (".yaml", ".yml", ".spel")

PosTable = dict[tuple[Any, ...], Position]


# --------------------------------------------------------------------------- schema


@functools.cache
def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the YAML surface, shipped as package data.

    The result is cached and shared: do not mutate it.

    >>> load_schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    text = resources.files("spelbok.lang").joinpath("spec.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator(packed: bool = False) -> Draft202012Validator:
    """The schema's validator; ``packed``: for a spec that declares its ``pack``, whose
    ranks, suits and cards are not the French ones (the checks test them against it)."""
    schema = json.loads(json.dumps(load_schema()))
    defs = schema["$defs"]
    for name, forms in FRENCH_NAMES.items():
        if packed:  # any names: the checks test them against the declared pack
            defs[name] = {k: v for k, v in defs[name].items()
                          if k not in ("pattern", "minimum", "maximum")}
        else:
            defs[name] = {**defs[name], **forms}
    return _StrictValidator(schema)


_ONE_OF = Draft202012Validator.VALIDATORS["oneOf"]


def _one_of(validator: Any, one_of: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """``oneOf``, fast for a map that has the required keys of one branch only (a step
    names its kind): when that branch holds, every other one misses a required key, so
    the others need no look.  Anything else is checked the standard way (same errors)."""
    if isinstance(instance, dict) and all(isinstance(b, dict) and "required" in b
                                          for b in one_of):
        fits = [b for b in one_of if all(k in instance for k in b["required"])]
        if len(fits) == 1 and validator.evolve(schema=fits[0]).is_valid(instance):
            return
    yield from _ONE_OF(validator, one_of, instance, schema)


# JSON Schema counts 3.0 as an integer; a spec never holds a float, so 3.0 is refused
# where an integer is wanted (it would reach the checks and the engine as a float).
# oneOf: each step was checked against every step kind (3 ms a step)
_StrictValidator = validators.extend(
    Draft202012Validator,
    validators={"oneOf": _one_of},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool)))


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "a map",
    "array": "a list",
    "null": "nothing",
}


def _describe(value: Any) -> str:
    """How a YAML value reads in an error message."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"an integer {value}"
    if isinstance(value, float):
        return f"a number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"a string {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return type(value).__name__


def _expect(schema: dict[str, Any]) -> str:
    if "x-expect" in schema:
        return str(schema["x-expect"])
    types = schema.get("type", [])
    if isinstance(types, str):
        types = [types]
    words = [_TYPE_WORDS.get(t, t) for t in types]
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _quoted_list(items: Iterable[Any]) -> str:
    return ", ".join(f"'{i}'" for i in items)


def _context(schema: dict[str, Any], path: tuple[Any, ...]) -> str:
    template = schema.get("x-name")
    if template is None:
        return "at the top level" if not path else f"in '{path[-1]}'"
    key = path[-1] if path else ""
    return str(template).replace("{key}", str(key))


_STEP_COMMON = tuple(f.name for f in STEP_COMMON)  # the keys every step may carry


class _Reporter:
    """Turns jsonschema errors into located SpecErrors."""

    def __init__(self, locate: Callable[[tuple[Any, ...], bool], Position]) -> None:
        self.locate = locate
        self.out: list[SpecError] = []

    def at(
        self, path: tuple[Any, ...], message: str, hint: str | None = None, *, key: bool = False
    ) -> None:
        file, line, col = self.locate(path, key)
        self.out.append(SpecError(message, path=file, line=line, col=col, hint=hint))

    def report(self, err: ValidationError) -> None:
        path = tuple(err.absolute_path)
        schema = err.schema if isinstance(err.schema, dict) else {}
        inst = err.instance
        v = err.validator
        kind = schema.get("x-kind")
        if "propertyNames" in list(err.relative_schema_path):
            self.at(
                (*path, inst),
                f"'{inst}' is not a valid name (use letters, digits and _, not starting with a digit)",
                key=True,
            )
        elif v == "additionalProperties" and isinstance(inst, dict):
            allowed = list(schema.get("properties", {}))
            for extra in inst:
                if extra in allowed:
                    continue
                self.at(
                    (*path, extra),
                    f"unknown key '{extra}' {_context(schema, path)}",
                    hint=did_you_mean(str(extra), allowed),
                    key=True,
                )
        elif v == "required" and isinstance(inst, dict):
            missing = [k for k in schema.get("required", []) if k not in inst]
            if missing == ["spelbok"] and not path:
                self.at(path, "missing 'spelbok: 1' format version")
                return
            noun = "key" if len(missing) == 1 else "keys"
            self.at(
                path, f"missing required {noun} {_quoted_list(missing)} {_context(schema, path)}"
            )
        elif v in ("oneOf", "anyOf") and kind == "step":
            self.report_step(err, path)
        elif v in ("oneOf", "anyOf"):
            self.report_alternatives(err, path)
        elif v == "type" or v == "const":
            self.at(path, f"expected {_expect(schema)}, got {_describe(inst)}")
        elif v == "enum":
            options = list(err.validator_value)
            self.at(
                path,
                f"expected one of {_quoted_list(options)}, got {_describe(inst)}",
                hint=did_you_mean(str(inst), [str(o) for o in options]),
            )
        elif kind in ("rank", "suit", "card", "top_trump", "word", "range") or v == "pattern":
            self.report_kind(kind, v, inst, path)
        elif v in ("minimum", "maximum"):
            word = "at least" if v == "minimum" else "at most"
            self.at(path, f"expected {word} {err.validator_value}, got {_describe(inst)}")
        elif v == "minItems" and err.validator_value > 1:
            self.at(path, f"the list needs at least {err.validator_value} items, got "
                    f"{len(inst)}" + (f" ({schema['x-short']})" if schema.get("x-short") else ""))
        elif v == "minItems":
            self.at(path, "the list must not be empty")
        elif v == "minLength":
            self.at(path, "the string must not be empty")
        elif v == "minProperties":
            self.at(path, "the map must not be empty")
        else:  # pragma: no cover - every schema keyword in use is handled above
            self.at(path, err.message)

    def report_kind(self, kind: Any, v: str, inst: Any, path: tuple[Any, ...]) -> None:
        if kind == "rank":
            self.at(path, f"unknown rank {inst!r} (ranks are 2-10, J, Q, K, A)")
        elif kind == "suit":
            self.at(path, f"unknown suit {inst!r} (suits are C, S, H, D)")
        elif kind == "card":
            self.at(path, f"unknown card {inst!r} (a card is a rank then a suit: 10H, JC, J♣)")
        elif kind == "top_trump":
            text = str(inst)
            hint = None
            if "@" in text:
                rank = text.partition("@")[0]
                hint = did_you_mean(text, [f"{rank}@trump", f"{rank}@trump_colour"])
            self.at(
                path,
                f"unknown card {inst!r} (a card like JC, or a relative trump like J@trump or J@trump_colour)",
                hint=hint,
            )
        elif kind == "word":
            self.at(path, f"a word cannot be empty or contain spaces: {inst!r}")
        elif kind == "range":
            self.at(path, f"expected a range [min, max] of player counts, got {_describe(inst)}")
        else:
            self.at(path, f"{_describe(inst)} does not have the expected form")

    def branch_errors(self, err: ValidationError) -> dict[int, list[ValidationError]]:
        groups: dict[int, list[ValidationError]] = {}
        for sub in err.context or []:
            index = sub.relative_schema_path[0]
            if isinstance(index, int):
                groups.setdefault(index, []).append(sub)
        return groups

    def report_alternatives(self, err: ValidationError, path: tuple[Any, ...]) -> None:
        groups = self.branch_errors(err)
        fitting = [
            subs
            for subs in groups.values()
            if not any(s.validator == "type" and tuple(s.absolute_path) == path for s in subs)
        ]
        if len(fitting) == 1:
            for sub in fitting[0]:
                self.report(sub)
            return
        schema = err.schema if isinstance(err.schema, dict) else {}
        self.at(path, f"expected {_expect(schema)}, got {_describe(err.instance)}")

    def report_step(self, err: ValidationError, path: tuple[Any, ...]) -> None:
        inst = err.instance
        needs = "a step needs exactly one of " + ", ".join(STEP_KINDS)
        if not isinstance(inst, dict):
            self.at(path, f"{needs}; got {_describe(inst)} instead of a map")
            return
        kinds = [k for k in inst if k in STEP_KINDS]
        if not kinds:
            known: set[str] = set(_STEP_COMMON)
            for branch in (err.schema or {}).get("oneOf", []):
                known.update(branch.get("properties", {}))
            unknown = [k for k in inst if k not in known]
            hints = [(k, did_you_mean(str(k), STEP_KINDS)) for k in unknown]
            hinted = [(k, h) for k, h in hints if h] or hints
            if hinted:
                k, hint = hinted[0]
                self.at((*path, k), f"{needs} (unknown key '{k}')", hint=hint, key=True)
            else:
                self.at(path, needs)
            return
        if len(kinds) > 1:
            self.at(
                (*path, kinds[1]),
                f"{needs}; this one has {_quoted_list(kinds)}",
                key=True,
            )
            return
        index = STEP_KINDS.index(kinds[0])
        for sub in self.branch_errors(err).get(index, []):
            self.report(sub)


def schema_errors(
    tree: Any,
    locate: Callable[[tuple[Any, ...], bool], Position],
) -> list[SpecError]:
    """Validate ``tree`` against the schema; all problems as located SpecErrors.

    ``locate(path, key)`` gives ``(file, line, col)`` of a node (of its key
    when ``key`` is true).  The errors are sorted by position.

    >>> errs = schema_errors({"spelbok": 1, "name": "x", "players": {"min": 2, "max": "four"},
    ...     "deck": [{"ranks": ["A"]}], "hand": [{"deel": {}}], "end": {"when": 1, "winners": 1}},
    ...     lambda path, key: ("g.yaml", None, None))
    >>> for e in errs: print(e)
    g.yaml: expected an integer, got a string 'four'
    g.yaml: a step needs exactly one of deal, turn_up, decide, tricks, set, if, repeat, redeal, end_hand, move, auction, pass_cards, declare_melds, patterns (unknown key 'deel') (did you mean 'deal'?)
    """
    reporter = _Reporter(locate)
    packed = isinstance(tree, dict) and isinstance(tree.get("pack"), dict)
    for err in _validator(packed).iter_errors(tree):
        reporter.report(err)
    seen: set[tuple[Any, ...]] = set()
    unique: list[SpecError] = []
    for e in reporter.out:
        ident = (e.path, e.line, e.col, e.message, e.hint)
        if ident not in seen:
            seen.add(ident)
            unique.append(e)
    unique.sort(key=lambda e: (e.path or "", e.line or 0, e.col or 0))
    return unique


# --------------------------------------------------------------------------- sources


class _Source:
    """One spec text to read: a display path, a reader, a folder for ``extends``."""

    def __init__(
        self,
        display: str,
        identity: str,
        folder: Path | Traversable | None,
        read: Callable[[], bytes] | None = None,
        text: str | None = None,
    ) -> None:
        self.display = display
        self.identity = identity
        self.folder = folder
        self.read = read
        self.text = text

    @property
    def surface(self) -> str:
        return "dsl" if self.display.endswith(".spel") else "yaml"

    def load_text(self) -> str:
        if self.text is not None:
            check_text(self.text, self.display)
            return self.text
        assert self.read is not None
        return decode_spec_bytes(self.read(), self.display)


#: Folders of kernel and device files: never a spec, wherever named (even on the command line).
_SYSTEM_ROOTS = ("/proc", "/sys", "/dev")


def _in_folder(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def is_system_path(path: str | os.PathLike[str]) -> bool:
    """Whether ``path``, symlinks resolved, lies in a system folder (``/proc``, ``/sys``,
    ``/dev``): never read as a spec, reading file or log, never written to.

    >>> is_system_path("/proc/self/environ"), is_system_path("/tmp/x.yaml")
    (True, False)
    """
    real = os.path.realpath(path)
    return any(_in_folder(real, root) for root in _SYSTEM_ROOTS)


def read_file_bytes(path: str | os.PathLike[str], display: str, what: str = "spec file",
                    limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a SpecError otherwise.

    Devices, FIFOs, sockets and files under ``/proc``, ``/sys`` and ``/dev`` are
    refused before a byte is read (a FIFO is opened without blocking, then
    checked), and no message quotes the file's content.
    """
    try:
        real = os.path.realpath(path)
        if any(_in_folder(real, root) for root in _SYSTEM_ROOTS):
            raise SpecError(f"cannot read a system or device file as a {what}", path=display)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise SpecError(f"this is a directory, not a {what}", path=display)
            if not stat.S_ISREG(info.st_mode):
                raise SpecError(f"this is not a regular file (a device, FIFO or socket), "
                                f"not a {what}", path=display)
            if info.st_size > limit:
                raise SpecError(
                    f"the file is too large ({info.st_size} bytes; a {what} may have at most "
                    f"{limit})", path=display)
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(limit + 1)
        finally:
            os.close(fd)
    except SpecError:
        raise
    except FileNotFoundError:
        raise SpecError(f"no such {what}", path=display) from None
    except IsADirectoryError:
        raise SpecError(f"this is a directory, not a {what}", path=display) from None
    except PermissionError:
        raise SpecError(f"cannot read the {what}: permission denied", path=display) from None
    except OSError as exc:
        raise SpecError(f"cannot read the {what}: {exc.strerror or exc}", path=display) from None
    except ValueError:  # a NUL byte in the name
        raise SpecError(f"not a valid file name for a {what}", path=display) from None
    if len(data) > limit:
        raise SpecError(f"the file is too large (a {what} may have at most {limit} bytes)",
                        path=display)
    return data


def _read_file(path: Path, display: str) -> bytes:
    return read_file_bytes(path, display)


def _is_dir(path: Path) -> bool:
    # os.path.isdir, unlike Path.is_dir, says False for a name too long or holding NUL
    return os.path.isdir(path)


def _file_source(path: Path) -> _Source:
    display = str(path)
    if _is_dir(path):
        raise SpecError("this is a directory, not a spec file", path=display)
    try:
        identity = str(path.resolve())
    except (OSError, ValueError):
        identity = os.path.abspath(display)
    return _Source(display, identity, path.parent, lambda: _read_file(path, display))


def shipped_spec_names() -> list[str]:
    """Names of the specs shipped in ``spelbok.specs`` (and its subfolders).

    >>> "example" in shipped_spec_names()
    True
    """
    names: list[str] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for item in sorted(folder.iterdir(), key=lambda t: t.name):
            if item.is_dir():
                # readings are scenario files, not specs
                if not item.name.startswith(("_", ".")) and item.name != "readings":
                    walk(item, f"{prefix}{item.name}/")
            elif item.name.endswith(_SUFFIXES):
                name = prefix + item.name.rsplit(".", 1)[0]
                if name not in names:  # a YAML spec and its DSL twin share a name
                    names.append(name)

    walk(resources.files("spelbok.specs"), "")
    return names


def _shipped_source(name: str) -> _Source | None:
    base = name
    for suffix in _SUFFIXES:
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    if not _NAME_RE.match(base):
        return None
    if len(base) > 255:  # no shipped name is this long (and the OS would refuse to look)
        return None
    root = resources.files("spelbok.specs")
    for suffix in _SUFFIXES:
        item = root.joinpath(*f"{base}{suffix}".split("/"))
        if item.is_file():
            if isinstance(item, Path):
                return _file_source(item)
            folder = root.joinpath(*base.split("/")[:-1]) if "/" in base else root
            display = f"spelbok.specs/{base}{suffix}"
            return _Source(display, display, folder, item.read_bytes)
    return None


def _resolve(source: str | os.PathLike[str], text: str | None) -> _Source:
    if text is not None:
        display = os.fspath(source)
        folder = Path(display).parent if display else Path.cwd()
        return _Source(display or "<spec>", os.path.abspath(display or "<spec>"), folder, text=text)
    if isinstance(source, str) and "\n" in source:
        return _Source("<spec>", "<spec>", Path.cwd(), text=source)
    path = Path(os.fspath(source))
    if _is_dir(path):
        raise SpecError("this is a directory, not a spec file", path=str(path))
    if os.path.lexists(path):
        return _file_source(path)
    shipped = _shipped_source(os.fspath(source))
    if shipped is not None:
        return shipped
    name = os.fspath(source)
    hint = did_you_mean(name, shipped_spec_names()) if _NAME_RE.match(name) else None
    raise SpecError("no such spec file or shipped spec", path=name, hint=hint)


AllowPaths = Iterable[str | os.PathLike[str]]


def allow_list(allow_paths: object) -> tuple[str, ...]:
    """``allow_paths`` as a tuple of folder names, checked: a single path counts as a
    list of one (``tuple("/tmp")`` would allow ``/``), and anything but paths is an
    ArgumentError.

    >>> allow_list("/tmp"), allow_list(["a", "b"])
    (('/tmp',), ('a', 'b'))
    """
    from ..errors import ArgumentError

    if isinstance(allow_paths, (str, bytes, os.PathLike)):
        allow_paths = [allow_paths]
    if not isinstance(allow_paths, (list, tuple, set, frozenset)) or len(allow_paths) > 100:
        raise ArgumentError("allow_paths must be a list of folders")
    out: list[str] = []
    for p in allow_paths:
        if not isinstance(p, (str, os.PathLike)) or not os.fspath(p) or "\0" in os.fspath(p):
            raise ArgumentError(f"allow_paths must hold folder names, not {type(p).__name__}")
        out.append(str(os.fspath(p)))
    return tuple(out)


def _allowed_roots(allow_paths: AllowPaths) -> list[str]:
    roots = [os.path.realpath(p) for p in allow_list(allow_paths)]
    shipped = resources.files("spelbok.specs")
    if isinstance(shipped, Path):
        # the shipped specs are trusted, as one tree: a shipped variant may extend
        # ``../base.yaml``, and any spec may name a shipped file by its path
        roots.append(os.path.realpath(shipped))
    return roots


def _refusal(value: str, where: Position, why: str) -> SpecError:
    file, line, col = where
    return SpecError(
        f"{value!r} {why}: a file may only name a shipped spec or a file in its own folder "
        "or below (--allow-path DIR allows another folder)",
        path=file, line=line, col=col,
    )


def _shipped_mirror(value: str, base: str) -> str | None:
    """Where ``value`` leads from the shipped folder named like ``base`` (``readings``,
    ``variants``), when that stays in the shipped specs and names a file there.

    A copy of the shipped tree (a clone's ``specs/``, with a non-editable install)
    thus names shipped specs as the shipped copy does (``../GAME.yaml``),
    and reaches nothing but shipped files.
    """
    shipped = resources.files("spelbok.specs")
    if not isinstance(shipped, Path):
        return None
    root = os.path.realpath(shipped)
    sub = os.path.join(root, os.path.basename(base))
    if not os.path.basename(base) or not os.path.isdir(sub):
        return None
    mirror = os.path.normpath(os.path.join(sub, value))
    if not _in_folder(mirror, root):
        return None
    tails = [""] if value.endswith(_SUFFIXES) else ["", *_SUFFIXES]
    return mirror if any(os.path.isfile(mirror + t) for t in tails) else None


def local_file(value: str, folder: str | os.PathLike[str], allow_paths: AllowPaths,
               where: Position, suffixes: tuple[str, ...] = _SUFFIXES) -> Path | None:
    """The file that ``value``, written in a file of ``folder``, names (None: no such file).

    ``value`` (tried as written, then with each of ``suffixes``) must stay inside
    ``folder`` -- after resolving symlinks -- or inside one of ``allow_paths``; an
    absolute path, a ``..`` out of the folder, a device, FIFO or system file is
    refused with a SpecError located at ``where``, before anything is read.  (A
    relative path out of a folder named like a shipped one may still reach a
    shipped file: :func:`_shipped_mirror`.)

    >>> local_file("/etc/passwd", ".", (), ("g.yaml", 2, 10))
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: g.yaml:2:10: '/etc/passwd' is an absolute path: a file may only name a shipped spec or a file in its own folder or below (--allow-path DIR allows another folder)
    """
    if "\x00" in value:
        raise _refusal(value, where, "is not a valid file name")
    base = os.path.realpath(os.fspath(folder))
    roots = _allowed_roots(allow_paths)
    joined = os.path.normpath(os.path.join(base, value))

    def inside(path: str) -> bool:
        return any(_in_folder(path, r) for r in (base, *roots))

    if not inside(joined):
        why = "is an absolute path" if os.path.isabs(value) else "leads out of the folder"
        mirror = None if os.path.isabs(value) else _shipped_mirror(value, base)
        if mirror is None:
            raise _refusal(value, where, why)
        joined = mirror
    tails = [""] if value.endswith(suffixes) else ["", *suffixes]
    for tail in tails:
        cand = joined + tail
        if not os.path.lexists(cand) or os.path.isdir(cand):
            continue
        real = os.path.realpath(cand)
        if not inside(real):
            raise _refusal(value, where, "is a link that leads out of the folder")
        if any(_in_folder(real, r) for r in _SYSTEM_ROOTS):
            raise _refusal(value, where, "names a system or device file")
        try:
            mode = os.stat(real).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            raise _refusal(value, where, "is not a regular file (a device, FIFO or socket)")
        return Path(cand)
    return None


def referenced_spec(value: str, folder: str | os.PathLike[str] | None, allow_paths: AllowPaths,
                    where: Position) -> str:
    """What a spec name written in a reading file or a log means: a file of ``folder``
    (see :func:`local_file`) or a shipped spec name; a located SpecError otherwise.

    >>> referenced_spec("example", ".", (), ("r.yaml", 2, 7))
    'example'
    """
    if folder is not None:
        path = local_file(value, folder, allow_paths, where)
        if path is not None:
            return str(path)
    elif os.path.isabs(value) or os.path.normpath(value).startswith(".."):
        raise _refusal(value, where, "is a path")
    if _shipped_source(value) is None:
        file, line, col = where
        name = value
        hint = did_you_mean(name, shipped_spec_names()) if _NAME_RE.match(name) else None
        raise SpecError(f"no spec {value!r} in this file's folder nor among the shipped specs",
                        path=file, line=line, col=col, hint=hint)
    return value


def _resolve_extends(value: str, folder: Path | Traversable | None, allow_paths: AllowPaths,
                     where: Position) -> _Source | None:
    candidates = [value] if value.endswith(_SUFFIXES) else [value, *(value + s for s in _SUFFIXES)]
    if isinstance(folder, Path):
        path = local_file(value, folder, allow_paths, where)
        if path is not None:
            return _file_source(path)
    elif folder is not None:
        if os.path.isabs(value) or ".." in value.split("/"):
            raise _refusal(value, where, "leads out of the folder")
        for cand in candidates:
            item = folder.joinpath(*cand.split("/"))
            if item.is_file():
                display = f"{folder}/{cand}"
                return _Source(display, display, folder, item.read_bytes)
    return _shipped_source(value)


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
            kind = step_kind(item)
            for inner in step_lists(kind) if kind else ():
                node: Any = item
                for key in inner:
                    node = node.get(key) if isinstance(node, dict) else None
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
