"""Partnerships that hold at some player counts only: ``teams_when``, a condition over
``seats`` and the options (Briscola and Tute: each for himself at two or three,
partners opposite at four)."""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

SPEC = """\
spelbok: 1
name: team counts
players: {{min: 2, max: 4}}
options:
  sides: {{values: [pairs, alone], default: pairs}}
deck:
  - {{players: [2, 4], ranks: [A, K, Q, J, 10, 9, 8, 7]}}
teams: [[0, 2], [1, 3]]
teams_when: "{when}"
hand:
  - set: {{tm: "team", pt: "partner"}}
    for: "true"
  - deal: {{size: 2}}
  - tricks: {{}}
  - set: {{score: "team_tricks"}}
    for: "true"
variables:
  player: {{score: 0}}
  hand_player: {{tm: 0, pt: 0}}
end: {{when: "true", winners: "score == max(score)", score: score}}
"""


def spec(when: str = "seats == 4") -> str:
    return SPEC.format(when=when)


def _scores(players: int, **options: str) -> list[int]:
    game = spelbok.load(spec("seats == 4 and sides == 'pairs'"), players=players,
                        options=options or None)
    st = game.new_state(seed=1)
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    return [int(s) for s in st.scores]


def test_the_teams_hold_only_where_the_condition_holds() -> None:
    assert validate(spec()) == []
    four = _scores(4)
    assert four[0] == four[2] and four[1] == four[3]  # partners score the side's tricks
    assert sum(_scores(4, sides="alone")) == 2  # an option turns them off: own tricks
    assert sum(_scores(3)) == 2


def test_without_the_condition_the_teams_must_cover_every_count() -> None:
    errors = validate(spec("true"))
    text = " ".join(str(e) for e in errors)
    assert "teams must share out seats 0 to 1" in text and "at 2 players" in text
    assert "teams_when" in text  # the hint offers a condition
    line = next(e for e in errors if "seats 0 to 1" in str(e))
    assert line.line == 8  # located at the teams


def test_a_condition_that_lets_the_teams_hold_at_three_is_refused() -> None:
    errors = validate(spec("seats >= 3"))
    assert any("seats 0 to 2" in str(e) and "at 3 players" in str(e) for e in errors)


def test_the_condition_is_fixed_when_the_game_loads() -> None:
    errors = validate(spec("hand_number > 1"))
    assert any("fixed when the game is loaded" in str(e) for e in errors)


def test_teams_when_without_teams_is_an_error() -> None:
    text = spec().replace("teams: [[0, 2], [1, 3]]\n", "")
    assert any("give 'teams' too" in str(e) for e in validate(text))


def test_team_names_follow_the_count() -> None:
    st = spelbok.load(spec(), players=3).new_state(seed=1)
    assert st.var("tm") == [0, 1, 2] and st.var("pt") == [-1, -1, -1]
    st4 = spelbok.load(spec(), players=4).new_state(seed=1)
    assert st4.var("tm") == [0, 1, 0, 1] and st4.var("pt") == [2, 3, 0, 1]


def test_the_dsl_writes_the_condition_after_the_teams() -> None:
    tree = spelbok.load(spec(), players=4).doc.tree
    text = to_dsl(tree)
    assert "teams: seats 0 and 2, seats 1 and 3 when seats == 4" in text
    assert normalize(parse_dsl(text, "d.spel")[0]) == tree


def test_describe_says_when_the_partnerships_hold() -> None:
    text = " ".join(describe(spelbok.load(spec(), players=4).doc).split())
    assert "Partnerships when `seats == 4` (otherwise each player plays for himself)" in text


@pytest.mark.parametrize("name", ["briscola", "tute"])
def test_the_shipped_games_play_in_partnerships_at_four_only(name: str) -> None:
    from spelbok.engine.compiler import Compiler

    for players in (2, 3, 4):
        game = spelbok.load(name, players=players)
        compiler = Compiler(game.tree, players, {}, game.doc.locate)
        compiler.compile()
        teams = list(compiler.resolver.team_of)
        assert teams == ([0, 1, 0, 1] if players == 4 else list(range(players)))


def test_the_condition_alone_has_a_dsl_line_and_is_refused(tmp_path: Path) -> None:
    dsl = ('spelbok 1\ngame "X"\nplayers 2 to 4\ndeck for 2 to 4 players: A K Q J\n'
           "teams when seats == 4\neach hand:\n    deal 2 cards\n    play tricks\n"
           "the match ends when true\n"
           "    the winners are the players where tricks == max(tricks)\n")
    written = to_dsl(normalize(parse_dsl(dsl, "x.spel")[0]))
    assert "teams when seats == 4" in written
    path = tmp_path / "x.spel"
    path.write_text(dsl)
    assert any("give 'teams' too" in str(e) for e in validate(path))
