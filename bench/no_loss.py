"""Byte-identical output before and after a change of layout (no behaviour may move).

For every shipped spec and variant this records what a user sees from
``describe``, ``convert --to dsl``, ``convert --to yaml`` and
``play --auto -v --seed 1`` / ``--seed 2`` (``--bot-time 0``), then compares two records.

    python bench/no_loss.py save OUT            # record this checkout
    python bench/no_loss.py compare OLD NEW     # every difference, or "identical"
    python bench/no_loss.py against COMMIT      # record COMMIT (a temporary git
                                                # worktree, pure build) and this
                                                # checkout, then compare

``against`` imports the old commit's sources straight from a worktree (no
install): the library lives in ``interpreter/`` but is imported as ``spelbok``,
so the worktree gets the links a wheel would make.  Exit status 1 on any
difference.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (file name, command line after ``spelbok``) for one spec; ``{spec}`` is its path
COMMANDS = (
    ("describe", ["describe", "{spec}"]),
    ("dsl", ["convert", "--to", "dsl", "{spec}"]),
    ("yaml", ["convert", "--to", "yaml", "{spec}"]),
    # no time limit on the bots' search: a search cut short by the clock depends on the
    # machine's load, and two records of one commit would differ
    ("play1", ["play", "{spec}", "--auto", "-v", "--seed", "1", "--bot-time", "0"]),
    ("play2", ["play", "{spec}", "--auto", "-v", "--seed", "2", "--bot-time", "0"]),
)


def specs(root: Path) -> list[Path]:
    """Every shipped spec (YAML and DSL) and variant, in a fixed order."""
    found = sorted((root / "specs").glob("*.yaml")) + sorted((root / "specs").glob("*.spel"))
    found += sorted((root / "specs" / "variants").glob("*.yaml"))
    found += sorted((root / "specs" / "variants").glob("*.spel"))
    return found


def _save_one(spec: Path, out: Path, root: Path, only: tuple[str, ...] = ()) -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    runner = CliRunner()
    rel = spec.relative_to(root / "specs").as_posix().replace("/", "__")
    for name, args in COMMANDS:
        if only and name not in only:
            continue
        argv = [a.replace("{spec}", str(spec)) for a in args]
        result = runner.invoke(cli, argv, prog_name="spelbok")
        text = result.output.replace(str(root), "<root>")
        (out / f"{rel}.{name}.txt").write_text(f"exit {result.exit_code}\n{text}")


def save(out: Path, root: Path, jobs: int = 2, only: tuple[str, ...] = ()) -> None:
    """Run every command on every spec of ``root`` in this interpreter; write one file each."""
    from concurrent.futures import ProcessPoolExecutor

    out.mkdir(parents=True, exist_ok=True)
    out = out.resolve()
    # paths printed relative to the working folder (an `extends`, the schema line) then read
    # the same for both records
    os.chdir(root)
    todo = specs(root)
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        for f in [pool.submit(_save_one, s, out, root, only) for s in todo]:
            f.result()


def compare(old: Path, new: Path, present: bool = False) -> int:
    """Print each file that differs or is missing; return how many.

    ``present``: compare only the outputs ``new`` holds (a record of some commands)."""
    names = sorted({p.name for p in new.iterdir()} | (set() if present else
                                                       {p.name for p in old.iterdir()}))
    bad = 0
    for name in names:
        a, b = old / name, new / name
        if not a.exists() or not b.exists():
            print(f"only in {'new' if b.exists() else 'old'}: {name}")
            bad += 1
        elif a.read_bytes() != b.read_bytes():
            print(f"differs: {name}")
            bad += 1
    print(f"{len(names)} outputs, {bad} differ" if bad else f"{len(names)} outputs identical")
    return bad


def _record(root: Path, out: Path, pythonpath: str) -> None:
    env = dict(os.environ, SPELBOK_PURE="1", PYTHONPATH=pythonpath, COLUMNS="100")
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "save", str(out),
                    "--root", str(root)], check=True, env=env)


def against(commit: str) -> int:
    """Record ``commit`` and this checkout, and compare them."""
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        tree = t / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
                       check=True, capture_output=True)
        try:
            for name in ("cli", "grammar", "specs"):
                (tree / "interpreter" / name).symlink_to(tree / name)
            site = t / "site"
            site.mkdir()
            (site / "spelbok").symlink_to(tree / "interpreter")
            _record(tree, t / "old", str(site))
            _record(ROOT, t / "new", os.environ.get("PYTHONPATH", ""))
            return compare(t / "old", t / "new")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           check=True, capture_output=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save")
    s.add_argument("out", type=Path)
    s.add_argument("--root", type=Path, default=ROOT)
    s.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    s.add_argument("--only", default="", help="commands to run, e.g. describe,dsl,yaml")
    c = sub.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--present", action="store_true", help="only the outputs NEW holds")
    g = sub.add_parser("against")
    g.add_argument("commit")
    a = ap.parse_args()
    if a.cmd == "save":
        save(a.out, a.root.resolve(), a.jobs, tuple(x for x in a.only.split(",") if x))
        return 0
    if a.cmd == "compare":
        return 1 if compare(a.old, a.new, a.present) else 0
    return 1 if against(a.commit) else 0


if __name__ == "__main__":
    sys.exit(main())
