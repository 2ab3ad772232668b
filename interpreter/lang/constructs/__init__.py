"""The constructs of the spec language, one module each: the registry.

:data:`HOMES` is the one list of constructs.  Every stage derives its tables from
it (the step kinds and their order, the readers, writers, prose and checks of the
steps, the grammar's alternatives and pieces, the part maps), and
``tests/test_homes.py`` checks that each home gives every stage its part and imports
no stage.  Adding a construct is adding a module here and its line below (and its
compile step in ``engine/``).

The sections are listed in the order of the spec's keys (the canonical tree's, the
YAML's, the reference's); the DSL writes them and ``describe`` tells them in orders
of their own, :data:`DSL_ORDER` and :data:`PROSE_ORDER`.

>>> [h.name for h in STEP_HOMES][:2] == list(STEP_KINDS[:2])
True
>>> [h.name for h in SECTION_HOMES][:4]
['spec', 'players', 'options', 'pack']
"""

from __future__ import annotations

from ..declare import Construct
from . import auction, deal, decide, flow, move, pass_cards, patterns, shared, tricks, turn_up
from .dealer import DEALER
from .deck import DECK, entry_cards, entry_size
from .end import END
from .game import GAME
from .hand import HAND
from .hidden import HIDDEN
from .home import Home
from .melds import DECLARE_MELDS, MELDS
from .modes import MODES
from .options import OPTIONS
from .pack import PACK
from .players import PLAYERS
from .points import POINTS
from .ranking import RANKING
from .sit_out import SIT_OUT
from .tables import TABLES
from .teams import TEAMS
from .variables import VARIABLES

# the step kinds, in the reference's order (the order of STEP_KINDS)
STEP_HOMES: tuple[Home, ...] = (
    deal.HOME, turn_up.HOME, decide.HOME, tricks.HOME, *flow.HOMES, move.HOME, auction.HOME,
    pass_cards.HOME, DECLARE_MELDS, patterns.HOME)
#: The top level and the sections, in the order of the spec's keys.
SECTION_HOMES: tuple[Home, ...] = (GAME, PLAYERS, OPTIONS, PACK, DECK, MELDS, TEAMS, RANKING,
                                   POINTS, MODES, TABLES, VARIABLES, HIDDEN, DEALER, SIT_OUT,
                                   HAND, END)
#: The order the DSL writes the sections in (the melds right after the options).
DSL_ORDER: tuple[Home, ...] = (GAME, PLAYERS, OPTIONS, MELDS, PACK, DECK, TEAMS, RANKING,
                               POINTS, MODES, TABLES, VARIABLES, HIDDEN, DEALER, SIT_OUT, HAND,
                               END)
#: The order of ``describe``'s sections: the players (with their teams), the cards (the
#: pack and the deck), their ranking and points, then the options and the melds.
PROSE_ORDER: tuple[Home, ...] = (GAME, PLAYERS, DECK, RANKING, POINTS, MODES, OPTIONS, MELDS,
                                 TABLES, VARIABLES, HIDDEN, DEALER, SIT_OUT, HAND, END)
# the parts several steps share (a step's own parts are in its home's ``parts``)
PART_HOMES: tuple[Home, ...] = shared.HOMES
#: Every construct's home.
HOMES: tuple[Home, ...] = (*SECTION_HOMES, *STEP_HOMES, *PART_HOMES)
#: The part maps the homes declare (a shared part's home, a construct's own parts).
PARTS: tuple[Construct, ...] = tuple(
    c for h in HOMES
    for c in ((h.decl,) if h.group == "part" and h.decl is not None else ()) + h.parts)
#: The step kinds, in the reference's order.
STEP_KINDS: tuple[str, ...] = tuple(h.name for h in STEP_HOMES)

__all__ = ["DSL_ORDER", "HOMES", "PARTS", "PART_HOMES", "PROSE_ORDER", "SECTION_HOMES",
           "STEP_HOMES", "STEP_KINDS", "Home", "entry_cards", "entry_size"]
