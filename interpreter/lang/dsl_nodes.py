"""Small readers of the DSL's parse tree, shared by the builder and the constructs' homes.

A parse node is a Lark ``Tree`` (its rule in ``data``) or a ``Token`` (its terminal in
``type``); these helpers ask which, without importing Lark.

>>> from lark import Token, Tree
>>> node = Tree("turn_trump", [Tree("cond", [Tree("formula", [])])])
>>> is_node(node, "turn_trump"), is_token(Token("INT", "3"), "INT")
(True, True)
>>> cond_at(node.children, node).data
'formula'
"""

from __future__ import annotations

from typing import Any

__all__ = ["cond_at", "is_node", "is_token"]


def cond_at(children: list[Any], default: Any) -> Any:
    """The formula of an ``if …`` among children (to locate it), else ``default``."""
    for c in children:
        if is_node(c, "cond"):
            return c.children[0]
    return default


def is_node(node: Any, data: str) -> bool:
    """True when ``node`` is a parse node of rule ``data``."""
    return getattr(node, "data", None) == data


def is_token(node: Any, kind: str) -> bool:
    """True when ``node`` is a token of terminal ``kind``."""
    return getattr(node, "type", None) == kind
