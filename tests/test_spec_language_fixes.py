"""The spec-language fixes of issue 30 ("Trust"), each with the case that showed it."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
import spelbok

SPECS = Path(__file__).resolve().parent.parent / "specs"
GAMES = sorted(p.stem for p in SPECS.glob("*.yaml"))


# -- a pickle round trip gives an equal state ------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_state_is_equal_to_the_original(name: str) -> None:
    """Every shipped spec, a few states of a few random playouts: a pickle round trip
    gives an equal state (a double pack's second copy of a card stays that copy)."""
    game = spelbok.load(SPECS / f"{name}.yaml", max_hands=2)
    rng = random.Random(name)
    for seed in range(3):
        st = game.new_state(seed=seed)
        checks = sorted(rng.sample(range(1, 120), 4))
        for i in range(checks[-1] + 1):
            if i in checks or st.is_terminal:
                again = pickle.loads(pickle.dumps(st))
                assert again == st, (name, seed, i)
                assert again.to_dict() == st.to_dict()
                assert again.legal_actions() == st.legal_actions()
            if st.is_terminal:
                break
            st.apply(rng.choice(st.legal_actions()))


# -- state.var reads the built-in names the view shows ------------------------------------


@pytest.mark.parametrize("name", ["whist", "hearts", "pinochle", "bridge"])
def test_var_reads_every_name_every_seat_sees_alike(name: str) -> None:
    """Every key of a view is either the seat's own (observe.OWN) or shown alike to every
    seat (observe.SHARED), and state.var reads the latter as the view shows them."""
    from spelbok.engine.observe import OWN, SHARED

    game = spelbok.load(name)
    st = game.new_state(seed=2)
    rng = random.Random(2)
    for _ in range(12):
        for seat in range(st.n):
            shown = st.view(seat)
            assert set(shown) <= set(SHARED) | set(OWN), set(shown) - set(SHARED) - set(OWN)
            for key in SHARED:
                if key in shown:  # sitting_out: only in a spec with sit_out
                    assert st.var(key) == shown[key], key
                else:
                    with pytest.raises(ValueError):
                        st.var(key)
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    assert not set(SHARED) & set(OWN)


def test_var_reads_the_trump() -> None:
    st = spelbok.load("whist").new_state(seed=1)
    assert st.view(0)["trump"] is not None
    assert st.var("trump") == st.view(0)["trump"]


# -- messages show a bad value, never a memory address --------------------------------------

_BAD = [object(), 10**5000, [[[]]] * 10_000, None, "x" * 5000]


def _calls() -> list[tuple[str, object]]:
    game = spelbok.load("hearts")
    st = game.new_state(seed=1)
    return [
        ("var", st.var), ("seed", lambda x: game.new_state(seed=x)), ("undo", st.undo),
        ("view", st.view), ("apply", st.apply), ("players", lambda x: spelbok.load("hearts", players=x)),
        ("options", lambda x: spelbok.load("hearts", options=x)), ("playouts", game.playouts),
        ("max_hands", lambda x: spelbok.load("hearts", max_hands=x)),
    ]


@pytest.mark.parametrize("bad", _BAD, ids=["object", "huge int", "long list", "None", "long text"])
def test_messages_show_a_bounded_value_never_an_address(bad: object) -> None:
    for what, call in _calls():
        try:
            call(bad)  # type: ignore[operator]
        except spelbok.SpelbokError as e:
            text = str(e)
            assert " at 0x" not in text and "object at" not in text, (what, text)
            assert len(text) < 400, (what, len(text))
        # None may be a default (players, options): accepted


def test_var_of_none_says_none() -> None:
    st = spelbok.load("hearts").new_state(seed=1)
    with pytest.raises(spelbok.SpelbokError, match="declares no variable None$"):
        st.var(None)
    with pytest.raises(spelbok.SpelbokError, match="did you mean 'score'"):
        st.var("scroe")


# -- a duplicate top trump is a located error naming both places ---------------------------

TINY = """spelbok: 1
name: Tiny
players: {min: 4, max: 4}
deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7]}]
ranking:
  top_trumps: TOPS
hand:
  - deal: {size: 8}
  - decide: trump
    who: dealer
    choose: suit
    then: {trump: choice}
  - tricks: {}
end: {when: "true", winners: "true"}
"""


def _errors(text: str, tmp_path: Path, name: str = "g.yaml") -> list[str]:
    from spelbok.validation import validate

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [str(e).replace(str(tmp_path) + "/", "") for e in validate(path)]


@pytest.mark.parametrize(("tops", "first", "again"), [
    ("[JC, JS, J@trump, JC]", "6:16", "6:33"),       # the same card twice
    ("[JC, JS, J@trump, j♣]", "6:16", "6:33"),       # written otherwise
    ("[JC, J@trump, JS, J@trump]", "6:20", "6:33"),  # a relative one twice
])
def test_a_card_listed_twice_among_the_top_trumps_is_an_error(
        tmp_path: Path, tops: str, first: str, again: str) -> None:
    errors = _errors(TINY.replace("TOPS", tops), tmp_path)
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"g.yaml:{again}: the top trump ")
    assert "is listed already as entry " in errors[0] and f"at g.yaml:{first})" in errors[0]


