"""Every docstring example in the library runs as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import spelbok
from spelbok._native import source_module

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(spelbok.__path__, "spelbok.")
    if not m.name.startswith("spelbok.cli") and not m.name.endswith("__mypyc")  # the C library
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    # a compiled module's examples run from its source (doctest cannot see them)
    module = source_module(importlib.import_module(name))
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
