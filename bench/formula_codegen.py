"""Candidate: a formula as one generated Python function instead of a tree of closures.

    python bench/formula_codegen.py                      # Knock-out Whist, 4 players
    python bench/formula_codegen.py knektpass 4
    SPELBOK_PURE=1 python bench/formula_codegen.py       # against the closures from the sources

Run by hand (not in CI). Every formula of the spec, as the engine compiled it (the
closures of ``spelbok.formula.compile``), is written a second time as the source of one
function from its type-checked AST: a per-player variable becomes a fixed read of
``st.pv_rows[ROW][p]`` (or of its column for an aggregate), a match or hand variable
a read of ``st.gv[SLOT]``, an option or number its ``repr``; any other name calls its
getter, passed in as a default argument. No text of a spec reaches the source: names
are looked up in the resolver and become indexes, and literals are validated values
printed by ``repr``. A formula with a node this sketch does not write (card sets,
division, functions other than the six aggregates) is left out, and counted.

Both are called on the same (state, seat) pairs, taken from random matches, and must
agree on every one; the script prints the CPU ns per call of each, best of 7 passes.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import spelbok
from spelbok.engine.compiler import Compiler
from spelbok.formula.nodes import Binary, Bool, Call, Compare, IfExpr, Logic, Name, Num, Str, Unary

AGG = {"count": "sum", "sum": "sum", "max": "max", "min": "min", "any": "any", "all": "all"}


class Unsupported(Exception):
    pass


class Writer:
    """The source of one formula, and the getters it calls (as default arguments)."""

    def __init__(self, resolver: Any, n: int) -> None:
        self.res = resolver
        self.n = n
        self.extra: dict[str, Any] = {}

    def name(self, node: Name, seat: str) -> str:
        info = self.res.resolve(node.name)
        if info is None:
            raise Unsupported(node.name)
        kind, value = info[0], info[1]
        if kind == "const":
            return repr(value)
        column = getattr(info, "column", None)
        if kind == "player" and column is not None:
            attr, row = column
            base = f"st.{attr}" if row is None else f"st.{attr}[{int(row)}]"
            return f"{base}[{seat}]"
        key = f"g{len(self.extra)}"
        if kind == "global":
            self.extra[key] = getattr(info, "direct", None) or (lambda st, p, g=value: g(st))
            return f"{key}(st, 0)"
        self.extra[key] = value
        return f"{key}(st, {seat})"

    def write(self, node: Any, seat: str = "p") -> str:
        if isinstance(node, Num | Bool | Str):
            return repr(node.value)
        if isinstance(node, Name):
            return self.name(node, seat)
        if isinstance(node, Unary):
            inner = self.write(node.operand, seat)
            return f"(not {inner})" if node.op == "not" else f"(-{inner})"
        if isinstance(node, Binary) and node.op in ("+", "-", "*"):
            return f"({self.write(node.left, seat)} {node.op} {self.write(node.right, seat)})"
        if isinstance(node, Compare):
            op = {"=": "=="}.get(node.op, node.op)
            return f"({self.write(node.left, seat)} {op} {self.write(node.right, seat)})"
        if isinstance(node, Logic):
            return f"({self.write(node.left, seat)} {node.op} {self.write(node.right, seat)})"
        if isinstance(node, IfExpr):
            return (f"({self.write(node.then, seat)} if {self.write(node.cond, seat)} "
                    f"else {self.write(node.else_, seat)})")
        if isinstance(node, Call) and node.func in AGG and len(node.args) == 1:
            inner = self.write(node.args[0], "q")
            if node.func == "count":
                inner = f"bool({inner})"
            return f"{AGG[node.func]}([{inner} for q in range({self.n})])"
        raise Unsupported(type(node).__name__)

    def function(self, node: Any) -> Any:
        body = self.write(node)
        params = "".join(f", {k}={k}" for k in self.extra)
        src = f"def f(st, p{params}):\n    return {body}\n"
        scope: dict[str, Any] = {"__builtins__": {"sum": sum, "max": max, "min": min,
                                                  "any": any, "all": all, "bool": bool,
                                                  "range": range}, **self.extra}
        exec(compile(src, "<formula>", "exec"), scope)  # noqa: S102 - see the docstring
        return scope["f"]


def states(game: spelbok.Game, matches: int) -> list[Any]:
    rng = random.Random(1)
    out = []
    for seed in range(matches):
        st = game.new_state(seed=seed)
        while not st.is_terminal:
            if rng.random() < 0.2:
                out.append(st.clone())
            st.apply(rng.choice(st.legal_actions()))
    return out


def timed(fn: Any, pairs: list[tuple[Any, int]]) -> float:
    best = float("inf")
    for _ in range(7):
        c0 = time.process_time()
        for st, p in pairs:
            fn(st, p)
        best = min(best, time.process_time() - c0)
    return best / len(pairs) * 1e9


def main() -> None:
    spec = sys.argv[1] if len(sys.argv) > 1 else "knockout-whist"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    game = spelbok.load(spec, players=players)
    compiler = Compiler(game.tree, players, game.option_overrides, lambda path: ("", 0, 0))
    compiler.compile()
    sample = states(game, 20)
    pairs = [(st, seat) for st in sample for seat in range(players)]
    print(f"spelbok {'compiled' if spelbok.COMPILED else 'sources'}; {spec} {players}p; "
          f"{len(pairs)} (state, seat) pairs; ns per call, best of 7")
    skipped = 0
    tot_c = tot_g = 0.0
    for (text, _per_player), compiled in sorted(compiler._compiled.items()):
        if compiled.constant:
            continue
        try:
            gen = Writer(compiler.resolver, players).function(compiled.ast)
        except Unsupported:
            skipped += 1
            continue
        for st, p in pairs:
            a, b = compiled.fn(st, p), gen(st, p)
            assert a == b and type(a) is type(b) or bool(a) == bool(b), (text, a, b)
        tc, tg = timed(compiled.fn, pairs), timed(gen, pairs)
        tot_c += tc
        tot_g += tg
        print(f"  closures {tc:7.0f}  generated {tg:7.0f}  {tg / tc:5.2f}  {text[:70]}")
    if tot_c:
        print(f"sum over the formulas: closures {tot_c:.0f} ns, generated {tot_g:.0f} ns, "
              f"generated/closures {tot_g / tot_c:.2f}; {skipped} formulas not written")


if __name__ == "__main__":
    main()
