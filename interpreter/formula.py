"""The formula language: parse, check and compile formulas to fast closures.

Formulas and conditions (``"score - tricks"``, ``"count(plays) == 0"``) are parsed
by the Lark grammar ``grammar/formula.lark`` into a small typed AST (frozen
dataclasses carrying 1-based ``line``/``column`` inside the formula text), checked
against a :class:`Resolver` that says what each name means, and compiled into
nested Python closures ``fn(state, seat)`` -- no ``eval``/``exec``.

>>> r = DictResolver(4, {
...     "target": 21,                                   # an option: a constant
...     "trump": NameInfo("global", lambda st: st["trump"], "str"),
...     "score": NameInfo("player", lambda st, q: st["score"][q], "int"),
... })
>>> st = {"trump": "H", "score": [3, 25, 7, 21]}
>>> f = compile_formula("count(score >= target) + (if trump == 'H' then 10 else 0)",
...                     r, per_player=False)
>>> f.fn(st, 0), sorted(f.names), f.cost
(12, ['score', 'target', 'trump'], 19)
>>> compile_formula("score * 2 + target / 4", r, per_player=True).fn(st, 1)
55

Semantics: values are ``int``, ``bool`` or ``str``; ``+ - * / %`` work on ints,
``/`` floors and ``x / 0 == x % 0 == 0`` (evaluation never raises);
``and``/``or``/``not`` take conditions; ``==``/``!=`` never equate values of
different types (``true == 1`` is rejected when the types are known and is false
at run time otherwise); ``< <= > >=`` compare two ints or two strs.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter, neg, not_, truth
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypeAlias, Union

from .errors import FormulaError, SpelbokError, did_you_mean
from .frozen import Frozen
from .limits import MAX_VALUE

if TYPE_CHECKING:  # lark is imported lazily: importing this module must stay cheap
    from lark import Lark, Token, Tree

__all__ = [
    "FUNCTIONS",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "MAX_NODES",
    "STEP_BUDGET",
    "Binary",
    "Bool",
    "Call",
    "Compare",
    "Compiled",
    "DictResolver",
    "IfExpr",
    "Logic",
    "Name",
    "NameInfo",
    "Node",
    "Num",
    "Resolver",
    "Str",
    "Unary",
    "check_limits",
    "compile_formula",
    "evaluate",
    "formula_names",
    "from_tree",
    "iter_nodes",
    "parse_formula",
    "unparse",
]

MAX_LENGTH = 2000
"""Longest formula text accepted (characters)."""
MAX_NODES = 400
"""Most AST nodes in one formula."""
MAX_DEPTH = 40
"""Deepest AST nesting in one formula (the root is at depth 1)."""
STEP_BUDGET = 100_000
"""Largest static cost (see :attr:`Compiled.cost`) a formula may have."""

Value: TypeAlias = int | bool | str
"""A runtime value (``bool`` is kept apart from ``int`` by the type check)."""
TypeName: TypeAlias = Literal["int", "bool", "str", "any"]
"""A static type; ``"any"`` means unknown (the checks are permissive then)."""
Fn: TypeAlias = Callable[[Any, int], Any]
"""A compiled formula: ``fn(state, seat) -> value``."""

AGGREGATES = frozenset({"count", "any", "all", "sum", "max", "min"})
FUNCTIONS = AGGREGATES | {"abs"}
"""Every function name; ``max``/``min`` with one argument aggregate, with more are scalar."""


# --------------------------------------------------------------------------- AST


class _Node(Frozen):
    __slots__ = ()

    def __str__(self) -> str:
        return unparse(self)  # type: ignore[arg-type]


def _pos() -> Any:
    return field(default=1, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Num(_Node):
    """An integer literal (``12``); parsing never yields negative values."""

    value: int
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Str(_Node):
    """A string literal (``'play'`` or ``"play"``), without its quotes."""

    value: str
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Bool(_Node):
    """``true`` or ``false``."""

    value: bool
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Name(_Node):
    """A name, resolved by the :class:`Resolver` (option, variable or builtin)."""

    name: str
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Call(_Node):
    """A function call ``func(args...)``; the position is the function name's."""

    func: str
    args: tuple[Node, ...]
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Unary(_Node):
    """``-operand`` (op ``'-'``) or ``not operand`` (op ``'not'``)."""

    op: str
    operand: Node
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Binary(_Node):
    """Integer arithmetic: op is one of ``+ - * / %``.

    ``line``/``column`` is where the left operand starts; ``op_line``/``op_column``
    is the operator's position (0 when unknown).
    """

    op: str
    left: Node
    right: Node
    line: int = _pos()
    column: int = _pos()
    op_line: int = field(default=0, compare=False, repr=False)
    op_column: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Logic(_Node):
    """``left and right`` / ``left or right`` (short-circuit)."""

    op: str
    left: Node
    right: Node
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Compare(_Node):
    """A comparison, op one of ``== != < <= > >=`` (comparisons do not chain)."""

    op: str
    left: Node
    right: Node
    line: int = _pos()
    column: int = _pos()
    op_line: int = field(default=0, compare=False, repr=False)
    op_column: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class IfExpr(_Node):
    """``if cond then then else else_``."""

    cond: Node
    then: Node
    else_: Node
    line: int = _pos()
    column: int = _pos()