def test_a_declared_pack_s_card_twice_in_another_case_is_an_error(tmp_path: Path) -> None:
    text = (SPECS / "french-tarot.yaml").read_text(encoding="utf-8").replace(
        "top_trumps: [T21, T20,", "top_trumps: [T21, t21, T20,", 1)
    errors = _errors(text, tmp_path, "tarot.yaml")
    assert len(errors) == 1, errors
    assert "the top trump 't21' (T21) is listed already as entry 1 ('T21', at tarot.yaml:" in errors[0]


def test_entries_that_meet_under_one_trump_keep_the_first_place() -> None:
    """Spoil Five's AH and A@trump are the same card when hearts are trumps: allowed (the
    spec validates), and the ace of hearts keeps its first, higher place."""
    from spelbok.cards import card_id

    game = spelbok.load("spoil-five")
    tables = game.program.tables[game.program.pack.suit_index["H"]]
    power = [tables.power[card_id(c)] for c in ("5H", "JH", "AH", "KH", "QH")]
    assert power == sorted(power, reverse=True)
    # the third of six entries: 200 + (6 - 2), not the fourth's 200 + (6 - 3)
    assert tables.power[card_id("AH")] == 204


# -- one rule for case in rank names -------------------------------------------------------

LOWER = """spelbok: 1
name: Lower
players: {min: 4, max: 4}
pack:
  suits: [{letter: e, name: eichel, symbol: E}, {letter: g, name: gras, symbol: G},
          {letter: h, name: herz, symbol: H}, {letter: s, name: schellen, symbol: S}]
  ranks: [7, 8, 9, u, o, k, 10, a]
deck: [{ranks: [a, 10, k, o, u, 9, 8, 7]}]
ranking:
  ranks: [a, 10, k, o, u, 9, 8, 7]
  top_trumps: [oE, o@trump, u@trump]
  free_cards: [7s]
points:
  ranks: {a: 11, o: 3}
  cards: {kh: 2}
variables:
  player: {score: 0}
hand:
  - deal: {size: 8}
  - decide: trump
    who: dealer
    choose: suit
    then: {trump: choice}
  - tricks:
      allow: "not (card_rank == 'O' and holds('a@trump'))"
  - set: {score: "score + card_points"}
    for: "true"
end: {when: "true", winners: "true", score: score}
"""


def test_rank_names_are_case_insensitive_in_every_field(tmp_path: Path) -> None:
    """A lower-case pack's ranks are its ranks everywhere: in the deck, the ranking, the top
    trumps (``o@trump`` too), points, card names and patterns; upper case is canonical."""
    assert _errors(LOWER, tmp_path) == []
    game = spelbok.load(LOWER)
    assert game.program.pack.ranks == ("7", "8", "9", "U", "O", "K", "10", "A")
    assert game.tree["ranking"]["top_trumps"][1:] == ["O@trump", "U@trump"]
    st = game.new_state(seed=1)
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    assert sum(st.var("score")) == 4 * (11 + 3) + 2


def test_a_formula_compares_the_canonical_spelling(tmp_path: Path) -> None:
    """A formula's text values are canonical (upper case): 'o' is refused where it can
    never match, with a hint naming 'O'."""
    errors = _errors(LOWER.replace("card_rank == 'O'", "card_rank == 'o'"), tmp_path)
    assert len(errors) == 1 and "'card_rank' is never 'o'" in errors[0]
    assert "did you mean 'O'?" in errors[0]


# -- repeated identical errors reported once with a count -----------------------------------


def test_one_misspelt_name_in_many_formulas_is_one_error_with_its_places(tmp_path: Path) -> None:
    import re

    text = (SPECS / "skat.yaml").read_text(encoding="utf-8")
    errors = _errors(re.sub(r"\bgame\b", "Game", text), tmp_path, "skat.yaml")
    assert len(errors) == 1, errors
    assert "unexpected 'G' in 'Game'" in errors[0]
    assert re.search(r"; the same at \d+ more places: \d+:\d+, ", errors[0])
    with pytest.raises(spelbok.SpecError) as info:
        spelbok.load(tmp_path / "skat.yaml")
    assert str(info.value).count("unexpected 'G'") == 1


