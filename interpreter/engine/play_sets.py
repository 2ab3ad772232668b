"""The legal plays of several cards (``tricks.combos``) as *templates*, listed only on
demand, and the shapes of throws: the run-time part of the ``throw`` kind of
:mod:`spelbok.lang.constructs.combos`.

**Templates.**  A follow to a long lead, or a throw led, may be any of a great many
sets of cards (a player void in the suit led, facing eight cards with twenty-five in
hand, has some 177 000).  Every such rule is a union of templates ``(base, pool, lo,
hi)``: the cards ``base`` (the pairs and tractors he must play), and ``lo`` to ``hi``
more cards of ``pool`` (the suit, or any card).  :class:`PlaySets` keeps the templates
and answers without listing the sets: whether a play is legal (:meth:`PlaySets.fits`,
what ``apply`` checks), and which cards may be picked next after some cards picked
(:meth:`PlaySets.next_picks`, the game-AI action space's ``pick`` then ``stop``).
Anything else (iterating, ``len``, indexing) lists the sets once: copies of a card
counted once, a copy picked only with the copies of its name below it.

**Components and shapes.**  :func:`components` splits a play into its kinds: its
longest tractors first, then its pairs, then its singles, each group highest first.
A play's *shape* is the kinds and lengths of its components.  :func:`shape_key` says
how strongly a play bids against a lead of a given shape: it must split into the same
components (a tractor may stand for as many pairs), be wholly in the suit led or
wholly trumps, and it bids with the key of its first (most important) component's top
card.  :func:`failing` finds the components of a throw that another player could beat.

>>> PlaySets([(0b0011, 0b1100, 1, 1)], 0b1111, [0b1, 0b10, 0b100, 0b1000], str).fits(0b0111)
True
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from ..cards import Pack, cards_in
from ..frozen import mypyc_attr
from .actions import CARD, CARDS, Action
from .lazy_list import LazyActions
from .trick import key_of

if TYPE_CHECKING:
    from .order import TrumpTables

SINGLE: Final = 0
PAIR: Final = 1
TRACTOR: Final = 2

#: A template: the cards that must be played, the cards more are taken from, how many.
Template = tuple[int, int, int, int]
#: A component: ``(kind, pairs, top, cards)``.
Component = tuple[int, int, int, int]


def below_copies(pack: Pack, hand: int) -> list[int]:
    """For each card of ``hand`` (by id) the copies of its name held with ids up to it
    (0 for a card not held): a copy is picked only with those below it."""
    out = [0] * pack.size
    seen: dict[int, int] = {}
    for c in cards_in(hand):
        f = pack.face[c]
        seen[f] = seen.get(f, 0) | 1 << c
        out[c] = seen[f]
    return out


def choose(pack: Pack, mask: int, r: int) -> list[int]:
    """Every set of ``r`` cards of ``mask``, a card's copies counted once (its lowest)."""
    groups: dict[int, list[int]] = {}
    for c in cards_in(mask):
        groups.setdefault(pack.face[c], []).append(c)
    return _choose(list(groups.values()), r, 0)


def _choose(groups: list[list[int]], r: int, at: int) -> list[int]:
    if r == 0:
        return [0]
    if at >= len(groups):
        return []
    out: list[int] = []
    ids = groups[at]
    taken = 0
    for k in range(min(r, len(ids)) + 1):
        if k:
            taken |= 1 << ids[k - 1]
        for rest in _choose(groups, r - k, at + 1):
            out.append(taken | rest)
    return out