Node: TypeAlias = Union[Num, Str, Bool, Name, Call, Unary, Binary, Logic, Compare, IfExpr]  # noqa: UP007
"""Any AST node.  Equality ignores positions: ``parse_formula('1+2') == parse_formula('1 + 2')``."""


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Binary | Logic | Compare):
        return (node.left, node.right)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, IfExpr):
        return (node.cond, node.then, node.else_)
    return ()


def iter_nodes(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children, left to right.

    >>> [type(n).__name__ for n in iter_nodes(parse_formula("-a + 1"))]
    ['Binary', 'Unary', 'Name', 'Num']
    """
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(_children(n)))


def _op_pos(node: Binary | Compare) -> tuple[int, int]:
    if node.op_line:
        return node.op_line, node.op_column
    return node.line, node.column


# ------------------------------------------------------------------- unparsing

_PREC_BINARY = {"+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
_PREC_LOGIC = {"or": 1, "and": 2}


def unparse(node: Node) -> str:
    """Formula text for an AST, with only the parentheses that are needed.

    ``parse_formula(unparse(n)) == n`` for every tree that parsing can produce.

    >>> unparse(parse_formula("(a + (b * 2)) - (c - d)"))
    'a + b * 2 - (c - d)'
    >>> unparse(parse_formula("not (x and y) or (if p then 1 else 2)"))
    'not (x and y) or (if p then 1 else 2)'
    """
    return _unparse(node, 0)


def _unparse(node: Node, need: int) -> str:
    text, prec = _unparse_prec(node)
    return f"({text})" if prec < need else text


def _unparse_prec(node: Node) -> tuple[str, int]:
    if isinstance(node, Num):
        return str(node.value), (8 if node.value >= 0 else 7)
    if isinstance(node, Str):
        if "'" not in node.value:
            return f"'{node.value}'", 8
        if '"' not in node.value and "\n" not in node.value:
            return f'"{node.value}"', 8
        raise ValueError(f"string {node.value!r} cannot be written in the formula language")
    if isinstance(node, Bool):
        return ("true" if node.value else "false"), 8
    if isinstance(node, Name):
        return node.name, 8
    if isinstance(node, Call):
        return f"{node.func}({', '.join(_unparse(a, 0) for a in node.args)})", 8
    if isinstance(node, Unary):
        if node.op == "-":
            return "-" + _unparse(node.operand, 7), 7
        return "not " + _unparse(node.operand, 3), 3
    if isinstance(node, Binary):
        p = _PREC_BINARY[node.op]
        return f"{_unparse(node.left, p)} {node.op} {_unparse(node.right, p + 1)}", p
    if isinstance(node, Logic):
        p = _PREC_LOGIC[node.op]
        return f"{_unparse(node.left, p)} {node.op} {_unparse(node.right, p + 1)}", p
    if isinstance(node, Compare):
        return f"{_unparse(node.left, 5)} {node.op} {_unparse(node.right, 5)}", 4
    return (
        f"if {_unparse(node.cond, 0)} then {_unparse(node.then, 0)} else {_unparse(node.else_, 0)}",
        0,
    )


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


# -------------------------------------------------------------------- resolver


class NameInfo(NamedTuple):
    """What a name means, as answered by :meth:`Resolver.resolve`.

    ``NameInfo(kind, getter_or_value, type)``:

    - ``kind="const"``: ``value`` is the value itself (int/bool/str), e.g. an option;
      formulas using only constants fold at compile time.
    - ``kind="global"``: ``value`` is a getter ``g(state) -> value`` (hand/match
      variables, ``trump``, ``talon``...).
    - ``kind="player"``: ``value`` is a getter ``g(state, seat) -> value`` (per-player
      variables, ``tricks``, ``out``...).  Getters must not raise and must be pure.

    ``type`` is ``"int"``, ``"bool"``, ``"str"`` (or the Python class) or
    ``"any"``/None when unknown; it drives the static type check.  For constants it
    may be left out and is taken from the value.

    Two optional fields let formulas run with fewer calls; both must agree with
    ``value``:

    - ``direct`` (``"global"``): the same getter taking ``(state, seat)``;
    - ``column`` (``"player"``): where every seat's value lies, as
      ``(attribute, row)``: the list ``state.<attribute>`` (``row`` None) or
      ``state.<attribute>[row]``, one item per seat.  Aggregates then read the
      list at once (``max(score)`` is one call of the built-in ``max``).
    """

    kind: str  # "const" | "global" | "player"
    value: Any
    type: Any = None
    direct: Any = None
    column: tuple[str, int | None] | None = None


class Resolver(Protocol):
    """Tells the compiler what names mean.  The engine implements it per loaded game.

    - ``nseats``: number of seats, fixed when the game is loaded; aggregates iterate
      ``for q in range(nseats)``.
    - ``resolve(name)``: a :class:`NameInfo`, or None when the name is unknown.
    - ``names()``: every known name (for "did you mean" hints only).

    :class:`DictResolver` is a ready-made implementation over a mapping.
    """

    @property
    def nseats(self) -> int: ...

    def resolve(self, name: str) -> NameInfo | None: ...

    def names(self) -> Iterable[str]: ...


class DictResolver:
    """A :class:`Resolver` over a mapping ``name -> NameInfo`` (plain int/bool/str
    values are taken as constants).  Handy in tests, tools and examples.

    >>> r = DictResolver(3, {"limit": 5, "score": NameInfo("player", lambda st, q: st[q], int)})
    >>> evaluate("sum(score) - limit", r, [1, 2, 3])
    1
    """

    def __init__(self, nseats: int, infos: Mapping[str, NameInfo | Value]) -> None:
        self.nseats = nseats
        self._infos = {
            k: v if isinstance(v, NameInfo) else NameInfo("const", v) for k, v in infos.items()
        }

    def resolve(self, name: str) -> NameInfo | None:
        return self._infos.get(name)

    def names(self) -> Iterable[str]:
        return self._infos.keys()


def _norm_type(t: Any, value: Any = None, kind: str = "") -> TypeName:
    if t is None or t == "any" or t is Any:
        if kind == "const":
            t = type(value)
        else:
            return "any"
    if t in ("bool", bool):
        return "bool"
    if t in ("int", int):
        return "int"
    if t in ("str", str):
        return "str"
    return "any"


# -------------------------------------------------------------------- compiler


@dataclass(frozen=True, slots=True)
class Compiled(Frozen):
    """A compiled formula.

    - ``fn(state, seat)``: evaluates it (``seat`` is ignored by global formulas but
      must be passed).  Never raises on well-typed input: ``x / 0 == 0``.
    - ``ast``: the parsed tree; ``text``: the source (or the unparsed AST).
    - ``names``: the names used; ``type``: ``"int"``/``"bool"``/``"str"``/``"any"``.
    - ``cost``: static evaluation steps (each node 1, an aggregate ``nseats`` times
      its argument), at most :data:`STEP_BUDGET`.
    - ``constant``/``value``: True and the value when the formula folded to a
      constant (only literals and options); ``fn`` then just returns ``value``.
    - ``vec(state, seat)``: when not None, every seat's value at once (an
      iterable in seat order), read from per-player lists (NameInfo.column).
    """

    fn: Fn
    ast: Node
    text: str
    names: frozenset[str]
    cost: int
    constant: bool
    value: Value | None
    type: TypeName
    per_player: bool
    vec: Callable[[Any, int], Iterable[Any]] | None = None  # every seat's value at once

    def __call__(self, state: Any, seat: int = 0) -> Any:
        return self.fn(state, seat)


@dataclass(slots=True)
class _C:
    """A compiled sub-formula.

    ``shape`` is ``("col", get, row)`` for a per-player name stored in a list
    (see NameInfo.column): ``not`` and comparisons with a constant read it in
    one call.  ``vec(st, p)``, when set, gives the sub-formula's value for every
    seat at once (an iterable, built by ``map`` over the lists): aggregates
    then run as one built-in call instead of one call per seat.
    """

    fn: Fn
    type: TypeName
    cost: int
    const: bool = False
    value: Any = None
    shape: tuple[Any, ...] | None = None
    seat_free: bool = False  # True only when known not to depend on the seat
    vec: Callable[[Any, int], Iterable[Any]] | None = None


_ARTICLE = {"int": "an int", "bool": "a bool", "str": "a str", "any": "a value"}
_EXPECT_WORDS = {
    "bool": "a condition (true or false)",
    "int": "a number",
    "str": "a text (str)",
}


def _constant(value: Any) -> Fn:
    return lambda st, p: value


def _const(value: Any, type_: TypeName, cost: int) -> _C:
    return _C(_constant(value), type_, cost, True, value, seat_free=True)


def _folded(fn: Fn, type_: TypeName, cost: int) -> _C:
    """Evaluate a closure whose inputs are all constants once, and keep the value."""
    return _const(fn(None, 0), type_, cost)


def compile_formula(
    source: str | Node,
    resolver: Resolver,
    *,
    per_player: bool,
    expect: Literal["int", "bool", "str"] | None = None,
) -> Compiled:
    """Parse (if given text), check and compile a formula.

    ``per_player=True`` compiles a per-player formula: per-player names outside an
    aggregate refer to the ``seat`` passed to ``fn``.  Inside ``count() sum() any()
    all() max() min()`` per-player names refer to the seat being iterated (nested
    aggregates iterate again).  ``expect`` optionally requires a result type (an
    unknown type always passes).  Raises :class:`FormulaError` (column inside the
    formula) for unknown names or functions, misuse of per-player names, wrong
    arity, type errors and formulas over :data:`STEP_BUDGET`.

    >>> r = DictResolver(4, {"floor_zero": False, "bonus": 2,
    ...                      "tricks": NameInfo("player", lambda st, q: st[q], "int")})
    >>> f = compile_formula("if floor_zero then 0 else bonus * 10 / 3", r, per_player=False)
    >>> f.constant, f.value, f.fn(None, 0)
    (True, 6, 6)
    >>> compile_formula("max(tricks) - tricks", r, per_player=True).fn([0, 3, 1, 2], 2)
    2
    >>> compile_formula("tricks > 2", r, per_player=False)
    Traceback (most recent call last):
    ...
    spelbok.errors.FormulaError: <spec>:1:1: 'tricks' is a per-player value; use it inside count(), sum(), any(), all(), max() or min(), or in a per-player rule
    """
    if isinstance(source, str):
        node = parse_formula(source)
        text = source
    else:
        node = source
        check_limits(node)
        text = unparse(node)
    compiler = _Compiler(resolver, per_player)
    c = compiler.compile(node, False)
    compiler.budget(c.cost, node)
    if expect is not None and c.type not in (expect, "any"):
        raise FormulaError(
            f"expected {_EXPECT_WORDS[expect]}, but this formula gives {_ARTICLE[c.type]}",
            line=node.line,
            col=node.column,
        )
    return Compiled(
        fn=c.fn,
        ast=node,
        text=text,
        names=frozenset(formula_names(node)),
        cost=c.cost,
        constant=c.const,
        value=c.value if c.const else None,
        type=c.type,
        per_player=per_player,
        vec=c.vec,
    )


def evaluate(
    source: str | Node,
    resolver: Resolver,
    state: Any,
    seat: int = 0,
    per_player: bool = False,
) -> Any:
    """Compile and evaluate once (convenient in tools and tests; slow on a hot path).

    >>> evaluate("7 / 2 + 7 % 2", DictResolver(2, {}), None)
    4
    """
    return compile_formula(source, resolver, per_player=per_player).fn(state, seat)


class _Compiler:
    def __init__(self, resolver: Resolver, per_player: bool) -> None:
        self.resolver = resolver
        self.per_player = per_player
        self.nseats = int(resolver.nseats)
        self._infos: dict[str, NameInfo | None] = {}

    # -- helpers

    def _lookup(self, name: str) -> NameInfo | None:
        if name not in self._infos:
            self._infos[name] = self.resolver.resolve(name)
        return self._infos[name]

    def budget(self, cost: int, node: Node) -> int:
        """``cost``, unless it is over STEP_BUDGET (then a FormulaError at ``node``)."""
        if cost > STEP_BUDGET:
            raise FormulaError(
                f"formula is too expensive to evaluate: {cost:,} steps with {self.nseats} "
                f"seats (the limit is {STEP_BUDGET:,})",
                line=node.line,
                col=node.column,
            )
        return cost

    @staticmethod
    def _need(c: _C, want: TypeName, node: Node, what: str) -> None:
        if c.type != want and c.type != "any":
            raise FormulaError(
                f"{what} needs {_EXPECT_WORDS[want]}, got {_ARTICLE[c.type]}",
                line=node.line,
                col=node.column,
            )

    # -- dispatch

    def compile(self, node: Node, in_agg: bool) -> _C:
        if isinstance(node, Num | Str | Bool):
            t: TypeName = (
                "int" if isinstance(node, Num) else "str" if isinstance(node, Str) else "bool"
            )
            return _const(node.value, t, 1)
        if isinstance(node, Name):
            return self._name(node, in_agg)
        if isinstance(node, Call):
            return self._call(node, in_agg)
        if isinstance(node, Unary):
            return self._unary(node, in_agg)
        if isinstance(node, Binary):
            return self._binary(node, in_agg)
        if isinstance(node, Logic):
            return self._logic(node, in_agg)
        if isinstance(node, Compare):
            return self._compare(node, in_agg)
        if isinstance(node, IfExpr):
            return self._if(node, in_agg)
        raise TypeError(f"not a formula node: {node!r}")

    # -- names

    def _name(self, node: Name, in_agg: bool) -> _C:
        info = self._lookup(node.name)
        if info is None:
            if node.name in FUNCTIONS:
                raise FormulaError(
                    f"'{node.name}' is a function; call it as {node.name}(...)",
                    line=node.line,
                    col=node.column,
                )
            raise FormulaError(
                f"unknown name '{node.name}'",
                line=node.line,
                col=node.column,
                hint=did_you_mean(node.name, self.resolver.names()),
            )
        kind, target, type_ = info.kind, info.value, info.type
        t = _norm_type(type_, target, kind)
        if kind == "const":
            return _const(target, t, 1)
        if kind == "global":
            g = target
            direct = info.direct
            return _C(direct if direct is not None else (lambda st, p: g(st)), t, 1,
                      seat_free=True)
        if kind == "player":
            if not (in_agg or self.per_player):
                raise FormulaError(
                    f"'{node.name}' is a per-player value; use it inside count(), sum(), "
                    "any(), all(), max() or min(), or in a per-player rule",
                    line=node.line,
                    col=node.column,
                )
            if info.column is not None:
                attr, row = info.column
                get = attrgetter(attr)
                vec: Callable[[Any, int], Iterable[Any]] = (
                    (lambda st, p: get(st)) if row is None else (lambda st, p: get(st)[row]))
                return _C(target, t, 1, shape=("col", get, row), vec=vec)
            return _C(target, t, 1)  # the getter itself: g(state, seat)
        raise ValueError(f"resolver gave an unknown kind {kind!r} for '{node.name}'")

    # -- calls

    def _call(self, node: Call, in_agg: bool) -> _C:
        name, nargs = node.func, len(node.args)
        if name not in FUNCTIONS:
            if self._lookup(name) is not None:
                raise FormulaError(f"'{name}' is not a function", line=node.line, col=node.column)
            raise FormulaError(
                f"unknown function '{name}' (functions: count, any, all, sum, max, min, abs)",
                line=node.line,
                col=node.column,
                hint=did_you_mean(name, sorted(FUNCTIONS)),
            )
        if name in ("max", "min"):
            if nargs == 0:
                raise FormulaError(
                    f"{name} takes 1 or more arguments, got 0", line=node.line, col=node.column
                )
        elif nargs != 1:
            raise FormulaError(
                f"{name} takes 1 argument, got {nargs}",
                line=node.line,
                col=node.column,
            )
        if name in AGGREGATES and nargs == 1:
            return self._aggregate(node)
        args = [self.compile(a, in_agg) for a in node.args]
        for a, c in zip(node.args, args, strict=True):
            self._need(c, "int", a, f"{name}()")
        cost = 1 + sum(c.cost for c in args)
        fns = [c.fn for c in args]
        fn: Fn
        if name == "abs":
            (x,) = fns
            fn = lambda st, p: abs(x(st, p))  # noqa: E731
        elif len(fns) == 2:
            x, y = fns
            if name == "max":
                fn = lambda st, p: max(x(st, p), y(st, p))  # noqa: E731
            else:
                fn = lambda st, p: min(x(st, p), y(st, p))  # noqa: E731
        else:
            f = max if name == "max" else min
            tfns = tuple(fns)
            fn = lambda st, p: f([g(st, p) for g in tfns])  # noqa: E731
        if all(c.const for c in args):
            return _folded(fn, "int", cost)
        return _C(fn, "int", cost)

    def _aggregate(self, node: Call) -> _C:
        name, n = node.func, self.nseats
        arg_node = node.args[0]
        c = self.compile(arg_node, True)
        if name in ("count", "any", "all"):
            self._need(c, "bool", arg_node, f"{name}()")
            t: TypeName = "int" if name == "count" else "bool"
        else:
            self._need(c, "int", arg_node, f"{name}()")
            t = "int"
        cost = self.budget(1 + n * c.cost, node)
        fast = _column_aggregate(name, c)
        if fast is not None:
            return _C(fast, t, cost, seat_free=True)
        e = c.fn
        rng = range(n)
        fn: Fn
        table, pick = _UNROLLED[name]
        unrolled = table.get(n)
        if unrolled is not None and (name in ("sum", "max", "min") or c.type == "bool"):
            fn = unrolled(e) if pick is None else unrolled(e, pick)
        elif name == "count":
            if c.type == "bool":
                fn = lambda st, p: sum(map(e, repeat(st), rng))  # noqa: E731
            else:
                fn = lambda st, p: sum(map(truth, map(e, repeat(st), rng)))  # noqa: E731
        elif name == "any":
            fn = lambda st, p: any(map(e, repeat(st), rng))  # noqa: E731
        elif name == "all":
            fn = lambda st, p: all(map(e, repeat(st), rng))  # noqa: E731
        elif name == "sum":
            fn = lambda st, p: sum(map(e, repeat(st), rng))  # noqa: E731
        elif n == 0:  # max/min over no seats
            return _const(0, "int", cost)
        elif name == "max":
            fn = lambda st, p: max(map(e, repeat(st), rng))  # noqa: E731
        else:
            fn = lambda st, p: min(map(e, repeat(st), rng))  # noqa: E731
        if c.const:
            return _folded(fn, t, cost)
        return _C(fn, t, cost)

    # -- operators

    def _unary(self, node: Unary, in_agg: bool) -> _C:
        c = self.compile(node.operand, in_agg)
        x = c.fn
        fn: Fn
        if node.op == "-":
            self._need(c, "int", node.operand, "'-'")
            t: TypeName = "int"
            fn = lambda st, p: -x(st, p)  # noqa: E731
        else:
            self._need(c, "bool", node.operand, "'not'")
            t = "bool"
            fn = lambda st, p: not x(st, p)  # noqa: E731
            if c.shape is not None and c.shape[0] == "col":
                _, get, row = c.shape
                if row is None:
                    fn = lambda st, p: not get(st)[p]  # noqa: E731
                else:
                    fn = lambda st, p: not get(st)[row][p]  # noqa: E731
        if c.const:
            return _folded(fn, t, c.cost + 1)
        vec = None
        if c.vec is not None:
            v = c.vec
            vec = ((lambda st, p: map(neg, v(st, p))) if node.op == "-"  # noqa: E731
                   else (lambda st, p: map(not_, v(st, p))))  # noqa: E731
        return _C(fn, t, c.cost + 1, seat_free=c.seat_free, vec=vec)

    def _binary(self, node: Binary, in_agg: bool) -> _C:
        a = self.compile(node.left, in_agg)
        b = self.compile(node.right, in_agg)
        op = node.op
        for side in (a, b):
            if side.type not in ("int", "any"):
                line, col = _op_pos(node)
                raise FormulaError(_arith_message(op, a.type, b.type), line=line, col=col)
        cost = 1 + a.cost + b.cost
        division = _DIVISION.get(op)
        if division is not None and b.const and not b.value:
            line, col = _op_pos(node)
            raise FormulaError(f"division by zero: '{unparse(node)}'", line=line, col=col)
        if a.const and b.const:
            return _folded(_ARITH[op](a.fn, b.fn), "int", cost)
        free = a.seat_free and b.seat_free
        vec = _vec2(_VEC_ARITH[op], a, b) if op in _VEC_ARITH else None
        if b.const:
            return _C(_ARITH_RIGHT_CONST[op](a.fn, b.value), "int", cost, seat_free=free, vec=vec)
        if division is not None:  # a divisor worked out in play: 0 is an error naming the formula
            return _C(_divide(a.fn, b.fn, division, unparse(node)), "int", cost, seat_free=free)
        if a.const:
            return _C(_ARITH_LEFT_CONST[op](a.value, b.fn), "int", cost, seat_free=free, vec=vec)
        return _C(_ARITH[op](a.fn, b.fn), "int", cost, seat_free=free, vec=vec)

    def _logic(self, node: Logic, in_agg: bool) -> _C:
        a = self.compile(node.left, in_agg)
        b = self.compile(node.right, in_agg)
        self._need(a, "bool", node.left, f"'{node.op}'")
        self._need(b, "bool", node.right, f"'{node.op}'")
        t: TypeName = "bool" if a.type == b.type == "bool" else "any"
        cost = 1 + a.cost + b.cost
        if a.const:
            decided = (not a.value) if node.op == "and" else bool(a.value)
            if decided:
                return _const(a.value, a.type, cost)
            return _C(b.fn, b.type, cost, b.const, b.value)
        x, y = a.fn, b.fn
        vec = _vec_logic(operator.and_ if node.op == "and" else operator.or_, a, b) \
            if t == "bool" else None
        free = a.seat_free and b.seat_free
        if node.op == "and":
            return _C(lambda st, p: x(st, p) and y(st, p), t, cost, seat_free=free, vec=vec)
        return _C(lambda st, p: x(st, p) or y(st, p), t, cost, seat_free=free, vec=vec)

    def _compare(self, node: Compare, in_agg: bool) -> _C:
        a = self.compile(node.left, in_agg)
        b = self.compile(node.right, in_agg)
        op = node.op
        line, col = _op_pos(node)
        known = a.type != "any" and b.type != "any"
        if known and a.type != b.type:
            raise FormulaError(
                f"cannot compare {_ARTICLE[a.type]} with {_ARTICLE[b.type]}"
                + (" (they are never equal)" if op in ("==", "!=") else ""),
                line=line,
                col=col,
            )
        if op not in ("==", "!=") and "bool" in (a.type, b.type):
            raise FormulaError(
                f"cannot use '{op}' on a bool (only == and != compare true/false)",
                line=line,
                col=col,
            )
        cost = 1 + a.cost + b.cost
        if op in ("==", "!=") and not known:
            strict = _eq_any if op == "==" else _ne_any
            x, y = a.fn, b.fn
            fn: Fn = lambda st, p: strict(x(st, p), y(st, p))  # noqa: E731
            if a.const and b.const:
                return _folded(fn, "bool", cost)
            return _C(fn, "bool", cost)
        if a.const and b.const:
            return _folded(_COMPARE[op](a.fn, b.fn), "bool", cost)
        vec = _vec2(_OPERATOR[op], a, b)
        # a per-player list against a constant: one call per seat
        if a.shape is not None and b.const or b.shape is not None and a.const:
            side, kv, eff = (a, b.value, op) if b.const else (b, a.value, _FLIP[op])
            _, get, row = side.shape  # type: ignore[misc]
            opf = _OPERATOR[eff]
            if row is None:
                fn = lambda st, p: opf(get(st)[p], kv)  # noqa: E731
            else:
                fn = lambda st, p: opf(get(st)[row][p], kv)  # noqa: E731
            return _C(fn, "bool", cost, vec=vec)
        if vec is not None:
            return _C(_COMPARE[op](a.fn, b.fn), "bool", cost, vec=vec)
        if b.const:
            return _C(_COMPARE_RIGHT_CONST[op](a.fn, b.value), "bool", cost)
        if a.const:
            # k < x  <=>  x > k
            return _C(_COMPARE_RIGHT_CONST[_FLIP[op]](b.fn, a.value), "bool", cost)
        return _C(_COMPARE[op](a.fn, b.fn), "bool", cost)

    def _if(self, node: IfExpr, in_agg: bool) -> _C:
        c = self.compile(node.cond, in_agg)
        a = self.compile(node.then, in_agg)
        b = self.compile(node.else_, in_agg)
        self._need(c, "bool", node.cond, "'if'")
        if a.type != b.type and "any" not in (a.type, b.type):
            raise FormulaError(
                f"the two branches of 'if' give different types: {_ARTICLE[a.type]} after "
                f"'then', {_ARTICLE[b.type]} after 'else'",
                line=node.line,
                col=node.column,
            )
        t: TypeName = a.type if a.type == b.type else "any"
        cost = 1 + c.cost + max(a.cost, b.cost)
        if c.const:  # decided by options: the branch taken, as it is
            pick = a if c.value else b
            return _C(pick.fn, t, cost, pick.const, pick.value, pick.shape, pick.seat_free,
                      pick.vec)
        cf, x, y = c.fn, a.fn, b.fn
        if a.const and b.const:
            va, vb = a.value, b.value
            return _C(lambda st, p: va if cf(st, p) else vb, t, cost)
        return _C(lambda st, p: x(st, p) if cf(st, p) else y(st, p), t, cost)


def _eq_any(x: Any, y: Any) -> bool:
    return type(x) is type(y) and x == y


def _ne_any(x: Any, y: Any) -> bool:
    return not (type(x) is type(y) and x == y)


def _arith_message(op: str, ta: TypeName, tb: TypeName) -> str:
    a, b = _ARTICLE[ta], _ARTICLE[tb]
    if op == "+":
        return f"cannot add {a} and {b}"
    if op == "-":
        return f"cannot subtract {b} from {a}"
    if op == "*":
        return f"cannot multiply {a} by {b}"
    if op == "/":
        return f"cannot divide {a} by {b}"
    return f"cannot take {a} modulo {b}"


# Closure factories: one per operator and shape, so the hot path makes no extra calls.
# Each is a def returning a lambda (mypyc, see setup.py, cannot compile a lambda
# that returns a lambda).


def _divide(a: Fn, b: Fn, op: Callable[[Any, Any], Any], text: str) -> Fn:
    """``a / b`` or ``a % b``; a divisor of 0 raises SpelbokError quoting ``text``."""
    def f(st: Any, p: int) -> Any:
        y = b(st, p)
        if not y:
            raise SpelbokError(f"division by zero in the formula '{text}'")
        return op(a(st, p), y)
    return f


def _arith_add(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) + b(st, p)


def _arith_sub(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) - b(st, p)


def _arith_mul(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) * b(st, p)


_ARITH: dict[str, Callable[[Fn, Fn], Fn]] = {
    "+": _arith_add,
    "-": _arith_sub,
    "*": _arith_mul,
    "/": lambda a, b: _divide(a, b, operator.floordiv, ""),  # folding only: b is not 0
    "%": lambda a, b: _divide(a, b, operator.mod, ""),
}
_DIVISION: dict[str, Callable[[Any, Any], Any]] = {"/": operator.floordiv, "%": operator.mod}


def _arith_right_const_add(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) + k


def _arith_right_const_sub(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) - k


def _arith_right_const_mul(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) * k


def _arith_right_const_div(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) // k


def _arith_right_const_mod(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) % k


_ARITH_RIGHT_CONST: dict[str, Callable[[Fn, Any], Fn]] = {  # k != 0 for / and %
    "+": _arith_right_const_add,
    "-": _arith_right_const_sub,
    "*": _arith_right_const_mul,
    "/": _arith_right_const_div,
    "%": _arith_right_const_mod,
}


def _arith_left_const_add(k: Any, b: Any) -> Fn:
    return lambda st, p: k + b(st, p)


def _arith_left_const_sub(k: Any, b: Any) -> Fn:
    return lambda st, p: k - b(st, p)


def _arith_left_const_mul(k: Any, b: Any) -> Fn:
    return lambda st, p: k * b(st, p)


_ARITH_LEFT_CONST: dict[str, Callable[[Any, Fn], Fn]] = {
    "+": _arith_left_const_add,
    "-": _arith_left_const_sub,
    "*": _arith_left_const_mul,
}


def _compare_eq(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) == b(st, p)


def _compare_ne(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) != b(st, p)


def _compare_lt(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) < b(st, p)


def _compare_le(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) <= b(st, p)


def _compare_gt(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) > b(st, p)


def _compare_ge(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) >= b(st, p)


_COMPARE: dict[str, Callable[[Fn, Fn], Fn]] = {
    "==": _compare_eq,
    "!=": _compare_ne,
    "<": _compare_lt,
    "<=": _compare_le,
    ">": _compare_gt,
    ">=": _compare_ge,
}


def _compare_right_const_eq(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) == k


def _compare_right_const_ne(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) != k


def _compare_right_const_lt(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) < k


def _compare_right_const_le(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) <= k


def _compare_right_const_gt(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) > k


def _compare_right_const_ge(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) >= k


_COMPARE_RIGHT_CONST: dict[str, Callable[[Fn, Any], Fn]] = {
    "==": _compare_right_const_eq,
    "!=": _compare_right_const_ne,
    "<": _compare_right_const_lt,
    "<=": _compare_right_const_le,
    ">": _compare_right_const_gt,
    ">=": _compare_right_const_ge,
}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_OPERATOR = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge}


_VEC_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_VEC_AGG: dict[str, Callable[[Iterable[Any]], Any]] = {
    "sum": sum, "max": max, "min": min, "any": any, "all": all}


def _vec2(opf: Callable[[Any, Any], Any], a: _C, b: _C) -> Callable[[Any, int], Iterable[Any]] | None:
    """Every seat's ``opf(a, b)`` at once, when each side is per-seat lists or seat-free."""
    if a.vec is None and b.vec is None:
        return None
    if a.vec is not None and b.vec is not None:
        va, vb = a.vec, b.vec
        return lambda st, p: map(opf, va(st, p), vb(st, p))
    if a.vec is not None and b.seat_free:
        va, k = a.vec, b.fn
        return lambda st, p: map(opf, va(st, p), repeat(k(st, p)))
    if b.vec is not None and a.seat_free:
        vb, k = b.vec, a.fn
        return lambda st, p: map(opf, repeat(k(st, p)), vb(st, p))
    return None


