"""Every shipped spec and variant as a PettingZoo environment (needs the `rl` extra)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
import spelbok  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from spelbok.errors import IllegalActionError, SpelbokError  # noqa: E402
from spelbok.rl.encoding import Encoding, Match, uncovered  # noqa: E402
from spelbok.rl.pettingzoo import env  # noqa: E402

from tests.minispec import mini  # noqa: E402
from tests.spec_cases import CASES, ROOT  # noqa: E402

CYCLES = 12  # steps of api_test's random play per case: enough to reach a hand's end


@pytest.mark.filterwarnings("ignore:Observation")  # dict observations, as PettingZoo's classic
@pytest.mark.parametrize(("path", "players"), CASES,
                         ids=[f"{p.stem}-{n}" for p, n in CASES])
def test_api(path: Path, players: int) -> None:
    game = spelbok.load(str(path), players=players)
    assert uncovered(game) is None  # every shipped spec's actions are numbered
    # two hands a match, so that the test plays through the end of matches
    api_test(env(str(path), players=players, max_hands=2), num_cycles=CYCLES)


def test_a_match_is_played_to_its_end_with_rewards() -> None:
    e = env("knektpass", players=3, max_hands=1)
    e.reset(seed=5)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(1)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    state = e.match.st
    assert state.is_terminal and steps > 0
    assert sorted(total.values()) == sorted(1.0 if p in state.winners else -1.0
                                            for p in range(3))


def test_score_rewards_add_up_to_the_change_of_score() -> None:
    e = env("knektpass", players=2, max_hands=3, reward="score")
    e.reset(seed=2)
    start = e.match.st.scores
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = random.Random(3)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        action = None if terminated or truncated else int(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    end = e.match.st.scores
    assert [total[a] for a in e.possible_agents] == [b - a for a, b in zip(start, end)]


def test_an_exchange_is_single_card_discards_and_a_stop() -> None:
    game = spelbok.load("knektpass", players=2)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=1))
    st = m.st
    while st.decision_name != "exchange":  # dealer's swap, then both announce play
        m.apply(enc.stop if st.decision_name == "swap" else enc.index[st.parse_action("play")])
    seat = st.current
    hand = set(st.view(seat)["hand"])
    first, second = [i for i in m.legal() if i != enc.stop][:2]
    m.apply(first)
    assert st.current == seat and first not in m.legal() and enc.stop in m.legal()
    m.apply(second)
    m.apply(enc.stop)
    kept = set(st.view(seat)["hand"])
    gone = {enc.labels[first].split()[1], enc.labels[second].split()[1]}
    assert gone <= hand and not gone & kept and len(kept) == len(hand)


def test_an_illegal_action_is_refused() -> None:
    e = env("example", players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)


@pytest.mark.parametrize("name", ["knektpass", "euchre", "oh-hell"])
def test_the_observation_holds_nothing_hidden(name: str) -> None:
    """A determinized state (every hidden card re-dealt) looks the same to the seat."""
    game = spelbok.load(name, players=4)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=4))
    rng = random.Random(2)
    for _ in range(12):
        seat = m.st.current
        assert seat is not None
        for k in range(3):
            other = m.clone(m.st.determinize(seat, random.Random(k)))
            assert np.array_equal(other.observation(seat), m.observation(seat))
        m.apply(rng.choice(m.legal()))


def test_the_pack_size_comes_from_the_spec() -> None:
    enc = Encoding(spelbok.load("euchre", players=4))
    assert enc.num_cards == 24 and enc.labels[:24] == spelbok.load("euchre", players=4).deck


def test_render_shows_the_table() -> None:
    e = env("knektpass", players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "your hand" in text and "scores" in text and "stop" in text


def test_the_fields_hold_what_the_view_shows() -> None:
    game = spelbok.load("knektpass", players=3)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=6))
    at = enc.offsets()
    rng = random.Random(4)
    seen_trick = False
    while not m.st.is_terminal:
        seat = m.st.current
        assert seat is not None
        obs = m.observation(seat)
        v = m.st.view(seat)

        def cards(field: str, obs: np.ndarray = obs) -> set[str]:
            a, b = at[field]
            return {enc.labels[i] for i in np.flatnonzero(obs[a:b])}

        assert cards("hand") == set(v["hand"])
        assert cards("turn_up") == set(v["turn_up"])
        for p, card in v["trick"]:
            assert cards(f"trick_{(p - seat) % 3}") == {card}
            seen_trick = True
        a, b = at["hand_sizes"]
        assert list(obs[a:b]) == [v["hand_sizes"][(seat + k) % 3] for k in range(3)]
        a, b = at["var:score"]
        assert list(obs[a:b]) == [v["vars"]["score"][(seat + k) % 3] for k in range(3)]
        a, b = at["to_act"]
        assert obs[a] == 1.0 and obs[a:b].sum() == 1.0
        m.apply(rng.choice(m.legal()))
    assert seen_trick


@pytest.mark.filterwarnings("ignore:Observation")
def test_a_word_variable_and_a_number_decision_are_encoded() -> None:
    from minispec import HEAD

    text = (HEAD.replace("hand:\n", "variables:\n  hand_player: {said: none}\nhand:\n")
            + "  - deal: {size: 5}\n"
            + "  - decide: call\n    who: each\n    choose: [high, low]\n"
            + "    then: {said: choice}\n"
            + "  - decide: bid\n    who: each\n    choose: number\n    min: 1\n    max: 3\n"
            + "  - tricks: {}\n"
            + 'end: {when: "hand_number >= 1", winners: "tricks == max(tricks)"}\n')
    game = spelbok.load(text, players=2)
    enc = Encoding(game)
    assert [enc.labels[i] for i in range(enc.num_cards, enc.num_actions)] == [
        "high", "low", "bid 1", "bid 2", "bid 3"]
    m = Match(enc, game.new_state(seed=1))
    m.apply(enc.labels.index("low"))
    a, _ = enc.offsets()["var:said"]
    seat = m.st.current
    assert seat is not None
    said = m.observation(seat)[a:a + 2]
    assert said[(1 - seat) % 2] == enc.word_code["low"] and said[0] == -1.0  # 'none': no word
    api_test(env(text, players=2), num_cycles=20)


def _rebuilt(m: Match, seat: int) -> np.ndarray:
    """The observation of ``seat`` built from scratch, value by value (the layout of
    docs/rl.md), to check the buffers the Match keeps and writes only in part."""
    enc, st = m.enc, m.st
    n = st.n
    out: list[float] = []

    def plane(cards: int) -> None:
        out.extend(float(cards >> c & 1) for c in enc.cards)

    def hot(k: int, i: int) -> None:
        out.extend(float(j == i) for j in range(k))

    def rot(row: list) -> list:
        return row[seat:] + row[:seat]

    # a card another seat played face down: hidden (its trick and its place still show)
    view = st.view(seat)
    unseen = {c for p, c in st.trick.cards if p != seat and (st.hidden >> c) & 1}
    unseen |= {c for _, cards, _ in st.history_tricks for p, c in cards
               if p != seat and (st.hidden >> c) & 1}
    assert [name for _, name in view["trick"]].count("?") == len(
        [c for p, c in st.trick.cards if c in unseen])
    plane(st.hands[seat])
    if enc.exchanges:
        plane(m.pending if st.current == seat else 0)
    plane(st.discarded[seat])
    if enc.passes:
        plane(st.passing[seat])
    plane(sum(1 << c for c in set(st.turn_up)))
    played = {c for _, cards, _ in st.history_tricks for _, c in cards}
    plane(sum(1 << c for c in played | {c for _, c in st.trick.cards} if c not in unseen))
    trick = [0] * n
    for p, c in st.trick.cards:
        trick[(p - seat) % n] = 0 if c in unseen else 1 << c
    for t in trick:
        plane(t)
    for k in range(1, n):
        plane(st.known[(seat + k) % n])
    a = st.auction
    if enc.auction:
        plane(1 << a[3] if a and a[3] >= 0 else 0)  # the called card
    hot(5, st.trump if 0 <= st.trump < 4 else 4)
    hot(5, st.trick.led if 0 <= st.trick.led < 4 else 4)
    out += [h.bit_count() for h in rot(st.hands)] + rot(st.won) + rot(st.out)
    hot(n, (st.dealer - seat) % n)
    hot(n, n if st.current is None else (st.current - seat) % n)
    if enc.face_down:
        down = [0] * n
        for p, c in st.trick.cards:
            down[(p - seat) % n] = (st.hidden >> c) & 1
        out += down
    if enc.auction:
        k = enc.contracts
        au = view.get("auction") or {}
        contract = au.get("contract")
        names = [c.name for c in st.prog.contracts]
        hot(k + 1, names.index(contract) if contract is not None else k)
        d = au.get("declarer")
        hot(n, n if d is None else (d - seat) % n)
        out.append(au.get("doubled", 0))
        out += rot([b + 1 for b in a[8:]]) if a else [0] * n
        out += rot([(a[6] >> p) & 1 for p in range(n)]) if a else [0] * n
    for row in st.pv_rows:
        out += [enc._value(v) for v in rot(row)]
    out += [enc._value(v) for v in st.gv]
    out += [len(st.stock), st.widow.bit_count(), st.hand_number]
    d = len(enc.decisions)
    name = st.decision_name
    hot(d, d if name is None else enc.decision_index.get(name, 0))
    return np.array(out, dtype=np.float32)


@pytest.mark.parametrize("name", ["knektpass", "euchre", "oh-hell", "rams", "spades",
                                  "whist", "knockout-whist", "hearts", "bridge", "belote",
                                  "schnapsen", "tute", "briscola", "tests/specs/pack_readings.yaml",
                                  "tests/specs/auction_mini.yaml"])
def test_the_kept_observation_is_the_one_built_from_scratch(name: str) -> None:
    """Each seat's buffer is written only where the state changed since that seat last
    looked, at whatever steps it looks: it always equals a rebuild from scratch."""
    name = str(ROOT / name) if "/" in name else name
    game = spelbok.load(name, players=spelbok.load(name).tree["players"]["min"], max_hands=3)
    enc = Encoding(game)
    rng = random.Random(7)
    for seed in range(3):
        m = Match(enc, game.new_state(seed=seed))
        n = m.st.n
        steps = 0
        while m.st.current is not None and steps < 400:
            kept = []
            for seat in range(n):
                if seat == m.st.current or rng.random() < 0.3:
                    got = m.observation(seat)
                    assert np.array_equal(got, _rebuilt(m, seat)), (seed, steps, seat)
                    assert not got.flags.writeable  # read-only, and never changed later:
                    kept.append((got, got.copy()))
            m.apply(rng.choice(m.legal()))
            for got, was in kept:  # the next state is a new array, not this one rewritten
                assert np.array_equal(got, was)
            steps += 1
        seat = rng.randrange(n)
        into = np.zeros(enc.size, dtype=np.float32)
        assert m.observation(seat, into) is into
        assert np.array_equal(into, _rebuilt(m, seat))


def test_the_mask_is_a_new_read_only_array_each_time() -> None:
    enc = Encoding(spelbok.load("euchre", players=4))
    a = enc.mask([0, 3])
    with pytest.raises(ValueError, match="read-only"):
        a[1] = 1
    b = enc.mask([1])
    assert a.tolist() == [1, 0, 0, 1] + [0] * (enc.num_actions - 4)
    assert b.tolist() == [0, 1] + [0] * (enc.num_actions - 2)


# -- the actions of declared packs, auctions, passing, declarations and face-down plays --

DOWN = mini('  - deal: {size: 4}\n  - tricks: {face_down: "seat == 1", face_down_shown: SHOWN}\n')


def _cards(enc: Encoding, obs: np.ndarray, field: str) -> set[str]:
    a, b = enc.offsets()[field]
    return {enc.labels[i] for i in np.flatnonzero(obs[a:b])}


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("shown", ["true", "false"])
def test_a_face_down_card_never_reaches_another_seats_observation(shown: str) -> None:
    text = DOWN.replace("SHOWN", shown)
    game = spelbok.load(text, players=3)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=3))
    st = m.st
    while st.current != 1:  # seat 1 may play face down
        m.apply(m.legal()[0])
    down = [i for i in m.legal() if enc.labels[i].startswith("down ")]
    assert len(down) == st.hands[1].bit_count()
    m.apply(down[0])
    card = enc.labels[down[0]].split()[1]
    a, _ = enc.offsets()["trick_down"]
    for seat in (0, 2):
        obs = m.observation(seat)
        assert card not in _cards(enc, obs, "played")
        assert all(card not in _cards(enc, obs, f"trick_{k}") for k in range(3))
        assert obs[a + (1 - seat) % 3] == 1.0  # that a card lies face down is public
        for k in range(4):  # a re-deal of what the seat cannot see changes nothing
            other = m.clone(st.determinize(seat, random.Random(k)))
            assert np.array_equal(other.observation(seat), obs)
    mine = m.observation(1)
    assert card in _cards(enc, mine, "played") and card in _cards(enc, mine, "trick_0")
    while st.trick.cards:  # the trick ends: shown to all, or hidden for the rest of the hand
        m.apply(m.legal()[0])
    assert (card in _cards(enc, m.observation(0), "played")) == (shown == "true")
    api_test(env(text, players=3), num_cycles=CYCLES)


def test_passing_is_single_card_picks_and_a_stop() -> None:
    game = spelbok.load("hearts", players=4)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=1))
    st = m.st
    assert st.decision_name == "pass"
    seat = st.current
    assert seat is not None
    picks = []
    for _ in range(3):
        assert enc.stop not in m.legal()  # three cards, no fewer
        i = next(i for i in m.legal() if i != enc.stop)
        picks.append(enc.labels[i].split()[1])
        m.apply(i)
    assert m.legal() == [enc.stop]
    assert _cards(enc, m.observation(seat), "picked") == set(picks)
    m.apply(enc.stop)
    assert st.current != seat
    assert _cards(enc, m.observation(seat), "own_passed") == set(picks)
    assert not set(picks) & set(st.view(seat)["hand"])


def test_every_call_of_the_auction_is_numbered() -> None:
    game = spelbok.load("bridge", players=4)
    enc = Encoding(game)
    m = Match(enc, game.new_state(seed=2))
    st = m.st
    first = [enc.labels[i] for i in m.legal()]
    assert first[0] == "pass" and len(first) == 1 + 35 and "double" not in first
    assert {"double", "redouble", "trump S"} <= set(enc.labels)
    bidder = st.current
    assert bidder is not None
    m.apply(enc.labels.index("two_hearts"))
    assert "one_nt" not in [enc.labels[i] for i in m.legal()]
    assert "double" in [enc.labels[i] for i in m.legal()]  # an opponent may double
    obs = m.observation(bidder)
    at = enc.offsets()
    a, b = at["contract"]
    assert int(np.flatnonzero(obs[a:b])[0]) == [c.name for c in st.prog.contracts].index(
        "two_hearts")
    a, _ = at["declarer"]
    assert obs[a] == 1.0  # the observer itself
    a, _ = at["bids"]
    assert obs[a] == 1 + [c.name for c in st.prog.contracts].index("two_hearts")


def test_a_declaration_plays_its_card() -> None:
    game = spelbok.load("schnapsen", players=2)
    enc = Encoding(game)
    rng = random.Random(5)
    for seed in range(40):
        m = Match(enc, game.new_state(seed=seed))
        while not m.st.is_terminal:
            said = [i for i in m.legal() if enc.labels[i].split()[0] in ("twenty", "forty")]
            if said:
                seat = m.st.current
                m.apply(said[0])
                card = enc.labels[said[0]].split()[1]
                assert card in _cards(enc, m.observation(seat), "played")
                assert card not in m.st.view(seat)["hand"]
                return
            m.apply(rng.choice(m.legal()))
    pytest.fail("no declaration in 40 matches")


def test_the_copies_of_a_declared_pack_are_actions_of_their_own() -> None:
    game = spelbok.load(str(ROOT / "tests" / "specs" / "pack_readings.yaml"), players=3)
    enc = Encoding(game)
    assert enc.num_cards == len(game.deck) == 82
    assert enc.labels[:enc.num_cards].count("7O") == 1 and "7O#2" in enc.labels
    m = Match(enc, game.new_state(seed=1))
    rng = random.Random(2)
    while not m.st.is_terminal:
        seat = m.st.current
        assert seat is not None
        assert sorted(_cards(enc, m.observation(seat), "hand")) == sorted(
            _labelled(enc, m.st.hands[seat]))
        m.apply(rng.choice(m.legal()))


def _labelled(enc: Encoding, mask: int) -> list[str]:
    return [enc.labels[i] for i, c in enumerate(enc.cards) if mask >> c & 1]


def test_a_decision_outside_the_action_space_is_named_and_refused() -> None:
    from types import SimpleNamespace

    class Ask:  # a decision instruction of a kind the action space does not know
        name = "ask"

        def legal(self, st: object) -> list:
            return []

    game = SimpleNamespace(name="Odd", program=SimpleNamespace(code=[Ask()]))
    assert uncovered(game) == "the 'ask' decision"
    with pytest.raises(SpelbokError, match="'ask' decision"):
        Encoding(game)
    assert uncovered(spelbok.load("example", players=2)) is None
