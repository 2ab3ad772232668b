"""Run one untrusted input under a time and memory bound and classify what happened.

Each input runs in a forked child (cheap: the parent has spelbok imported), so
that a hang inside one C call (a huge integer, a regex) or a memory bomb is
stopped too: the parent kills the child after ``TIMEOUT`` seconds.  The child
reports back one :class:`Outcome`:

- ``ok``: the input was handled (the function returned);
- ``error``: it raised a :class:`spelbok.errors.SpelbokError` (a clean error);
- ``crash``: it raised anything else (the traceback is kept);
- ``hang``: it did not finish in time;
- ``died``: the child ended without a report (a segfault, the stack, ...).

A clean error must also read well: no raw control character (terminal
escapes from the input must be escaped) and no text of a file that is not a
spec (:data:`SECRET`, the marker of a planted file).

Set ``SPELBOK_ADVERSARIAL_SAVE=DIR`` to write every failing input of the
generated categories to DIR as a fixture (see ``fixtures/README.md``).
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import re
import resource
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spelbok.errors import SpelbokError

ROOT = Path(__file__).resolve().parent.parent.parent
SPECS = ROOT / "specs"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: the seed of every generator (another one explores other inputs)
SEED = int(os.environ.get("SPELBOK_ADVERSARIAL_SEED", "20261201"))
#: a factor on the number of generated inputs (e.g. 5 for a longer hunt, then keep
#: what it finds as fixtures with SPELBOK_ADVERSARIAL_SAVE)
SCALE = float(os.environ.get("SPELBOK_ADVERSARIAL_SCALE", "1"))
#: seconds per input: a safety bound, far above what a correct engine needs (generous:
#: a loaded 2-core machine runs several children at once)
TIMEOUT = float(os.environ.get("SPELBOK_ADVERSARIAL_TIMEOUT", "20"))
MEMORY = 1536 * 1024 * 1024
#: planted in files that are not specs: no error message may quote it
SECRET = "SECRET-8f3a1c-do-not-print"
#: characters that must never reach a terminal raw (\t and \n are fine)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")


def plant(tmp: Path) -> Path:
    """A spec folder ``tmp/specs`` (copies of the shipped specs, an empty ``readings``
    folder) with files that are not specs beside it, holding :data:`SECRET`."""
    (tmp / "adv-secret.yaml").write_text(
        f'spelbok: 1\nname: "{SECRET}"\nplayers: {{min: 2, max: 4}}\n', encoding="utf-8")
    (tmp / "adv-secret.txt").write_text(f"{SECRET}\n{SECRET}: {SECRET}\n", encoding="utf-8")
    folder = tmp / "specs"
    (folder / "readings").mkdir(parents=True)
    for p in sorted(SPECS.glob("*.yaml")):
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def warm() -> None:
    """Build every lazy cache (parsers, schema validators) once, before any fork.

    Each child then starts with them (copy-on-write) instead of building its own.
    """
    import spelbok
    from spelbok.analysis.readings import run_reading
    from spelbok.validation import validate

    for path in sorted(SPECS.glob("*.spel")) + sorted(SPECS.glob("*.yaml")):
        spelbok.load(str(path))
    validate(str(SPECS / "example.yaml"))
    run_reading("example", only=lambda name: False)
    import spelbok.cli.play  # noqa: F401 - the log reader

    gc.collect()
    gc.freeze()  # forks then copy fewer pages


@dataclass
class Outcome:
    kind: str  # ok | error | crash | hang | died
    detail: str = ""  # the error message, the traceback, or the value returned
    error_type: str = ""
    opened: list[str] = field(default_factory=list)
    #: messages of errors that were returned rather than raised (e.g. by validate)
    messages: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.kind in ("ok", "error")

    def head(self) -> str:
        """One line that identifies the failure (for reports and de-duplication)."""
        if self.kind == "crash":
            lines = [ln for ln in self.detail.strip().splitlines() if ln.strip()]
            return f"{lines[-1][:160] if lines else '?'} @ {self.where()}"
        return f"{self.kind}: {self.detail[:160]}"

    def where(self) -> str:
        """The innermost frame of a crash, as ``file.py:function``."""
        frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', self.detail)
        return f"{Path(frames[-1][0]).name}:{frames[-1][1]}" if frames else "?"

    def key(self) -> str:
        """Failures that are one bug share a key: a crash by its type and place."""
        if self.kind == "crash":
            return f"{self.error_type} @ {self.where()}"
        return self.kind  # a hang or a death: see Failures.check


def _child(fn: Callable[..., Any], args: tuple[Any, ...], watch: tuple[str, ...],
           wfd: int) -> None:
    opened: list[str] = []
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    if watch:
        def hook(event: str, hargs: tuple[Any, ...]) -> None:
            if event == "open" and hargs and isinstance(hargs[0], str | bytes):
                name = os.fsdecode(hargs[0])
                if any(w in name for w in watch):
                    opened.append(name)
        sys.addaudithook(hook)
    try:
        value = fn(*args)
        out = Outcome("ok", repr(value)[:2000])
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            out.messages = value
    except SpelbokError as e:
        out = Outcome("error", str(e), type(e).__name__)
    except BaseException as e:  # noqa: BLE001 - everything else is the finding
        out = Outcome("crash", traceback.format_exc()[-6000:], type(e).__name__)
    out.opened = opened
    data = pickle.dumps(out)
    view = memoryview(data)
    while view:
        n = os.write(wfd, view)
        view = view[n:]
    os.close(wfd)


#: inputs run at once (each in its own child)
JOBS = max(1, min(4, int(os.environ.get("SPELBOK_ADVERSARIAL_JOBS", os.cpu_count() or 1))))

Task = tuple[Callable[..., Any], tuple[Any, ...], tuple[str, ...]]


def _spawn(task: Task) -> tuple[int, int]:
    fn, args, watch = task
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 0
        try:
            os.close(rfd)
            _child(fn, args, watch, wfd)
        except BaseException:  # noqa: BLE001 - never return into pytest
            code = 3
        os._exit(code)
    os.close(wfd)
    return pid, rfd


def _reap(pid: int, rfd: int, chunks: list[bytes], timed_out: bool, timeout: float) -> Outcome:
    os.close(rfd)
    if timed_out:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return Outcome("hang", f"no result within {timeout:g} s")
    try:
        out: Outcome = pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001 - a child that died half way
        return Outcome("died", f"the child ended without a report (status {status})")
    return out


def run_many(tasks: list[Task], timeout: float = TIMEOUT, jobs: int = JOBS) -> list[Outcome]:
    """Run each ``(fn, args, watch)`` in a forked child, ``jobs`` at a time, each within
    ``timeout`` seconds; the outcomes in the order of the tasks.

    ``watch``: path fragments whose opening by the child is recorded in
    ``Outcome.opened`` (through an audit hook).  Tasks that run at once must not
    write the same files.
    """
    results: list[Outcome | None] = [None] * len(tasks)
    running: dict[int, tuple[int, int, float, list[bytes]]] = {}  # rfd -> (i, pid, deadline, chunks)
    nxt = 0
    while nxt < len(tasks) or running:
        while nxt < len(tasks) and len(running) < jobs:
            pid, rfd = _spawn(tasks[nxt])
            running[rfd] = (nxt, pid, time.monotonic() + timeout, [])
            nxt += 1
        now = time.monotonic()
        wait = max(0.0, min(d for _i, _p, d, _c in running.values()) - now)
        ready, _, _ = select.select(list(running), [], [], wait)
        for rfd in ready:
            i, pid, _d, chunks = running[rfd]
            chunk = os.read(rfd, 1 << 16)
            if chunk:
                chunks.append(chunk)
                continue
            del running[rfd]
            results[i] = _reap(pid, rfd, chunks, False, timeout)
        now = time.monotonic()
        for rfd in [r for r, (_i, _p, d, _c) in running.items() if d <= now]:
            i, pid, _d, chunks = running.pop(rfd)
            results[i] = _reap(pid, rfd, chunks, True, timeout)
    return [r for r in results if r is not None]


def run_bounded(fn: Callable[..., Any], *args: Any, timeout: float = TIMEOUT,
                watch: tuple[str, ...] = ()) -> Outcome:
    """Run one ``fn(*args)`` in a forked child within ``timeout`` seconds."""
    return run_many([(fn, args, watch)], timeout, jobs=1)[0]


def problems(out: Outcome) -> list[str]:
    """What is wrong with an outcome (empty: it is a clean end)."""
    bad: list[str] = []
    if not out.clean:
        bad.append(out.head())
    texts = list(out.messages)
    if out.kind == "error":
        texts.append(out.detail)
        if not out.detail.strip():
            bad.append(f"{out.error_type} with an empty message")
    for text in texts:
        bad.extend(message_problems(text))
    if out.opened:
        bad.append(f"opened a file that is not a spec: {out.opened[0]}")
    return bad


def scaled(n: int) -> int:
    """``n`` inputs, times :data:`SCALE`."""
    return max(1, round(n * SCALE))


def message_problems(text: str) -> list[str]:
    """What is wrong with an error message as a user would see it."""
    bad = []
    m = CONTROL.search(text)
    if m:
        bad.append(f"raw control character {m.group()!r} in a message: {text[:160]!r}")
    if SECRET in text:
        bad.append(f"a message quotes a file that is not a spec: {text[:160]!r}")
    return bad


class Failures:
    """Failures of one category, grouped by their first line (one example each)."""

    def __init__(self, category: str) -> None:
        self.category = category
        self.items: dict[str, tuple[str, str]] = {}  # key -> (label, input)
        self.heads: dict[str, str] = {}  # key -> the first failure's line
        self.count = 0

    def check(self, label: str, text: str, out: Outcome, extra: list[str] | None = None,
              suffix: str = ".txt", header: str = "") -> None:
        bad = problems(out) + (extra or [])
        if not bad:
            return
        self.count += 1
        for b in bad:
            key = out.key() if not out.clean else _normal(b)
            if out.kind in ("hang", "died"):  # nothing tells two hangs apart but the input
                op = label.partition(": ")[2].partition(" ")[0] or label
                key += ": " + op
            if key not in self.items:
                self.items[key] = (label, text)
                self.heads[key] = b
                _save(self.category, key, label, text, b, suffix, header)

    def report(self) -> str:
        lines = [f"{self.count} failing input(s) in {self.category}, {len(self.items)} distinct:"]
        for key, (label, _text) in self.items.items():
            lines.append(f"  [{label}] {self.heads[key]}")
        return "\n".join(lines)


def _normal(text: str) -> str:
    """A message with its numbers and folders left out (to group similar failures)."""
    text = re.sub(r"(/[^\s/'\"]+)+/", "/", text)
    return re.sub(r"\d+", "N", text)[:70]


#: (family, key) of the fixtures written in this run: one bug, one fixture
_SAVED: set[tuple[str, str]] = set()


def _save(category: str, key: str, label: str, text: str, what: str, suffix: str,
          header: str) -> None:
    folder = os.environ.get("SPELBOK_ADVERSARIAL_SAVE")
    if not folder:
        return
    family = (category.split("-")[0], key)
    if family in _SAVED:
        return
    _SAVED.add(family)
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{category}-{label}")[:80]
    what = CONTROL.sub("?", what).replace("\n", " ")
    what = re.sub(r"/tmp/pytest-of-[^/]+/pytest-\d+/[^/\s'\"]+", "@TMP@", what)[:300]
    target = path / f"{safe}{suffix}"
    target.write_text(f"# broke: {what}\n{header}{text}", encoding="utf-8", errors="surrogateescape")
