"""Melds (the spec's ``melds`` table) and the instruction that declares them (step
``declare_melds``).

A meld is a named combination of cards: some ranks all in one suit (each suit may
make one: a king and queen of a suit; or only the trump suit, or only a plain one),
each rank in every suit (four jacks), some named cards (the queen of spades and jack
of diamonds), or a sequence of ``run`` to ``longest`` cards of one suit in an order of
ranks (each such sequence makes one).  With copies, a hand holding a meld twice over
makes it twice (scoring its ``double`` value when it has one).  Melds of one
``class`` never use a card twice: the earlier meld of the table takes its cards first.

Declaring scores each meld a hand declares into the per-player built-in
``meld_points``: every meld the hand makes, or (``choose``) those its player picks,
one at a time (:class:`MeldChoice`); with ``compare: best`` only the side holding the
best single meld keeps its points.  With ``show``, the cards of the melds that count
become public knowledge of the hand (``State.known``); a ``reveal`` step shows them
later instead.

With ``wait``, a step's seats declare beside the declarations made earlier in the hand
(one player at a time, e.g. from an announcement's steps at his first card): each
seat's points, cards and best meld (``meld_keys``, a number to compare) are kept, and
a later step with ``settle`` (:class:`SettleMelds`) compares them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import vocabulary as _v
from .actions import Action
from .decide import Decide
from .steps import Fn, Instr, Path, _names

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State

#: the word that ends a player's picks of melds (``choose``)
DONE = "done"
#: which suits a one-suit meld or a run may be made in (its ``spread``)
_ANY, _TRUMP, _PLAIN = 0, 1, 2


class Meld:
    """One meld of the table: the card sets that make it, or its runs.

    ``sets``: ``(suit, cards)`` for each set of cards that makes the meld once (a hand
    holding all of them; suit -1: a set over several suits).  ``runs``: for a sequence
    meld, ``(suit, cards in the meld's order)``; ``run`` and ``longest`` the fewest and
    most cards in sequence (0: no most).  ``where``: any suit, the trump suit only or the
    plain suits only.  ``height``: each card's place in the meld's order (0 the highest),
    for comparing melds.
    """

    def __init__(self, name: str, sets: list[tuple[int, int]], runs: list[tuple[int, list[int]]],
                 run: int, points: Fn, copies: int = 1, grid: int = 0, longest: int = 0,
                 where: int = _ANY, double: Fn | None = None, klass: str = "",
                 height: dict[int, int] | None = None) -> None:
        self.name = name
        self.sets = sets
        self.runs = runs
        self.run = run
        self.longest = longest
        self.points = points
        self.double = double
        self.where = where
        self.klass = klass
        self.height = height or {}
        # a pack with copies: card ``c``'s copy ``k`` is ``k * grid + c`` (the sets and
        # runs name the first copies)
        self.copies = copies
        self.grid = grid

    def _suit_ok(self, suit: int, trump: int) -> bool:
        if suit < 0 or self.where == _ANY:
            return True
        return (suit == trump) == (self.where == _TRUMP)

    def layers(self, hand: int) -> list[int]:
        """The hand's layers: layer ``t`` the first copies of the cards held more than
        ``t`` times (one layer without copies)."""
        if self.copies == 1:
            return [hand]
        grid_mask = (1 << self.grid) - 1
        at_least = [0] * (self.copies + 1)  # at_least[t]: first copies held >= t times
        for k in range(self.copies):
            layer = (hand >> (k * self.grid)) & grid_mask
            for t in range(self.copies, 1, -1):
                at_least[t] |= at_least[t - 1] & layer
            at_least[1] |= layer
        return at_least[1:]

    def take(self, hand: int, cards: int, times: int) -> int:
        """``times`` copies of each of ``cards`` (first copies) from ``hand``."""
        if self.copies == 1:
            return cards & hand
        got = 0
        c = cards
        while c:
            low = c & -c
            c ^= low
            left = times
            for k in range(self.copies):
                bit = low << (k * self.grid)
                if left and hand & bit:
                    got |= bit
                    left -= 1
        return got

    def made(self, hand: int, trump: int) -> list[tuple[int, int, int, int]]:
        """Each time ``hand`` makes this meld: ``(cards, times, size, height)``, the
        hand's cards that make it, how many times over (2: doubled, with copies), how
        many cards it holds and the place of its highest card in its order."""
        layers = self.layers(hand)
        out = []
        for suit, m in self.sets:
            if not self._suit_ok(suit, trump):
                continue
            times = sum(1 for layer in layers if layer & m == m)
            if times:
                out.append((self.take(hand, m, times), times, m.bit_count(),
                            min(self.height.get(c, 0) for c in _bits(m))))
        for suit, cards in self.runs:
            if self._suit_ok(suit, trump):
                for layer in layers:
                    out += self._sequences(hand, layer, cards)
        return out

    def _sequences(self, hand: int, layer: int, cards: list[int]) -> list[tuple[int, int, int, int]]:
        out = []
        seq = 0  # the cards of the sequence being followed
        length = 0
        top = 0
        for i, c in enumerate((*cards, -1)):  # -1: the end of the suit closes the last one
            if c >= 0 and (layer >> c) & 1:
                if not length:
                    top = i
                seq |= 1 << c
                length += 1
                continue
            if length >= self.run and (not self.longest or length <= self.longest):
                out.append((self.take(hand, seq, 1), 1, length, top))
            seq = 0
            length = 0
        return out

    def value(self, st: State, p: int, times: int) -> int:
        """What the meld scores made ``times`` times over (doubled: its ``double``)."""
        one = int(self.points(st, p))
        if times >= 2 and self.double is not None:
            return int(self.double(st, p)) * (times // 2) + one * (times % 2)
        return one * times


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _declarers(st: State, each: Fn | None) -> list[int]:
    """The seats a step's ``for`` names (None: every seat still in), from forehand."""
    off = st.off  # (a seat sitting the hand out never declares, whatever `for` says)
    return [p for p in st.order_from(st.prog.nxt[st.dealer])
            if (not off[p] if each is None
                else each(st, p) and not (off is not st.out and off[p] and not st.out[p]))]


class MeldStart(Instr):
    """Who declares, from forehand; each starts with no meld picked (``wait``: the
    seats that declared earlier in the hand keep their picks)."""

    def __init__(self, each: Fn | None, choose: bool, count: int, wait: bool = False) -> None:
        self.each = each  # None: every seat still in
        self.choose = choose
        self.all = (1 << count) - 1
        self.wait = wait

    def run(self, st: State) -> bool:
        q = _declarers(st, self.each)
        st.queue = q
        picks = st.meld_picks[:] if self.wait else [-1] * st.n  # -1: not declaring
        for p in q:
            picks[p] = 0 if self.choose else self.all
        st.meld_picks = picks
        st.pc += 1
        return True


class MeldChoice(Decide):
    """Each declaring seat picks the melds it declares, one at a time (a meld of the
    table its hand makes, by name), then ``done``; a seat whose hand makes none is not
    asked."""

    def __init__(self, name: str, melds: list[Meld]) -> None:
        super().__init__(name, "words", None, [], words=[m.name for m in melds] + [DONE])
        self.melds = melds
        self.fixed_list = None  # the options depend on the hand
        self.filtered = True
        self.where = self._makes_any  # Decision.run skips a seat whose hand makes no meld

    def _makes_any(self, st: State, p: int) -> bool:
        return bool(self._offered(st, p))

    def _offered(self, st: State, p: int) -> list[Action]:
        picked = st.meld_picks[p]
        hand = st.hands[p]
        return [self.word_actions[i] for i, m in enumerate(self.melds)
                if not (picked >> i) & 1 and m.made(hand, st.trump)]

    def _choices(self, st: State) -> list[Action]:
        assert st.current is not None
        return [*self._offered(st, st.current), self.word_actions[-1]]

    def _options(self, st: State) -> list[Action]:
        return self._choices(st)

    def apply(self, st: State, seat: int, a: Action) -> bool:
        st.public.append((seat, self.name, a))
        if st.rec is not None:
            st.event("decision", seat=seat, decision=self.name, action=str(a))
        i = self.word_actions.index(a)
        if i < len(self.melds):
            picks = st.meld_picks[:]  # shared by clones: never changed in place
            picks[seat] |= 1 << i
            st.meld_picks = picks
            if self._offered(st, seat):
                return True  # more to pick
        st.queue.pop(0)
        return not self.run(st)


class DeclareMelds(Instr):
    """Every declaring seat scores the melds it declares (all it makes, or its picks):
    ``meld_points``; with ``compare: best``, only the side of the best meld keeps them;
    the cards of the melds that count are ``meld_cards`` (public with ``show``)."""

    def __init__(self, melds: list[Meld], show: bool, best: bool, forehand_tie: bool,
                 team_of: list[int], wait: Fn | None = None) -> None:
        self.melds = melds
        self.show = show
        self.best = best
        self.forehand_tie = forehand_tie
        self.team_of = team_of
        self.wait = wait  # with ``wait``, who declares (MeldStart.each); None: no wait
        self.waits = wait is not None
        self.keyed = best or self.waits

    def _declare(self, st: State, p: int) -> tuple[int, int, list[str], int]:
        """A seat's points, cards, declared melds and best meld's key (0: none)."""
        hand = st.hands[p]
        picked = st.meld_picks[p]
        left: dict[str, int] = {}  # per class, the cards not yet used by one of its melds
        total = cards = 0
        names: list[str] = []
        best = 0
        for i, meld in enumerate(self.melds):
            if not (picked >> i) & 1:
                continue
            avail = left.get(meld.klass, hand) if meld.klass else hand
            for got, times, size, height in meld.made(avail, st.trump):
                v = meld.value(st, p, times)
                total += v
                cards |= got
                names += [meld.name] * times
                if self.keyed:  # compared now or at the settling step
                    best = max(best, meld_key(v, size, height, self._in_trumps(st, got)))
                if meld.klass:
                    avail &= ~got
            if meld.klass:
                left[meld.klass] = avail
        return total, cards, names, best

    @staticmethod
    def _in_trumps(st: State, cards: int) -> bool:
        suit = st.prog.pack.suit
        return bool(cards) and all(suit[c] == st.trump for c in _bits(cards))

    def run(self, st: State) -> bool:
        n = st.n
        # new lists: clones share the old ones (never changed in place); ``wait`` keeps
        # the declarations made earlier in the hand and declares for its own seats only
        points = st.meld_points[:] if self.waits else [0] * n
        shown = st.meld_cards[:] if self.waits else [0] * n
        keys = st.meld_keys[:] if self.waits else [0] * n
        declared: list[list[str]] = [[] for _ in range(n)]
        order = st.order_from(st.prog.nxt[st.dealer])
        mine = _declarers(st, self.wait) if self.waits else order
        for p in mine:
            if st.meld_picks[p] > 0:
                points[p], shown[p], declared[p], keys[p] = self._declare(st, p)
            elif self.waits:
                points[p] = shown[p] = keys[p] = 0
        scored = points[:]
        if self.best:
            compare(st, order, points, shown, keys, self.team_of, self.forehand_tie)
        st.meld_points = points
        st.meld_cards = shown
        st.meld_keys = keys
        for p in mine:
            if self.show and shown[p]:
                st.known[p] |= shown[p]
            if st.rec is not None and declared[p]:
                st.event("melds", seat=p, melds=declared[p], points=scored[p],
                         cards=_names(shown[p], st.prog.pack.names) if self.show else [],
                         beaten=points[p] != scored[p])
        st.pc += 1
        return True


#: the points a meld key tells apart, either way (a key stays below the snapshot bound)
_KEY_VALUES = (1 << 30) - 1


def meld_key(value: int, size: int, height: int, trumps: bool) -> int:
    """A meld as one number to compare (``compare: best``), never 0: its points, then
    its cards, then its highest card (0 the highest), then whether it is in trumps."""
    v = min(max(value, -_KEY_VALUES), _KEY_VALUES) + _KEY_VALUES + 1  # > 0
    return ((v * 256 + min(size, 255)) * 256 + 255 - min(height, 255)) * 2 + int(trumps)


def compare(st: State, order: tuple[int, ...], points: list[int], shown: list[int],
            keys: list[int], team_of: list[int], forehand_tie: bool) -> None:
    """Only the side holding the best single meld keeps its melds (a tie: no side,
    or with ``tie: forehand`` the side of the first from forehand)."""
    top = max(keys)
    if not top:
        return
    holders = [p for p in order if keys[p] == top]
    sides = {team_of[p] for p in holders}
    win = team_of[holders[0]] if len(sides) == 1 or forehand_tie else -1
    for p in range(st.n):
        if team_of[p] != win:
            points[p] = 0
            shown[p] = 0


class SettleMelds(Instr):
    """The declarations that waited (``wait``) are compared (``compare: best``): the
    melds of a side beaten score nothing (``meld_points``) and count as not shown; with
    ``show``, the cards of those that count, still held, become public."""

    def __init__(self, show: bool, best: bool, forehand_tie: bool, team_of: list[int]) -> None:
        self.show = show
        self.best = best
        self.forehand_tie = forehand_tie
        self.team_of = team_of

    def run(self, st: State) -> bool:
        if self.best:
            points = st.meld_points[:]  # new lists: clones share the old ones
            shown = st.meld_cards[:]
            order = st.order_from(st.prog.nxt[st.dealer])
            compare(st, order, points, shown, st.meld_keys, self.team_of, self.forehand_tie)
            if st.rec is not None:
                for p in order:
                    if st.meld_keys[p] and not points[p] and st.meld_points[p]:
                        st.event("melds_beaten", seat=p)
            st.meld_points = points
            st.meld_cards = shown
        if self.show:
            show_held(st)
        st.pc += 1
        return True


def show_held(st: State) -> None:
    """The cards of the melds that count still in each hand become public."""
    for p in range(st.n):
        got = st.meld_cards[p] & st.hands[p]
        if got and got & ~st.known[p]:
            st.known[p] |= got
            if st.rec is not None:
                st.event("melds_shown", seat=p, cards=_names(got, st.prog.pack.names))


class RevealMelds(Instr):
    """The cards of the melds that count (the last ``declare_melds``) still in each
    hand become public."""

    def run(self, st: State) -> bool:
        show_held(st)
        st.pc += 1
        return True


def _meld(c: Compiler, name: str, m: dict[str, Any], ranking: list[Any]) -> Meld:
    """One meld of the table as the deck's card sets or runs (first copies)."""
    at = ("melds", name)
    pack = c.pack
    nr = len(pack.ranks)
    deck_mask = c.resolver.cards.deck_mask if c.resolver.cards else 0
    suits = sorted({pack.suit[x] for x in range(pack.size)
                    if (deck_mask >> x) & 1 and pack.suit[x] >= 0})

    def rank_of(r: Any) -> int:
        return pack.rank_index[str(pack.normalize_rank(r) or r).upper()]

    kind = c.constant(m.get("spread", "one_suit"), (*at, "spread"), _v.words("meld", "spread"))
    where = {"trump_suit": _TRUMP, "plain_suit": _PLAIN}.get(kind, _ANY)
    order = [rank_of(r) for r in (m.get("order") or ranking)]
    place = {r: i for i, r in enumerate(order)}
    height = {s * nr + r: place.get(r, len(order)) for s in suits for r in range(nr)}
    ranks = [rank_of(r) for r in m.get("ranks", [])]
    sets: list[tuple[int, int]] = []
    if m.get("cards"):
        cards = [pack.parse_card(str(x)) for x in m["cards"]]
        sets = [(-1, sum(1 << x for x in cards if x is not None))]
    elif ranks and kind == "every_suit":
        sets = [(-1, sum(1 << (s * nr + r) for r in ranks for s in suits))]
    elif ranks:
        sets = [(s, sum(1 << (s * nr + r) for r in ranks)) for s in suits]
    sets = [(s, x) for s, x in sets if x & deck_mask == x]  # only what the deck can make
    run = int(m.get("run", 0))
    runs = [(s, [s * nr + r for r in order if (deck_mask >> (s * nr + r)) & 1])
            for s in suits] if run else []
    double = c.number(m["double"], (*at, "double"), True) if "double" in m else None
    return Meld(str(name), sets, runs, run, c.number(m["points"], (*at, "points"), True),
                pack.copies, len(pack.letters) * nr, int(m.get("longest", 0)), where,
                double, str(m.get("class", "")), height)


def compile_declare_melds(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``declare_melds`` step: who declares (:class:`MeldStart`), their picks
    (:class:`MeldChoice`, with ``choose``) and the scoring (:class:`DeclareMelds`); or,
    with ``reveal``, the showing of the melds declared (:class:`RevealMelds`)."""
    p = (*path, "declare_melds")
    body = step["declare_melds"] or {}
    if c.constant(body.get("reveal", False), (*p, "reveal"), (True, False)):
        code.append(RevealMelds())
        return
    if c.constant(body.get("settle", False), (*p, "settle"), (True, False)):
        show = c.constant(body.get("show", True), (*p, "show"), (True, False))
        best = c.constant(body.get("compare", "total"), (*p, "compare"), ("total", "best"))
        tie = c.constant(body.get("tie", "none"), (*p, "tie"), ("none", "forehand"))
        code.append(SettleMelds(bool(show), best == "best", tie == "forehand", list(c.resolver.team_of)))
        return
    table = c.tree.get("melds") or {}
    ranking = c.tree.get("ranking", {}).get("ranks") or _v.construct("ranking").field(
        "ranks").default
    melds = [_meld(c, str(name), m, ranking) for name, m in table.items()]
    if not c.resolver.melds:  # the builtin melds_made counts them
        c.resolver.melds.extend(melds)
    each = step.get("for", "not out")
    each_fn = None if each == "not out" else c.formula(each, (*path, "for"), True)
    choose = bool(c.constant(body.get("choose", False), (*p, "choose"), (True, False)))
    wait = bool(c.constant(body.get("wait", False), (*p, "wait"), (True, False)))
    code.append(MeldStart(each_fn, choose, len(melds), wait))
    if choose:
        code.append(MeldChoice("declare_melds", melds))
    show = c.constant(body.get("show", True), (*p, "show"), (True, False))
    best = c.constant(body.get("compare", "total"), (*p, "compare"), ("total", "best")) == "best"
    tie = c.constant(body.get("tie", "none"), (*p, "tie"), ("none", "forehand"))
    code.append(DeclareMelds(melds, bool(show), best and not wait, tie == "forehand",
                             list(c.resolver.team_of), (each_fn or _still_in) if wait else None))


def _still_in(st: State, p: int) -> bool:
    """The default ``for`` of a waiting declaration: the seat is still in."""
    return not st.off[p]


__all__ = ["DONE", "DeclareMelds", "Meld", "MeldChoice", "MeldStart", "RevealMelds",
           "SettleMelds"]
