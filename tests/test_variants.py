"""Every variant in specs/variants/: it loads, differs from its base exactly where
intended (comparing canonical models), and passes the conformance check at every
allowed player count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.lang.loader import read_spec
from spelbok.validation import validate

from tests.budget import scaled
from tests.spec_cases import players

SPECS = Path(__file__).resolve().parent.parent / "specs"
VARIANTS = SPECS / "variants"
KNEKTPASS = SPECS / "knektpass.yaml"
KNOCKOUT = SPECS / "knockout-whist.yaml"
TWENTY_EIGHT = SPECS / "twenty-eight.yaml"
PREFERANS = SPECS / "preferans.yaml"
TRESSETTE = SPECS / "tressette.yaml"
ECARTE = SPECS / "ecarte.yaml"
COINCHE = SPECS / "coinche.yaml"
MIGHTY = SPECS / "mighty.yaml"
TRACTOR = SPECS / "tractor.yaml"
SUECA = SPECS / "sueca.yaml"
ROOK = SPECS / "rook.yaml"

Path_ = tuple[Any, ...]
NAME = {("name",), ("about",)}


def opt(name: str) -> set[Path_]:
    return NAME | {("options", name, "default")}


#: variant file -> (base spec, the canonical paths where it differs from the base)
EXPECTED: dict[str, tuple[Path, set[Path_]]] = {
    "knektpass-jacks-printed.yaml": (KNEKTPASS, opt("jack_suit")),
    "knektpass-void-any.yaml": (KNEKTPASS, opt("void_rule")),
    "knektpass-void-trump.yaml": (KNEKTPASS, opt("void_rule")),
    "knektpass-head-after-trump.yaml": (KNEKTPASS, opt("head_after_trump")),
    "knektpass-swap-counts.yaml": (KNEKTPASS, opt("swap_counts")),
    "knektpass-redeal-next.yaml": (KNEKTPASS, opt("redeal_dealer")),
    "knektpass-floor-zero.yaml": (KNEKTPASS, opt("floor_zero")),
    "knektpass-void-overtrump.yaml": (KNEKTPASS, opt("void_rule")),
    "knektpass-zero-lowest.yaml": (KNEKTPASS, opt("zero_tie")),
    "knektpass-short-deducts.yaml": (KNEKTPASS, opt("short_deducts")),
    "knektpass-no-trick-penalty.yaml": (KNEKTPASS, opt("no_trick_penalty")),
    "knockout-whist-chooser-leads.yaml": (KNOCKOUT, opt("hand_leader")),
    "knockout-whist-sweep-gives-dog-life.yaml": (KNOCKOUT, opt("clean_sweep")),
    "knockout-whist-dog-follows-suit.yaml": (KNOCKOUT, opt("dog_knock_with_suit")),
    "knockout-whist-dog-leads.yaml": (KNOCKOUT, opt("dog_knock_on_lead")),
    "knockout-whist-dog-tie-all.yaml": (KNOCKOUT, opt("dog_tie")),
    "knockout-whist-dog-tie-none.yaml": (KNOCKOUT, opt("dog_tie")),
    "knockout-whist-trumps-broken.yaml": (KNOCKOUT, opt("lead_trumps") | {
        ("options", "trumps_broken_by"), ("hand", 3, "tricks", "trumps_broken_by")}),
    "knockout-whist-no-trumps-first-trick.yaml": (KNOCKOUT, opt("first_trick_trumps")),
    "knockout-whist-no-dog.yaml": (KNOCKOUT, NAME | {("variables", "match", "dog_lives")}),
    "knockout-whist-out-players-deal.yaml": (
        KNOCKOUT, NAME | {("dealer", "skip_out"), ("dealer", "source")}),
    "twenty-eight-pass-final.yaml": (TWENTY_EIGHT, opt("bidding")),
    "preferans-allpass-zero-pool.yaml": (PREFERANS, opt("allpass_zero")),
    "tressette-napoletana-coda.yaml": (TRESSETTE, NAME | {
        ("melds", m) for m in ("coda_re", "coda_cavallo", "coda_fante", "coda_7", "coda_6",
                               "coda_5", "coda_4")}),
    "tressette-collatondrione.yaml": (TRESSETTE, NAME | {("melds", "collatondrione")}),
    "ecarte-single-discard.yaml": (ECARTE, opt("proposals")),
    "ecarte-seven-points.yaml": (ECARTE, opt("game_points")),
    "coinche-no-announcements.yaml": (COINCHE, opt("announcements")),
    "mighty-misdeal.yaml": (MIGHTY, opt("misdeal")),
    "tractor-kitty-by-lead.yaml": (TRACTOR, opt("kitty_multiplier")),
    "tractor-defend-ace.yaml": (TRACTOR, opt("defend")),
    "sueca-first-card.yaml": (SUECA, opt("trump_card")),
    "rook-low-bird.yaml": (ROOK, opt("rook_rank")),
    "knockout-whist-misere.yaml": (KNOCKOUT, NAME | {
        ("options", "clean_sweep"),
        ("variables", "hand", "sweep"), ("variables", "hand", "blanks"),
        ("variables", "hand", "fewest"), ("variables", "hand", "losers"),
        ("hand",), ("end", "when"), ("end", "source"),
    }),
}

FILES = sorted(p.name for p in VARIANTS.glob("*.yaml"))


def diff_paths(a: Any, b: Any, path: Path_ = ()) -> set[Path_]:
    """The paths where two canonical trees differ (lists of unequal length as a whole)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: set[Path_] = set()
        for k in {*a, *b}:
            if k not in a or k not in b:
                out.add((*path, k))
            else:
                out |= diff_paths(a[k], b[k], (*path, k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = set()
        for i, (x, y) in enumerate(zip(a, b)):
            out |= diff_paths(x, y, (*path, i))
        return out
    return set() if a == b else {path}


def test_every_variant_file_is_listed_here() -> None:
    assert set(FILES) == set(EXPECTED)


@pytest.mark.parametrize("name", FILES)
def test_variant_is_valid_and_differs_only_where_intended(name: str) -> None:
    path = VARIANTS / name
    assert validate(path) == []
    doc = read_spec(path)
    base_file, expected = EXPECTED[name]
    base = read_spec(base_file).tree
    assert doc.parents[0].endswith(base_file.name)
    assert diff_paths(doc.tree, base) == expected
    # a new name and its own about text
    assert doc.tree["name"] != base["name"] and doc.tree["name"].startswith(base["name"])
    assert len(doc.tree["about"]) > 80
    # an overridden option keeps its values, about and source from the base
    for key, option in doc.tree["options"].items():
        if key in base["options"]:
            b = base["options"][key]
            assert option["values"] == b["values"]
            assert option["about"] == b["about"] and option["source"] == b["source"]
            assert option["default"] in option["values"]


def test_misere_keeps_the_base_deal_trumps_and_tricks() -> None:
    variant = read_spec(VARIANTS / "knockout-whist-misere.yaml").tree["hand"]
    base = read_spec(KNOCKOUT).tree["hand"]
    assert variant[:4] == base[:4]
    assert [next(iter(s)) for s in variant[4:]] == ["set"] * 5


def test_option_overrides_equal_loading_the_base_with_options() -> None:
    variant = spelbok.load(VARIANTS / "knektpass-void-any.yaml", players=3)
    assert variant.options["void_rule"] == "any"
    base = spelbok.load(KNEKTPASS, players=3, options={"void_rule": "any"})
    assert variant.options == base.options
    a = variant.new_state(seed=11)
    b = base.new_state(seed=11)
    while not a.is_terminal:
        assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
        act = a.legal_actions()[-1]
        a.apply(act)
        b.apply(str(act))
    assert a.scores == b.scores


def cases() -> list[tuple[str, int]]:
    out = []
    for name in FILES:
        lo, hi = players(VARIANTS / name)
        out += [(name, n) for n in range(lo, hi + 1)]
    return out


@pytest.mark.parametrize("name, players", cases())
def test_variant_conformance(name: str, players: int) -> None:
    # Knektpass matches are longer, and a large pack's hands too (Tractor's 108 cards):
    # fewer of them keep this file quick, about as many cards played as 30 matches of 36
    # (tests/budget.py)
    game = spelbok.load(VARIANTS / name, players=players, max_hands=15)
    matches = 8 if name.startswith("knektpass") else max(6, scaled(game, 30))
    rep = check_game(game, matches=matches, seed=1)
    assert rep.ok, rep.failures
