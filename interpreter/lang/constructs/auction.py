"""The ``auction`` step: a bidding round over ordered contracts (its part ``contract``).

>>> HOME.name, HOME.compile, [c.name for c in HOME.parts]
('auction', 'spelbok.engine.auction_compile:compile_auction', ['contract'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import FRENCH, SUITS
from ...errors import did_you_mean
from ...limits import MAX_CARDS, MAX_CHOICES, short_repr
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field, Word, words_of
from ..dsl_nodes import cond_at, is_node, is_token
from .auction_prose import _label, _rules
from .home import Home
from .players import FIRST_BIDDER

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["CONTRACT", "HOME"]

Path = tuple[Any, ...]

CONTRACT: Construct = Construct("contract", "part", "a contract an auction may reach, in bidding order", (
    Field("level", "int", "its level (`contract_level`): levels never fall along the list",
          required=True, minimum=0, maximum=MAX_CARDS),
    Field("name", "token", "its name (`contract`): a word (bid by saying it) or a number "
          "(bid as `bid N`)", default=Derived("its level")),
    Field("trump", "word", "the trump it sets (a declared pack: its suit letters)",
          default="keep", words=(*words_of(*((s, f"{s} is trump") for s in SUITS)),
                                 *words_of(("none", "no trump"),
                                           ("chosen", "the declarer names a suit"),
                                           ("keep", "the trump stays as it is")))),
    Field("aim", "scalar", "the tricks the declarer must take (`contract_aim`), or `none`: "
          "a negative contract, taking no trick", default=Derived("its level"),
          doc_type="int or none"),
    Field("points", "int", "the points the declarer's side must make (`contract_points`): "
          "a contract aiming at points, not at tricks (give no `aim`); 0: none",
          default=0, omitted=True, minimum=0),
    Field("allow", "condition", "the contract may be bid only when this holds, read for the "
          "bidder (`contract_level` is the highest level bid so far)", default=True),
    Field("ends", "condition", "a bid of it ends the auction at once, no one speaking after "
          "it (read for the bidder as he bids)", default=False),
    SOURCE,
), x_name="in a contract")


DECL: Construct = Construct("auction", "step", "a bidding round over ordered contracts: the highest "
                 "bidder declares", body=(
    Field("contracts", "list[contract]", "the contracts, low to high", required=True,
          min_items=1),
    Field("first", "formula", "the seat that bids first", default=Derived(
        "forehand: `(dealer + 1) % seats`, or `(dealer + seats - 1) % seats` when the turn "
        "goes to the right")),
    Field("pass_final", "condition", "a player who passes may not bid again",
          default=True),
    Field("double", "condition", "an opponent of the highest bidder may double",
          default=False),
    Field("redouble", "condition", "the bidder's side may redouble a double",
          default=False),
    Field("last_word", "condition", "when all the others pass the highest bid, its bidder "
          "speaks once more: he may bid again (as his contracts' allow lets him) or pass, "
          "which ends the auction (with passes not final)", default=False),
    Field("doubling", "word", "what a double does to the bidding", default="open",
          words=(Word("open", "the bidding goes on: any player may still bid over it"),
                 Word("closes", "it ends the bidding but for a redouble: only the doubled "
                      "side speaks, each of its players once, to redouble or pass, and a "
                      "redouble ends the auction"),
                 Word("any_turn", "as closes, and a double may come out of turn: after each "
                      "bid its opponents are asked in turn, before the next player, whether "
                      "they double"))),
    Field("speak", "word", "how often a player may speak", default="any",
          words=(Word("any", "a player may bid again while the auction lasts"),
                 Word("once", "each player speaks once: bids or passes, in turn"))),
    Field("hold", "word", "whether an earlier player may hold a bid at its level",
          default="none",
          words=(Word("none", "each bid is above the highest so far, in turn"),
                 Word("elder", "duels: the next player still in bids to the eldest (from "
                      "`first`), who holds (`hold`, at the same level) or passes; the "
                      "loser drops out and the next bids to the survivor; a holder left "
                      "alone with nothing bid may bid or pass"),
                 Word("in_turn", "in turn, each bid above the highest so far, but a player "
                      "before the highest bidder (from `first`) may instead hold his bid "
                      "(`hold`, at the same level)"))),
    Field("declarer", "word", "who declares the contract reached", default="highest",
          words=(Word("highest", "the highest bidder"),
                 Word("first_to_name", "the first player of the highest bidder's side "
                      "who bid the final contract's trump (or lack of trump)"))),
    Field("partner", "word", "the declarer's partner", default="none",
          words=(Word("none", "none: the declarer plays alone"),
                 Word("called_card", "the holder of a card the declarer calls (a card of "
                      "`called_ranks` not in their hand), unknown to the others until it "
                      "is played", uses=("called_ranks", "call")),
                 Word("teams", "the declarer's team mates (`teams`)"))),
    Field("called_ranks", "ranks", "the ranks of the cards the declarer may call "
          "(partner: called_card)", default=["A"]),
    Field("call_allow", "condition", "which of those cards the declarer may call: a condition "
          "on the card (`card`), read for the declarer once the contract and its trump are "
          "known (partner: called_card); when no card meets it he calls none and plays "
          "alone", default=True),
    Field("call", "word", "which card of `called_ranks` the declarer may call",
          default="not_held",
          words=(Word("not_held", "any card of those ranks he does not hold"),
                 Word("rank_order", "a card of the first of `called_ranks` of which he "
                      "does not hold every card, his own cards of it too (calling himself, "
                      "he plays alone): a king, a queen when he holds the four kings, …"))),
    Field("all_pass", "steps", "steps run when every player passes (absent: the same "
          "dealer deals again)", default=[], omitted=True),
    SOURCE,
))

GRAMMAR = r"""
// a bidding round: the contracts from low to high, then its rules
auction: "hold" "an" "auction" _end _auction_details
_auction_details: _INDENT (_auction_line | _attr)+ _DEDENT
_auction_line: contract | first_bidder | pass_final_yes | pass_final_no | double_yes | double_no
             | redouble_yes | redouble_no | last_word_yes | last_word_no | partner_none | partner_called | partner_teams
             | partner_word | all_pass | speak_once | speak_any | hold_elder | hold_in_turn | hold_none
             | declarer_first | declarer_highest | rule_word | call_allow
             | doubling_closes | doubling_open | doubling_any_turn