# -- holds('A@H'): the suit a card plays as -------------------------------------------------

HOLDS = """spelbok: 1
name: Holds
players: {min: 4, max: 4}
deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7]}]
ranking:
  top_trumps: [J@trump, J@trump_colour, AS]
  top_trumps_follow: FOLLOW
variables:
  player: {jh: false, jd: false, jd_card: false, as_s: false, as_card: false}
hand:
  - deal: {size: 8}
  - set: {trump: "'H'"}
  - set: {jh: "holds('J@H')", jd: "holds('J@D')", jd_card: "holds('JD')",
          as_s: "holds('A@S')", as_card: "holds('AS')"}
    for: "true"
  - tricks: {}
end: {when: "true", winners: "true"}
"""


@pytest.mark.parametrize("follow", ["trump", "printed"])
def test_holds_a_pattern_reads_the_suit_a_card_plays_as(follow: str) -> None:
    """``holds('J@H')`` matches the cards of rank J whose suit in play (effective suit) is
    hearts; ``holds('JD')`` names the printed card. With hearts trumps the jack of diamonds
    (a top trump) plays as a heart, unless top trumps follow their printed suit."""
    from spelbok.cards import card_id

    game = spelbok.load(HOLDS.replace("FOLLOW", follow))
    jh, jd, as_ = (1 << card_id("JH")), (1 << card_id("JD")), (1 << card_id("AS"))
    for seed in range(12):
        st = game.new_state(seed=seed)
        hands = st.hands
        assert st.var("jd_card") == [bool(h & jd) for h in hands]  # printed, always
        assert st.var("as_card") == [bool(h & as_) for h in hands]
        if follow == "trump":  # JD and AS play as hearts (trumps)
            assert st.var("jh") == [bool(h & (jh | jd)) for h in hands]
            assert st.var("jd") == [False] * 4
            assert st.var("as_s") == [False] * 4
        else:  # each follows its printed suit
            assert st.var("jh") == [bool(h & jh) for h in hands]
            assert st.var("jd") == [bool(h & jd) for h in hands]
            assert st.var("as_s") == [bool(h & as_) for h in hands]


# -- no false warning for `hand` inside a quantifier ----------------------------------------

QUANTIFIED = """spelbok: 1
name: Tiny
players: {min: 4, max: 4}
deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7]}]
hand:
  - deal: {size: 8}
  - tricks:
      head: "RULE"
end: {when: "true", winners: "true"}
"""


@pytest.mark.parametrize("rule", ["any(count(hand) > 6)", "all(holds('AH') or count(hand) < 9)",
                                  "count(played) > 0 and any(count(tricks_won) > 0)"])
def test_a_trick_rule_may_read_hands_inside_a_quantifier(tmp_path: Path, rule: str) -> None:
    """Worked out as each trick starts, a rule reads each seat's hand as it is then (full):
    no warning that it holds no card, so --strict passes; and it plays."""
    from spelbok.validation import diagnose

    path = tmp_path / "g.yaml"
    path.write_text(QUANTIFIED.replace("RULE", rule), encoding="utf-8")
    assert diagnose(path) == ([], [])
    game = spelbok.load(path)
    for seed in range(3):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))


def test_a_trick_rule_on_the_trick_s_own_cards_is_still_warned(tmp_path: Path) -> None:
    from spelbok.validation import diagnose

    path = tmp_path / "g.yaml"
    path.write_text(QUANTIFIED.replace("RULE", "count(trick) > 0"), encoding="utf-8")
    errors, warnings = diagnose(path)
    assert errors == [] and len(warnings) == 1
    assert "so 'trick' holds no card then" in str(warnings[0])


# -- in tricks.after_each, the trick's names read the trick just finished -------------------

AFTER = """spelbok: 1
name: After
players: {min: 4, max: 4}
deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7]}]
variables:
  hand: {led_r: none, led_s: none, won_r: none, won_s: none, in_trick: 0, in_later: 0}
hand:
  - deal: {size: 8}
  - set: {trump: "'H'"}
  - tricks:
      after_each:
        - set: {led_r: rank_of(led_card), led_s: suit_of(led_card), in_trick: count(trick)}
        - if: "true"
          then:
            - set: {won_r: rank_of(winning_card), won_s: suit_of(winning_card)}
  - set: {in_later: count(trick)}
end: {when: "true", winners: "true"}
"""


