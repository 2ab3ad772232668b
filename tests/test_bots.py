"""Bots: legal choices for every decision kind of every shipped spec, choices that
depend only on the observation, make_bot names and errors, the greedy rules of thumb."""

from __future__ import annotations

import doctest
import importlib
import random
from collections import Counter
from functools import cache

import pytest
import spelbok
from spelbok.engine.actions import CARD, CARDS, SUIT, WORD, Action
from spelbok.engine.game import Game
from spelbok.engine.observe import observe
from spelbok.engine.state import State
from spelbok.errors import SpelbokError
from spelbok.lang.loader import shipped_spec_names
from spelbok.play.bots import BOT_NAMES, GreedyBot, ISMCTSBot, RandomBot, make_bot, parse_bots
from spelbok.play.bots.heuristics import decision_kind
from spelbok.play.bots.profile import game_profile, hand_rewards
from spelbok.play.match import play_match

from tests.budget import scaled

BOTS = ["random", "greedy", "ismcts:12"]


@cache
def spec_names() -> list[str]:
    return sorted({n for n in shipped_spec_names() if not n.startswith("readings/")})


@cache
def load(name: str, players: int, max_hands: int | None = None) -> Game:
    return spelbok.load(name, players=players, max_hands=max_hands)


def kind_label(legal: list[Action]) -> str:
    kind = decision_kind(legal)
    if kind == CARD:
        return "knock" if any(a.kind == WORD for a in legal) else "card"
    return {CARDS: "exchange", SUIT: "suit", WORD: "word"}[kind]


# -- legality -------------------------------------------------------------------------


def test_shipped_specs_are_found() -> None:
    names = spec_names()
    assert "knektpass" in names and "knockout-whist" in names


@pytest.mark.parametrize("name", spec_names())
def test_bots_choose_legal_actions_for_every_decision(name: str) -> None:
    seen: Counter[str] = Counter()
    rng = random.Random(11)
    doc_players = spelbok.load(name).tree["players"]
    for players in sorted({doc_players["min"], max(doc_players["min"], min(doc_players["max"], 4))}):
        game = load(name, players, max_hands=4)
        # each bot is asked about 4 decisions of each kind, fewer of a large pack (a
        # rollout plays a long hand out: tests/budget.py), at least one of each kind
        asks = scaled(game, 4)
        for m in range(2):
            st = game.new_state(seed=100 + m)
            bots = [make_bot(b, seed=m) for b in BOTS]
            while not st.is_terminal:
                legal = st.legal_actions()
                assert legal, "a running match always has a legal action"
                label = kind_label(legal)
                if seen[label] < asks and len(legal) > 1:
                    seen[label] += 1
                    obs = observe(st)
                    for bot in bots:
                        choice = bot.choose(obs)
                        assert choice in legal, (bot.name, str(choice), [str(a) for a in legal])
                st.apply(rng.choice(legal))
    assert seen["card"] > 0
    SEEN[name] = set(seen)


SEEN: dict[str, set[str]] = {}


def test_every_decision_kind_was_put_to_the_bots() -> None:
    if not {"knektpass", "knockout-whist"} <= set(SEEN):
        pytest.skip("run together with the per-spec tests")
    assert {"word", "exchange", "card"} <= SEEN["knektpass"]
    assert {"suit", "card"} <= SEEN["knockout-whist"]


def test_bots_handle_the_dogs_knock() -> None:
    game = load("knockout-whist", 4)
    rng = random.Random(3)
    asked = 0
    for seed in range(200):
        st = game.new_state(seed=seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            if kind_label(legal) == "knock":
                obs = observe(st)
                for b in BOTS:
                    assert make_bot(b, seed=seed).choose(obs) in legal
                asked += 1
            st.apply(rng.choice(legal))
        if asked >= 5:
            break
    assert asked >= 5


@pytest.mark.parametrize(("name", "players"), [("knektpass", 2), ("knektpass", 4),
                                               ("knockout-whist", 3)])
def test_whole_matches_between_all_bots(name: str, players: int) -> None:
    game = load(name, players, max_hands=5)
    bots = [make_bot(BOTS[i % 3], seed=i) for i in range(players)]
    final = play_match(game, bots, seed=9, record=True)
    assert final.is_terminal and final.log[-1]["event"] == "match_end"


def test_play_match_names_a_bot_that_cheats() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, obs: object) -> Action:
            return Action(WORD, "nonsense")

    game = load("knektpass", 2)
    with pytest.raises(spelbok.IllegalActionError, match="cheat"):
        play_match(game, [Cheat(), Cheat()], seed=1)
    with pytest.raises(SpelbokError, match="needs 2 bots"):
        play_match(game, [Cheat()], seed=1)


# -- hidden information -----------------------------------------------------------------