contract: "contract" contract_name? "at" "level" INT contract_aim? contract_points? contract_trump? contract_allow? contract_ends? _end
contract_points: "," "aiming" "at" INT "points"
contract_allow: "," "only" "if" formula
contract_ends: "," "ending" "the" "auction" cond?
contract_name: WORD | INT | TEXT
contract_aim: "," "aiming" "at" INT ("trick" | "tricks")    -> aim_tricks
            | "," "aiming" "at" "no" "trick"                -> aim_none
            | "," "aiming" "at" ":" value                   -> aim_value
contract_trump: "," "trump" word
first_bidder: "the" "first" "bidder" "is" formula _NL
pass_final_yes: "passes" "are" "final" cond? _NL
pass_final_no: "passes" "are" "not" "final" _NL
double_yes: "bids" "may" "be" "doubled" cond? _NL
double_no: "bids" "may" "not" "be" "doubled" _NL
redouble_yes: "doubles" "may" "be" "redoubled" cond? _NL
redouble_no: "doubles" "may" "not" "be" "redoubled" _NL
last_word_yes: "the" "highest" "bidder" "has" "the" "last" "word" cond? _NL
last_word_no: "the" "highest" "bidder" "has" "not" "the" "last" "word" _NL
partner_none: "the" "declarer" "plays" "alone" _NL
partner_called: "the" "declarer" "calls" "a" "partner" "by" "a" "card" "of" "rank" rank+ call_order? _NL
// call: rank_order (a card of the first rank he does not hold whole, his own too)
call_order: "," "in" "rank" "order"
partner_teams: "the" "declarer" "plays" "with" "the" "team" _NL
call_allow: "the" "declarer" "may" "call" "a" "card" "only" "if" formula _NL
partner_word: "the" "partner" "of" "the" "declarer" ":" word _NL
all_pass: "if" "all" "pass" ":" _NL _steps_block
speak_once: "each" "player" "speaks" "once" _NL
speak_any: "a" "player" "may" "speak" "again" _NL
hold_elder: "the" "elder" "player" "may" "hold" _NL
hold_in_turn: "an" "earlier" "player" "may" "hold" "in" "turn" _NL
hold_none: "no" "player" "may" "hold" _NL
declarer_first: "the" "declarer" "is" "the" "first" "of" "the" "side" "to" "name" "the" "trump" _NL
declarer_highest: "the" "declarer" "is" "the" "highest" "bidder" _NL
doubling_closes: "a" "double" "closes" "the" "bidding" _NL
doubling_open: "a" "double" "leaves" "the" "bidding" "open" _NL
doubling_any_turn: "a" "double" "may" "come" "out" "of" "turn" "and" "closes" "the" "bidding" _NL
// any other value of speak, hold or declarer (an option's formula, or a word the checks refuse)
rule_word: "by" "rule" WORD ":" word _NL
"""

# an auction's rules on / off: grammar rule -> (key, on)
_FLAGS = {"pass_final_yes": ("pass_final", True), "pass_final_no": ("pass_final", False),
          "double_yes": ("double", True), "double_no": ("double", False),
          "redouble_yes": ("redouble", True), "redouble_no": ("redouble", False),
          "last_word_yes": ("last_word", True), "last_word_no": ("last_word", False)}
_PARTNERS = {"partner_none": "none", "partner_called": "called_card", "partner_teams": "teams",
             "partner_word": ""}
_FIRST = FIRST_BIDDER["left"]
# an auction's words as lines of their own: grammar rule -> (key, word), and back
_WORD_LINES = {"speak_once": ("speak", "once"), "speak_any": ("speak", "any"),
               "hold_elder": ("hold", "elder"), "hold_in_turn": ("hold", "in_turn"),
               "hold_none": ("hold", "none"),
               "declarer_first": ("declarer", "first_to_name"),
               "declarer_highest": ("declarer", "highest"),
               "doubling_closes": ("doubling", "closes"), "doubling_open": ("doubling", "open"),
               "doubling_any_turn": ("doubling", "any_turn")}
_WORD_KEYS = ("speak", "hold", "declarer", "call", "doubling")
_LINE_OF = {kw: line for line, kw in (
    (text, _WORD_LINES[rule]) for rule, text in (
        ("speak_once", "each player speaks once"), ("speak_any", "a player may speak again"),
        ("hold_elder", "the elder player may hold"),
        ("hold_in_turn", "an earlier player may hold in turn"),
        ("hold_none", "no player may hold"),
        ("declarer_first", "the declarer is the first of the side to name the trump"),
        ("declarer_highest", "the declarer is the highest bidder"),
        ("doubling_closes", "a double closes the bidding"),
        ("doubling_open", "a double leaves the bidding open"),
        ("doubling_any_turn", "a double may come out of turn and closes the bidding")))}

# ------------------------------------------------------------------------------ the DSL


def _read_contract(b: _Builder, c: Any, contract: dict[str, Any], cp: Path) -> None:
    """``contract NAME at level N, aiming at …, trump …``."""
    b.mark(cp, c)
    for x in c.children:
        if is_token(x, "INT"):
            contract["level"] = int(x)
            b.mark((*cp, "level"), x)
        elif is_node(x, "contract_name"):
            tok = x.children[0]
            contract["name"] = b.string(tok) if tok.type == "TEXT" else str(tok)
            b.mark((*cp, "name"), tok)
        elif is_node(x, "aim_tricks"):
            contract["aim"] = int(x.children[0])
            b.mark((*cp, "aim"), x)
        elif is_node(x, "aim_none"):
            contract["aim"] = "none"
            b.mark((*cp, "aim"), x)
        elif is_node(x, "aim_value"):
            contract["aim"] = b.value(x.children[0])
            b.mark((*cp, "aim"), x)
        elif is_node(x, "contract_points"):
            contract["points"] = int(x.children[0])
            b.mark((*cp, "points"), x)
        elif is_node(x, "contract_trump"):
            contract["trump"] = b.word(x.children[0])
            b.mark((*cp, "trump"), x.children[0])
        elif is_node(x, "contract_allow"):
            contract["allow"] = b.formula(x.children[0])
            b.mark((*cp, "allow"), x.children[0])
        elif is_node(x, "contract_ends"):
            f = cond_at(x.children, None)
            contract["ends"] = b.formula(f) if f is not None else True
            b.mark((*cp, "ends"), x)
    b.citation(c, contract, cp)


def build(b: _Builder, st: Any, step: dict[str, Any], path: Path) -> None:
    """Reads ``hold an auction``, its contracts and its rules."""
    auction: dict[str, Any] = {"contracts": []}
    step["auction"] = auction
    ap = (*path, "auction")
    b.mark(ap, st)
    contracts = [c for c in st.children if is_node(c, "contract")]
    if contracts:
        b.mark((*ap, "contracts"), contracts[0])
    for c in st.children:
        kind = getattr(c, "data", None)
        if kind == "contract":
            contract: dict[str, Any] = {}
            _read_contract(b, c, contract, (*ap, "contracts", len(auction["contracts"])))
            auction["contracts"].append(contract)
        elif kind == "first_bidder":
            f = c.children[0]
            b.put(auction, (*ap, "first"), b.formula(f), f, "the first bidder")
        elif kind in _FLAGS:
            key, positive = _FLAGS[kind]
            b.put(auction, (*ap, key), b.flag(positive, c.children, c),
                  cond_at(c.children, c), f"the rule '{key}'")
        elif kind in _PARTNERS:
            value = _PARTNERS[kind] or b.word(c.children[0])
            b.put(auction, (*ap, "partner"), value, c, "the declarer's partner")
            ranks = [x for x in c.children if is_node(x, "rank")]
            if ranks:
                auction["called_ranks"] = b.ranks(ranks)
                b.mark_items((*ap, "called_ranks"), ranks)
            for x in c.children:
                if is_node(x, "call_order"):
                    b.put(auction, (*ap, "call"), "rank_order", x, "the rule 'call'")
        elif kind == "call_allow":
            f = c.children[0]
            b.put(auction, (*ap, "call_allow"), b.formula(f), f, "the cards the declarer may call")
        elif kind in _WORD_LINES:
            key, value = _WORD_LINES[kind]
            b.put(auction, (*ap, key), value, c, f"the rule '{key}'")
        elif kind == "rule_word":
            key = str(c.children[0])
            if key not in _WORD_KEYS:
                raise b.fail(f"unknown auction rule '{key}': expected "
                             + ", ".join(_WORD_KEYS), c.children[0])
            b.put(auction, (*ap, key), b.word(c.children[1]), c, f"the rule '{key}'")
        elif kind == "all_pass":
            b.put(auction, (*ap, "all_pass"), [], c, "the steps when all pass")
            auction["all_pass"] = b.steps(c.children, (*ap, "all_pass"))
    b.attrs(st, step, path)


def _contract_line(c: Mapping[str, Any]) -> str:
    t.check(c, t.keys(CONTRACT), "in a contract")
    level = c.get("level", 0)
    name = str(c.get("name", level))
    line = "contract"
    if name != str(level):
        line += " " + (name if name.isascii() and name.isdigit() else t.word(name, ("at",)))
    line += f" at level {level}"
    aim = c.get("aim", level)
    if aim == "none":
        line += ", aiming at no trick"
    elif type(aim) is not int or aim < 0:  # not a valid aim (the checks say so): as given
        line += f", aiming at: {t.value(aim)}"
    elif aim != level:
        line += f", aiming at {aim} trick" + ("" if aim == 1 else "s")
    if c.get("points", 0) != 0:
        line += f", aiming at {c['points']} points"
    if c.get("trump", "keep") != "keep":
        line += f", trump {t.word(c['trump'])}"
    if "allow" in c and t.cond(c["allow"]) is not True:
        line += f", only if {t.formula(c['allow'])}"
    ends = t.cond(c.get("ends", False))
    if ends is True:
        line += ", ending the auction"
    elif ends is not False:
        line += f", ending the auction if {t.formula(c['ends'])}"
    if isinstance(c.get("source"), str):
        line += f" — source {t.quote(c['source'])}"
    return line


def write(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``hold an auction``, its contracts (``contract misere at level 7, aiming at no
    trick, trump none``) and its rules, each on a line of its own."""
    t.check(step, t.keys(DECL), "in an auction step")
    a = step["auction"] or {}
    t.check(a, t.keys(DECL, body=True), "in 'auction'")
    out.add(indent, "hold an auction")
    ind = indent + 1
    for c in a.get("contracts") or []:
        out.add(ind, _contract_line(c))
    first = a.get("first")
    if first is not None and t.formula(first) != FIRST_BIDDER.get(out.direction, _FIRST):
        out.add(ind, f"the first bidder is {t.formula(first)}")
    for key, yes, no, default in (
            ("pass_final", "passes are final", "passes are not final", True),
            ("double", "bids may be doubled", "bids may not be doubled", False),
            ("redouble", "doubles may be redoubled", "doubles may not be redoubled", False),
            ("last_word", "the highest bidder has the last word",
             "the highest bidder has not the last word", False)):
        if key in a and t.cond(a[key]) != default:
            t.flag(out, ind, a[key], yes, no)
    for key in ("speak", "hold", "declarer", "doubling"):
        if key in a and a[key] != DECL.field(key).default:
            line = _LINE_OF.get((key, a[key]))
            out.add(ind, line or f"by rule {key}: {t.word(a[key])}")
    partner = a.get("partner", "none")
    if partner == "called_card":
        ranks = " ".join(t.rank(r) for r in a.get("called_ranks", ["A"]))
        order = ", in rank order" if a.get("call", "not_held") == "rank_order" else ""
        out.add(ind, f"the declarer calls a partner by a card of rank {ranks}{order}")
        if a.get("call", "not_held") not in ("not_held", "rank_order"):  # a word validate refuses, kept
            out.add(ind, f"by rule call: {t.word(a['call'])}")
    elif a.get("call", "not_held") != "not_held":
        raise ValueError("to_dsl: 'call' only goes with 'partner: called_card'")
    elif partner == "teams":
        out.add(ind, "the declarer plays with the team")
    elif partner != "none":
        out.add(ind, f"the partner of the declarer: {t.word(partner)}")
    if "call_allow" in a and t.cond(a["call_allow"]) is not True:
        out.add(ind, f"the declarer may call a card only if {t.formula(a['call_allow'])}")
    out.attrs(ind, step, "auction")
    after = list(a.get("all_pass") or [])
    if after:
        out.add(ind, "if all pass:")
        out.steps(ind + 1, after)


