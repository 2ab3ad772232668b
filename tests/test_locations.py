"""Errors point at the exact line and column of the offending text in the file.

Inside quoted, folded and literal YAML scalars, multi-line DSL formulas, and at
the key (not the value) for an unknown key.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import minispec
import pytest
import yaml
from click.testing import CliRunner
from spelbok import yamlio
from spelbok.cli.main import cli
from spelbok.errors import SpecError
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec
from spelbok.lang.yamlio import ScalarPosition, load_yaml, place_in_text
from spelbok.validation import validate

HEAD = minispec.HEAD + minispec.STEPS  # then each test's own end line
WINNERS = 'winners: "tricks == max(tricks)"'


def where(path: Path, text: str, name: str = "spec.yaml") -> list[str]:
    """The ``line:col: message`` of each error of the spec ``text`` (each located in its file)."""
    file = path / name
    file.write_text(text, encoding="utf-8")
    errors = [str(e) for e in validate(str(file))]
    assert all(e.startswith(f"{file}:") for e in errors), errors
    return [e.removeprefix(f"{file}:") for e in errors]


def column_of(text: str, word: str) -> str:
    """``line:col`` of the first ``word`` in ``text``."""
    i = text.index(word)
    return f"{text.count(chr(10), 0, i) + 1}:{i - text.rfind(chr(10), 0, i)}"


@pytest.mark.parametrize(
    "end",
    [
        pytest.param(f"end: {{when: hand_number >= 3 + foo, {WINNERS}}}\n", id="plain"),
        pytest.param(f"end: {{when: hand_number  >=   3 + foo, {WINNERS}}}\n", id="plain-spaces"),
        pytest.param(f"end: {{when: 'hand_number >= 3 + foo', {WINNERS}}}\n", id="single-quoted"),
        pytest.param(f"end: {{when: '''x'' == ''x'' and 1 + foo > 0', {WINNERS}}}\n", id="single-quotes"),
        pytest.param(
            f'end: {{when: "\\"a\\\\n\\" != \\t\'\\u00e9\' and 1 + foo > 0", {WINNERS}}}\n',
            id="double-quoted-escapes",
        ),
        pytest.param(f'end: {{when: "hand_number >= 3\n    + foo", {WINNERS}}}\n', id="double-2-lines"),
        pytest.param(f"end:\n  {WINNERS}\n  when: >-\n    hand_number >= 3\n    + foo\n", id="folded"),
        pytest.param(f"end:\n  {WINNERS}\n  when: |\n    hand_number >= 3\n      + foo\n", id="literal"),
        pytest.param(f"end:\n  {WINNERS}\n  when: |2-\n     hand_number >= 3\n     + foo\n", id="literal-indent"),
        pytest.param(f"end:\n  {WINNERS}\n  when: hand_number >= 3\n    + foo\n", id="plain-2-lines"),
    ],
)
def test_formula_error_inside_a_yaml_scalar(tmp_path: Path, end: str) -> None:
    text = HEAD + end
    assert where(tmp_path, text) == [f"{column_of(text, 'foo')}: unknown name 'foo'"]


def test_the_end_of_a_quoted_formula(tmp_path: Path) -> None:
    text = HEAD + f'end: {{when: "hand_number >=", {WINNERS}}}\n'
    # just after the text: at the closing quote
    assert where(tmp_path, text) == ["10:28: unexpected end of formula — expected a value"]


def test_unknown_key_is_located_at_the_key(tmp_path: Path) -> None:
    text = HEAD + f"end: {{when: hand_number >= 3, {WINNERS},\n  foo: {{a: 1}}}}\n"
    assert where(tmp_path, text) == [f"{column_of(text, 'foo')}: unknown key 'foo' in 'end'"]


def test_unknown_key_in_a_step_changed_by_label(tmp_path: Path) -> None:
    base = HEAD.replace("  - tricks: {}\n", "    label: d\n  - tricks: {}\n    label: t\n")
    (tmp_path / "base.yaml").write_text(base + f"end: {{when: hand_number >= 3, {WINNERS}}}\n")
    child = "spelbok: 1\nextends: base.yaml\nhand:\n  d: null\n  t:\n    tricks: {}\n    foo: 1\n"
    assert where(tmp_path, child) == [f"{column_of(child, 'foo')}: unknown key 'foo' in a 'tricks' step"]


DSL = """spelbok 1
game "Mini"
players 2 to 4
deck: A K Q J 10 9 8 7
each player starts the match with score = 0
each hand:
    deal 5 cards
    play tricks
    for each player, set score = score + (if tricks == 1   # one trick
            then 10 + foo
        else 0)
