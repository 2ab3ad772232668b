"""Every docstring example in the library runs as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import spelbok

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(spelbok.__path__, "spelbok.")
    if not m.name.startswith("spelbok.cli")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
