"""Reading files: finding one (a path or a shipped name), loading it and checking
it against ``reading.schema.json``, with every problem located in the file.

:func:`~spelbok.analysis.readings.run_reading` runs the cases of a loaded file.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ReadingError, SpecError, SpecErrors, did_you_mean
from ..lang.yamlio import key_path, load_yaml

#: The only reading-file format version.
READING_VERSION = 1

Path_ = tuple[Any, ...]


class ReadingFileError(ReadingError, SpecError):
    """A located problem in a reading file: ``file:line:col: message``."""


class ReadingFileErrors(ReadingError, SpecErrors):
    """Several located problems in a reading file (schema errors come all at once)."""


# ----------------------------------------------------------------------------- loading


@functools.cache
def load_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of reading files, shipped with the package.

    >>> load_schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    text = resources.files("spelbok.analysis").joinpath("reading.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


class _Locator:
    def __init__(self, path: str, positions: dict[Path_, tuple[int, int]]) -> None:
        self.path = path
        self.positions = positions

    def __call__(self, p: Path_, key: bool = False) -> tuple[str, int | None, int | None]:
        for cand in (p, tuple(str(x) if isinstance(x, int) else x for x in p)):
            if key and key_path(cand) in self.positions:
                line, col = self.positions[key_path(cand)]
                return self.path, line, col
        p = tuple(p)
        while p:
            for cand in (p, tuple(str(x) if isinstance(x, int) and not isinstance(x, bool) else x
                                  for x in p)):
                if cand in self.positions:
                    line, col = self.positions[cand]
                    return self.path, line, col
            p = p[:-1]
        if () in self.positions:
            line, col = self.positions[()]
            return self.path, line, col
        return self.path, None, None

    def error(self, p: Path_, message: str, hint: str | None = None, key: bool = False
              ) -> ReadingFileError:
        file, line, col = self(p, key)
        return ReadingFileError(message, path=file, line=line, col=col, hint=hint)

    def line(self, p: Path_) -> int | None:
        return self(p)[1]


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    return "a list" if isinstance(value, list) else "a map"


def _schema_errors(data: Any, loc: _Locator) -> list[SpecError]:
    from jsonschema import Draft202012Validator

    out: list[SpecError] = []
    for err in Draft202012Validator(load_schema()).iter_errors(data):
        p = tuple(err.absolute_path)
        schema = err.schema if isinstance(err.schema, dict) else {}
        inst = err.instance
        if err.validator == "additionalProperties" and isinstance(inst, dict):
            allowed = list(schema.get("properties", {}))
            where = schema.get("x-name", "here")
            for k in inst:
                if k not in allowed:
                    out.append(loc.error((*p, k), f"unknown key '{k}' {where}",
                                         hint=did_you_mean(str(k), allowed), key=True))
        elif err.validator == "required" and isinstance(inst, dict):
            missing = [k for k in schema.get("required", []) if k not in inst]
            where = schema.get("x-name", "here")
            out.append(loc.error(p, f"missing {', '.join(repr(m) for m in missing)} {where}"))
        elif err.validator == "not":
            out.append(loc.error(p, str(schema.get("x-not", err.message))))
        elif err.validator in ("type", "anyOf", "oneOf", "const", "enum", "pattern",
                               "minimum", "minItems", "minLength", "minProperties"):
            expect = schema.get("x-expect")
            if expect is None and err.validator == "enum":
                expect = "one of " + ", ".join(map(str, err.validator_value))
            if expect is None and err.validator == "minItems":
                expect = "a list that is not empty"
            text = f"expected {expect}, got {_describe(inst)}" if expect else err.message
            out.append(loc.error(p, text))
        else:  # pragma: no cover - every keyword of the schema is handled above
            out.append(loc.error(p, err.message))
    seen: set[str] = set()
    unique = []
    for e in sorted(out, key=lambda e: (e.line or 0, e.col or 0)):
        if str(e) not in seen:
            seen.add(str(e))
            unique.append(e)
    return unique


@dataclass
class ReadingFile:
    """A parsed, schema-checked reading file."""

    path: str
    folder: Path | None
    data: dict[str, Any]
    locate: _Locator

    @property
    def title(self) -> str:
        return str(self.data.get("title", "") or "")


def _find_file(path: str | os.PathLike[str]) -> tuple[str, Path | None, str]:
    from ..lang.loader import read_file_bytes
    from ..lang.yamlio import decode_spec_bytes

    p = Path(os.fspath(path))
    if os.path.isdir(p):
        raise ReadingError(f"{os.fspath(path)}: this is a directory, not a reading file")
    if os.path.lexists(p):
        display = os.fspath(path)
        try:
            data = read_file_bytes(p, display, what="reading file")
            return display, p.parent, decode_spec_bytes(data, display)
        except SpecError as e:
            raise ReadingFileError(e.message, e.path, e.line, e.col, e.hint) from None
    name = os.fspath(path)
    base = name[:-5] if name.endswith(".yaml") else name
    base = base.removeprefix("readings/")
    root = resources.files("spelbok.specs").joinpath("readings")
    item = root.joinpath(base + ".yaml")
    if "/" not in base and len(base) < 250 and item.is_file():
        folder = Path(str(item)).parent if isinstance(item, Path) else None
        return f"spelbok.specs/readings/{base}.yaml", folder, item.read_text(encoding="utf-8")
    shipped = sorted(t.name[:-5] for t in root.iterdir() if t.name.endswith(".yaml"))
    raise ReadingError(f"{name}: no such reading file"
                       + (f" (did you mean '{h}'?)" if (h := did_you_mean(base, shipped)) else ""))


def load_reading(path: str | os.PathLike[str], text: str | None = None,
                 folder: str | os.PathLike[str] | None = None) -> ReadingFile:
    """Read and check a reading file (a path, or a shipped name like ``example``).

    ``text``: the file's text, given (``path`` then only names it); ``folder``: the folder
    its ``spec:`` is looked for in (default: the one ``path`` names).

    Raises :class:`ReadingFileErrors` (located) for a file that breaks the schema.

    >>> load_reading("r.yaml", text="reading: 1\\nspec: example\\ncases: []\\nfoo: 1\\n")
    Traceback (most recent call last):
    ...
    spelbok.analysis.reading_file.ReadingFileErrors: r.yaml:4:1: unknown key 'foo' at the top of a reading file
    """
    if text is None:
        display, folder, text = _find_file(path)
    else:
        display = os.fspath(path)
        folder = Path(display).parent if folder is None else Path(folder)
    try:
        data, positions = load_yaml(text, display)
    except SpecError as e:
        raise ReadingFileError(e.message, e.path, e.line, e.col, e.hint) from None
    loc = _Locator(display, positions)
    errors = _schema_errors(data, loc)
    if errors:
        raise ReadingFileErrors(errors)
    # citations: a case's `cites` may start with one of the file's source ids
    sources = data.get("source") or {}
    for i, case in enumerate(data.get("cases", [])):
        cites = case.get("cites")
        for j, c in enumerate([cites] if isinstance(cites, str) else cites):
            head, sep, _ = str(c).partition(":")
            if sep and sources and " " not in head.strip() and head.strip() not in sources:
                p: Path_ = ("cases", i, "cites") if isinstance(cites, str) else ("cases", i, "cites", j)
                raise loc.error(p, f"'{head.strip()}' is not one of the file's sources "
                                f"({', '.join(sources)})", hint=did_you_mean(head.strip(), sources))
    return ReadingFile(display, folder, data, loc)

