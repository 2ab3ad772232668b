"""Stage 4, analysis: conformance checks, simulation and comparison, rule readings.

- :mod:`.conformance`: random playouts checking the engine's invariants;
- :mod:`.simulate`: batch statistics and comparisons of specs;
- :mod:`.readings`: reading files (scenarios pinned to concrete deals) and ``verify``.
"""