def twins(game: Game, seat: int, seed: int, dealer: int) -> tuple[State, State]:
    """Two matches whose first deals differ only in cards hidden from ``seat``."""
    deck = game.deck
    random.Random(seed).shuffle(deck)
    a = game.new_state(seed=seed, deck=deck, dealer=dealer)
    v = a.view(seat)
    visible = set(v["hand"]) | set(v["turn_up"])
    hidden = [c for c in deck if c not in visible]
    perm = hidden[:]
    random.Random(seed + 1).shuffle(perm)
    mapping = dict(zip(hidden, perm, strict=True))
    b = game.new_state(seed=seed, deck=[mapping.get(c, c) for c in deck], dealer=dealer)
    assert a.view(seat) == b.view(seat)
    assert a.hands != b.hands
    return a, b


def same_choices(a: State, b: State, seat: int) -> str:
    oa, ob = observe(a, seat), observe(b, seat)
    assert oa.view == ob.view
    kind = kind_label(oa.legal)
    for name in BOT_NAMES + ["ismcts:40"]:
        ca = make_bot(name, seed=5).choose(oa)
        cb = make_bot(name, seed=5).choose(ob)
        assert ca == cb, (name, kind, str(ca), str(cb))
    return kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_choices_depend_only_on_the_observation_knektpass(seed: int) -> None:
    game = load("knektpass", 2)
    a, b = twins(game, seat=1, seed=seed, dealer=0)
    kinds = []
    for _ in range(40):
        seat = a.current_player
        assert seat == b.current_player
        if seat == 1:
            kinds.append(same_choices(a, b, 1))
            legal = a.legal_actions()
            if kind_label(legal) == "card":
                break
            keep = next(x for x in legal if x.kind == WORD)  # 'play', or keep every card
            a.apply(keep)
            b.apply(keep)
        else:  # the dealer keeps its cards and plays: legal in both worlds
            act = a.legal_actions()[0]
            assert act.kind == WORD
            a.apply(act)
            b.apply(act)
    assert {"word", "exchange", "card"} <= set(kinds)


def test_choices_depend_only_on_the_observation_knockout_whist() -> None:
    game = load("knockout-whist", 4)
    a, b = twins(game, seat=1, seed=4, dealer=0)
    assert a.current_player == 1
    assert same_choices(a, b, 1) == "card"


def test_same_seed_same_choice_and_the_state_is_untouched() -> None:
    game = load("knektpass", 3)
    st = game.new_state(seed=8)
    before = st.to_dict()
    obs = observe(st)
    for name in BOTS:
        assert make_bot(name, 3).choose(obs) == make_bot(name, 3).choose(obs)
    assert st.to_dict() == before


# -- names ----------------------------------------------------------------------------------