def test_after_each_reads_the_trick_just_finished() -> None:
    """``led_card``, ``winning_card`` and ``trick`` are readable anywhere (the reference):
    in after_each, nested steps too, they are the trick just finished; after the tricks
    step, no trick is being played (no card)."""
    game = spelbok.load(AFTER)
    names = game.program.pack.names
    for seed in range(4):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        seen = 0
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
            if len(st.history_tricks) > seen and not st.is_terminal:
                seen = len(st.history_tricks)
                _lead, pairs, winner = st.history_tricks[-1]
                assert st.var("led_r") + st.var("led_s") == names[pairs[0][1]]
                assert st.var("won_r") + st.var("won_s") == names[dict(pairs)[winner]]
                assert st.var("in_trick") == 4
        assert seen == 7  # the eighth ends the hand and the match
        assert st.var("in_later") == 0


# -- trump can be set back to none ---------------------------------------------------------

TRUMP_NONE = """spelbok: 1
name: No trump again
players: {min: 4, max: 4}
deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7]}]
variables:
  hand: {t: none}
hand:
  - deal: {size: 8}
  - set: {trump: "'H'"}
  - set: {trump: VALUE}
  - set: {t: trump}
  - tricks: {}
end: {when: "true", winners: "true"}
"""
Q_NONE = "\"'none'\""
Q_IF = "\"if seats > 9 then 'H' else 'none'\""
Q_X = "\"'x'\""


@pytest.mark.parametrize("value", ["none", Q_NONE, Q_IF])
def test_trump_can_be_set_back_to_none(tmp_path: Path, value: str) -> None:
    text = TRUMP_NONE.replace("VALUE", value)
    assert _errors(text, tmp_path) == []
    st = spelbok.load(text).new_state(seed=1)
    assert st.var("t") == "none" and st.var("trump") is None and st.view(0)["trump"] is None
    # and back in the DSL
    from spelbok.lang.dslwrite import to_dsl
    from spelbok.lang.loader import read_spec

    dsl = tmp_path / "g.spel"
    dsl.write_text(to_dsl(read_spec("g.yaml", text=text).tree), encoding="utf-8")
    again = spelbok.load(dsl).new_state(seed=1)
    assert again.var("t") == "none"


@pytest.mark.parametrize(("value", "said"), [(Q_X, "not 'x'"), ("false", "not a condition"),
                                             ("3", "not a number")])
def test_trump_set_to_what_is_no_suit_is_a_located_error(
        tmp_path: Path, value: str, said: str) -> None:
    errors = _errors(TRUMP_NONE.replace("VALUE", value), tmp_path)
    assert len(errors) == 1 and errors[0].startswith("g.yaml:10:18: trump is set to a suit letter")
    assert said in errors[0]


# -- the deck count: a turned-up card returned to the stock is no new card ------------------

RETURNED = """spelbok: 1
name: Returned
players: {min: 4, max: 4}
deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]}]
hand:
  - turn_up: {trump: true}
STEPS
  - deal: {size: 13}
  - tricks: {}
end: {when: "true", winners: "true"}
"""


@pytest.mark.parametrize("steps", [
    "  - move: {from: turn_up, to: stock}",
    "  - move: {from: turn_up, to: stock, count: 1, position: top}",
    "  - turn_up: {trump: false}\n  - move: {from: turn_up, to: stock, count: 2}",
])
def test_a_turned_up_card_moved_back_to_the_stock_is_not_counted_again(
        tmp_path: Path, steps: str) -> None:
    """The reference: the turned-up card returned to the stock is not a new card, the same
    as when the turn-up is written as a move; every hand is then dealt in full."""
    from spelbok.lang.deck_size import hand_cards
    from spelbok.lang.loader import read_spec

    text = RETURNED.replace("STEPS", steps)
    assert _errors(text, tmp_path) == []
    assert hand_cards(read_spec("g.yaml", text=text).tree, 4) == (13, 0, 0)
    st = spelbok.load(text).new_state(seed=3)
    assert [h.bit_count() for h in st.hands] == [13] * 4
    # the same effect written as moves was accepted already
    moved = text.replace("  - turn_up: {trump: true}", "  - move: {from: stock, to: turn_up, count: 1}")
    assert _errors(moved, tmp_path) == []


@pytest.mark.parametrize("steps", [
    "  - move: {from: turn_up, to: discards}",                                 # not to the stock
    "  - turn_up: {trump: false}\n  - move: {from: turn_up, to: stock, count: 1}",  # one of two
    "  - move: {from: turn_up, to: stock}\n  - turn_up: {trump: false}",       # turned up again
])
def test_a_turn_up_still_out_of_the_stock_counts(tmp_path: Path, steps: str) -> None:
    errors = _errors(RETURNED.replace("STEPS", steps), tmp_path)
    assert len(errors) == 1 and "4 players × 13 cards + 1 turn-up = 53 cards" in errors[0]