def _as_bools(c: _C) -> Callable[[Any, int], Iterable[bool]] | None:
    """Every seat's truth of ``c`` (a variable typed bool may hold another value)."""
    v = c.vec
    if v is not None:
        return lambda st, p: map(truth, v(st, p))
    if c.seat_free:
        f = c.fn
        return lambda st, p: repeat(bool(f(st, p)))
    return None


def _vec_logic(opf: Callable[[Any, Any], Any], a: _C, b: _C,
               ) -> Callable[[Any, int], Iterable[Any]] | None:
    """Every seat's ``a and b`` / ``a or b`` at once: on bools, & and | are 'and' and 'or'."""
    if a.vec is None and b.vec is None:
        return None
    va, vb = _as_bools(a), _as_bools(b)
    if va is None or vb is None:
        return None
    return lambda st, p: map(opf, va(st, p), vb(st, p))


def _column_aggregate(name: str, c: _C) -> Fn | None:
    """An aggregate over every seat's value at once (see _C.vec): one built-in
    call instead of one Python call per seat; None when the argument has no vec."""
    v = c.vec
    if v is None:
        return None
    if name == "count":
        return lambda st, p: sum(map(truth, v(st, p)))
    agg: Callable[[Iterable[Any]], Any] = _VEC_AGG[name]
    return lambda st, p: agg(v(st, p))