# ------------------------------------------------------------------------------ prose


def describe(ctx: _Ctx, step: Mapping[str, Any], number: str,
             sub: int) -> tuple[str, list[str], list[str]]:
    """Who bids first, the contracts low to high, the rules, and what happens if all pass."""
    body: list[str] = []
    a = step["auction"]
    first = str(a.get("first", _FIRST))
    sides = {v: k for k, v in FIRST_BIDDER.items()}
    who = (f"the player {sides[first]} of the dealer" if first in sides
           else f"seat {p.formula(first)}")
    if a.get("hold") == "elder":
        text = f"An auction in duels, {who} holding first. The contracts, low to high:"
    else:
        text = (f"An auction, starting with {who}: each in turn bids a contract above the "
                "highest so far, or passes. The contracts, low to high:")
    trumps = {"none": "no trump", "chosen": "the declarer names trump",
              "keep": "trump unchanged"}
    for c in a.get("contracts", []):
        aim = c.get("aim")
        goal = "take no trick" if aim == "none" else f"take {aim} trick{'s' if aim != 1 else ''}"
        if c.get("points"):
            goal = f"the declarer's side makes at least {c['points']} points"
        trump = trumps.get(str(c.get("trump")), f"{ctx.suit_name(c.get('trump'))} trump")
        allow = c.get("allow", True)
        only = "" if allow in (True, "true") else f"; only when {p.formula(allow)}"
        ends = c.get("ends", False)
        if ends not in (False, "false"):
            only += "; a bid of it ends the auction" + (
                "" if ends in (True, "true") else f" when {p.formula(ends)}")
        body += p.wrap(f"- {_label(c.get('name'))} (level {c.get('level')}): {goal}; {trump}"
                       f"{only}.", sub)
        body += p.cite(c, sub + 2)
    for r in _rules(a):
        if r:
            body += p.wrap(r, sub)
    after = a.get("all_pass") or []
    if after:
        body.append(" " * sub + "If every player passes:")
        for i, s in enumerate(after, 1):
            body += ctx.step_lines(s, f"{number}.{i}", sub)
    else:
        body += p.wrap("If every player passes, the same dealer deals again.", sub)
    return text, body, p.cite(a, sub)


