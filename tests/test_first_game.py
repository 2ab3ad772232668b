"""The first game a newcomer plays in the terminal (issue 35, items 2 and 7): ``spelbok
play`` without SPEC, the menu's own wording accepted, prompts and hints in sentences with
the table's symbols, the final table, and a player's log in the spec's words."""

from __future__ import annotations

import os
import re

import spelbok
from click.testing import CliRunner, Result
from spelbok.cli.main import cli
from spelbok.cli.play import (
    FIRST_GAME,
    FIRST_PLAYERS,
    _deed,
    _interpret,
    _menu,
    _prompt_lines,
    _symbols,
)
from spelbok.cli.render import PLAIN, Style, player_names
from spelbok.play.bots import make_bot
from spelbok.play.match import play_match


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


# -- the first game ---------------------------------------------------------------------


def test_play_without_a_spec_starts_the_first_game() -> None:
    r = run("play", "--seed", "3", input="quit\n")
    assert r.exit_code == 0, r.output
    assert "a first game: knektpass for 3 players" in r.output
    assert "'spelbok list' shows all" in r.output and "spelbok play GAME" in r.output
    assert "Knektpass · 3 players · seed 3" in r.output
    # a player count given still counts
    assert "Knektpass · 4 players" in run("play", "-n", "4", input="quit\n").output


def test_the_first_game_shows_play() -> None:
    """Most hands of the first game reach the tricks (two-player Knektpass often ends at
    the announcement): the reason it is the first game."""
    game = spelbok.load(FIRST_GAME, players=FIRST_PLAYERS)
    hands = played = 0
    for seed in range(6):
        state = play_match(game, [make_bot("greedy", seed * 10 + p)
                                  for p in range(FIRST_PLAYERS)], seed=seed)
        events = state.log
        starts = [i for i, e in enumerate(events) if e["event"] == "hand"] + [len(events)]
        for a, b in zip(starts, starts[1:]):
            hands += 1
            played += any(e["event"] == "trick" for e in events[a:b])
    assert hands and played / hands >= 0.7, (played, hands)


# -- the menu's own wording --------------------------------------------------------------


def _swap_state() -> spelbok.State:
    state = spelbok.load("knektpass", players=3).new_state(seed=3)
    assert state.current_player == 0 and state.legal_actions()[0].verb == "swap"
    return state


def test_the_menus_wording_is_accepted_in_any_case_and_with_letters() -> None:
    state = _swap_state()
    legal = state.legal_actions()
    menu = _menu(legal, state.game, state.view(0).get("trump"))
    style = Style(symbols=True)
    assert "give A♠" in " ".join(_prompt_lines(state, menu, legal, style))
    for typed in ("give as", "GIVE AS", "give A♠", "Give a♠", "AS", "a♠", "swap as",
                  "  give   AS "):
        assert str(_interpret(typed, state, menu, legal, style)) == "swap AS", typed
    for typed in ("keep all", "KEEP ALL", "keep"):
        assert str(_interpret(typed, state, menu, legal, style)) == "swap", typed


def test_give_is_accepted_at_the_prompt() -> None:
    r = run("play", "knektpass", "-n", "3", "--seed", "3", input="give as\nquit\n")
    assert "swap: you A♠" in r.output and "✗" not in r.output, r.output


def test_a_contract_is_offered_and_accepted_in_words() -> None:
    state = spelbok.load("bridge").new_state(seed=2)
    legal = state.legal_actions()
    words = [a for a in legal if "_" in str(a)]
    assert words
    menu = _menu(legal, state.game, None)
    text = " ".join(_prompt_lines(state, menu, legal, PLAIN))
    assert "_" not in text
    spoken = str(words[0]).replace("_", " ").upper()
    assert _interpret(spoken, state, menu, legal, PLAIN) == words[0]


# -- hints, errors and prompts ----------------------------------------------------------


def test_hint_reads_as_a_sentence() -> None:
    state = spelbok.load("knektpass", players=3).new_state(seed=1)
    while not any(str(a) == "play" for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    word = next(a for a in state.legal_actions() if str(a) == "play")
    assert _deed(word, PLAIN, None) == "say play"  # not 'would play play'
    r = run("play", "knektpass", "-n", "3", "--seed", "1", input="hint\nquit\n")
    said = [line for line in r.output.splitlines() if "bot would" in line]
    assert len(said) == 2 and all(line.rstrip().endswith(".") for line in said), said
    assert "The greedy bot would" in said[0] and "would play play" not in r.output


def test_errors_write_suits_as_the_table_does() -> None:
    assert _symbols("9C is not allowed: you must follow suit (S)", PLAIN) == \
        "9♣ is not allowed: you must follow suit (♠)"
    plain = Style(symbols=False)
    assert _symbols("you must follow suit (S)", plain) == "you must follow suit (S)"


def test_a_pass_says_how_many_cards_and_to_whom() -> None:
    game = spelbok.load("hearts")
    state = game.new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    menu = _menu(legal, game, None)
    names = player_names(4, seat)
    text = " ".join(_prompt_lines(state, menu, legal, PLAIN, names))
    # the first hand passes to the left
    assert f"write the 3 cards to give away to {names[(seat + 1) % 4]}" in text, text
    assert "up to" not in text
    assert len(re.search(r"or just ((?:\S+ ?){3})$", text).group(1).split()) == 3  # type: ignore[union-attr]


# -- the end of the match and the player's log -------------------------------------------


def test_the_match_ends_with_the_final_table() -> None:
    r = run("play", "knektpass", "--seed", "1", input="1\n" * 400)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Match over after" in out and "── final table" in out, out[-800:]
    table = out[out.index("── final table"):].splitlines()
    assert any("★ winner" in line for line in table)
    assert any(line.startswith("  why: [en: ") for line in table)
    assert table[-1] in ("You win!", "You share the win!") or table[-1].startswith("You lose: ")


def test_a_players_log_shows_no_variable_names() -> None:
    r = run("play", "knektpass", "--seed", "1", input="1\n" * 400)
    out = r.output
    assert "score 12 → 7 (-5): [scoring] (en: Scoring" in out  # the change, with the rule
    assert not re.search(r"\b(need|change) -?\d+ →", out), "a spec's working variables"
    r = run("play", "knektpass", "-n", "3", "--seed", "1", input="2\n" * 300)
    assert "[end of hand] under 'sole player'" in r.output  # the step's labels, ...
    assert "because count(" not in r.output  # ... not its condition's formula
    r = run("play", "knockout-whist", "--seed", "2", input="1\n" * 300)
    assert "survived" not in r.output and "last_tricks" not in r.output
    r = run("play", "bridge", "--seed", "2", "--max-hands", "1", input="1\n" * 300)
    assert "contract:" in r.output or "bid:" in r.output
    assert not re.search(r"\b[a-z]+_[a-z]+\b", r.output), \
        re.findall(r".*\b[a-z]+_[a-z]+\b.*", r.output)[:3]


# -- verify ---------------------------------------------------------------------------


def test_verify_names_the_reading_files_path() -> None:
    r = run("verify", "knektpass-1847")
    head = r.output.splitlines()[0]
    path = head.split(" — ")[0]
    assert not path.startswith("spelbok.specs/"), head
    assert path.endswith(os.path.join("readings", "knektpass-1847.yaml")) and \
        os.path.isfile(path), head
