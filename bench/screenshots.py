"""Refresh the README's screenshots of the browser table (docs/screenshots/).

The screenshots are taken by the browser tests themselves (tests/test_web_e2e.py)
when ``SPELBOK_SCREENSHOTS`` is set, so a picture always shows a page the tests
just checked: a Knektpass trick (play.png), a Bridge trick with the dummy on the
table (bridge.png), the final score screen (final.png), a replay (replay.png) and
the hand on a 360 px screen (phone.png).

    python bench/screenshots.py          # needs Playwright and a Chromium

Exit status: the tests' (nonzero when one fails or none could run).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "screenshots"


def main() -> int:
    """Run the browser tests with screenshots on; list what they wrote."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = {p.name: p.stat().st_mtime for p in SHOTS.glob("*.png")}
    env = dict(os.environ, SPELBOK_SCREENSHOTS="1")
    code = subprocess.call([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                            "-rs", str(ROOT / "tests" / "test_web_e2e.py")], cwd=ROOT, env=env)
    written = sorted(p.name for p in SHOTS.glob("*.png")
                     if before.get(p.name) != p.stat().st_mtime)
    print("written:", ", ".join(written) or "none")
    return code if written else code or 1


if __name__ == "__main__":
    sys.exit(main())
