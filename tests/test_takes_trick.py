"""``tricks.takes_trick``: a card that takes the trick outright, whatever else is played
(the first card of a complete trick meeting the condition, read for its player)."""

from __future__ import annotations

import random

import pytest
import spelbok
from spelbok.errors import SpecError

from tests.minispec import mini

# any seven takes the trick; a player's last card counts too
SEVENS = mini("""  - deal: {size: 5}
  - tricks:
      takes_trick: "card_rank == '7'"
""")


def _tricks(seed: int, spec: str = SEVENS) -> list[dict]:
    game = spelbok.load(spec, players=3)
    st = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal and st.hand_number == 1:
        st.apply(rng.choice(st.legal_actions()))
    return [e for e in st.log if e.get("event") == "trick"]


def test_a_card_meeting_the_condition_takes_the_trick() -> None:
    seen = 0
    for seed in range(30):
        for e in _tricks(seed):
            sevens = [p for p, c in e["cards"] if c.startswith("7")]
            if sevens:
                assert e["winner"] == sevens[0], e
                seen += 1
    assert seen >= 5


def test_without_it_the_highest_card_wins() -> None:
    plain = SEVENS.replace("  - tricks:\n      takes_trick: \"card_rank == '7'\"\n",
                           "  - tricks: {}\n")
    lost = 0
    for seed in range(30):
        for e in _tricks(seed, plain):
            sevens = [p for p, c in e["cards"] if c.startswith("7")]
            if sevens and e["winner"] != sevens[0]:
                lost += 1
    assert lost >= 5


def test_takes_trick_must_be_a_condition_located() -> None:
    bad = SEVENS.replace("card_rank == '7'", "count(hand)")
    with pytest.raises(SpecError) as e:
        spelbok.load(bad, players=3)
    assert e.value.line is not None


def test_dsl_and_describe() -> None:
    from spelbok.lang.describe import describe
    from spelbok.lang.loader import read_spec

    model = read_spec(SEVENS)
    text = " ".join(describe(model).split())
    assert "takes the trick, whatever else is played" in text
    from spelbok.lang.dslwrite import to_dsl

    dsl = to_dsl(model.tree)
    assert "a card takes the trick if card_rank == '7'" in dsl


def test_dsl_reads_it_back() -> None:
    from spelbok.lang.dsl import parse_dsl
    from spelbok.lang.dslwrite import to_dsl
    from spelbok.lang.loader import read_spec

    tree, _ = parse_dsl(to_dsl(read_spec(SEVENS).tree), "<dsl>")
    tricks = next(s["tricks"] for s in tree["hand"] if "tricks" in s)
    assert tricks["takes_trick"] == "card_rank == '7'"


def test_the_terminal_and_the_browser_show_a_slam_announced() -> None:
    pytest.importorskip("jinja2")
    from spelbok.web.tableview import log_lines, table

    st = spelbok.load("french-tarot", players=4).new_state(seed=2)
    rng = random.Random(2)
    while st.decision_name != "slam":
        legal = st.legal_actions()
        bids = [a for a in legal if str(a) == "garde_sans"]
        st.apply(bids[0] if bids else rng.choice(legal))
    taker = st.current
    st.apply("slam")
    assert st.current == taker  # the announcer leads the first trick
    names = ["North", "West", "South", "East"]
    other = (taker + 1) % 4
    assert any("slam" in line and names[taker] in line for line in log_lines(st, other, names))
    t = table(st, other, names, to_act=False, log_viewer=other)
    assert t["current_player"] == taker
