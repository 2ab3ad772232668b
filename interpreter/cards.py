"""Card identities and notation.

A card is an int id 0..N-1 of its game's :class:`Pack`; a set of cards is a
bitmask int.  The default pack is the French 52: card ``suit * 13 + rank`` with
suits C S H D = 0..3 and ranks 2..A = 0..12, which the module-level names
below (``SUITS``, ``CARD_NAMES``, ``parse_card``...) describe.  Notation is rank
then suit letter (``10H``, ``JC``); suit symbols ♣ ♠ ♥ ♦ are accepted on input.
A spec's ``pack:`` declares other suits and ranks, copies and extra cards: its
:class:`Pack` has the same tables and functions as methods.

>>> card_id("10H"), card_name(card_id("j♣"))
(34, 'JC')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from .frozen import Frozen

SUITS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
for _i, _sym in enumerate(SUIT_SYMBOLS):
    SUIT_INDEX[_sym] = _i
COLOUR = (0, 0, 1, 1)  # clubs/spades black, hearts/diamonds red
NO_SUIT: Final = -1

#: Notation's letters, declared once: how a rank and a suit are written without quotes
#: (a card is the two side by side).  A rank is 10, a digit, or one capital letter: the
#: French J Q K A (T for ten), or a declared pack's own figures (Italian F C R, Spanish
#: S C R); a suit, one capital letter (the French C S H D, or a declared pack's: O C E B)
#: or a French symbol.  The French letters are read in lower case too.  The DSL's
#: terminals (RANK, CARD in grammar/spec.lark, see ``spelbok.lang.spec_grammar``) and its
#: writer (``spelbok.lang.dsl_text``) are made from these.
WRITTEN_RANK: Final = "10|[2-9A-Z]"
WRITTEN_SUIT: Final = "[A-Z]"
READ_RANK: Final = WRITTEN_RANK + "|[akqjt]"
READ_SUIT: Final = WRITTEN_SUIT + "|[cshd♣♠♥♦]"

CARD_NAMES = tuple(r + s for s in SUITS for r in RANKS)
CARD_SYMBOLS = tuple(r + s for s in SUIT_SYMBOLS for r in RANKS)


def normalize_rank(text: str | int) -> str | None:
    """Canonical rank text, or None.  Accepts ``t``/``T`` for ten and ints.

    >>> normalize_rank(10), normalize_rank("k"), normalize_rank("1")
    ('10', 'K', None)
    """
    t = str(text).strip().upper()
    if t == "T":
        t = "10"
    return t if t in RANK_INDEX else None


def parse_card(text: str) -> int | None:
    """Card id for notation like ``10H``, ``jc``, ``J♣``; None when not a card."""
    t = str(text).strip()
    if len(t) < 2:
        return None
    suit = SUIT_INDEX.get(t[-1].upper())
    rank = normalize_rank(t[:-1])
    if suit is None or rank is None:
        return None
    return suit * 13 + RANK_INDEX[rank]


def card_id(text: str) -> int:
    """Like :func:`parse_card` but raises ValueError for a non-card."""
    c = parse_card(text)
    if c is None:
        raise ValueError(f"not a card: {text!r}")
    return c


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def card_symbol(card: int) -> str:
    return CARD_SYMBOLS[card]


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> Iterator[int]:
    """Card ids in a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_in(mask)]


MAX_SUITS: Final = 4
"""Most suits a pack declares (the trump tables have one per suit, then "no trump")."""
MAX_COPIES: Final = 4
"""Most copies of a pack in one deck."""
COLOURS = ("black", "red", "green", "blue", "yellow", "orange", "purple", "grey")
"""The colours a suit may be declared with (index = the colour number in ``Pack.colours``)."""


