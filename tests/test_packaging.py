"""The built wheel carries its specs, grammars and schemas, read via importlib.resources."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, sys
import spelbok
from importlib import resources
assert spelbok.__file__.startswith(sys.argv[1]), spelbok.__file__
from spelbok.lang.loader import load_schema
from spelbok.lang.dsl import parse_dsl
schema = load_schema()
assert schema["$schema"].endswith("2020-12/schema"), schema["$schema"]
game = spelbok.load("knektpass", players=2)          # shipped YAML by name
text = (resources.files("spelbok.specs") / "knektpass.spel").read_text("utf-8")
tree, _ = parse_dsl(text, "knektpass.spel")          # shipped DSL + grammars
assert (resources.files("spelbok.grammar") / "formula.lark").is_file()
from spelbok.play.bots import make_bot
from spelbok.engine.observe import observe
bot = make_bot("greedy", seed=1)
state = game.new_state(seed=1)
while not state.is_terminal:
    state.apply(bot.choose(observe(state)))
import spelbok.analysis.readings, spelbok.analysis.simulate, spelbok.cli.main, spelbok.cli.play  # every module imports
assert spelbok.analysis.readings.run_reading("example").ok
print(json.dumps({"winners": state.winners, "name": tree["name"], "compiled": spelbok.COMPILED}))
"""


def test_wheel_works_outside_the_source_tree(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(wheels)],
        check=True, cwd=tmp_path, capture_output=True,
    )
    (wheel,) = wheels.glob("spelbok-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for must in ("spelbok/lang/spec.schema.json", "spelbok/grammar/spec.lark",
                 "spelbok/grammar/formula.lark", "spelbok/specs/knektpass.yaml",
                 "spelbok/specs/knektpass.spel", "spelbok/cli/main.py",
                 "spelbok/play/bots/ismcts.py", "spelbok/analysis/reading.schema.json",
                 "spelbok/analysis/audit.schema.json",
                 "spelbok/specs/readings/example.yaml", "spelbok/specs/spelbok.schema.json",
                 "spelbok/web/static/index.html", "spelbok/web/static/app.js"):
        assert must in names, must
    assert not any(n.startswith(("interpreter/", "cli/")) for n in names)
    # every source module and data file is in the wheel (a subpackage missing from
    # pyproject's package list would be lost in a non-editable install)
    for src, dst in (("interpreter", "spelbok"), ("cli", "spelbok/cli"), ("grammar", "spelbok/grammar"),
                     ("specs", "spelbok/specs")):
        for f in (ROOT / src).rglob("*"):
            if f.suffix in (".py", ".lark", ".json", ".yaml", ".spel") and "__pycache__" not in f.parts:
                assert f"{dst}/{f.relative_to(ROOT / src).as_posix()}" in names, f
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-c", PROBE, str(site)], cwd=tmp_path, env=env,
                         check=True, capture_output=True, text=True)
    assert '"name": "Knektpass"' in out.stdout
    if os.environ.get("SPELBOK_REQUIRE_COMPILED"):
        # CI builds with mypyc: the installed wheel runs its compiled copy (its
        # digest matches the installed sources, so it is not taken for stale)
        assert '"compiled": true' in out.stdout
        assert "spelbok/_compiled.sha256" in names
    import shutil

    shutil.rmtree(ROOT / "build", ignore_errors=True)