@mypyc_attr(native_class=False)  # a list subclass: compiled methods, Python class
class PlaySets(LazyActions):
    """The plays of the templates ``templates`` from ``hand`` (see the module's doc);
    ``below``: :func:`below_copies` of the hand; ``make``: a play's action."""

    def __init__(self, templates: list[Template], hand: int, below: list[int],
                 make: Callable[[int], Any], pack: Pack | None = None) -> None:
        super().__init__()
        self.templates = templates
        self.hand = hand
        self.below = below
        self.make = make
        self.pack = pack
        self.built = False

    # -- without listing -------------------------------------------------------------

    def fits(self, m: int) -> bool:
        """Whether the cards ``m`` (of the hand) are one of the plays."""
        if m & ~self.hand:
            return False
        for base, pool, lo, hi in self.templates:
            if base & ~m:
                continue
            rest = m & ~base
            if rest & ~pool:
                continue
            if lo <= rest.bit_count() <= hi:
                return True
        return False

    def closure(self, m: int) -> int:
        """``m`` with, for each card, the copies of its name held below it."""
        below = self.below
        out = m
        for c in cards_in(m):
            out |= below[c]
        return out

    def next_picks(self, picked: int) -> tuple[int, bool]:
        """The cards that may be picked after ``picked`` (some play holds them all, its
        copies lowest first), and whether ``picked`` is a play (the ``stop``)."""
        free = self.hand & ~picked
        out = 0
        rest = free
        while rest:
            low = rest & -rest
            rest ^= low
            need = self.closure(picked | low)
            for base, pool, _lo, hi in self.templates:
                if need & ~(base | pool):
                    continue
                if (need & ~base).bit_count() <= hi:
                    out |= low
                    break
        return out, picked != 0 and self.closure(picked) == picked and self.fits(picked)

    def allows(self, a: object) -> bool:
        """Whether the action ``a`` is one of the plays (what ``State.apply`` asks)."""
        if not isinstance(a, Action) or len(a) < 3 or a[0] not in (CARD, CARDS):
            return False
        v = a[2]
        if type(v) is not int:
            return False
        pack = self.pack
        if a[0] == CARD:
            m = 1 << (pack.held_copy(self.hand, v) if pack is not None else v)
        else:
            m = pack.held_copies(self.hand, v) if pack is not None else v
        return self.fits(m) and (a[0] == CARDS) == (m.bit_count() > 1)

    def pick(self, rng: Any) -> Any:
        """A play at random without listing them all (``rng``: a ``random.Random``):
        a template, a size and cards of its pool at random (not uniform over the
        plays; the listing's choice after a few misses)."""
        temps = [x for x in self.templates if x[2] <= x[1].bit_count() and x[2] <= x[3]]
        for _ in range(8):
            if not temps:
                break
            base, pool, lo, hi = rng.choice(temps)
            cards = list(cards_in(pool))
            m = base
            for c in rng.sample(cards, rng.randint(lo, min(hi, len(cards)))):
                m |= 1 << c
            m = self.closure(m)
            if m and self.fits(m):
                return self.make(m)
        return rng.choice(self)

    def total(self) -> int:
        """How many plays there are (as many as :meth:`masks` lists), without listing
        them: the plays of a template are the hand's cards taken, for each name, its
        lowest copies, holding the template's ``base`` within ``base | pool``; those of
        several templates are counted once by inclusion and exclusion (a union of
        templates only narrows, so the terms that cannot hold a play are cut)."""
        if self.built:
            return list.__len__(self)
        pack = self.pack
        groups: dict[int, list[int]] = {}
        for c in cards_in(self.hand):
            groups.setdefault(pack.face[c] if pack is not None else c, []).append(c)
        faces = list(groups.values())
        temps = [(b, b | p, b.bit_count() + lo, b.bit_count() + hi)
                 for b, p, lo, hi in self.templates if lo <= hi]
        total = 0

        def term(base: int, inside: int, lo: int, hi: int) -> int:
            # the plays within ``inside`` holding ``base``, of ``lo..hi`` cards
            poly = [1]
            for ids in faces:
                need = got = 0
                for i, c in enumerate(ids):
                    if (base >> c) & 1:
                        need = i + 1
                for c in ids:
                    if not (inside >> c) & 1:
                        break
                    got += 1
                if got < need:
                    return 0
                if got == 0:
                    continue
                out = [0] * (len(poly) + got)
                for k, v in enumerate(poly):
                    if v:
                        for j in range(need, got + 1):
                            out[k + j] += v
                poly = out
            return sum(poly[max(lo, 1):hi + 1])

        def rec(i: int, base: int, inside: int, lo: int, hi: int, sign: int) -> None:
            nonlocal total
            for j in range(i, len(temps)):
                b, ins, l2, h2 = temps[j]
                nb, ni, nl, nh = base | b, inside & ins, max(lo, l2), min(hi, h2)
                if nb & ~ni or nb.bit_count() > nh or nl > nh:
                    continue  # no play holds both: nor any more templates with them
                got = term(nb, ni, nl, nh)
                if got:
                    total += sign * got
                    rec(j + 1, nb, ni, nl, nh, -sign)

        rec(0, 0, -1, 0, self.hand.bit_count(), 1)
        return total

    def first_picks(self) -> int:
        """The cards some play holds (each may be picked first)."""
        return self.next_picks(0)[0]

    # -- listing ---------------------------------------------------------------------

    def masks(self) -> list[int]:
        """Every play, once (copies of a card counted once), by template."""
        seen: set[int] = set()
        out: list[int] = []
        pack = self.pack
        for base, pool, lo, hi in self.templates:
            for r in range(lo, hi + 1):
                for x in (choose(pack, pool, r) if pack is not None else _plain(pool, r)):
                    m = base | x
                    if m and m not in seen:
                        seen.add(m)
                        out.append(m)
        return out

    def _build(self) -> None:
        if not self.built:
            self.built = True
            list.extend(self, [self.make(m) for m in self.masks()])

    def __len__(self) -> int:
        self._build()
        return list.__len__(self)

    def __bool__(self) -> bool:
        self._build()
        return list.__len__(self) > 0

    def __getitem__(self, i: Any) -> Any:
        self._build()
        return list.__getitem__(self, i)

    def copy(self) -> list[Action]:
        self._build()
        return list(list.__iter__(self))


