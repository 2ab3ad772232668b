"""The hand: what happens in one hand (deal), its steps in order.

Each step kind has a home of its own (the registry's ``STEP_HOMES``); this one holds
the list.
"""

from __future__ import annotations

from ..declare import Field
from .home import Home

__all__ = ["HAND"]

HAND = Home(
    None,
    keys=(Field("hand", "steps", "what happens in one hand (deal), in order", required=True,
                min_items=1, doc_type="list of steps, required"),),
)
