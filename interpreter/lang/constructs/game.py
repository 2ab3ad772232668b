"""The top level of a spec: its format version, name, about text, base spec and sources.

The game's own keys; each section's key comes from its home, and
:data:`spelbok.lang.vocabulary.SPEC` lists them all in the registry's order.

>>> [f.name for f in GAME.keys]
['spelbok', 'name', 'about', 'extends', 'sources']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import Construct, Field
from .home import Home

if TYPE_CHECKING:
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["GAME"]

_KEYS = (
    Field("spelbok", "version", "format version; only `1` exists", required=True,
          doc_type="int, required", schema_doc="Format version; only 1 exists."),
    Field("name", "str", "the game's name", required=True, min_items=1,
          doc_type="str, required"),
    Field("about", "text", "one paragraph for `describe`", default="", doc_type="str"),
    Field("extends", "str", "base spec (path relative to this file, or a shipped spec name) — "
          "merged before validation: maps merge, lists replace, `null` removes a key; a **map "
          "given for a list of steps** changes the base's steps by their `label` (a map merges "
          "into that step, `null` removes it)", doc_type="str",
          schema_doc="Base spec: a path relative to this file, or a shipped spec name."),
    Field("sources", "map[str]", "bibliography; `source:` fields may name an id, optionally "
          "followed by a passage: `\"en: Deal and exchange\"`", default={},
          doc_type="map id → str"),
)

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
version: "spelbok" INT _NL
game: "game" TEXT _NL
extends: ("extends" | "based" "on") TEXT _NL
bibliography: "source" (WORD | TEXT) ":" _text_body
"""


def read_version(b: Builder, st: Any) -> None:
    """Reads ``spelbok 1``."""
    tok = st.children[0]
    b.put(b.tree, ("spelbok",), int(tok), tok, "the format version ('spelbok')")


def read_game(b: Builder, st: Any) -> None:
    """Reads ``game "Name"``."""
    tok = st.children[0]
    b.put(b.tree, ("name",), b.string(tok), tok, "the game's name")


def read_extends(b: Builder, st: Any) -> None:
    """Reads ``extends "base"`` (or ``based on``)."""
    tok = st.children[0]
    b.put(b.tree, ("extends",), b.string(tok), tok, "the base spec ('extends')")


def read_about(b: Builder, st: Any) -> None:
    """The game's ``about`` text (the rule is shared: an option has one too)."""
    b.s_about(st)


def read_bibliography(b: Builder, st: Any) -> None:
    """Reads ``source id: "text"``, an entry of ``sources``."""
    name = st.children[0]
    key = b.word(name)
    sources = b.section("sources", st)
    b.put(sources, ("sources", key), b.text_of(st.children[1:]), name,
          f"the source '{key}'")


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The version, the name, the base spec, the about text and the sources."""
    out.add(0, f"spelbok {tree.get('spelbok', 1)}")
    if "name" in tree:
        out.add(0, f"game {t.quote(str(tree['name']))}")
    if "extends" in tree:
        out.add(0, f"extends {t.quote(str(tree['extends']))}")
    if tree.get("about"):
        t.text(out, 0, "about", str(tree["about"]))
    sources = tree.get("sources") or {}
    if sources:
        out.blank()
        for key, text in sources.items():
            t.text(out, 0, f"source {t.word(key, ('of',))}:", str(text))


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """The title, the about text, the sources, and what a variant changes of its base."""
    name = str(tree.get("name", "game"))
    lines = [name, "=" * len(name)]
    if tree.get("about"):
        lines += [""] + p.wrap(str(tree["about"]), 0)
    sources = tree.get("sources") or {}
    if sources:
        lines += ctx.title("Sources")
        for key, text in sources.items():
            lines += p.wrap(f"[{key}] {text}", 4, first="  ")
    return lines + ctx.changes()


#: The top level: its own keys (``decl`` holds them too; the vocabulary's ``SPEC`` adds
#: the sections' keys).
GAME: Home = Home(
    Construct("spec", "top", "a game spec", _KEYS, x_name="at the top level"),
    grammar=GRAMMAR,
    entries=("version", "game", "extends", "about", "bibliography"),
    builds={
        "version": read_version, "game": read_game, "extends": read_extends,
        "about": read_about, "bibliography": read_bibliography},
    write=write,
    describe=describe,
    keys=_KEYS,
)
