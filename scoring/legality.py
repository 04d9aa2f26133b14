"""Whether each card followed the rules, and whether each Weis was in its hand.

Both are judged from what the round shows, never from a hand the camera saw: the hand a
seat held when laying a card is that card plus everything it lays later in the round.
So a revoke shows up as soon as the kept-back card appears, and a Weis proves not to be
in the hand as soon as another seat lays one of its cards. Each check reports through a
``Flagger`` (the fold's ``flag``), so what is judged here stays apart from how a flag is
recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from scoring.round_play import RoundRecord
from scoring.rules import card_suit, legal_cards, play_contract, trump_suit

#: Flags of a card that broke the follow rules (``illegal_reason``).
ILLEGAL: frozenset[str] = frozenset({"not_following_suit", "not_following_trump", "undertrump"})


class Flagger(Protocol):
    """Records a flag: code, German message, the event's position, the seat, and extras."""

    def __call__(self, code: str, message: str, ref: int | None, seat: int | None = None, **kw: Any) -> None: ...


def illegal_reason(card: str, hand: Sequence[str], before: Sequence[str], contract: str) -> tuple[str, str, str | None]:
    """Why ``card`` was not allowed: (flag code, German message, the kept-back card)."""
    trump = trump_suit(play_contract(contract))
    lead = card_suit(before[0])
    suit = card_suit(card)
    if trump is not None and lead != trump and suit == trump:
        other = next((c for c in hand if card_suit(c) != trump), None)
        return "undertrump", f"{card} untertrumpft, obwohl die Hand noch {other} hatte", other
    if trump is not None and lead == trump:
        kept = next((c for c in hand if card_suit(c) == trump and c != f"{trump}-under"), None)
        return "not_following_trump", f"{card} statt Trumpf gespielt, obwohl die Hand {kept} hatte", kept
    kept = next((c for c in hand if card_suit(c) == lead), None)
    return "not_following_suit", f"{card} gespielt, ohne Farbe zu bekennen ({kept} war in der Hand)", kept


def check_legality(r: RoundRecord, seat: int, flag: Flagger) -> None:
    """Re-judge this seat's earlier cards now that more of its hand is known.

    A card flagged once is not judged again (``r.checked``): each later card of the seat
    would otherwise flag the same revoke anew.
    """
    mine = [i for i, p in enumerate(r.plays) if p.seat == seat]
    for n, i in enumerate(mine):
        play = r.plays[i]
        if play.ref in r.checked:
            continue
        hand = [r.plays[j].card for j in mine[n:]]
        start = max(k for k in r.starts if k <= i)
        before = [p.card for p in r.plays[start:i]]
        if play.card in legal_cards(hand, before, r.contract):
            continue
        code, message, evidence = illegal_reason(play.card, hand, before, r.contract)
        ev_ref = next((r.plays[j].ref for j in mine[n + 1 :] if r.plays[j].card == evidence), None)
        r.checked.add(play.ref)
        flag(code, message, play.ref, seat, evidence_ref=ev_ref, cards=(play.card,) + ((evidence,) if evidence else ()))


def check_weis_cards(r: RoundRecord, flag: Flagger) -> None:
    """Flag each Weis with a card another seat laid (or, once the round is complete, one nobody laid)."""
    owner = {p.card: p.seat for p in r.plays}
    for d in r.decls:
        if d.not_in_hand:
            continue
        wrong = [c for c in d.cards if c in owner and owner[c] != d.seat]
        missing = r.complete and any(c not in owner or owner[c] != d.seat for c in d.cards)
        if wrong or missing:
            d.not_in_hand = True
            concerned = tuple(wrong) if wrong else tuple(c for c in d.cards if owner.get(c) != d.seat)
            what = ", ".join(concerned)
            flag(
                "weis_not_in_hand",
                f"Weis von Platz {d.seat}: {what} nicht in dieser Hand",
                d.ref,
                d.seat,
                cards=concerned,
            )


__all__ = ["ILLEGAL", "Flagger", "check_legality", "check_weis_cards", "illegal_reason"]
