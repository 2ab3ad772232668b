"""Seeded random matches through the PettingZoo environment give the same observations,
masks, rewards and action numbers as the code these digests were recorded from (commit
edf3c21, before the environment's step was sped up): a faster path must change nothing.

Each step digests what ``last()`` returns for the agent to act and what ``observe()``
returns for every other agent, then takes a seeded random action from the mask.
``python -m tests.test_rl_digest`` prints the table again (only to record a deliberate
change of the encoding, with docs/rl.md).
"""

from __future__ import annotations

import hashlib
import random
import zlib
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from spelbok.rl.pettingzoo import env  # noqa: E402

from tests.minispec import mini  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

DOWN = mini('  - deal: {size: 4}\n  - tricks: {face_down: "seat == 1", face_down_shown: false}\n')

#: (spec, players, reward mode): every shipped spec at its fewest players, a few at more,
#: a declared pack with copies, an auction, and face-down play
CASES: list[tuple[str, int, str]] = [
    # the reward mode by the name's checksum, so that a new spec moves no other's mode
    *((p.stem, 0, "win" if zlib.crc32(p.stem.encode()) % 2 else "score")
      for p in sorted(ROOT.glob("specs/*.yaml"))),
    ("knektpass", 5, "score"), ("oh-hell", 5, "win"), ("knektpass-swap-counts", 4, "win"),
    ("knockout-whist-misere", 4, "win"),
    ("tests/specs/pack_readings.yaml", 3, "score"), ("tests/specs/auction_mini.yaml", 0, "win"),
    ("down", 3, "score"),
]


def _spec(name: str) -> str:
    if name == "down":
        return DOWN
    if "/" in name:
        return str(ROOT / name)
    # a variant by its shipped name (an installed, compiled build ships its own copy)
    return f"variants/{name}" if (ROOT / "specs" / "variants" / f"{name}.yaml").exists() else name


