"""The legal exchanges of a hand, as a list that builds its actions on demand.

A five-card hand has 32 subsets, and an exchange decision offers most of
them; building every Action up front was the largest cost of a whole deal.
:class:`SubsetActions` is a real ``list`` whose length, integer indexing and
``in`` work from the hand alone, so ``random.choice(legal)`` and the legality
check of ``apply`` build one action, not 32.  Anything else (iterating,
slicing, comparing, printing, changing it) builds the whole list first, and
from then on it is an ordinary list.  (Until then its storage holds subset
numbers: only C code that bypasses list methods, such as ``json.dumps``, could
see them, and Actions are not JSON data anyway.)

>>> from spelbok.cards import parse_card
>>> hand = (1 << parse_card("7H")) | (1 << parse_card("9S"))
>>> legal = SubsetActions("exchange", hand, 0, 2)
>>> len(legal), str(legal[0]), str(legal[-1])
(4, 'exchange', 'exchange 9S 7H')
>>> [str(a) for a in legal]
['exchange', 'exchange 9S', 'exchange 7H', 'exchange 9S 7H']
"""

from __future__ import annotations

from math import comb
from typing import Any

from ..errors import SpecError
from ..frozen import mypyc_attr
from ..limits import MAX_EXCHANGES
from .actions import CARDS, WORD, Action
from .lazy_list import LazyActions

_mk = tuple.__new__
_ORDER: dict[tuple[int, int, int], list[int]] = {}


def subset_order(n: int, lo: int, hi: int) -> list[int]:
    """Indexes of the subsets of ``n`` items with ``lo..hi`` members, smallest first.

    >>> subset_order(3, 1, 2)
    [1, 2, 4, 3, 5, 6]
    """
    key = (n, lo, hi)
    got = _ORDER.get(key)
    if got is None:
        # each size in ascending order by Gosper's next-of-the-same-size step: the cost is
        # the subsets listed, never 2**n (one card of thirty would scan a billion numbers)
        got = []
        end = 1 << n
        total = sum(comb(n, k) for k in range(max(lo, 0), min(hi, n) + 1))
        if total > MAX_EXCHANGES:
            raise SpecError(f"an exchange of {lo} to {hi} of {n} cards offers {total:,} card "
                            f"sets, more than the {MAX_EXCHANGES:,} one decision may: give "
                            "it a smaller 'max' (or a 'min')")
        for k in range(max(lo, 0), min(hi, n) + 1):
            if k == 0:
                got.append(0)
                continue
            v = (1 << k) - 1
            while v < end:
                got.append(v)
                c = v & -v
                r = v + c
                v = (((r ^ v) >> 2) // c) | r
        _ORDER[key] = got
    return got


@mypyc_attr(native_class=False)  # a list subclass: compiled methods, Python class
class SubsetActions(LazyActions):
    """Every ``verb`` exchange of ``lo..hi`` cards of ``hand`` (by size, then card order)."""

    # Until built, the list itself holds each subset's index, so len() and
    # truth are the built-in ones; building swaps in the actions.
    __slots__ = ("verb", "hand", "lo", "hi", "order", "built")

    def __init__(self, verb: str, hand: int, lo: int, hi: int) -> None:
        order = subset_order(hand.bit_count(), lo, hi)
        super().__init__(order)  # type: ignore[arg-type]  # subset numbers until built
        self.verb = verb
        self.hand = hand
        self.lo = lo
        self.hi = hi
        self.order = order
        self.built = False

    def _action(self, index: int) -> Action:
        # subset ``index``: bit j set = the j-th lowest card of the hand
        mask = 0
        rest = self.hand
        while index:
            low = rest & -rest
            if index & 1:
                mask |= low
            rest ^= low
            index >>= 1
        # an exchange of no cards is the bare word (see Action)
        return _mk(Action, (CARDS, self.verb, mask) if mask else (WORD, self.verb, 0))

    def _build(self) -> None:
        if not self.built:
            self.built = True
            list.__setitem__(self, slice(None), [self._action(i) for i in self.order])

    # -- what works without building -------------------------------------------

    def __getitem__(self, i: Any) -> Any:
        if self.built or i.__class__ is not int:
            self._build()
            return list.__getitem__(self, i)
        index: Any = list.__getitem__(self, i)  # IndexError as for any list
        return self._action(index)

    def allows(self, a: object) -> bool:
        """Whether ``a`` is one of these exchanges, by the rule alone (whatever
        a caller did to the list)."""
        if not isinstance(a, Action) or len(a) != 3:  # a hand-made one may hold anything
            return False
        kind, verb, mask = a
        if type(mask) is not int:
            return False
        if verb != self.verb or not (kind == CARDS or (kind == WORD and mask == 0)):
            return False
        return not mask & ~self.hand and self.lo <= mask.bit_count() <= self.hi

    def copy(self) -> list[Action]:
        """An independent copy (still unbuilt if this one is)."""
        if self.built:
            return list(list.__iter__(self))
        return subset_actions(self.verb, self.hand, self.lo, self.hi, self.order)

    # everything else builds first (LazyActions)


_new = list.__new__
_extend: Any = list.extend


def subset_actions(verb: str, hand: int, lo: int, hi: int, order: list[int] | None = None,
                   ) -> SubsetActions:
    """``SubsetActions(verb, hand, lo, hi)``, made faster (no ``list.__init__``)."""
    c = _new(SubsetActions)
    c.verb = verb
    c.hand = hand
    c.lo = lo
    c.hi = hi
    if order is None:
        order = _ORDER.get((hand.bit_count(), lo, hi)) or subset_order(hand.bit_count(), lo, hi)
    c.order = order
    c.built = False
    _extend(c, order)
    return c
