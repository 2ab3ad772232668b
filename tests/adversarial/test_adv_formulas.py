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
from adv_harness import SEED, Failures, run_bounded
from adv_mutate import dsl_soup, example_with_formula, formula_attacks, grammar_words


def test_formula_attacks(tmp_path: Path) -> None:
    fails = Failures("formula")
    for label, slot, formula in formula_attacks(SEED):
        out = run_bounded(formula_spec, str(tmp_path), slot, formula)
        fails.check(label, example_with_formula(slot, formula), out, suffix=".spec.yaml")
    assert fails.count == 0, fails.report()


def test_dsl_token_soup(tmp_path: Path) -> None:
    fails = Failures("soup")
    for label, text in dsl_soup(120, SEED + 2):
        out = run_bounded(spec_text, "soup.spel", text, str(tmp_path))
        fails.check(label, text, out, suffix=".spec.spel")
    assert fails.count == 0, fails.report()


def test_the_soup_uses_the_grammar() -> None:
    words = grammar_words()
    assert {"deal", "tricks", "each", "hand", "if", "then", "else", "==", "("} <= set(words)
