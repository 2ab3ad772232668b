"""Stage 1, the spec language: reading a spec into the canonical model.

- :mod:`.yamlio`: safe YAML with positions; :mod:`.dsl` parses the rulebook DSL
  (grammar in ``grammar/spec.lark``) and :mod:`.dslwrite` writes it back;
- :mod:`.loader`: files a spec may reach, ``extends``, the JSON Schema;
- :mod:`.model`: the canonical model (defaults filled in) and ``SpecDoc``;
- :mod:`.checks`: structural and meaning checks; :mod:`.validate` runs them all;
- :mod:`.describe`: the rules in prose.
"""
