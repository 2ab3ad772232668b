"""The options: named readings of the rules, or rule parameters, each with its values."""

from __future__ import annotations

from ..declare import SOURCE, Construct, Derived, Field
from .home import Home

__all__ = ["OPTION", "OPTIONS"]

OPTION = Construct("option", "part", "a named reading or rule parameter", (
    Field("values", "list[scalar]", "the values it may take (str, int or bool)", required=True,
          min_items=1),
    Field("default", "scalar", "its value unless a variant or the caller sets one",
          default=Derived("the first value")),
    Field("about", "text", "what it decides, for `describe`", default=""),
    SOURCE,
), x_name="in option '{key}'")

OPTIONS = Home(
    None, parts=(OPTION,),
    keys=(Field("options", "names[option]", "named readings / rule parameters, see below",
                default={}, doc_type="map name → option"),),
)
