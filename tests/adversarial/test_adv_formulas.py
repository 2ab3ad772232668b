"""Formula attacks and DSL token soup: a clean error or correct play, in bounded time.

Formulas go into the example spec's formula slots (a score update, the end
condition, the winners, a condition, a hand size): depth, length, growth
(``score * score * ...`` every hand), huge literals, division by zero, other
languages' operators and names.  The soup is random sequences of the DSL
grammar's own tokens (``grammar/spec.lark`` and ``grammar/formula.lark``).
"""

from __future__ import annotations

from pathlib import Path

from adv_exercise import formula_spec, spec_text
from adv_harness import SEED, Failures, problems, run_many, scaled
from adv_mutate import dsl_soup, example_with_formula, formula_attacks, grammar_words

#: random token sequences
SOUP = 80


def test_formula_attacks(tmp_path: Path) -> None:
    fails = Failures("formula")
    inputs = list(formula_attacks(SEED, scaled(30)))
    outs = run_many([(formula_spec, (str(tmp_path), f"formula{i}.yaml", slot, formula), ())
                     for i, (_label, slot, formula) in enumerate(inputs)])
    for (label, slot, formula), out in zip(inputs, outs, strict=True):
        if problems(out):  # the spec text is written out only when it is kept
            fails.check(label, example_with_formula(slot, formula), out, suffix=".spec.yaml")
    assert fails.count == 0, fails.report()


def test_dsl_token_soup(tmp_path: Path) -> None:
    fails = Failures("soup")
    inputs = list(dsl_soup(scaled(SOUP), SEED + 2))
    outs = run_many([(spec_text, (f"soup{i}.spel", text, str(tmp_path)), ())
                     for i, (_label, text) in enumerate(inputs)])
    for (label, text), out in zip(inputs, outs, strict=True):
        fails.check(label, text, out, suffix=".spec.spel")
    assert fails.count == 0, fails.report()


def test_the_soup_uses_the_grammar() -> None:
    words = grammar_words()
    assert {"deal", "tricks", "each", "hand", "if", "then", "else", "==", "("} <= set(words)
