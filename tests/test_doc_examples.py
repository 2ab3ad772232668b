"""Every example command in README.md and docs/*.md runs as written.

The examples are the ``spelbok ...`` lines of the fenced code blocks (a ``$ `` prompt
is dropped); synopses (with ``[options]``, ``...`` or upper-case placeholders such as
SPEC) are not examples.  An example whose shown output is an error may exit 1; none may
exit 2 (a usage error) or raise.  An example marked ``# slow`` (it plays hundreds of
matches) is skipped, with that reason.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from spelbok.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{1,}\b")


def _example(text: str) -> bool:
    """Whether ``text`` is an example command (not a synopsis, not the DSL's header)."""
    command = text.split("#", 1)[0].strip()
    words = command.split()
    if len(words) < 2 or not words[1].isalpha():
        return False
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "", command)
    return not ("[" in command or "..." in command or _PLACEHOLDER.search(unquoted))


def examples() -> list[tuple[str, str, str]]:
    """(file:line, command, the output shown after it) of every example."""
    found = []
    for path in FILES:
        inside = False
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if _FENCE.match(line.strip()):
                inside = not inside
                continue
            text = line.strip().removeprefix("$ ")
            if not inside:
                # an example in running text: `spelbok play knektpass --seed 7`
                for span in re.findall(r"`(spelbok [^`]+)`", line):
                    if len(span.split()) >= 3 and _example(span):
                        found.append((f"{path.relative_to(ROOT)}:{i + 1}", span, ""))
                continue
            if not text.startswith("spelbok "):
                continue
            if not _example(text):
                continue  # a synopsis, not an example
            shown = []
            for nxt in lines[i + 1:]:
                if _FENCE.match(nxt.strip()) or nxt.strip().startswith(("$ ", "spelbok ")):
                    break
                shown.append(nxt)
            found.append((f"{path.relative_to(ROOT)}:{i + 1}", text, "\n".join(shown)))
    return found


EXAMPLES = examples()


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("where,command,shown", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_runs(where: str, command: str, shown: str, monkeypatch: pytest.MonkeyPatch,
                      tmp_path: Path) -> None:
    if "# slow" in command:
        pytest.skip(f"{where}: marked slow ({command.split('# slow', 1)[1].strip(': ')})")
    monkeypatch.chdir(ROOT)
    args = shlex.split(command.split("|")[0].split(">")[0], comments=True)[1:]
    # files an example writes go to a scratch folder, never into the repository
    for flag in ("--log", "--plot", "-o", "--output"):
        if flag in args:
            k = args.index(flag) + 1
            args[k] = str(tmp_path / Path(args[k]).name)
    if args and args[0] == "play" and "--auto" not in args:
        text_in = "quit\n"
    else:
        text_in = None
    r = CliRunner().invoke(cli, args, input=text_in)
    assert r.exit_code != 2, f"{where}: usage error\n{r.output}"
    assert r.exception is None or isinstance(r.exception, SystemExit), f"{where}: {r.exception!r}"
    if r.exit_code:
        assert re.search(r"error|✗|FAIL|differ|:\d+:\d+: ", shown, re.I), \
            f"{where}: exits {r.exit_code} but the docs show no error\n{r.output}"
