"""Where a spec's text comes from: a file, a shipped spec name or raw text, and the files a
spec may reach (``extends``, a reading file's spec): only inside the allowed folders,
never a system path."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from ..errors import SpecError, did_you_mean
from .model import Position
from .yamlio import (
    MAX_BYTES,
    check_text,
    decode_spec_bytes,
)

_NAME_RE = re.compile(r"[A-Za-z0-9_\-]+(/[A-Za-z0-9_\-]+)*\Z")
_SUFFIXES = (".yaml", ".yml", ".spel")


class _Source:
    """One spec text to read: a display path, a reader, a folder for ``extends``."""

    def __init__(
        self,
        display: str,
        identity: str,
        folder: Path | Traversable | None,
        read: Callable[[], bytes] | None = None,
        text: str | None = None,
        surface: str | None = None,
    ) -> None:
        self.display = display
        self.identity = identity
        self.folder = folder
        self.read = read
        self.text = text
        self._surface = surface

    @property
    def surface(self) -> str:
        if self._surface is not None:
            return self._surface
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


class SpecText(os.PathLike[str]):
    """Spec text held in memory (pasted in a page, being edited) under a virtual name.

    It reads no file: its errors read ``NAME:line:col`` (``<pasted>:3:7``), and its
    ``extends`` reaches the shipped specs only -- by name, or, when ``near`` names a
    shipped spec (the one the text was opened from), by a path from that spec's
    folder, as a shipped variant's ``../NAME.yaml``.  Wherever a spec path is
    taken (:func:`spelbok.load`, :func:`spelbok.validation.validate`, ``read_spec``),
    a SpecText may be given.

    >>> from spelbok.lang.loader import read_spec
    >>> read_spec(SpecText("spelbok: 1\\nname: x\\nplayers: {min: 2, max: 4}\\n")).tree
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecErrors: <pasted>:1:1: missing required keys 'deck', 'hand', 'end' at the top level
    >>> read_spec(SpecText("spelbok: 1\\nextends: ./example.yaml\\n", near="example")).tree["name"]
    'Example'
    >>> read_spec(SpecText("spelbok: 1\\nextends: ./example.yaml\\n"))
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: <pasted>:2:10: cannot find the base spec './example.yaml' (looked next to this file and among the shipped specs) (did you mean 'example'?)
    """

    def __init__(self, text: str, name: str = "<pasted>", surface: str = "yaml",
                 near: str | None = None) -> None:
        if surface not in ("yaml", "dsl"):
            raise SpecError(f"a spec's surface is 'yaml' or 'dsl', not {surface[:20]!r}")
        self.text = text
        self.name = name
        self.surface = surface
        self.near = near

    def __fspath__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"SpecText({self.name!r}, {len(self.text)} characters)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpecText) and (self.text, self.name, self.surface, self.near) \
            == (other.text, other.name, other.surface, other.near)

    def __hash__(self) -> int:
        return hash((self.text, self.name, self.surface, self.near))

    def source(self) -> _Source:
        """Where :func:`~spelbok.lang.loader.read_spec` reads it from: the text, and the
        shipped folder of ``near`` (None: no folder, shipped names only)."""
        folder: Path | Traversable | None = None
        if self.near is not None:
            shipped = _shipped_source(self.near)
            if shipped is None:
                raise SpecError(f"no shipped spec {self.near[:60]!r}",
                                hint=did_you_mean(self.near, shipped_spec_names()))
            folder = shipped.folder
        return _Source(self.name, f"<text>:{self.name}", folder, text=self.text,
                       surface=self.surface)


def _resolve(source: str | os.PathLike[str], text: str | None) -> _Source:
    if isinstance(source, SpecText):
        return source.source()
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
