"""Specs, reading files and logs are untrusted: what they may name, and what is never read.

``extends:`` (a spec), ``spec:`` (a reading file) and a log's spec may name a
shipped spec or a file in the naming file's own folder (or below); anything
else needs an explicit ``allow_paths`` (``--allow-path`` on the command line).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from spelbok import load
from spelbok.analysis.readings import load_reading, run_reading
from spelbok.errors import ReadingError, SpecError
from spelbok.lang.loader import local_file, read_file_bytes, read_spec, referenced_spec
from spelbok.validation import validate

SECRET = "TOPSECRET line one\nand a second\n"  # a plain string to YAML: no map
BASE = "spelbok: 1\nextends: example\nname: Base\n"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """tmp/secret.yaml (outside), tmp/game/base.yaml, tmp/game/sub/ (a subfolder)."""
    (tmp_path / "secret.yaml").write_text(SECRET)
    game = tmp_path / "game"
    (game / "sub").mkdir(parents=True)
    (game / "base.yaml").write_text(BASE)
    return game


def child(folder: Path, extends: str, name: str = "child.yaml") -> Path:
    path = folder / name
    path.write_text(f"spelbok: 1\nextends: {extends}\nname: Child\n")
    return path


@contextmanager
def unblock(fifo: Path) -> Iterator[None]:
    """Should a reader block on ``fifo`` (the bug), open and close its other end so the
    test fails instead of hanging."""
    stop = threading.Event()

    def writer() -> None:
        deadline = time.monotonic() + 10
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader yet
                time.sleep(0.05)
                continue
            os.close(fd)
            return

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join(timeout=5)


# -- extends -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["../secret.yaml", "../secret", "sub/../../secret.yaml"])
def test_extends_out_of_the_folder_is_refused_located(tree: Path, value: str) -> None:
    with pytest.raises(SpecError) as info:
        read_spec(child(tree, value))
    e = info.value
    assert (e.path, e.line, e.col) == (str(tree / "child.yaml"), 2, 10)
    assert "leads out of the folder" in e.message and "TOPSECRET" not in str(e)


def test_extends_an_absolute_path_is_refused_before_reading(tree: Path) -> None:
    with pytest.raises(SpecError, match="is an absolute path") as info:
        read_spec(child(tree, str(tree.parent / "secret.yaml")))
    assert "TOPSECRET" not in str(info.value)
    with pytest.raises(SpecError, match="is an absolute path") as info:
        read_spec(child(tree, "/etc/passwd"))
    assert "root:" not in str(info.value)


@pytest.mark.parametrize("value", ["/dev/zero", "/proc/self/environ", "/dev/stdin"])
def test_extends_system_files_are_refused(tree: Path, value: str) -> None:
    with pytest.raises(SpecError, match="absolute path"):
        read_spec(child(tree, value))
    with pytest.raises(SpecError, match="system or device file|absolute path"):
        read_spec(child(tree, value), allow_paths=["/"])


def test_extends_a_link_out_of_the_folder_is_refused(tree: Path) -> None:
    (tree / "link.yaml").symlink_to(tree.parent / "secret.yaml")
    with pytest.raises(SpecError, match="link that leads out of the folder") as info:
        read_spec(child(tree, "link.yaml"))
    assert "TOPSECRET" not in str(info.value)
    (tree / "inside.yaml").symlink_to(tree / "base.yaml")  # a link that stays inside: fine
    assert read_spec(child(tree, "inside", "c2.yaml")).tree["name"] == "Child"


@needs_fifo
def test_extends_a_fifo_is_refused_without_blocking(tree: Path) -> None:
    fifo = tree / "pipe.yaml"
    os.mkfifo(fifo)
    with unblock(fifo), pytest.raises(SpecError, match="not a regular file"):
        read_spec(child(tree, "pipe.yaml"))


def test_extends_below_the_folder_and_shipped_names_still_work(tree: Path) -> None:
    (tree / "sub" / "mid.yaml").write_text("extends: knektpass\nname: Mid\n")
    doc = read_spec(child(tree, "sub/mid"))
    assert doc.tree["name"] == "Child" and len(doc.parents) == 2
    assert read_spec(child(tree, "base", "c3.yaml")).tree["name"] == "Child"
    # the shipped variants extend '../knektpass.yaml' inside the shipped tree, and a
    # shipped file may be named by its path too (it is trusted)
    assert read_spec("variants/knektpass-floor-zero").tree["name"]
    shipped = read_spec("knektpass").path
    if os.path.isabs(shipped):
        assert read_spec(child(tree, shipped, "c4.yaml")).tree["name"] == "Child"


def test_allow_paths_opens_another_folder(tree: Path) -> None:
    shared = tree.parent / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(BASE)
    path = child(tree / "sub", "../../shared/base.yaml")
    with pytest.raises(SpecError, match="leads out of the folder"):
        read_spec(path)
    assert read_spec(path, allow_paths=[shared]).tree["name"] == "Child"
    assert load(path, allow_paths=[str(shared)]).name == "Child"
    assert validate(path, allow_paths=[shared]) == []
    assert validate(path)[0].line == 2
    # one folder given as a plain string is a list of one, never its characters ('/' ...)
    assert read_spec(path, allow_paths=str(shared)).tree["name"] == "Child"
    with pytest.raises(SpecError, match="leads out of the folder"):
        read_spec(path, allow_paths=str(tree / "elsewhere"))
    from spelbok.errors import ArgumentError

    for bad in ([None], 5, [b"/"]):
        with pytest.raises(ArgumentError, match="allow_paths"):
            read_spec(path, allow_paths=bad)  # type: ignore[arg-type]


def test_local_file_refuses_nul_and_finds_suffixes(tree: Path) -> None:
    with pytest.raises(SpecError, match="not a valid file name"):
        local_file("a\x00b", tree, (), ("x.yaml", 1, 1))
    assert local_file("base", tree, (), ("x.yaml", 1, 1)) == tree / "base.yaml"
    assert local_file("nothing", tree, (), ("x.yaml", 1, 1)) is None


# -- the file the user names ---------------------------------------------------------------


@needs_fifo
def test_a_top_level_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with unblock(fifo), pytest.raises(SpecError, match="not a regular file"):
        read_spec(fifo)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/proc/self/environ"])
def test_a_top_level_device_or_proc_file_is_refused(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    with pytest.raises(SpecError, match="system or device file"):
        read_spec(path)


def test_a_top_level_file_is_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (1024 * 1024 + 10))
    with pytest.raises(SpecError, match="too large"):
        read_spec(big)
    with pytest.raises(SpecError, match="too large"):
        read_file_bytes(big, "big.yaml", limit=100)


def test_a_file_that_is_no_spec_is_not_quoted(tmp_path: Path) -> None:
    other = tmp_path / "notes.yaml"
    other.write_text(SECRET)
    with pytest.raises(SpecError, match="must be a map") as info:
        read_spec(other)
    assert "TOPSECRET" not in str(info.value)


def test_an_overlong_name_is_a_spec_error() -> None:
    with pytest.raises(SpecError):
        read_spec("a" * 5000)
    with pytest.raises(SpecError):
        read_spec("a/" * 3000)


# -- reading files -----------------------------------------------------------------------------


def reading(folder: Path, spec: str, name: str = "r.yaml") -> Path:
    path = folder / name
    path.write_text(f"reading: 1\nspec: {spec}\ncases: []\n")
    return path


@pytest.mark.parametrize("spec", ["/etc/passwd", "../secret.yaml", "../secret"])
def test_reading_spec_out_of_the_folder_is_refused(tree: Path, spec: str) -> None:
    with pytest.raises(SpecError, match="absolute path|leads out of the folder") as info:
        run_reading(reading(tree, spec))
    e = info.value
    assert (e.path, e.line, e.col) == (str(tree / "r.yaml"), 2, 7)
    assert "TOPSECRET" not in str(e) and "root:" not in str(e)


def test_reading_spec_not_found_does_not_fall_back_to_the_working_folder(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 'secret.yaml' exists in the working folder, but not beside the reading file
    monkeypatch.chdir(tree.parent)
    with pytest.raises(SpecError, match="nor among the shipped specs"):
        run_reading(reading(tree, "secret.yaml"))


def test_reading_spec_beside_shipped_or_allowed(tree: Path) -> None:
    assert run_reading(reading(tree, "base")).ok
    assert run_reading(reading(tree, "example", "r2.yaml")).spec == "example"
    shared = tree.parent / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(BASE)
    path = reading(tree, str(shared / "base.yaml"), "r3.yaml")
    with pytest.raises(SpecError, match="absolute path"):
        run_reading(path)
    assert run_reading(path, allow_paths=[shared]).ok


def test_reading_file_not_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(b"reading: 1\nspec: \xff\n")
    with pytest.raises(ReadingError) as info:
        load_reading(path)
    assert str(info.value).startswith(f"{path}:2:7: the file is not valid UTF-8")


@needs_fifo
def test_reading_file_fifo_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "r.yaml"
    os.mkfifo(fifo)
    with unblock(fifo), pytest.raises(ReadingError, match="not a regular file"):
        load_reading(fifo)


def test_referenced_spec_without_a_folder_takes_names_only() -> None:
    assert referenced_spec("example", None, (), ("r", 1, 1)) == "example"
    with pytest.raises(SpecError, match="is a path"):
        referenced_spec("/etc/passwd", None, (), ("r", 1, 1))