# ------------------------------------------------------------------------------ checks

#: The auction's own calls, which no contract may be named (engine.auction.RESERVED).
_RESERVED = ("pass", "double", "redouble", "hold")
#: The trumps a contract may set besides a suit's letter.
_TRUMP_WORDS = tuple(w.name for w in CONTRACT.field("trump").words if w.name not in SUITS)


def _check_name(chk: _Checker, at: Path, name: str) -> None:
    """A contract's name is a bid a player can say."""
    pack = chk.cards or FRENCH
    if name.isascii() and name.isdigit():
        if len(name) > 4 or str(int(name)) != name:
            chk.err((*at, "name"), f"the contract '{name}' cannot be bid: a number "
                    "of at most 4 digits, without leading zeros")
    elif not name.replace("_", "").replace("-", "").isalnum() or not name[0].isalpha():
        chk.err((*at, "name"), f"the contract '{name}' cannot be bid: a name is a "
                "number or a word (letters, digits, _ and -)")
    elif name.lower() != name or name in _RESERVED or pack.parse_card(name) is not None:
        chk.err((*at, "name"), f"the contract '{name}' cannot be bid: the word is "
                "in lower case, not a card, and not " + p.or_(_RESERVED))


def _check_partner(chk: _Checker, path: Path, a: dict[str, Any]) -> None:
    """Called ranks only with a called partner, and in the pack; teams only with teams."""
    pack = chk.cards or FRENCH
    if "called_ranks" in a:
        if a["partner"] != "called_card" and chk.written((*path, "called_ranks"), DECL.field("called_ranks").default):
            chk.err((*path, "called_ranks"), "'called_ranks' is only used with "
                    "'partner: called_card'", key=True)
        chk.no_repeats(a["called_ranks"], (*path, "called_ranks"), "rank")
    if a["partner"] == "called_card":  # the default rank (A) may not be in the pack
        for j, r in enumerate(a.get("called_ranks", ["A"])):
            if str(r).upper() not in pack.rank_index:
                chk.err((*path, "called_ranks", j), f"the called rank '{r}' is not a "
                        f"rank of the pack ({' '.join(pack.ranks)}): give 'called_ranks'",
                        did_you_mean(str(r), list(pack.ranks)))
    if a["partner"] == "teams" and not chk.tree.get("teams"):
        chk.err((*path, "partner"), "'partner: teams' needs the spec's 'teams'")
    if a.get("call_allow", True) not in (True, "true") and a["partner"] != "called_card":
        chk.err((*path, "call_allow"), "'call_allow' is only used with "
                "'partner: called_card'", key=True)
    if chk.written((*path, "call"), DECL.field("call").default) and a["partner"] != "called_card":
        chk.err((*path, "call"), "'call' is only used with 'partner: called_card'", key=True)