# Aggregates unrolled for the usual seat counts (2..10): about twice as fast as map().
def _sum_unrolled_2(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1)


def _sum_unrolled_3(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2)


def _sum_unrolled_4(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3)


def _sum_unrolled_5(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4)


def _sum_unrolled_6(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5)


def _sum_unrolled_7(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6)


def _sum_unrolled_8(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6) + e(st, 7)
    )


def _sum_unrolled_9(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6) + e(st, 7) + e(st, 8)
    )


def _sum_unrolled_10(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6) + e(st, 7) + e(st, 8) + e(st, 9)
    )


_SUM_UNROLLED: dict[int, Callable[[Fn], Fn]] = dict(enumerate((
    _sum_unrolled_2, _sum_unrolled_3, _sum_unrolled_4, _sum_unrolled_5, _sum_unrolled_6,
    _sum_unrolled_7, _sum_unrolled_8, _sum_unrolled_9, _sum_unrolled_10,
), start=2))


def _any_unrolled_2(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1)


def _any_unrolled_3(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2)


def _any_unrolled_4(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3)


def _any_unrolled_5(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4)


def _any_unrolled_6(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5)


def _any_unrolled_7(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6)
    )


def _any_unrolled_8(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6) or e(st, 7)
    )


def _any_unrolled_9(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6) or e(st, 7) or e(st, 8)
    )


