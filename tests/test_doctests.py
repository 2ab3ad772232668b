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
    # an example may use the public names of its package (spelbok.formula re-exports its stages')
    package = importlib.import_module(name.rpartition(".")[0])
    extra = {k: v for k, v in vars(package).items() if k not in vars(module)}
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, extraglobs=extra)
    assert failures == 0
