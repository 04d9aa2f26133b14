"""Independent oracle: jass-kit (PyPI, GPL-3.0, dev dependency only).

jass-kit numbers cards 0..35 by suit (0 Schellen/Diamonds, 9 Rosen/Hearts, 18
Schilten/Spades, 27 Eicheln/Clubs), each suit from Ass (offset 0) down to 6 (offset 8):
A K Q(Ober) J(Under) 10 9 8 7 6. Trumps: 0 Schellen, 1 Rosen, 2 Schilten, 3 Eicheln,
4 Obenabe, 5 Undenufe. Its players also play counter-clockwise, but its numbers go the
other way round (the next player after p is p - 1): ``calc_winner`` returns
``(first_player - i) % 4`` for the i-th card, so with first player 0 the winning card's
index in play order is ``(-player) % 4``.

Its ``get_valid_cards`` misjudges undertrumping when two trumps already lie in the trick
(it compares card indices, not trump rank), so legal cards are compared only where at
most one trump is in the trick, as the issue says.

Seeded loops (not hypothesis) keep this fast and reproducible: 10,000 tricks per
contract for each of trick winner, points and legal cards.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring.cards import ALL_CARD_IDS
from scoring.events import CONTRACTS
from scoring.rules import card_points, card_suit, legal_cards, trick_winner, trump_suit
from scoring.simulate import random_round

jk_const = pytest.importorskip("jass.game.const")
jk_rule = pytest.importorskip("jass.game.rule_schieber")

N_TRICKS = 10_000

_SUIT_BASE = {"schellen": 0, "rosen": 9, "schilten": 18, "eicheln": 27}
_RANK_OFFSET = {"ass": 0, "koenig": 1, "ober": 2, "under": 3, "10": 4, "9": 5, "8": 6, "7": 7, "6": 8}
_TRUMP = {"schellen": 0, "rosen": 1, "schilten": 2, "eicheln": 3, "obenabe": 4, "undenufe": 5}


def jk_index(card_id: str) -> int:
    suit, _, rank = card_id.partition("-")
    return _SUIT_BASE[suit] + _RANK_OFFSET[rank]


def test_card_numbering_matches_jass_kit_strings() -> None:
    names = {"ass": "A", "koenig": "K", "ober": "Q", "under": "J", "10": "10", "9": "9", "8": "8", "7": "7", "6": "6"}
    letters = {"schellen": "D", "rosen": "H", "schilten": "S", "eicheln": "C"}
    for cid in ALL_CARD_IDS:
        suit, _, rank = cid.partition("-")
        assert jk_const.card_strings[jk_index(cid)] == letters[suit] + names[rank]
    assert sorted(jk_index(c) for c in ALL_CARD_IDS) == list(range(36))


def _random_tricks(rng: random.Random, contract: str, n: int) -> list[list[str]]:
    """Half arbitrary four-card tricks, half tricks from legally played random rounds."""
    tricks: list[list[str]] = []
    while len(tricks) < n // 2:
        tricks.append(rng.sample(ALL_CARD_IDS, 4))
    while len(tricks) < n:
        _, plays = random_round(rng, contract, rng.randrange(4))
        tricks += [[c for _, c in plays[i : i + 4]] for i in range(0, 36, 4)]
    return tricks[:n]


@pytest.mark.parametrize("contract", CONTRACTS)
def test_trick_winner_and_points_agree_with_jass_kit(contract: str) -> None:
    rule = jk_rule.RuleSchieber()
    rng = random.Random(f"winner-{contract}")
    trump = _TRUMP[contract]
    for n, cards in enumerate(_random_tricks(rng, contract, N_TRICKS)):
        arr = np.array([jk_index(c) for c in cards], dtype=np.int32)
        player = rule.calc_winner(arr, 0, trump)
        assert trick_winner(cards, contract) == (-player) % 4, (contract, cards)
        last = n % 9 == 8
        ours = sum(card_points(c, contract) for c in cards) + (5 if last else 0)
        assert ours == rule.calc_points(arr, last, trump), (contract, cards)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_legal_cards_agree_with_jass_kit(contract: str) -> None:
    rule = jk_rule.RuleSchieber()
    rng = random.Random(f"legal-{contract}")
    trump = trump_suit(contract)
    compared = 0
    while compared < N_TRICKS:
        deck = list(ALL_CARD_IDS)
        rng.shuffle(deck)
        trick_len = rng.randrange(4)
        trick = deck[:trick_len]
        if sum(card_suit(c) == trump for c in trick) > 1:
            continue
        hand = deck[trick_len : trick_len + rng.randint(1, 9)]
        onehot = np.zeros(36, dtype=np.int32)
        onehot[[jk_index(c) for c in hand]] = 1
        valid = rule.get_valid_cards(onehot, [jk_index(c) for c in trick], trick_len, _TRUMP[contract])
        expected = {c for c in hand if valid[jk_index(c)]}
        assert set(legal_cards(hand, trick, contract)) == expected, (contract, hand, trick)
        compared += 1