def test_make_bot_names() -> None:
    assert BOT_NAMES == ["random", "greedy", "ismcts"]
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot(" Greedy "), GreedyBot)
    bot = make_bot("ismcts:500", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 500 and bot.name == "ismcts:500"
    assert make_bot("ismcts").name == "ismcts"
    assert parse_bots("random,greedy, ismcts:7") == ["random", "greedy", "ismcts:7"]


@pytest.mark.parametrize(("text", "message"), [
    ("gredy", "did you mean 'greedy'"),
    ("ismtcs", "did you mean 'ismcts'"),
    ("alphazero", "choose one of random, greedy, ismcts"),
    ("ismcts:0", "positive number of iterations"),
    ("ismcts:lots", "positive number of iterations"),
    ("ismcts:²", "positive number of iterations"),  # isdigit() but not int(): a traceback once
    ("ismcts:-5", "positive number of iterations"),
    ("ismcts:99999999999", "at most 1000000"),
    ("random:3", "takes no ':' parameter"),
])
def test_make_bot_errors(text: str, message: str) -> None:
    with pytest.raises(SpelbokError, match=message):
        make_bot(text)


def test_parse_bots_needs_a_name() -> None:
    with pytest.raises(SpelbokError):
        parse_bots(" , ")


# -- rules of thumb and rewards ---------------------------------------------------------------


def test_profiles_read_the_rules() -> None:
    k = game_profile(load("knektpass", 3))
    assert (k.direction, k.trick_sign) == (-1, 1)  # lower scores win; tricks help
    kw = game_profile(load("knockout-whist", 4))
    assert (kw.direction, kw.trick_sign) == (1, 1)
    misere = game_profile(load("variants/knockout-whist-misere", 4))
    assert misere.trick_sign == -1  # taking tricks knocks you out


def test_hand_rewards_are_relative_and_bounded() -> None:
    game = load("knektpass", 2)
    prof = game_profile(game)
    st = game.new_state(position={"trump": "H", "leader": 0,
                                  "hands": {0: "AH", 1: "7H"}})
    before = st.scores
    won = st.won
    st.apply("AH")
    st.apply("7H")
    r = hand_rewards(prof, before, [False, False], st, won)
    assert 0.0 <= r[1] < 0.5 < r[0] <= 1.0


def first_card(game: Game, position: dict[str, object], bot: str = "greedy") -> str:
    st = game.new_state(seed=1, position=position)
    return str(make_bot(bot, seed=1).choose(observe(st)))


def test_greedy_wins_cheaply_when_last_to_play() -> None:
    game = load("knektpass", 2)
    pos = {"trump": "H", "leader": 0, "hands": {0: "6C 7C", 1: "KS AS 8D"},
           "trick": ["9S"]}
    assert first_card(game, pos) == "KS"


def test_greedy_sheds_its_lowest_card_when_it_cannot_win() -> None:
    game = load("knektpass", 2)
    pos = {"trump": "H", "leader": 0, "hands": {0: "6C 7C", 1: "KD 7D QC"},
           "trick": ["AS"]}
    assert first_card(game, pos) == "7D"


def test_greedy_leads_a_top_card_it_holds() -> None:
    game = load("knektpass", 2)
    pos = {"trump": "H", "leader": 1, "hands": {0: "6C 7C 8C", 1: "JC 7D 8S"}}
    assert first_card(game, pos) == "JC"


def test_greedy_names_its_strongest_suit() -> None:
    game = load("knockout-whist", 3)
    st = game.new_state(seed=2)
    rng = random.Random(2)
    while not st.is_terminal:
        legal = st.legal_actions()
        if kind_label(legal) == "suit":
            obs = observe(st)
            hand = obs.view["hand"]
            counts = Counter(c[-1] for c in hand)
            choice = make_bot("greedy").choose(obs)
            assert counts[str(choice)[-1]] == max(counts.values())
            return
        st.apply(rng.choice(legal))
    pytest.skip("no trump choice in this match")


def test_doctests() -> None:
    for mod in ("spelbok.play.bots", "spelbok.play.bots.greedy", "spelbok.play.bots.ismcts",
                "spelbok.play.bots.profile", "spelbok.play.bots.rollout", "spelbok.play.bots.heuristics",
                "spelbok.play.bots.budget", "spelbok.play.match"):
        result = doctest.testmod(importlib.import_module(mod), optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, mod


# -- cost: a decision's work is bounded --------------------------------------------------


def test_the_rules_of_thumb_never_list_a_large_exchange() -> None:
    # an ecart of 6 of 24 cards offers 134 596 sets: deciding must not build them all
    from spelbok.engine.subsets import SubsetActions
    from spelbok.play.bots.heuristics import exchange_candidates, exchange_pick

    game = load("french-tarot", 3)
    tables = game.program.tables[0]
    hand = sum(1 << c for c in range(24))
    legal = SubsetActions("discard", hand, 6, 6)
    assert decision_kind(legal) == CARDS
    cands = exchange_candidates(hand, legal, tables, True, limit=0)
    pick = exchange_pick(hand, legal, tables, True, None)
    assert not legal.built
    assert len(cands) == 1 and cands[0].value.bit_count() == 6 and legal.allows(cands[0])
    assert pick.value.bit_count() == 6 and legal.allows(pick)


def _rollouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from spelbok.play.bots import rollout

    played: list[int] = []
    real = rollout.play_out_hand

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rollout, "play_out_hand", counting)
    return played


def test_greedy_plays_out_a_long_auction_in_bounded_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # 64 bids (pass, bid 18 .. bid 264): 12 rollouts of each were 768 hands for one
    # bid, and a three-player auction stalled simulate for minutes
    from spelbok.play.bots.greedy import MAX_OPTIONS, MAX_ROLLOUTS

    played = _rollouts(monkeypatch)
    st = load("skat", 3).new_state(seed=1)
    obs = observe(st)
    assert len(obs.legal) == 64
    choice = GreedyBot(seed=1, bot_time=None).choose(obs)
    assert choice in obs.legal
    assert 0 < len(played) <= MAX_ROLLOUTS and MAX_OPTIONS * 4 <= MAX_ROLLOUTS


def test_a_decision_stops_at_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # a clock that moves one second each time it is read: with half a second, the
    # search stops after its first round (greedy) or iteration (ismcts), and says so
    from spelbok.play.bots import budget, ismcts

    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(budget.time, "monotonic", clock)
    monkeypatch.setattr(ismcts.time, "monotonic", clock)
    played = _rollouts(monkeypatch)
    st = load("knektpass", 2).new_state(seed=7)
    while [a.kind for a in st.legal_actions()] != [WORD, WORD]:  # up to play / pass
        st.apply(st.legal_actions()[0])
    obs = observe(st)
    greedy = make_bot("greedy", seed=1, bot_time=0.5)
    assert greedy.choose(obs) in obs.legal
    assert len(played) == 2 and greedy.budget.cuts == 1  # type: ignore[attr-defined]
    search = make_bot("ismcts:50", seed=1, bot_time=0.5)
    assert search.choose(obs) in obs.legal and search.budget.cuts == 1  # type: ignore[attr-defined]
    # without a budget, the whole search: 12 worlds of each option, no cut
    played.clear()
    free = make_bot("greedy", seed=1, bot_time=None)
    assert free.choose(obs) in obs.legal
    assert len(played) == 24 and free.budget.cuts == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), 1e9, True, "1"])
def test_make_bot_refuses_a_bad_time(value: object) -> None:
    with pytest.raises(SpelbokError, match="a bot's time is more than 0"):
        make_bot("greedy", bot_time=value)  # type: ignore[arg-type]
