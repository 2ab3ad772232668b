"""Running a library module's docstring examples, compiled or not."""

from __future__ import annotations

import doctest
import importlib

from spelbok._native import source_module


def run_examples(name: str) -> doctest.TestResults:
    """Run the examples of module ``name`` against the module as imported.

    Doctest cannot read the docstrings of mypyc-compiled functions, so the
    examples are found in the module's source; they run with the imported
    (possibly compiled) module's names, so that every object an example meets
    comes from one copy.  An example may also use the public names of its package
    (``spelbok.formula`` re-exports its stages').
    """
    module = importlib.import_module(name)
    package = importlib.import_module(name.rpartition(".")[0])
    globs = {k: v for k, v in vars(package).items() if not k.startswith("__")}
    globs.update(vars(module))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(source_module(module), name, globs=globs):
        runner.run(test)
    return runner.summarize(verbose=False)
