"""Parsing formulas: text -> Lark tree -> typed AST, with size limits and located syntax errors."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ..errors import FormulaError
from ..limits import MAX_VALUE
from .nodes import (
    Binary,
    Bool,
    Call,
    Compare,
    Filter,
    IfExpr,
    Logic,
    Name,
    Node,
    Num,
    Str,
    Unary,
    _children,
    iter_nodes,
)

if TYPE_CHECKING:  # lark is imported lazily: importing this module must stay cheap
    from lark import Lark, Token, Tree

MAX_LENGTH = 2000
"""Longest formula text accepted (characters)."""
MAX_NODES = 400
"""Most AST nodes in one formula."""
MAX_DEPTH = 40
"""Deepest AST nesting in one formula (the root is at depth 1)."""
# --------------------------------------------------------------------- parsing

_PARSER: Lark | None = None


def _parser() -> Lark:
    """The Lark parser, built on first use and cached for the process."""
    global _PARSER
    if _PARSER is None:
        import importlib.resources

        from lark import Lark

        grammar = (importlib.resources.files("spelbok.grammar") / "formula.lark").read_text(
            encoding="utf-8"
        )
        _PARSER = Lark(
            grammar,
            start="expr",
            parser="lalr",
            lexer="basic",
            propagate_positions=True,
            maybe_placeholders=True,
        )
    return _PARSER


def parse_formula(text: str) -> Node:
    """Parse formula text into an AST; every problem is a :class:`FormulaError`.

    >>> parse_formula("score - 5")
    Binary(op='-', left=Name(name='score'), right=Num(value=5))
    >>> parse_formula("count(plays) == ")
    Traceback (most recent call last):
    ...
    spelbok.errors.FormulaError: <spec>:1:16: unexpected end of formula — expected a value
    """
    if not isinstance(text, str):
        raise FormulaError(f"a formula must be text, not {type(text).__name__}", line=1, col=1)
    return _parse_cached(text)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Node:
    if len(text) > MAX_LENGTH:
        line, col = _line_col(text, MAX_LENGTH)
        raise FormulaError(
            f"formula is too long ({len(text)} characters; the limit is {MAX_LENGTH})",
            line=line,
            col=col,
        )
    if not text.strip():
        raise FormulaError("empty formula — expected a value", line=1, col=1)
    from lark.exceptions import UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    return from_tree(tree)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


# Terminal texts by role (used to explain what the parser expected).
_OPERATORS = {"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">="}
_REGEX_TERMINALS = {"NAME", "INT", "STRING"}


def _terminal_text(parser: Lark, name: str) -> str:
    """``'NAME'``/``'INT'``/``'STRING'``/``'$END'``, or the literal text of a terminal."""
    if name in _REGEX_TERMINALS or name == "$END":
        return name
    try:
        return str(parser.get_terminal(name).pattern.value)
    except KeyError:
        return name


def _describe_token(token: Token) -> str:
    if token.type == "$END":
        return "end of formula"
    if token.type == "NAME":
        return f"name '{token.value}'"
    if token.type == "INT":
        return f"number {token.value}"
    if token.type == "STRING":
        return f"string {token.value}"
    return f"'{token.value}'"


def _join_words(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_error(text: str, exc: Exception) -> FormulaError:
    """Translate a Lark exception into a FormulaError in plain words."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(exc, UnexpectedCharacters):
        ex: Any = exc  # Lark declares these fields None (compiled code would check that)
        return _bad_character(text, ex.pos_in_stream or 0, ex.line, ex.column)
    if not isinstance(exc, UnexpectedToken):  # pragma: no cover - LALR raises only those two
        return FormulaError("cannot read this formula", line=1, col=1)
    parser = _parser()
    token = exc.token
    try:
        accepted = set(exc.interactive_parser.accepts())
    except Exception:  # pragma: no cover - defensive: fall back to Lark's guess
        accepted = set(exc.expected)
    texts = {_terminal_text(parser, t) for t in accepted}
    if "where" in texts:
        # '( … where …)' keeps a parenthesized or_test open: name what ends it, as before
        texts -= {"where", "or", "and"} if ")" in texts else {"where"}
    if token.type == "$END":
        line, col = _line_col(text, len(text.rstrip()))
    else:
        line, col = token.line or 1, token.column or 1
    found = _describe_token(token)
    tok_text = _terminal_text(parser, token.type) if token.type != "$END" else "$END"
    if tok_text in _COMPARISONS and not texts & _COMPARISONS and texts & {"+", "and"}:
        return FormulaError(
            f"unexpected {found} — comparisons cannot be chained; "
            "combine them with 'and', as in 'a < b and b < c'",
            line=line,
            col=col,
        )
    if tok_text == ")" and ")" not in texts and "NAME" not in texts:
        return FormulaError("unexpected ')' — there is no '(' to close", line=line, col=col)
    if tok_text == "where":
        return FormulaError(
            "unexpected 'where' — a card set's '… where …' goes in parentheses or in a call, "
            "as in 'count(hand where card_is_trump)'",
            line=line,
            col=col,
        )
    if tok_text == "if" and "NAME" in texts:
        return FormulaError(
            "unexpected 'if' — put 'if … then … else …' in parentheses here",
            line=line,
            col=col,
        )
    words: list[str] = []
    if texts & {"NAME", "INT"}:
        words.append("a value")
    elif texts & _OPERATORS:
        words.append("an operator")
    for literal in (",", ")", "then", "else"):
        if literal in texts:
            words.append(f"'{literal}'")
    if "$END" in texts:
        words.append("the end of the formula")
    if not words:
        words.append("the end of the formula")
    return FormulaError(f"unexpected {found} — expected {_join_words(words)}", line=line, col=col)