@dataclass(frozen=True, eq=False)
class Pack(Frozen):
    """The cards of one game: suits, ranks, copies and extra cards, and the tables
    derived from them once (card id -> name, suit, rank, colour; name -> id).

    Card ids run copy by copy, suit by suit, rank by rank (the pack's rank order),
    then the extra cards, copy by copy: the French 52 gives ``suit * 13 + rank``.
    Copies of a card share its name, suit and rank; ``face[c]`` is the id of its
    first copy, which notation names (see :meth:`parse_card`).  Two packs are equal
    when they are declared alike.

    >>> p = Pack.make(("O", "C", "E", "B"), ("oros", "copas", "espadas", "bastos"), ("O", "C", "E", "B"),
    ...          (1, 1, 0, 0), ("1", "2", "3", "4", "5", "6", "7", "S", "C", "R"), 2)
    >>> p.size, p.card_name(p.parse_card("RB")), p.card_name(p.parse_card("rb") + 40), p.suit_of(39)
    (80, 'RB', 'RB', 3)
    """

    letters: tuple[str, ...]
    suit_names: tuple[str, ...]
    symbols: tuple[str, ...]
    colours: tuple[int, ...]
    ranks: tuple[str, ...]
    copies: int
    extras: tuple[tuple[str, int, int], ...]  # (name, suit or -1, rank index or -1)
    # derived by make(): by card id, and lookups by upper-case text
    names: tuple[str, ...]
    symbol_names: tuple[str, ...]
    suit: tuple[int, ...]  # -1: a card of no suit
    rank: tuple[int, ...]  # -1: a card of no rank
    face: tuple[int, ...]
    index: dict[str, int]
    suit_index: dict[str, int]
    rank_index: dict[str, int]
    french: bool  # the French 52's cards and names (the engine's fast paths serve it)

    @staticmethod
    def make(letters: tuple[str, ...], suit_names: tuple[str, ...], symbols: tuple[str, ...],
             colours: tuple[int, ...], ranks: tuple[str, ...], copies: int = 1,
             extras: tuple[tuple[str, int, int], ...] = ()) -> Pack:
        """The pack declared so, with its tables."""
        ns, nr = len(letters), len(ranks)
        grid = ns * nr
        names: list[str] = []
        syms: list[str] = []
        suit: list[int] = []
        rank: list[int] = []
        face: list[int] = []
        for _k in range(copies):
            for s in range(ns):
                for r in range(nr):
                    names.append(ranks[r] + letters[s])
                    syms.append(ranks[r] + symbols[s])
                    suit.append(s)
                    rank.append(r)
                    face.append(s * nr + r)
        for _k in range(copies):
            for i, (name, s, r) in enumerate(extras):
                names.append(name)
                syms.append(name)
                suit.append(s)
                rank.append(r)
                face.append(copies * grid + i)
        index: dict[str, int] = {}
        for c, n in enumerate(names):
            index.setdefault(n.upper(), face[c])
        sidx = {x.upper(): i for i, x in enumerate(letters)}
        for i, x in enumerate(symbols):
            sidx.setdefault(x.upper(), i)
        return Pack(letters, suit_names, symbols, colours, ranks, copies, extras, tuple(names),
                    tuple(syms), tuple(suit), tuple(rank), tuple(face), index, sidx,
                    {x.upper(): i for i, x in enumerate(ranks)},
                    (letters, ranks, copies, extras) == (tuple(SUITS), RANKS, 1, ()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pack) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[Any, ...]:
        """What the pack is declared as (equal packs have equal keys)."""
        return (self.letters, self.suit_names, self.symbols, self.colours, self.ranks,
                self.copies, self.extras)

    @property
    def size(self) -> int:
        """How many cards the whole pack has (copies and extras included)."""
        return len(self.names)

    def normalize_rank(self, text: str | int) -> str | None:
        """Canonical rank text, or None (``T`` is ten in a pack with a rank 10)."""
        t = str(text).strip().upper()
        if t == "T" and "T" not in self.rank_index:
            t = "10"
        i = self.rank_index.get(t)
        return None if i is None else self.ranks[i]

    def parse_card(self, text: str) -> int | None:
        """The id of the (first copy of the) card written ``text``, or None."""
        t = str(text).strip()
        c = self.index.get(t.upper())
        if c is not None:
            return c
        if len(t) < 2:
            return None
        suit = self.suit_index.get(t[-1].upper())
        rank = self.normalize_rank(t[:-1])
        if suit is None or rank is None:
            return None
        return suit * len(self.ranks) + self.rank_index[rank.upper()]

    def card_name(self, card: int) -> str:
        return self.names[card]

    def card_symbol(self, card: int) -> str:
        return self.symbol_names[card]

    def suit_of(self, card: int) -> int:
        return self.suit[card]

    def rank_of(self, card: int) -> int:
        return self.rank[card]

    def ids_of(self, suits: Iterable[int], ranks: Iterable[int]) -> list[int]:
        """Every id (all copies) of the grid cards of these suits and ranks, ascending."""
        nr, grid = len(self.ranks), len(self.letters) * len(self.ranks)
        rs = list(ranks)
        return sorted(k * grid + s * nr + r for k in range(self.copies) for s in suits for r in rs)

    def extra_ids(self, names: Iterable[str]) -> list[int]:
        """Every id (all copies) of the extra cards named."""
        want = {n.upper() for n in names}
        return [c for c in range(len(self.letters) * len(self.ranks) * self.copies, self.size)
                if self.names[c].upper() in want]

    def one_per_face(self, mask: int) -> int:
        """``mask`` with one card of each name in it: the lowest id held of each."""
        if self.copies == 1:
            return mask
        out = 0
        seen = 0
        for c in cards_in(mask):
            f = self.face[c]
            if not (seen >> f) & 1:
                seen |= 1 << f
                out |= 1 << c
        return out

    def names_of(self, mask: int) -> list[str]:
        """The names of the cards of ``mask``, by id (copies of a card side by side)."""
        if self.copies == 1:
            return [self.names[c] for c in cards_in(mask)]
        return [self.names[c] for c in sorted(cards_in(mask), key=lambda c: (self.face[c], c))]

    def letter(self, suit: int) -> str:
        """The letter of suit number ``suit``, ``none`` past the pack's suits (or -1)."""
        return self.letters[suit] if 0 <= suit < len(self.letters) else "none"

    def copies_of(self, card: int) -> list[int]:
        """The ids of every copy of ``card``, ascending."""
        f = self.face[card]
        return [c for c in range(self.size) if self.face[c] == f]

    def take_card(self, text: str, taken: set[int]) -> int | None:
        """The card written ``text`` in a list that names copies by repeating a name: its
        first copy not in ``taken`` (then added to it), or None when not a card."""
        c = self.parse_card(text)
        if c is None:
            return None
        if self.copies > 1:
            c = next((x for x in self.copies_of(c) if x not in taken), c)
        taken.add(c)
        return c

    def held_copy(self, hand: int, card: int) -> int:
        """The lowest id in ``hand`` with the name of ``card`` (``card`` if none)."""
        if self.copies == 1:
            return card
        f = self.face[card]
        for c in cards_in(hand):
            if self.face[c] == f:
                return c
        return card

    def held_copies(self, hand: int, mask: int) -> int:
        """``mask`` (cards named by their first copies) as the copies ``hand`` holds: each
        id moved to a held copy of its name not taken yet (unchanged where none is)."""
        if self.copies == 1:
            return mask
        out = 0
        for c in cards_in(mask):
            got = next((x for x in self.copies_of(c) if (hand >> x) & 1 and not (out >> x) & 1),
                       c)
            out |= 1 << got
        return out

    def describe(self) -> str:
        """The pack in words (for ``describe``)."""
        suits = ", ".join(f"{n} ({x})" for n, x in zip(self.suit_names, self.letters, strict=True))
        extra = f" and {len(self.extras)} extra card{'s' if len(self.extras) > 1 else ''} " \
            f"({', '.join(e[0] for e in self.extras)})" if self.extras else ""
        copies = f"{self.copies} copies of " if self.copies > 1 else ""
        return (f"{copies}a pack of {len(self.letters) * len(self.ranks)} cards: suits {suits}; "
                f"ranks {' '.join(self.ranks)}{extra}")


FRENCH = Pack.make(tuple(SUITS), ("clubs", "spades", "hearts", "diamonds"), tuple(SUIT_SYMBOLS),
              COLOUR, RANKS)
"""The default pack: the French 52 (card ids ``suit * 13 + rank``)."""


def pack_of(section: dict[str, Any] | None) -> Pack:
    """The Pack a spec's canonical ``pack:`` section declares (absent: :data:`FRENCH`).

    The section is assumed checked (:mod:`spelbok.lang.checks` reports a bad one).
    """
    if not section:
        return FRENCH
    suits = section["suits"]
    ranks = tuple(str(r) for r in section["ranks"])
    letters = tuple(str(s["letter"]) for s in suits)
    extras = []
    for e in section.get("extra", []):
        s = letters.index(e["suit"]) if e.get("suit", "none") in letters else -1
        r = ranks.index(str(e["rank"])) if str(e.get("rank", "none")) in ranks else -1
        extras.append((str(e["name"]), s, r))
    return Pack.make(letters, tuple(str(s["name"]) for s in suits), tuple(str(s["symbol"]) for s in suits),
                tuple(COLOURS.index(s["colour"]) if s["colour"] in COLOURS else 0 for s in suits),
                ranks, int(section.get("copies", 1)), tuple(extras))


# -- cards named relative to trump (top trumps), and "no trump"

NO_TRUMP: Final = 4
"""The trump number of "no trump" (a pack has at most 4 suits); also the effective suit of
a card of no suit (an extra card such as a joker): ``suit_mask[NO_TRUMP]`` holds those."""


def resolve_top_trump(entry: str, trump: int, pack: Pack = FRENCH) -> int | None:
    """The card id a top-trump entry names under ``trump`` (None if it names none).

    >>> resolve_top_trump("JC", 2), resolve_top_trump("J@trump", 2), resolve_top_trump("J@trump_colour", 2)
    (9, 35, 48)
    """
    if not pack.french:
        return _resolve_in(pack, entry, trump)
    if "@" in entry:
        rank_text, rel = entry.split("@", 1)
        rank = normalize_rank(rank_text)
        if rank is None or trump == NO_TRUMP:
            return None
        if rel == "trump":
            suit = trump
        elif rel == "trump_colour":
            suit = next(s for s in range(4) if s != trump and COLOUR[s] == COLOUR[trump])
        else:
            return None
        return suit * 13 + RANK_INDEX[rank]
    return parse_card(entry)


def _resolve_in(pack: Pack, entry: str, trump: int) -> int | None:
    """:func:`resolve_top_trump` in a declared pack (the first copy of the card)."""
    if "@" not in entry:
        return pack.parse_card(entry)
    rank_text, rel = entry.split("@", 1)
    rank = pack.rank_index.get(rank_text.strip().upper())
    if rank is None or trump == NO_TRUMP:
        return None
    if rel == "trump":
        suit: int | None = trump
    elif rel == "trump_colour":
        suit = next((s for s in range(len(pack.letters))
                     if s != trump and pack.colours[s] == pack.colours[trump]), None)
    else:
        return None
    return None if suit is None else suit * len(pack.ranks) + rank