def check(chk: _Checker, step_path: Path, step: dict[str, Any]) -> None:
    """An auction's contracts: names a bid can say, levels that never fall, known trumps."""
    path = (*step_path, "auction")
    a = step["auction"]
    names: list[str] = []
    level = None
    # a declared pack's suit letters name its trumps (the French letters otherwise)
    trumps = [*(chk.cards or FRENCH).letters, *_TRUMP_WORDS]
    if len(a["contracts"]) > MAX_CHOICES:  # each is a bid offered at every turn
        chk.err((*path, "contracts"), f"an auction may list at most {MAX_CHOICES} "
                f"contracts, not {len(a['contracts'])}")
        return
    for i, c in enumerate(a["contracts"]):
        at = (*path, "contracts", i)
        name = str(c["name"])
        names.append(name)
        _check_name(chk, at, name)
        if level is not None and c["level"] < level:
            chk.err((*at, "level"), f"the contracts are not in order: '{name}' (level "
                    f"{c['level']}) comes after a contract of level {level} (list them "
                    "from low to high)")
        level = c["level"] if level is None else max(level, c["level"])
        if c["trump"] not in trumps:
            chk.err((*at, "trump"), f"unknown trump '{c['trump']}' of the contract "
                    f"'{name}': expected {', '.join(trumps)}",
                    hint=did_you_mean(str(c["trump"]), trumps))
        aim = c.get("aim")
        if aim != "none" and (type(aim) is not int or aim < 0):
            chk.err((*at, "aim"), f"the aim of the contract '{name}' is a number of tricks "
                    f"or none, not {short_repr(aim)}")
        elif c.get("points") and chk.written((*at, "aim"), c["level"]):
            chk.err((*at, "aim"), f"the contract '{name}' aims at {c['points']} points: it "
                    "aims at no count of tricks besides (remove 'aim' or 'points')", key=True)
    chk.no_repeats(names, (*path, "contracts"), "contract")
    _check_partner(chk, path, a)
    _check_rules(chk, path, a)