def _bad_character(text: str, pos: int, line: int, col: int) -> FormulaError:
    char = text[pos] if pos < len(text) else ""
    nxt = text[pos + 1 : pos + 2]
    hint = None
    if char and char in "'\"":
        message = f"unterminated string: no closing {char} on this line"
    elif char == "=" and nxt != "=":
        message = "unexpected '=' — use '==' to compare"
    elif char == "!":
        message = "unexpected '!' — write 'not' for negation and '!=' for 'not equal'"
    elif char == "&":
        message = "unexpected '&' — write 'and'"
    elif char == "|":
        message = "unexpected '|' — write 'or'"
    elif char.isalpha() and char.isascii() and char.isupper():
        start = pos
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        end = pos
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        word = text[start:end]
        message = (
            f"unexpected '{char}' in '{word}' — names and keywords are written in "
            "lower case (a-z, 0-9 and _)"
        )
        hint = word.lower()
    else:
        message = f"unexpected character {char!r}"
    return FormulaError(message, line=line, col=col, hint=hint)


def _rule(tree: Tree) -> str:
    # A host grammar that `%import`s ours sees rules as "formula__binary" etc.
    return str(tree.data).rsplit("__", 1)[-1]


def _subtrees(tree: Tree) -> list[Any]:
    return [k for k in tree.children if hasattr(k, "data")]


def _tree_children(tree: Tree) -> list[Tree]:
    """The sub-trees that become AST children of ``tree``, in order.

    Only sub-trees are looked at (never token positions), so trees built with
    ``keep_all_tokens=True`` by a host grammar work too.
    """
    kind = _rule(tree)
    kids = _subtrees(tree)
    if kind in ("binary", "compare"):
        return [kids[0], kids[2]]  # kids[1] is the operator
    if kind in ("and_op", "or_op"):
        return kids[:2]
    if kind in ("neg", "not_op"):
        return kids[:1]
    if kind == "if_expr":
        return kids[:3]
    if kind == "filter":
        return kids[:2]
    if kind == "call":
        return _subtrees(kids[0]) if kids else []
    if kind not in _LEAF_RULES and len(kids) == 1:
        return kids  # a wrapper such as "( expr )" kept by keep_all_tokens=True
    return []


