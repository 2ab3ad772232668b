"""``spelbok convert`` writes a spec's canonical model, every default written out: what it
writes is the same game, so it validates as cleanly as the spec it came from, warnings
included (``validate --strict``).  A check that a written-out default counts as written
(a warning that a key has no effect, an error for a key a contract does not take) would
fail here."""

from __future__ import annotations

from pathlib import Path

import pytest

SPECS = Path(__file__).resolve().parent.parent / "specs"
NAMES = sorted(p.stem for p in SPECS.glob("*.yaml") if (SPECS / f"{p.stem}.spel").exists())


@pytest.mark.parametrize("name", NAMES)
def test_converted_spec_validates_strictly(name: str, tmp_path: Path) -> None:
    from spelbok.cli.spec_commands import yaml_text
    from spelbok.lang.dslwrite import to_dsl
    from spelbok.lang.loader import read_spec
    from spelbok.validation import diagnose

    for src, out in ((SPECS / f"{name}.spel", tmp_path / f"{name}.yaml"),
                     (SPECS / f"{name}.yaml", tmp_path / f"{name}.spel")):
        tree = read_spec(src).tree
        out.write_text(to_dsl(tree) if out.suffix == ".spel" else yaml_text(tree, None),
                       encoding="utf-8")
        errors, warnings = diagnose(out)
        assert (errors, warnings) == ([], []), [e.format() for e in errors + warnings]
