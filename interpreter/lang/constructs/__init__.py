"""The constructs of the spec language, one module each: the registry.

:data:`HOMES` is the one list of constructs.  Every stage derives its tables from
it (the step kinds and their order, the readers, writers, prose and checks of the
steps, the grammar's alternatives and pieces, the part maps), and
``tests/test_homes.py`` checks that each home gives every stage its part and imports
no stage.  Adding a construct is adding a module here and its line below (and its
compile step in ``engine/``).  The steps still declared in the stages (``declare_melds``)
join when their home does.

>>> [h.name for h in STEP_HOMES][:2] == list(STEP_KINDS[:2])
True
"""

from __future__ import annotations

from ..declare import Construct
from . import auction, deal, decide, flow, move, pass_cards, patterns, shared, tricks, turn_up
from .home import Home

# the step kinds, in the reference's order (the order of STEP_KINDS)
STEP_HOMES: tuple[Home, ...] = (
    deal.HOME, turn_up.HOME, decide.HOME, tricks.HOME, *flow.HOMES, move.HOME, auction.HOME,
    pass_cards.HOME, patterns.HOME)
# the top level and the sections, in the order the DSL writes them
SECTION_HOMES: tuple[Home, ...] = ()
# the parts several steps share (a step's own parts are in its home's ``parts``)
PART_HOMES: tuple[Home, ...] = shared.HOMES
#: Every construct's home.
HOMES: tuple[Home, ...] = (*SECTION_HOMES, *STEP_HOMES, *PART_HOMES)
#: The part maps the homes declare (a shared part's home, a construct's own parts).
PARTS: tuple[Construct, ...] = tuple(
    c for h in HOMES for c in ((h.decl,) if h.group == "part" else ()) + h.parts)
#: The step kinds, in the reference's order.
STEP_KINDS: tuple[str, ...] = tuple(h.name for h in STEP_HOMES)

__all__ = ["HOMES", "PARTS", "PART_HOMES", "SECTION_HOMES", "STEP_HOMES", "STEP_KINDS", "Home"]