_LEAF_RULES = frozenset({"number", "string", "boolean", "name"})


def _meta_pos(tree: Tree) -> tuple[int, int]:
    meta = tree.meta
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


def _build(tree: Tree, kids: list[Node]) -> Node:
    kind = _rule(tree)
    line, col = _meta_pos(tree)
    children: list[Any] = [k for k in tree.children if k is not None and not hasattr(k, "data")]
    if kind == "number":
        digits = str(children[0])
        if len(digits) > len(str(MAX_VALUE)) or int(digits) > MAX_VALUE:
            raise FormulaError(f"the number {digits[:20]}{'...' if len(digits) > 20 else ''} "
                               f"is too large (the limit is {MAX_VALUE})", line=line, col=col)
        return Num(int(digits), line, col)
    if kind == "string":
        return Str(str(children[0])[1:-1], line, col)
    if kind == "boolean":
        return Bool(str(children[0]) == "true", line, col)
    if kind == "name":
        return Name(str(children[0]), line, col)
    if kind == "call":
        return Call(str(children[0]), tuple(kids), line, col)
    if kind == "neg":
        return Unary("-", kids[0], line, col)
    if kind == "not_op":
        return Unary("not", kids[0], line, col)
    if kind in ("and_op", "or_op"):
        return Logic(kind[:-3], kids[0], kids[1], line, col)
    if kind in ("binary", "compare"):
        op_tok: Any = _subtrees(tree)[1].children[0]
        cls = Binary if kind == "binary" else Compare
        return cls(str(op_tok), kids[0], kids[1], line, col, op_tok.line, op_tok.column)
    if kind == "if_expr":
        return IfExpr(kids[0], kids[1], kids[2], line, col)
    if kind == "filter":
        return Filter(kids[0], kids[1], line, col)
    if len(kids) == 1:
        return kids[0]
    raise ValueError(f"not a formula tree: {tree.data}")


def from_tree(tree: Tree) -> Node:
    """Turn a Lark tree of the rule ``expr`` into an AST and check the size limits.

    Accepts trees from :func:`parse_formula`'s parser and from a host grammar that
    ``%import``-s ``formula.expr`` (rule names prefixed ``formula__``); positions are
    then those of the host text.  Works iteratively, so deep trees cannot overflow
    the Python stack.

    >>> from_tree(_parser().parse("f(1, x)"))
    Call(func='f', args=(Num(value=1), Name(name='x')))
    """
    out: list[Node] = []
    stack: list[tuple[Tree, bool]] = [(tree, False)]
    while stack:
        t, ready = stack.pop()
        kids = _tree_children(t)
        if not ready:
            stack.append((t, True))
            stack.extend([(k, False) for k in kids[::-1]])
            continue
        n = len(kids)
        args = out[len(out) - n :]
        del out[len(out) - n :]
        out.append(_build(t, args))
    node = out[0]
    check_limits(node)
    return node


def check_limits(node: Node) -> None:
    """Raise FormulaError when the AST is deeper than MAX_DEPTH or larger than MAX_NODES."""
    positions: list[tuple[int, int]] = []
    stack: list[tuple[Node, int]] = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FormulaError(
                f"formula is nested too deeply (more than {MAX_DEPTH} levels)",
                line=n.line,
                col=n.column,
            )
        positions.append((n.line, n.column))
        stack.extend((k, depth + 1) for k in reversed(_children(n)))
    if len(positions) > MAX_NODES:
        line, col = sorted(positions)[MAX_NODES]
        raise FormulaError(
            f"formula is too large ({len(positions)} parts; the limit is {MAX_NODES})",
            line=line,
            col=col,
        )


def formula_names(source: str | Node) -> set[str]:
    """The names a formula uses (not the functions it calls).

    >>> sorted(formula_names("if floor_zero then max(0, score - 5) else score - 5"))
    ['floor_zero', 'score']
    """
    node = parse_formula(source) if isinstance(source, str) else source
    return {n.name for n in iter_nodes(node) if isinstance(n, Name)}
