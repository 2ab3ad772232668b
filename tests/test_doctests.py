"""Every docstring example in the library runs as written."""

from __future__ import annotations

import importlib.util
import pkgutil

import pytest
import spelbok

from examples import run_examples

# spelbok.rl's modules need the optional extra `rl`
RL = all(importlib.util.find_spec(m) for m in ("numpy", "gymnasium", "pettingzoo", "pyspiel"))
MODULES = sorted(
    m.name for m in pkgutil.walk_packages(spelbok.__path__, "spelbok.")
    if not m.name.startswith("spelbok.cli") and not m.name.endswith("__mypyc")  # the C library
    and (RL or not m.name.startswith("spelbok.rl."))
    # the web application and its workbench routes need the optional web extra
    and (m.name not in ("spelbok.web.app", "spelbok.web.workbench")
         or importlib.util.find_spec("starlette") is not None)
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    assert run_examples(name).failed == 0