def _check_rules(chk: _Checker, path: Path, a: dict[str, Any]) -> None:
    """The holder's right goes in duels: passes are final, each speaks more than once,
    and no one doubles; speaking once makes a pass final."""
    if a.get("hold") == "elder":
        for key, bad in (("speak", "once"), ("pass_final", False), ("double", None)):
            value = a.get(key)
            if key in a and (value == bad if bad is not None else value not in (False, "false")):
                chk.err((*path, key), f"'{key}: {short_repr(value)}' cannot go with "
                        "'hold: elder' (its duels have final passes, players speaking "
                        "again, and no doubling)")
    if a.get("speak") == "once" and a.get("pass_final") in (False, "false"):
        chk.err((*path, "pass_final"), "'pass_final: false' cannot go with 'speak: once' "
                "(a player who passed has spoken)")
    if a.get("last_word", False) not in (False, "false") and (
            a.get("pass_final", True) not in (False, "false") or a.get("speak") == "once"):
        chk.err((*path, "last_word"), "'last_word' needs 'pass_final: false' (a player "
                "who passed may bid again) and 'speak: any'")
    if a.get("doubling") == "any_turn" and a.get("hold", "none") != "none":
        chk.err((*path, "doubling"), "'doubling: any_turn' cannot go with 'hold'")
    if a.get("speak") == "once" and a.get("hold") == "in_turn":
        chk.err((*path, "hold"), "'hold: in_turn' cannot go with 'speak: once' (an earlier "
                "player never speaks again to hold)")


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The partner (``teams`` needs the spec's teams), the first bidder, the conditions
    of the pass and the doubles, then the steps when all pass."""
    d = step["auction"]
    p = (*path, "auction")
    mode = c.constant(d.get("partner", "none"), (*p, "partner"),
                      tuple(w.name for w in DECL.field("partner").words))
    if mode == "teams" and not c.team_seats:
        c.error((*p, "partner"), "'partner: teams' needs the spec's 'teams' (at this count)")
    for word, fallback in (("speak", "any"), ("hold", "none"), ("declarer", "highest"),
                           ("call", "not_held"), ("doubling", "open")):
        c.constant(d.get(word, fallback), (*p, word),
                   tuple(w.name for w in DECL.field(word).words))
    for i, k in enumerate(d.get("contracts") or []):
        allow: Any = k.get("allow", True) if isinstance(k, dict) else True
        if allow is not True and allow != "true":
            c.formula(allow, (*p, "contracts", i, "allow"), True)
        ends: Any = k.get("ends", False) if isinstance(k, dict) else False
        if ends is not False and ends != "false":
            c.formula(ends, (*p, "contracts", i, "ends"), True)
    if d.get("call_allow", True) not in (True, "true"):
        c.condition(d["call_allow"], (*p, "call_allow"), True, "`suit_of(card) != 'H'`")
    c.number(d.get("first", _FIRST), (*p, "first"), False)
    for key, default in (("pass_final", True), ("double", False), ("redouble", False),
                         ("last_word", False)):
        if not isinstance(d.get(key, default), bool):
            c.formula(d[key], (*p, key), False)
    c.check_steps(d.get("all_pass") or [], (*p, "all_pass"))


HOME: Home = Home(DECL, parts=(CONTRACT,), grammar=GRAMMAR, builds={"auction": build}, write=write,
            compile_check=compile_check,
            describe=describe, check=check, compile="spelbok.engine.auction_compile:compile_auction",
            code_parts=("start", "bid", "trump", "call", "skip", "redeal"))
