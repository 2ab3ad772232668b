"""Formulas over per-player lists (NameInfo.column) give what the plain closures give."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest
from spelbok.formula import DictResolver, NameInfo, compile_formula

N = 4


def resolvers() -> tuple[DictResolver, DictResolver]:
    def infos(columns: bool) -> dict[str, NameInfo]:
        col = (lambda c: {"column": c}) if columns else (lambda c: {})
        return {
            "x": NameInfo("player", lambda st, p: st.x[p], int, **col(("x", None))),
            "f": NameInfo("player", lambda st, p: st.f[p], bool, **col(("f", None))),
            "rx": NameInfo("player", lambda st, p: st.rows[0][p], int, **col(("rows", 0))),
            "rf": NameInfo("player", lambda st, p: st.rows[1][p], bool, **col(("rows", 1))),
            "g": NameInfo("global", lambda st: st.g, int,
                          **({"direct": lambda st, p: st.g} if columns else {})),
            "k": 2,
        }
    return DictResolver(N, infos(True)), DictResolver(N, infos(False))


FAST, PLAIN = resolvers()
OPS = ["==", "!=", "<", "<=", ">", ">="]
BOOLS = ["f", "not f", "rf", "not rf"] + [
    f"{a} {op} {b}" for op in OPS for a, b in
    [("x", "k"), ("k", "x"), ("rx", "1"), ("x", "g"), ("g", "rx"), ("x", "g + 1"), ("x", "max(x)")]
]
AGGREGATES = ([f"{agg}({e})" for agg in ("count", "any", "all") for e in BOOLS]
              + [f"{agg}({e})" for agg in ("sum", "max", "min") for e in ("x", "rx", "x + 1")])


def states(seed: int) -> list[SimpleNamespace]:
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        out.append(SimpleNamespace(
            x=[rng.randint(-1, 4) for _ in range(N)],
            f=[rng.random() < 0.5 for _ in range(N)],
            rows=[[rng.randint(-1, 4) for _ in range(N)], [rng.random() < 0.5 for _ in range(N)]],
            g=rng.randint(-1, 4),
        ))
    return out


@pytest.mark.parametrize("text", AGGREGATES)
def test_aggregates_agree(text: str) -> None:
    fast = compile_formula(text, FAST, per_player=False)
    plain = compile_formula(text, PLAIN, per_player=False)
    for st in states(len(text)):
        assert fast.fn(st, 0) == plain.fn(st, 0), (text, vars(st))
        assert type(fast.fn(st, 0)) is type(plain.fn(st, 0))


@pytest.mark.parametrize("text", BOOLS + ["x + g", "if f then g else x"])
def test_per_seat_forms_agree(text: str) -> None:
    fast = compile_formula(text, FAST, per_player=True)
    plain = compile_formula(text, PLAIN, per_player=True)
    for st, p in itertools.product(states(7), range(N)):
        assert fast.fn(st, p) == plain.fn(st, p), (text, p, vars(st))


def test_an_aggregate_is_one_call_over_the_list() -> None:
    calls = []

    class Watch(SimpleNamespace):
        def __getattribute__(self, name: str) -> object:
            calls.append(name)
            return super().__getattribute__(name)

    st = Watch(x=[1, 5, 2, 0], f=[True] * N, rows=[[0] * N, [False] * N], g=1)
    assert compile_formula("any(x >= 5)", FAST, per_player=False).fn(st, 0) is True
    assert calls.count("x") == 1  # read once, not once per seat


MIXED = [
    "count(not f and x == k)", "count(f or rx > g)", "any(not rf and x + 1 >= k)", "all(x - g < 3)",
    "sum(x * 2)", "max(x + rx)", "min(0 - x)", "count(x == max(x))", "sum(-x)",
    "count(not (f and rf))", "any(x + g == rx)",
]


@pytest.mark.parametrize("text", MIXED)
def test_combined_forms_agree(text: str) -> None:
    fast = compile_formula(text, FAST, per_player=False)
    plain = compile_formula(text, PLAIN, per_player=False)
    for st in states(len(text) + 100):
        assert fast.fn(st, 0) == plain.fn(st, 0), (text, vars(st))


@pytest.mark.parametrize(("spec", "players"), [("knockout-whist", 5), ("knektpass", 4), ("oh-hell", 4)])
def test_set_for_asked_of_every_seat_at_once_changes_nothing(spec: str, players: int) -> None:
    import spelbok
    from spelbok.engine.flow import SetVars

    fast = spelbok.load(spec, players=players)
    plain = spelbok.load(spec, players=players)
    vectorised = [i for i in plain.program.code if isinstance(i, SetVars) and i.each_vec is not None]
    for ins in vectorised:
        ins.each_vec = None
    if spec == "knockout-whist":
        assert vectorised  # the elimination steps qualify
    for seed in range(15):
        a, b = fast.new_state(seed=seed), plain.new_state(seed=seed)
        rng = random.Random(seed)
        while not a.is_terminal:
            act = rng.choice(a.legal_actions())
            a.apply(act)
            b.apply(act)
        assert b.is_terminal and a.scores == b.scores and a.winners == b.winners
        assert a.out == b.out and a.pv_rows == b.pv_rows


def test_and_or_over_every_seat_go_by_truth_not_bits() -> None:
    # a variable declared bool may be set to a number: 'and' must still mean truth
    st = SimpleNamespace(x=[0] * N, f=[2, 0, 1, 4], rows=[[0] * N, [True, True, False, True]], g=0)
    for text, want in (("count(f and rf)", 2), ("count(rf and f)", 2), ("count(f or rf)", 4),
                       ("any(f and not rf)", True), ("all(f or rf)", True)):
        assert compile_formula(text, FAST, per_player=False).fn(st, 0) == want, text