def _any_unrolled_10(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6) or e(st, 7) or e(st, 8) or e(st, 9)
    )


_ANY_UNROLLED: dict[int, Callable[[Fn], Fn]] = dict(enumerate((
    _any_unrolled_2, _any_unrolled_3, _any_unrolled_4, _any_unrolled_5, _any_unrolled_6,
    _any_unrolled_7, _any_unrolled_8, _any_unrolled_9, _any_unrolled_10,
), start=2))


def _all_unrolled_2(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1)


def _all_unrolled_3(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2)


def _all_unrolled_4(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3)


def _all_unrolled_5(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4)


def _all_unrolled_6(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5)


def _all_unrolled_7(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6)
    )


def _all_unrolled_8(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6) and e(st, 7)
    )


def _all_unrolled_9(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6) and e(st, 7) and e(st, 8)
    )


def _all_unrolled_10(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6) and e(st, 7) and e(st, 8) and e(st, 9)
    )


_ALL_UNROLLED: dict[int, Callable[[Fn], Fn]] = dict(enumerate((
    _all_unrolled_2, _all_unrolled_3, _all_unrolled_4, _all_unrolled_5, _all_unrolled_6,
    _all_unrolled_7, _all_unrolled_8, _all_unrolled_9, _all_unrolled_10,
), start=2))


# max() and min() share these: ``pick`` is the built-in
def _extreme_2(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1))


def _extreme_3(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2))


def _extreme_4(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3))


def _extreme_5(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4))


def _extreme_6(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5))


def _extreme_7(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6))


def _extreme_8(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(
        e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6), e(st, 7)
    )


def _extreme_9(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(
        e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6), e(st, 7), e(st, 8)
    )


def _extreme_10(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(
        e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6), e(st, 7), e(st, 8), e(st, 9)
    )


_EXTREME: dict[int, Callable[[Fn, Callable[..., Any]], Fn]] = dict(enumerate((
    _extreme_2, _extreme_3, _extreme_4, _extreme_5, _extreme_6, _extreme_7, _extreme_8,
    _extreme_9, _extreme_10,
), start=2))


# each aggregate's unrolled factories, and the built-in they take (max and min)
_UNROLLED: dict[str, tuple[dict[int, Any], Any]] = {
    "count": (_SUM_UNROLLED, None),
    "sum": (_SUM_UNROLLED, None),
    "any": (_ANY_UNROLLED, None),
    "all": (_ALL_UNROLLED, None),
    "max": (_EXTREME, max),
    "min": (_EXTREME, min),
}
