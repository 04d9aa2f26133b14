"""Deciding which card a track is, from its vote over frames and what the game allows.

The recogniser's per-frame reads are summed into a vote (best id and alternatives,
weighted by confidence). Two game constraints then narrow it, in order of strength:

1. A card already played this round cannot be played again, so it is struck from the
   vote; if the track reads overwhelmingly as such a card it is that old card seen again
   (a collected pile, a peek at the last trick), not a play.
2. A player who did not follow suit (and did not trump) has shown they hold no card of
   the led suit; such cards are only down-weighted, never struck, because the table may
   have misplayed and the rules engine must see that as it happened.

What remains decides; when it is not clear-cut, the runners-up travel with the event as
``alternatives`` so the dashboard can ask the table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from scoring.cards import CARD_INDEX
from scoring.rules import card_suit, play_contract, trump_suit

#: Vote weight left to a card the player has shown not to hold.
SHOWN_VOID_WEIGHT = 0.3
#: Runners-up below this share of the vote are not worth asking about.
MIN_ALTERNATIVE_SHARE = 0.03
MAX_ALTERNATIVES = 3
#: A round's last trick: once this few cards are left unplayed, they are all a new card can be.
LAST_TRICK = 4


@dataclass(frozen=True)
class Reading:
    """The decided identity of one card, with its confidence and the runners-up."""

    card: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    #: The read is overwhelmingly a card already played this round: an old card seen again.
    replay: bool = False


def resolve(
    votes: Mapping[str, float],
    played: Collection[str],
    *,
    replay_share: float,
    not_held: Collection[str] = (),
) -> Reading | None:
    """Pick the card from ``votes`` given the cards ``played`` this round.

    Returns None when nothing was read at all. ``confidence`` is the chosen card's share
    of the whole vote (struck cards included, so a read forced away from an already
    played card reports low confidence).
    """
    valid = {c: v for c, v in votes.items() if c in CARD_INDEX and v > 0}
    total = sum(valid.values())
    if total <= 0:
        return None
    raw_best = best_card(valid)
    if raw_best in played and valid[raw_best] / total >= replay_share:
        return Reading(raw_best, valid[raw_best] / total, (), replay=True)
    weighted = {c: v * (SHOWN_VOID_WEIGHT if c in not_held else 1.0) for c, v in valid.items() if c not in played}
    best = best_card(weighted) if weighted else raw_best
    share = weighted[best] / total if weighted else 0.0
    if share < MIN_ALTERNATIVE_SHARE:
        # Every read worth the name is a card already played: report the best read, unsure,
        # and let the rules engine flag it rather than invent a card nobody saw (a banner
        # 10 read as the other banner 10 in every frame, with a stray runner-up at 1 %
        # of the vote, was counted as that runner-up and cost a round its score).
        return Reading(raw_best, 0.0, ())
    others = sorted((c for c in weighted if c != best), key=lambda c: (-weighted[c], CARD_INDEX[c]))
    alternatives = tuple(
        (c, round(weighted[c] / total, 3))
        for c in others[:MAX_ALTERNATIVES]
        if weighted[c] / total >= MIN_ALTERNATIVE_SHARE
    )
    return Reading(best, min(1.0, share), alternatives)


def among_the_last(votes: Mapping[str, float], played: Collection[str], reading: Reading) -> Reading:
    """``reading`` of a card whose every read names a card already played, narrowed to the
    cards still unplayed when the round is in its last trick.

    In the last trick the cards nobody has laid yet are all that is left in the players'
    hands, so a card read only as old cards (the last card tossed face up at an angle, a
    corner under the previous card) is one of them: alone, it is that card; of several, the
    one the votes favour, asked with the others. Earlier in the round too many cards are
    left to guess: the read stays as it is, unsure, for the rules engine to flag.
    """
    if reading.confidence >= MIN_ALTERNATIVE_SHARE or reading.replay:
        return reading
    left = sorted((c for c in CARD_INDEX if c not in played), key=lambda c: (-votes.get(c, 0.0), CARD_INDEX[c]))
    if not left or len(left) > LAST_TRICK:
        return reading
    if len(left) == 1:
        # Every other card of the deck is counted: this one is deduced, as sure as those
        # counts are, which the table has seen on the dashboard all round.
        return Reading(left[0], 1.0, ())
    share = 1.0 / len(left)
    return Reading(left[0], share, tuple((c, round(share, 3)) for c in left[1:]))


def best_card(votes: Mapping[str, float]) -> str:
    """Highest vote; ties go to the lower card index so the result never depends on order."""
    return min(votes, key=lambda c: (-votes[c], CARD_INDEX[c]))


def cards_not_held(lead: str, played: str, contract: str) -> set[str]:
    """The cards a player has shown not to hold by laying ``played`` on a trick led by ``lead``.

    Not following suit proves having none of the led suit, except that trumping is always
    allowed (so a trump proves nothing about a plain lead) and the trump Under never has to
    be played (so it stays possible when trump was led).
    """
    lead_suit = card_suit(lead)
    suit = card_suit(played)
    trump = trump_suit(play_contract(contract))  # Slalom and Misère: no trump
    if suit == lead_suit or (trump is not None and suit == trump):
        return set()
    out = {c for c in CARD_INDEX if card_suit(c) == lead_suit}
    if trump is not None and lead_suit == trump:
        out.discard(f"{trump}-under")
    return out