def listed(legal: list[Action], limit: int) -> list[Action] | None:
    """``legal`` as a list when it is one, or a lazy :class:`PlaySets` of at most
    ``limit`` plays (listed then); None for more (counted by :meth:`PlaySets.total`,
    never listed)."""
    if not isinstance(legal, PlaySets):
        return legal
    return list(legal) if legal.total() <= limit else None


def as_played(legal: list[Action], a: Action) -> Action:
    """The action ``a`` (a play of ``legal``, written ``play 5D 5D``) as the engine
    lists it (``pair 5D 5D``; one card alone as the card), so a history reads alike
    whoever wrote it; any other action as it is."""
    if not isinstance(legal, PlaySets) or a.kind != CARDS or type(a.value) is not int:
        return a
    pack = legal.pack
    m = pack.held_copies(legal.hand, a.value) if pack is not None else a.value
    return legal.make(m) if legal.fits(m) else a


def _plain(pool: int, r: int) -> list[int]:
    return [sum(1 << c for c in cs) for cs in combinations(list(cards_in(pool)), r)]


# -- components, shapes, throws ---------------------------------------------------------

def pairs_of(pack: Pack, mask: int) -> list[int]:
    """The pairs ``mask`` holds, one per name (its two lowest ids)."""
    groups: dict[int, list[int]] = {}
    for c in cards_in(mask):
        groups.setdefault(pack.face[c], []).append(c)
    return [1 << ids[0] | 1 << ids[1] for ids in groups.values() if len(ids) >= 2]


def tractors_of(t: TrumpTables, pack: Pack, order: list[int], mask: int,
                length: int = 0) -> list[int]:
    """The tractors ``mask`` holds (of ``length`` pairs; 0: of any length)."""
    by_place: dict[tuple[int, int], list[int]] = {}
    for p in pairs_of(pack, mask):
        c = p.bit_length() - 1
        by_place.setdefault((t.suit[c], order[c]), []).append(p)
    out: list[int] = []
    for s, o in sorted(by_place):
        if (s, o - 1) in by_place:
            continue  # not the bottom of a run
        k = 0
        while (s, o + k) in by_place:
            k += 1
        for i in range(k - 1):  # every stretch of the run [o, o + k) of two pairs or more
            runs = by_place[(s, o + i)]
            for j in range(i + 1, k):
                runs = [r | p for r in runs for p in by_place[(s, o + j)]]
                if length == 0 or j - i + 1 == length:
                    out += runs
    return out


def _top(order: list[int], m: int) -> int:
    """The card of ``m`` highest in its suit's order."""
    return max(cards_in(m), key=lambda c: (order[c], c))


