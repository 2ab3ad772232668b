"""Stage 1, the spec language: reading a spec into the canonical model.

- :mod:`.yamlio`: safe YAML with positions; :mod:`.dsl` parses the rulebook DSL
  (grammar in ``grammar/spec.lark``) and :mod:`.dslwrite` writes it back;
- :mod:`.loader`: files a spec may reach, ``extends``, the JSON Schema;
- :mod:`.model`: the canonical model (defaults filled in) and ``SpecDoc``;
- :mod:`.constructs`: one home per construct (its declaration, grammar piece, DSL
  reading and writing, prose and checks); the modules below are drivers over it;
- :mod:`.checks`: structural and meaning checks; :mod:`spelbok.validation` runs them
  all, with the engine's compiler;
- :mod:`.describe`: the rules in prose.
"""