the match ends when hand_number >= 3
    the winners are the players where score == max(score)
"""


def test_formula_error_in_a_multi_line_dsl_formula(tmp_path: Path) -> None:
    assert where(tmp_path, DSL, "spec.spel") == [f"{column_of(DSL, 'foo')}: unknown name 'foo'"]


def test_formula_error_after_runs_of_spaces_in_the_dsl(tmp_path: Path) -> None:
    text = DSL.replace("10 + foo", "10 + 1").replace("hand_number >= 3", "hand_number  >=  3 + foo")
    assert where(tmp_path, text, "spec.spel") == [f"{column_of(text, 'foo')}: unknown name 'foo'"]


def test_scalar_positions_are_plain_positions() -> None:
    data, pos = load_yaml('a: "x\\ty + z"\nb: plain\n', "x.yaml")
    p = pos[("a",)]
    assert isinstance(p, ScalarPosition) and p == (1, 4)
    assert not isinstance(pos[("b",)], ScalarPosition)
    for again in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert again == p and place_in_text(again, data["a"], 1, 7) == (1, 12)


def test_a_changed_text_falls_back_to_the_scalar_start() -> None:
    _, pos = load_yaml('a: "x + y"\n', "x.yaml")
    assert place_in_text(pos[("a",)], "something else", 1, 3) == (1, 4)


# ------------------------------------------------------------------ DSL keyword typos

DSL_HEAD = 'spelbok 1\ngame "X"\n'


@pytest.mark.parametrize(
    ("line", "word", "hint"),
    [
        ("option rule: a or b, defualt b", "defualt", "default"),
        ("option rule: a, b, defualt", "defualt", "default"),
        ("option rule: a, b, Default a", "Default", "default"),
        ("option rule: ture, false", "ture", "true"),
        ("first dealer: randum", "randum", "random"),
        ("first dealer: lowset cut", "lowset", "lowest"),
        ("first dealer: seet 0", "seet", "seat"),
        ("top trumps follow thier printed suit", "thier", "their"),
    ],
)
def test_a_keyword_typo_is_a_located_error(line: str, word: str, hint: str) -> None:
    text = DSL_HEAD + line + "\n"
    with pytest.raises(SpecError) as info:
        parse_dsl(text, "t.spel")
    err = info.value
    assert (err.line, err.col, err.hint) == (3, line.index(word) + 1, hint)
    assert str(err).startswith(f"t.spel:3:{line.index(word) + 1}: unknown word '{word}'")


@pytest.mark.parametrize(
    ("text", "where", "hint"),
    [
        ("top trumps follow teh trump suit\n", "3:19", "the"),
        ("the deal passes to teh left\n", "3:20", "the"),
        ("each player starts the match with x = 0\neach hand:\n    set:\n        x = 1\n"
         '        lable "x"\n', "7:9", "label"),
    ],
)
def test_a_word_before_a_parse_error_that_is_a_keyword_typo(text: str, where: str, hint: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_dsl(DSL_HEAD + text, "t.spel")
    assert str(info.value).startswith(f"t.spel:{where}: unknown word ")
    assert info.value.hint == hint


@pytest.mark.parametrize(
    "line",
    [
        'option rule: a, b, "defualt"',  # quoted: the word itself
        "option rule: pass, play, defer, default play",
        "option rule: strict, lax",
        "first dealer: seat 0",
        "top trumps follow their printed suit",
        "the deal passes to the left",
    ],
)
def test_legitimate_words_next_to_keywords(line: str) -> None:
    parse_dsl(DSL_HEAD + line + "\n", "t.spel")


def test_writer_quotes_near_misses_of_keywords() -> None:
    tree = {"spelbok": 1, "name": "X",
            "options": {"rule": {"values": ["defualt", "Default", "ture", "plain"]}}}
    text = to_dsl(tree)
    assert 'option rule: "defualt", "Default", "ture" or plain' in text
    assert parse_dsl(text, "t.spel")[0]["options"] == tree["options"]


# ------------------------------------------------------------------ convert is lossless or refuses

ODD = ["q\"uote", "back\\slash", "hash # x", "nl\nx", "tab\tx", "é€😀", "cr\rx", "\x85nel",
       "line\u2028sep", "\ufeffbom", "\x7fdel", " lead", "trail ", "'", "--- x", "x: y",
       "- a", "&a", "*a", "!t", "%x", "@x", "`x", "{x}", "[x]", "|", ">", "?", "null", "true",
       "1", "0x1", "1e3", "0o17", ".inf", "~", "-1", "defualt", "Default"]
CONVERT_HEAD = HEAD + f"end: {{when: hand_number >= 3, {WINNERS}}}\n"


def _convert(path: Path, source: Path, to: str) -> str:
    out = path / f"out.{'spel' if to == 'dsl' else 'yaml'}"
    result = CliRunner().invoke(cli, ["convert", str(source), "--to", to, "-o", str(out), "-f"])
    assert result.exit_code == 0, result.output
    return str(out)


@pytest.mark.parametrize("odd", ODD)
def test_convert_keeps_odd_strings(tmp_path: Path, odd: str) -> None:
    q = yaml.dump(odd, default_style='"', width=10**6).strip()  # escaped, one line
    spec = tmp_path / "odd.yaml"
    spec.write_text(
        CONVERT_HEAD.replace("name: Mini", f"name: {q}")
        + f"about: {q}\noptions:\n  o: {{values: [{q}, b], default: {q}}}\n"
        + f"  p: {{values: [1, 2], default: 1, about: {q}}}\n",
        encoding="utf-8",
    )
    canonical = read_spec(str(spec)).tree
    dsl = _convert(tmp_path, spec, "dsl")  # YAML -> DSL -> YAML
    assert read_spec(dsl).tree == canonical
    (tmp_path / "back").mkdir()
    yaml_back = _convert(tmp_path / "back", Path(dsl), "yaml")
    assert read_spec(yaml_back).tree == canonical
    again = _convert(tmp_path, Path(yaml_back), "dsl")  # DSL -> YAML -> DSL
    assert Path(again).read_text(encoding="utf-8") == Path(dsl).read_text(encoding="utf-8")


def test_a_line_break_inside_a_formula_text_is_refused_by_convert(tmp_path: Path) -> None:
    spec = tmp_path / "s.yaml"
    spec.write_text(HEAD + f"end:\n  {WINNERS}\n  when: \"'a\\nb' == 'x'\"\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", str(spec), "--to", "dsl"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith(f"{spec}:12:9: cannot be written as DSL: ")
    assert "line break inside a quoted text" in result.output


def test_a_lone_surrogate_is_refused_in_the_dsl() -> None:
    with pytest.raises(SpecError) as info:
        parse_dsl('spelbok 1\ngame "a\\ud800b"\n', "s.spel")
    assert str(info.value).startswith("s.spel:2:8: '\\ud800' is a lone surrogate")


@pytest.mark.parametrize(("loader", "col"), [("C", 11), ("pure", 9)])
def test_a_lone_surrogate_is_refused_in_yaml(
    monkeypatch: pytest.MonkeyPatch, loader: str, col: int
) -> None:
    if loader == "pure":  # PyYAML's own scanner reads it; libyaml refuses it (after the escape)
        monkeypatch.setattr(yamlio, "_Loader", yamlio._PyLoader)
    with pytest.raises(SpecError) as info:
        load_yaml('name: "a\\ud800b"\n', "s.yaml")
    assert str(info.value).startswith(f"s.yaml:1:{col}: ")  # at the escape


# ------------------------------------------------------------------ structural bounds

DSL_GAME = 'spelbok 1\ngame "X"\nplayers 2 to 4\ndeck: A K Q J 10 9 8 7\n'
DSL_END = "    play tricks\nthe match ends when hand_number >= 3\n    the winners are the players where true\n"


def _dsl_error(text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        parse_dsl(text, "b.spel")
    return info.value


def test_a_huge_dsl_formula_is_refused_before_parsing() -> None:
    err = _dsl_error(DSL_GAME + "each hand:\n    deal " + "(" * 100_000 + "1" + ")" * 100_000
                     + " cards\n" + DSL_END)
    assert err.message.startswith("the spec is too large (more than 20000 words")
    assert (err.line, err.col) == (6, 19_988)  # where the count goes over


def test_a_huge_dsl_file_is_refused() -> None:
    err = _dsl_error(DSL_GAME + "each hand:\n" + "    deal 5 cards\n" * 60_000 + DSL_END)
    assert err.message.startswith("the spec is too large") and err.line is not None


def test_deeply_nested_parentheses_are_refused() -> None:
    line = "    deal " + "(" * 100 + "1" + ")" * 100 + " cards\n"
    err = _dsl_error(DSL_GAME + "each hand:\n" + line + DSL_END)
    assert str(err) == ("b.spel:6:74: the formula is nested too deeply"
                        " (more than 64 parentheses open at once)")


def test_deep_dsl_indentation_is_refused() -> None:
    body = "".join("    " * i + "if true:\n" for i in range(1, 100))
    err = _dsl_error(DSL_GAME + "each hand:\n" + body + DSL_END)
    assert "nested too deeply" in err.message and err.line is not None


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a: " + "9" * 5000 + "\n", "1:4"),
        ("a: [1, -" + "9" * 5000 + "]\n", "1:8"),
        ("a:\n  b: 0x" + "f" * 5000 + "\n", "2:6"),
        ("a: 18446744073709551616\n", "1:4"),
    ],
)
def test_a_huge_yaml_number_is_a_located_error(text: str, where: str) -> None:
    with pytest.raises(SpecError) as info:
        load_yaml(text, "n.yaml")
    assert str(info.value).startswith(f"n.yaml:{where}: the number ")
    assert "is too large: a number in a spec is at most 18446744073709551615" in str(info.value)


def test_the_largest_number_is_fine() -> None:
    assert load_yaml(f"a: [{2**64 - 1}, -{2**64 - 1}, '99999999999999999999']\n", "n.yaml")[0] == {
        "a": [2**64 - 1, -(2**64 - 1), "99999999999999999999"]}
    assert parse_dsl(DSL_GAME + f"option x: {2**64 - 1}, -{2**64 - 1}\n", "n.spel")[0][
        "options"] == {"x": {"values": [2**64 - 1, -(2**64 - 1)]}}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (DSL_GAME.replace("players 2 to 4", "players 2 to " + "9" * 5000), "3:14"),
        (DSL_GAME + "option x: 1, -" + "9" * 5000 + "\n", "5:15"),
        (DSL_GAME + "each hand:\n    deal 1 + " + "9" * 5000 + " cards\n" + DSL_END, "6:14"),
    ],
)
def test_a_huge_dsl_number_is_a_located_error(text: str, where: str) -> None:
    err = _dsl_error(text)
    assert str(err).startswith(f"b.spel:{where}: the number 999999999999… (5000 digits) is too large")