def digest(name: str, players: int, reward: str, seeds: int = 2) -> str:
    """The SHA-256 of everything the environment showed over ``seeds`` random matches."""
    h = hashlib.sha256()
    e = env(_spec(name), players=players or None, reward=reward, max_hands=2)
    rng = random.Random(5)
    for seed in range(seeds):
        e.reset(seed=seed)
        for agent in e.agent_iter(max_iter=2000):
            obs, rew, term, trunc, _ = e.last()
            h.update(f"{agent} {rew!r} {term} {trunc}".encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            for other in e.agents:
                if other != agent:
                    o = e.observe(other)
                    h.update(o["observation"].tobytes())
                    h.update(o["action_mask"].tobytes())
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            h.update(repr(legal).encode())
            e.step(rng.choice(legal))
        h.update(repr(sorted(e.rewards.items())).encode())
    return h.hexdigest()[:16]


RECORDED: dict[str, str] = {
    'auction-pitch-0': '1fcb3ff6dd934199',
    'belote-0': 'f01021698ba07a1f',  # turning right (players.direction); melds announced with the first card (declare_melds wait)
    'bridge-0': '76193bd5a25a7659',
    'briscola-0': '6b7729d875722f7a',
    'coinche-0': '3f30ad485c46b72d',  # an auction of point contracts with coinche and surcoinche (doubling: closes, or any_turn by option), the générale by option, sans-atout and tout-atout as modes
    'doppelkopf-0': '5e9aa1bd6b4960bd',  # hidden sides (re masked, seen:re flags), crossed_calls; announcements at a player's turn in a trick (tricks.announce), out of turn too (any_turn: the others asked, pass); the queen, jack and ace solos (three more reservation words) and the fox; poverty's words (poverty, take, refuse, lay_out and give_back cards) in the action space; the compulsory solos' variables (duty, must, deals, duty_solo, forced) in the observation
    'ecarte-0': '01ebec5b1595529d',  # proposals in a repeat, the king marked by an announcement that may end the tricks
    'euchre-0': '92767ae1f2a454b2',
    'example-0': '3cb8bda4aa040e21',
    'five-card-loo-0': '2141f2c2a1e32b38',  # "Pam be civil": a declaration with the ace of trumps (tricks.declare, bound: rest)
    'french-tarot-0': '63ac3be5545f77f0',  # turning right (players.direction); the handful with the first card (tricks.announce), its trumps chosen (exchange give_to: hand); the slam announced (its announcer leads), the Excuse taking a slam's last trick (tricks.takes_trick); the ecart checked (exchange allow), the called king (call: rank_order)
    'german-whist-0': '40997be978936824',
    'hearts-0': '8ac9d538cb17913c',
    'knektpass-0': 'c3016d24d2ad0cd9',
    'knockout-whist-0': '1e35e2e0d893c1ad',
    'mighty-0': '5f4e86e53757d998',  # a declared 53-card pack: the joker led with a suit (tricks.declare, required), the called friend hidden (hidden ally), the friend deals next (dealer.next), the run and the misdeal ending the auction (contract ends)
    'oh-hell-0': '10ff6f8d468d15aa',
    'pinochle-0': 'de3c8837235c4542',
    'rams-0': 'aec7b8a316e2940b',
    'schafkopf-0': '101b3a067d66ca64',  # the Wenz (a mode), the call restricted (call_allow), runners after play
    'schnapsen-0': 'f65894f03ded8311',  # the trump jack exchanged (give_to: turn_up), going out by a claim
    'skat-0': 'ec582c8729f60766',  # the null's mode (the 'mode' slot); discard, then the game
    'spades-0': '0cb3e6f013d40395',
    'spoil-five-0': 'd5a55c0d5949f1f7',  # the black suits' own order (ranking.suit_ranks)
    'truco-mineiro-0': '7d43473fd4ee58fc',  # ties of equal cards (ranking.equal_best), the hand of eleven, no pointless raise
    'tute-0': '68a06e87cd40f76c',  # cantes said at the next lead, their cards shown (tricks.announce shows); the seven (or two) of trumps exchanged (give_to: turn_up); the deal's points kept (a new variable); the side's variables of the four-player game (tute_team, sang, lw_team, cantes_0..2: more observation fields, the same play)
    'tractor-0': '7f871380462bba82',  # the trump shown as the cards are dealt one at a time (deal.shows: a word and a card, or pass, asked after every card; a last chance after the deal; later hands' starter names a suit), plays of several cards with throws (tricks.combos), the trump rank; a failed throw's kept cards known to all (the observation's known cards)
    'twenty-eight-0': '38c6b0cdeba0a176',  # the trump laid aside face down (own discards), called for at a turn in a trick (tricks.announce), taken back face up
    'preferans-0': '4f664853795d189d',  # the all-pass talon's suit led for no one (turn_up + takes_trick), the lone whister's open hands (declare_melds + dummy); w3, on3, fd, sd since the four-player form
    'tressette-0': '2b533427c63e0bd3',  # melds of cards sharing a class (four of a rank, else one three), picked at the first turn (declare_melds choose, wait); the stock's draws face up
    'sueca-0': '7581d38802981d6d',  # the dealer's first or last card turned (a deal of one card to the dealer before the rest)
    'rook-0': '9012a1308947e177',  # a declared pack with an extra card as the top trump (placed by an option: ranking.top_trumps_place), the nest dealt into the rounds, the Rook free to be played (a trick allow)
    'whist-0': '158910e95ff5535b',  # the dealer's last card turned, not a random one of his; its reward mode by its name's checksum (once by its place among the specs)
    'knektpass-5': 'e55baea12ae5a97b',
    'oh-hell-5': '0abeb8e98958b47f',
    'knektpass-swap-counts-4': 'bb8b79ce3138ef98',
    'knockout-whist-misere-4': 'd173af5b4620e5f2',
    'tests/specs/pack_readings.yaml-3': 'debd84191827178b',
    'tests/specs/auction_mini.yaml-0': '5ffaff0cad10c712',
    'down-3': 'b558a756f30cbbb8',
}


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("name", "players", "reward"), CASES,
                         ids=[f"{n.rpartition('/')[2]}-{k}" for n, k, _ in CASES])
def test_the_environment_shows_what_it_showed(name: str, players: int, reward: str) -> None:
    assert digest(name, players, reward) == RECORDED[f"{name}-{players}"]


if __name__ == "__main__":
    for name, players, reward in CASES:
        print(f"    {f'{name}-{players}'!r}: {digest(name, players, reward)!r},")