def components(t: TrumpTables, pack: Pack, order: list[int], mask: int) -> list[Component]:
    """The components of the play ``mask``: its longest tractors, then its pairs, then
    its singles, each group highest first."""
    out: list[Component] = []
    rest = mask
    while True:
        trs = tractors_of(t, pack, order, rest)
        if not trs:
            break
        m = max(trs, key=lambda x: (x.bit_count(), order[_top(order, x)]))
        out.append((TRACTOR, m.bit_count() // 2, _top(order, m), m))
        rest &= ~m
    for p in sorted(pairs_of(pack, rest), key=lambda x: -order[_top(order, x)]):
        out.append((PAIR, 1, _top(order, p), p))
        rest &= ~p
    for c in sorted(cards_in(rest), key=lambda x: -order[x]):
        out.append((SINGLE, 0, c, 1 << c))
    return out


def shape_of(comps: list[Component]) -> tuple[tuple[int, int], ...]:
    """The kinds and lengths of ``comps``."""
    return tuple((k, n) for k, n, _, _ in comps)


def fit_top(t: TrumpTables, pack: Pack, order: list[int], shape: tuple[tuple[int, int], ...],
            mask: int) -> int:
    """The top card of the first component when ``mask`` splits into components of
    ``shape`` (highest first; a tractor may stand for as many pairs); -1 when not."""
    rest = mask
    first = -1
    for kind, n in shape:
        if kind == TRACTOR:
            got = tractors_of(t, pack, order, rest, n)
        elif kind == PAIR:
            got = pairs_of(pack, rest)
        else:
            got = [1 << c for c in cards_in(rest)]
        if not got:
            return -1
        m = max(got, key=lambda x: (order[_top(order, x)], t.trump[_top(order, x)]))
        if first < 0:
            first = _top(order, m)
        rest &= ~m
    return first if rest == 0 else -1


def shape_key(t: TrumpTables, pack: Pack, order: list[int], shape: tuple[tuple[int, int], ...],
              led: int, mask: int, trumps: bool) -> int:
    """How strongly the play ``mask`` bids against a lead of ``shape`` in the suit
    ``led``: 0 unless it splits into that shape, wholly in the suit led or wholly
    trumps; else its first component's top card's key."""
    cards = list(cards_in(mask))
    suit = t.suit[cards[0]]
    if any(t.suit[c] != suit for c in cards):
        return 0
    if suit != led and not all(t.trump[c] for c in cards):
        return 0
    top = fit_top(t, pack, order, shape, mask)
    return 0 if top < 0 else key_of(t, top, led, trumps)


def beatable(t: TrumpTables, pack: Pack, order: list[int], comp: Component,
             hands: list[int]) -> bool:
    """Whether a hand of ``hands`` holds a combination of the kind and length of
    ``comp``, in its suit, higher."""
    kind, n, top, _ = comp
    suit = t.suit[top]
    mask = t.suit_mask[suit]
    for h in hands:
        held = h & mask
        if kind == SINGLE:
            got = [1 << c for c in cards_in(held)]
        elif kind == PAIR:
            got = pairs_of(pack, held)
        else:
            got = tractors_of(t, pack, order, held, n)
        if any(order[_top(order, x)] > order[top] for x in got):
            return True
    return False


def failing(t: TrumpTables, pack: Pack, order: list[int], comps: list[Component],
            hands: list[int]) -> Component | None:
    """The component of a throw to play instead when some can be beaten by a hand of
    ``hands``: of those, the one of fewest cards, then the lowest; None: the throw
    stands."""
    bad = [c for c in comps if beatable(t, pack, order, c, hands)]
    if not bad:
        return None
    return min(bad, key=lambda c: (c[3].bit_count(), order[c[2]]))


def follow_templates(t: TrumpTables, pack: Pack, order: list[int], hand: int,
                     comps: list[Component], led: int, n: int) -> list[Template]:
    """The templates of the follows of ``hand`` to a lead of components ``comps`` (``n``
    cards) in the suit ``led``: as many cards of the suit as held up to ``n``; when he
    holds more, for each tractor led one as long if held (else as many pairs), for each
    pair a pair, as far as he can; the rest of the suit."""
    suit = hand & t.suit_mask[led] if 0 <= led < len(t.suit_mask) else 0
    held = suit.bit_count()
    if held <= n:  # all of the suit, the rest from the hand (all of it when it holds fewer)
        more = min(n - held, (hand & ~suit).bit_count())
        return [(suit, hand & ~suit, more, more)]
    out: list[Template] = []
    tractors = [k for kind, k, _, _ in comps if kind == TRACTOR]
    pairs = sum(1 for kind, _, _, _ in comps if kind == PAIR)

    def rec(i: int, avail: int, base: int, need: int) -> None:
        if i < len(tractors):
            got = tractors_of(t, pack, order, avail, tractors[i])
            for tr in got:
                rec(i + 1, avail & ~tr, base | tr, need)
            if not got:
                rec(i + 1, avail, base, need + tractors[i])
            return
        ps = pairs_of(pack, avail) if need else []
        for chosen in combinations(ps, min(need, len(ps))):
            m = base
            for x in chosen:
                m |= x
            r = n - m.bit_count()
            out.append((m, suit & ~m, r, r))

    rec(0, suit, 0, pairs)
    return out


__all__ = ["PlaySets", "as_played", "below_copies", "listed", "components", "failing", "fit_top",
           "follow_templates", "shape_key", "shape_of"]
