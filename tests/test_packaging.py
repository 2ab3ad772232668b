"""The built wheel carries its specs, grammars and schemas, read via importlib.resources."""

from __future__ import annotations

import os
import re
import shlex
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


def _build_env() -> dict[str, str]:
    """The environment of a build: CI's (SPELBOK_REQUIRE_COMPILED: compiled), else a
    default build, whatever the switches of the shell that runs the tests."""
    if os.environ.get("SPELBOK_REQUIRE_COMPILED"):
        return dict(os.environ)
    return {k: v for k, v in os.environ.items() if k not in ("SPELBOK_PURE", "SPELBOK_COMPILE")}


def test_wheel_works_outside_the_source_tree(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(wheels)],
        check=True, cwd=tmp_path, capture_output=True, env=_build_env(),
    )
    (wheel,) = wheels.glob("spelbok-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for must in ("spelbok/lang/spec.schema.json", "spelbok/grammar/spec.lark",
                 "spelbok/grammar/formula.lark", "spelbok/specs/knektpass.yaml",
                 "spelbok/specs/knektpass.spel", "spelbok/cli/main.py",
                 "spelbok/play/bots/ismcts.py", "spelbok/analysis/reading.schema.json",
                 "spelbok/analysis/audit.schema.json",
                 "spelbok/specs/readings/example.yaml", "spelbok/specs/spelbok.schema.json",
                 "spelbok/web/templates/index.html", "spelbok/web/static/app.js",
                 "spelbok/web/templates/workbench.html", "spelbok/web/static/workbench.js",
                 "spelbok/web/static/workbench.css"):
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
    else:  # the default build is pure Python: quick to install (README)
        assert not any(n.endswith((".so", ".pyd", "_compiled.sha256")) for n in names)
    import shutil

    shutil.rmtree(ROOT / "build", ignore_errors=True)


def test_default_build_is_pure_and_says_how_to_compile() -> None:
    # build_ext with no switch set: nothing to compile, and a line on the opt-in
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPELBOK_")}
    staged = set((ROOT / "build").glob("mypyc-*"))  # (another build may be running)
    out = subprocess.run([sys.executable, "setup.py", "-q", "build_ext"], cwd=ROOT,
                         env=env, check=True, capture_output=True, text=True)
    assert "pure Python (the default); set SPELBOK_COMPILE=1" in out.stderr
    assert set((ROOT / "build").glob("mypyc-*")) <= staged  # nothing staged for mypyc


# -- the README's first steps, after a plain `pip install .` ---------------------------

#: Words that stand for something the reader supplies (`spelbok describe FILE`).
_PLACEHOLDER = re.compile(r"\b[A-Z]{2,}\b")


def readme_commands(text: str) -> list[str]:
    """The spelbok commands of the README's first command and its "Next steps", as
    written (inline code and code blocks; a trailing ``# comment`` dropped), less
    those with a placeholder word such as FILE or LOG."""
    start = text.index("Run a bot match of Knektpass")
    end = text.index("\n---\n", start)
    section = text[start:end]
    found: list[tuple[int, str]] = []
    blocks = list(re.finditer(r"```(?:bash|sh)?\n(.*?)```", section, re.S))
    for m in blocks:
        for line in m.group(1).splitlines():
            for part in line.split("&&"):
                part = part.split("  #")[0].strip()
                if part.startswith("spelbok "):
                    found.append((m.start(), part))
    for m in re.finditer(r"`(spelbok [^`]+)`", section):
        if not any(b.start() <= m.start() < b.end() for b in blocks):
            found.append((m.start(), m.group(1)))
    commands = [c for _, c in sorted(found, key=lambda f: f[0])]
    return [c for c in dict.fromkeys(commands) if not _PLACEHOLDER.search(c)]


def test_readme_commands_are_parsed() -> None:
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert commands[0] == "spelbok play knektpass --auto --seed 1"  # the first command's
    assert "spelbok verify specs/readings/knektpass-1847.yaml" in commands
    assert any(c.startswith("spelbok compare ") for c in commands)
    assert not any("FILE" in c or "LOG" in c for c in commands)


def test_readme_next_steps_work_after_a_plain_install(tmp_path: Path) -> None:
    # a non-editable install (the wheel, pure: SPELBOK_PURE skips the compile) of
    # this checkout, run from a copy of the clone's files the README names, so that
    # paths such as specs/readings/... are read from the clone, specs from the install
    import shutil

    # built from a copy of the sources: another test may build a wheel from the checkout
    # at the same time (setuptools writes build/ and *.egg-info beside the sources)
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".ci", "build", "*.egg-info", "__pycache__", ".venv", "*.so"))
    # pure: the compile is another test's (CI requires it of its own install only)
    build_env = {k: v for k, v in os.environ.items() if k != "SPELBOK_REQUIRE_COMPILED"}
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(wheels)],
        check=True, cwd=tmp_path, capture_output=True, env=dict(build_env, SPELBOK_PURE="1"),
    )
    (wheel,) = wheels.glob("spelbok-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "spelbok"  # what pip writes for the console script
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom spelbok.cli.main import main\n"
                      "sys.exit(main())\n", encoding="utf-8")
    script.chmod(0o755)
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "specs", clone / "specs",
                    ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (clone / "README.md").write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(site), SPELBOK_PURE="1", NO_COLOR="1",
               PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    probe = subprocess.run([str(script), "--version"], cwd=clone, env=env, capture_output=True,
                           text=True)
    assert probe.returncode == 0, probe.stderr
    where = subprocess.run([sys.executable, "-c", "import spelbok; print(spelbok.__file__)"],
                           cwd=clone, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(site)), where.stdout  # the install, not this checkout
    commands = readme_commands(text)
    assert len(commands) >= 5, commands
    for command in commands:
        ran = subprocess.run(shlex.split(command), cwd=clone, env=env, capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, timeout=600)
        assert ran.returncode == 0, f"{command}: {ran.stdout[-2000:]}{ran.stderr[-2000:]}"
        assert "Traceback" not in ran.stdout + ran.stderr, command
