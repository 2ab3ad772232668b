"""Bad specs: every problem is a located SpecError, never a traceback.

Each ``tests/bad_specs/*.yaml`` fixture states what it must produce in
``# expect: LINE:COL: message fragment[|hint]`` comment lines (the first one
on line 1, any further ones at the end of the file so they do not shift
lines).  The fixture must produce exactly those errors: from loading (YAML,
version, schema) or, when it loads, from the structural checks.  A fragment
``warning: text`` expects a warning (see ``structural_warnings``) instead.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from minispec import MINI
from spelbok import yamlio
from spelbok.errors import SpecError, SpecErrors, SpecWarning, SpelbokError
from spelbok.lang.checks import structural_checks, structural_warnings
from spelbok.lang.loader import read_spec

FIXTURES = Path(__file__).parent / "bad_specs"
FIXTURE_FILES = sorted(FIXTURES.glob("*.yaml"))



def all_errors(source: str | os.PathLike[str], text: str | None = None) -> list[SpecError]:
    """Errors from loading, or else from the structural checks.

    Anything that is not a SpelbokError propagates and fails the test.
    """
    try:
        doc = read_spec(source, text=text)
    except SpecErrors as exc:
        assert exc.errors, "SpecErrors without errors"
        return exc.errors
    except SpecError as exc:
        return [exc]
    return structural_checks(doc)


def all_problems(path: Path) -> list[SpecError]:
    """:func:`all_errors`, then the warnings of a spec that loads."""
    errors = all_errors(path)
    try:
        doc = read_spec(path)
    except SpecError:
        return errors
    return errors + structural_warnings(doc)


def parse_expectations(path: Path) -> list[tuple[int, int, str, str | None]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# expect: "):
            where, _, rest = line[len("# expect: ") :].partition(": ")
            lineno, col = (int(x) for x in where.split(":"))
            fragment, _, hint = rest.partition("|")
            out.append((lineno, col, fragment, hint or None))
    return out


def test_there_are_enough_fixtures() -> None:
    assert len(FIXTURE_FILES) >= 30


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[p.stem for p in FIXTURE_FILES])
def test_bad_spec_fixture(path: Path) -> None:
    expected = parse_expectations(path)
    assert expected, f"{path.name} has no '# expect:' line"
    errors = all_problems(path)
    got = [(e.line, e.col, str(e).partition(": ")[2], e.hint) for e in errors]
    assert len(errors) == len(expected), f"expected {expected}, got {got}"
    for lineno, col, fragment, hint in expected:
        warning = fragment.startswith("warning: ")
        text = fragment.removeprefix("warning: ")
        matches = [
            e
            for e in errors
            if e.line == lineno and e.col == col and text in e.message and e.path == str(path)
            and isinstance(e, SpecWarning) == warning
        ]
        assert matches, f"no error {lineno}:{col}: {fragment!r} in {got}"
        if hint is not None:
            assert any(e.hint == hint for e in matches), f"hint {hint!r} missing in {got}"
    for e in errors:
        assert "Traceback" not in str(e)
        assert str(e).startswith(f"{path}:{e.line}:{e.col}: ")


# ------------------------------------------------------------------ inline cases

SHIPPED = sorted(
    p
    for pattern in ("*.yaml", "*.spel", "variants/*.yaml")
    for p in (Path(__file__).parents[1] / "specs").glob(pattern)
)


def test_shipped_specs_have_no_warnings() -> None:
    assert len(SHIPPED) > 20
    for path in SHIPPED:
        assert structural_warnings(read_spec(path)) == [], path


def test_choice_outside_a_decision_is_any_decision_s_value() -> None:
    text = MINI.replace(
        "  - tricks: {}\n",
        "  - decide: trump\n    choose: suit\n  - decide: go\n    choose: [Play, pass]\n"
        "  - if: choice == 'play' or choice == 'H' or choice == ''\n    then: [{end_hand: true}]\n"
        "  - tricks: {}\n",
    )
    doc = read_spec("c.yaml", text=text)
    assert structural_checks(doc) == [] and structural_warnings(doc) == []
    (e,) = structural_checks(read_spec("c.yaml", text=text.replace("'H'", "'hearts'")))
    assert (e.line, e.col, e.hint) == (13, 39, "H")
    assert e.message == "'choice' is never 'hearts': the decisions offer 'C', 'D', 'H', 'S', " \
        "'pass', 'play'"


def test_several_schema_errors_are_collected() -> None:
    text = MINI.replace("max: 4}", "max: four}").replace("deal: {size: 5}", "deal: {sise: 5}")
    text = text.replace("hand:\n", "hand_size: 3\nhand:\n")
    with pytest.raises(SpecErrors) as info:
        read_spec("g.yaml", text=text)
    got = [(e.line, e.col) for e in info.value.errors]
    assert got == [(3, 24), (7, 1), (9, 11), (9, 12)]
    assert "missing required key 'size'" in info.value.errors[2].message
    assert str(info.value).count("\n") == 3


def test_binary_garbage(tmp_path: Path) -> None:
    rng = random.Random(7)
    path = tmp_path / "garbage.yaml"
    path.write_bytes(b"spelbok: 1\n" + bytes(rng.randrange(256) for _ in range(4000)))
    with pytest.raises(SpecError) as info:
        read_spec(path)
    assert info.value.line == 2
    assert "UTF-8" in info.value.message or "binary" in info.value.message


def test_nul_byte(tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"spelbok: 1\nname: Mi\x00ni\n")
    with pytest.raises(SpecError) as info:
        read_spec(path)
    e = info.value
    assert (e.line, e.col) == (2, 9)
    assert "NUL byte" in e.message


def test_control_character() -> None:
    with pytest.raises(SpecError) as info:
        read_spec("c.yaml", text="spelbok: 1\nname: \x07bell\n")
    assert (info.value.line, info.value.col) == (2, 7)
    assert "U+0007" in info.value.message


def test_non_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(MINI.replace("name: Mini", "name: Sm\xf6rg\xe5s").encode("latin-1"))
    with pytest.raises(SpecError) as info:
        read_spec(path)
    e = info.value
    assert (e.path, e.line, e.col) == (str(path), 2, 9)
    assert "not valid UTF-8 (byte 0xf6" in e.message


def test_non_utf8_column_counts_characters(tmp_path: Path) -> None:
    path = tmp_path / "mixed.yaml"
    path.write_bytes("name: Ørn \xe5".encode() + b"\xff\n")
    with pytest.raises(SpecError) as info:
        read_spec(path)
    assert (info.value.line, info.value.col) == (1, 12)


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + MINI.encode())
    assert read_spec(path).tree["name"] == "Mini"


def test_ten_megabyte_file_fails_fast(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:
        f.write(b"spelbok: 1\nabout: '")
        f.write(b"x" * (10 * 1024 * 1024))
        f.write(b"'\n")
    with pytest.raises(SpecError) as info:
        read_spec(path)
    assert "too large" in info.value.message
    assert info.value.path == str(path)


def test_huge_text_fails_fast() -> None:
    with pytest.raises(SpecError, match="too large"):
        read_spec("big.yaml", text="about: " + "y" * (2 * 1024 * 1024) + "\n")


def test_too_many_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "MAX_NODES", 50)
    text = MINI + "about: [" + ", ".join(["x"] * 60) + "]\n"
    with pytest.raises(SpecError) as info:
        read_spec("n.yaml", text=text)
    assert "too large (more than 50 YAML nodes)" in info.value.message
    assert info.value.line == 11


def test_nesting_at_the_limit_is_fine() -> None:
    data, _ = yamlio.load_yaml("a: " + "[" * 60 + "]" * 60 + "\n", "n.yaml")
    assert isinstance(data["a"], list)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(SpecError) as info:
        read_spec(path)
    e = info.value
    assert (e.path, e.line, e.col) == (str(path), None, None)
    assert "no such spec file" in e.message


def test_directory_as_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as info:
        read_spec(tmp_path)
    assert "directory" in info.value.message
    assert info.value.path == str(tmp_path)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # chmod cannot stop root (CI runs as root), so make opening the file fail instead
    path = tmp_path / "secret.yaml"
    path.write_text(MINI)
    real_open = os.open

    def deny(name: object, *args: object, **kwargs: object) -> object:
        if Path(str(name)) == path:
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", deny)
    with pytest.raises(SpecError, match="permission denied"):
        read_spec(path)


def test_unknown_shipped_name_has_hint() -> None:
    with pytest.raises(SpecError) as info:
        read_spec("knekpass")
    assert info.value.hint == "knektpass"


def test_extends_missing_parent(tmp_path: Path) -> None:
    child = tmp_path / "child.yaml"
    child.write_text("spelbok: 1\nextends: no_such_base\nname: Child\n")
    with pytest.raises(SpecError) as info:
        read_spec(child)
    e = info.value
    assert (e.path, e.line, e.col) == (str(child), 2, 10)
    assert "cannot find the base spec 'no_such_base'" in e.message


def test_extends_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("spelbok: 1\nextends: b.yaml\nname: A\n")
    (tmp_path / "b.yaml").write_text("name: B\nextends: a\n")
    with pytest.raises(SpecError) as info:
        read_spec(tmp_path / "a.yaml")
    e = info.value
    assert (e.path, e.line, e.col) == (str(tmp_path / "b.yaml"), 2, 10)
    assert "cycle" in e.message and "a.yaml -> " in e.message


def test_extends_itself(tmp_path: Path) -> None:
    path = tmp_path / "self.yaml"
    path.write_text("extends: self.yaml\n")
    with pytest.raises(SpecError, match="cycle"):
        read_spec(path)


def test_parent_errors_are_located_in_the_parent(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(MINI.replace("max: 4}", "max: lots}"))
    (tmp_path / "child.yaml").write_text("extends: base\nname: Child\n")
    with pytest.raises(SpecErrors) as info:
        read_spec(tmp_path / "child.yaml")
    (e,) = info.value.errors
    assert (e.path, e.line, e.col) == (str(tmp_path / "base.yaml"), 3, 24)


def test_parent_with_bad_version(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(MINI.replace("spelbok: 1", "spelbok: 3"))
    (tmp_path / "child.yaml").write_text("extends: base.yaml\n")
    with pytest.raises(SpecError) as info:
        read_spec(tmp_path / "child.yaml")
    assert info.value.path == str(tmp_path / "base.yaml")
    assert "unsupported spec format version 3" in info.value.message


def test_dsl_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spelbok.lang.dsl", None)  # makes the import fail
    with pytest.raises(SpecError) as info:
        read_spec("game.spel", text="game Mini\n")
    assert "DSL support is not available" in info.value.message
    assert info.value.path == "game.spel"


def test_tab_after_a_key_is_not_indentation() -> None:
    # libyaml accepts a tab as separation; the pure-Python parser does not.
    try:
        data, _ = yamlio.load_yaml("a:\t1\n", "t.yaml")
    except SpecError as exc:
        assert "tab character is not allowed here" in exc.message
    else:
        assert data == {"a": 1}


def test_non_scalar_key() -> None:
    with pytest.raises(SpecError) as info:
        yamlio.load_yaml("? [a, b]\n: 1\n", "k.yaml")
    assert (info.value.line, info.value.col) == (1, 3)
    assert "map key must be a plain word" in info.value.message


MUTATIONS = 150


def test_mutated_knektpass_never_escapes() -> None:
    """Random damage to a real spec yields SpelbokErrors only (or still loads)."""
    text = (Path(__file__).parents[1] / "specs" / "knektpass.yaml").read_text(encoding="utf-8")
    rng = random.Random(2024)
    junk = [":", "-", "[", "]", "{", "}", "\t", "'", '"', "&a", "*a", "!!", "\n", " ", "#", "x"]
    for _ in range(MUTATIONS):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.4:
                del chars[i]
            elif op < 0.8:
                chars.insert(i, rng.choice(junk))
            else:
                chars[i] = rng.choice(junk)
        mutated = "".join(chars)
        try:
            all_errors("mutant.yaml", text=mutated)
        except SpelbokError:  # pragma: no cover - all_errors returns them
            raise
