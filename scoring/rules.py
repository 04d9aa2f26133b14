"""Card-level Schieber rules: contracts, card points, trick winner, legal cards, seats.

Everything here works on canonical card ids (``rosen-10``, see :mod:`scoring.cards`) and
contract names (the four suits, ``obenabe``, ``undenufe``; see
:data:`scoring.events.CONTRACTS`). Functions are pure and fast (tables built once at
import), because the game fold, the simulator and the property tests call them for every
card of every trick.

Seats are numbered 0..3 in playing order: play is counter-clockwise, so the next player
after seat ``s`` is ``(s + 1) % 4``. Teams are seats 0+2 (team 0) and 1+3 (team 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scoring.cards import ALL_CARD_IDS, CARD_INDEX, NATURAL_ORDER, SUITS
from scoring.events import CONTRACTS, ROUND_CONTRACTS

OBENABE: Final = "obenabe"
UNDENUFE: Final = "undenufe"
SLALOM: Final = "slalom"
MISERE: Final = "misere"

#: Trump ranking, lowest first: Under > 9 > Ass > König > Ober > 10 > 8 > 7 > 6.
TRUMP_ORDER: Final[tuple[str, ...]] = ("6", "7", "8", "10", "ober", "koenig", "ass", "9", "under")

#: Card points of a plain (non-trump) suit in a trump contract; 30 per suit.
PLAIN_POINTS: Final[dict[str, int]] = {"ass": 11, "koenig": 4, "ober": 3, "under": 2, "10": 10}
#: Card points of the trump suit; 62 in all (Under 20, 9 14).
TRUMP_POINTS: Final[dict[str, int]] = {"under": 20, "9": 14, "ass": 11, "koenig": 4, "ober": 3, "10": 10}
#: Obenabe: every 8 counts 8, no Under/9 bonus; 38 per suit.
OBENABE_POINTS: Final[dict[str, int]] = {"ass": 11, "koenig": 4, "ober": 3, "under": 2, "10": 10, "8": 8}
#: Undenufe: the 6 takes the Ass's 11, the 8 counts 8; 38 per suit.
UNDENUFE_POINTS: Final[dict[str, int]] = {"6": 11, "koenig": 4, "ober": 3, "under": 2, "10": 10, "8": 8}

LAST_TRICK_BONUS: Final[int] = 5
MATCH_BONUS: Final[int] = 100
ROUND_CARD_POINTS: Final[int] = 152


class UnknownContractError(ValueError):
    """A contract name that is not one of the six Schieber contracts."""


def _split(card_id: str) -> tuple[str, str]:
    suit, _, rank = card_id.partition("-")
    return suit, rank


def _check_contract(contract: str) -> None:
    if contract not in CONTRACTS:
        raise UnknownContractError(f"unknown contract {contract!r}; expected one of {', '.join(CONTRACTS)}")


def play_contract(contract: str, trick: int = 0) -> str:
    """The contract a trick is played and counted in: itself for the six Schieber ones.

    The Coiffeur rows Slalom and Misère have no card table of their own: Slalom plays
    Obenabe and Undenufe trick by trick, Obenabe first (trick 0, 2, 4, ... Obenabe), so
    the winner changes with the trick (the cards count as in Obenabe, :func:`card_points`); Misère is played as
    Obenabe (the team's aim is to take little, which the scoring turns round, not the play).
    The functions that play a trick (:func:`trick_winner`, :func:`card_points`,
    :func:`legal_cards`) take them through this; the contract tests
    (:func:`is_trump_contract`, :func:`trump_suit`) know only the six.
    """
    if contract not in ROUND_CONTRACTS:
        raise UnknownContractError(f"unknown contract {contract!r}; expected one of {', '.join(ROUND_CONTRACTS)}")
    if contract == SLALOM:
        return OBENABE if trick % 2 == 0 else UNDENUFE
    if contract == MISERE:
        return OBENABE
    return contract


def is_trump_contract(contract: str) -> bool:
    """True for the four suit contracts, False for Obenabe, Undenufe, Slalom and Misère."""
    _check_contract(contract)
    return contract in SUITS


def trump_suit(contract: str) -> str | None:
    """The trump suit of ``contract``, or None for Obenabe/Undenufe."""
    return contract if is_trump_contract(contract) else None


def _build_points() -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for contract in CONTRACTS:
        row: dict[str, int] = {}
        for cid in ALL_CARD_IDS:
            suit, rank = _split(cid)
            if contract == OBENABE:
                row[cid] = OBENABE_POINTS.get(rank, 0)
            elif contract == UNDENUFE:
                row[cid] = UNDENUFE_POINTS.get(rank, 0)
            elif suit == contract:
                row[cid] = TRUMP_POINTS.get(rank, 0)
            else:
                row[cid] = PLAIN_POINTS.get(rank, 0)
        table[contract] = row
    return table


def _build_strength() -> dict[str, dict[str, int]]:
    """Per contract, a strength for every card: higher wins among cards that can win.

    Trumps get 100 + trump rank so they beat every plain card; plain cards get their
    natural rank (Undenufe: reversed). Whether a plain card can win at all depends on the
    lead suit, which :func:`trick_winner` checks.
    """
    table: dict[str, dict[str, int]] = {}
    for contract in CONTRACTS:
        row: dict[str, int] = {}
        for cid in ALL_CARD_IDS:
            suit, rank = _split(cid)
            if suit == contract:
                row[cid] = 100 + TRUMP_ORDER.index(rank)
            elif contract == UNDENUFE:
                row[cid] = len(NATURAL_ORDER) - NATURAL_ORDER[rank]
            else:
                row[cid] = NATURAL_ORDER[rank]
        table[contract] = row
    return table


_POINTS: Final = _build_points()
_STRENGTH: Final = _build_strength()


def _card_key(card_id: str, contract: str, table: dict[str, dict[str, int]]) -> int:
    contract = play_contract(contract)
    try:
        return table[contract][card_id]
    except KeyError:
        raise ValueError(
            f"unknown card id {card_id!r}; expected canonical '<suit>-<rank>' such as 'rosen-10'"
        ) from None


def card_points(card_id: str, contract: str) -> int:
    """Counting value of one card under ``contract`` (152 over the whole deck in every contract).

    Slalom counts every card as Obenabe does, whichever way its trick was played: counted
    trick by trick in its own mode an Ass won in an Undenufe trick would be worth nothing
    and the round would not add up to 157.
    """
    return _card_key(card_id, play_contract(contract), _POINTS)


_SUIT_OF: Final[dict[str, str]] = {cid: _split(cid)[0] for cid in ALL_CARD_IDS}


def card_suit(card_id: str) -> str:
    """The suit part of a canonical card id."""
    suit = _SUIT_OF.get(card_id)
    return suit if suit is not None else _split(card_id)[0]


def card_rank(card_id: str) -> str:
    """The rank part of a canonical card id."""
    return _split(card_id)[1]


def is_trump(card_id: str, contract: str) -> bool:
    """True if the card belongs to the trump suit of ``contract`` (never in Obenabe/Undenufe)."""
    return card_suit(card_id) == trump_suit(contract)


def trump_beats(a: str, b: str, contract: str) -> bool:
    """True if trump card ``a`` ranks above trump card ``b`` (both must be trumps)."""
    return _STRENGTH[contract][a] > _STRENGTH[contract][b]


def trick_winner(cards: Sequence[str], contract: str, *, void: Sequence[bool] | None = None, trick: int = 0) -> int:
    """Index (in play order, 0 = the lead) of the card that takes the trick.

    A trump beats every plain card; among trumps the trump order decides. Otherwise the
    highest card of the led suit wins (Undenufe: the lowest). ``void`` marks cards that
    lost their trick value (Speck Jass 2.8 penalties): they can never win, and if the lead
    itself is void the led suit is that of the first card that still counts. If every
    card is void the lead keeps the trick (the table has to rule anyway). ``trick``: the
    trick's index in the round (0-based), which Slalom plays alternately Obenabe and Undenufe.
    """
    if not cards:
        raise ValueError("trick_winner needs at least one card")
    contract = play_contract(contract, trick)
    strength = _STRENGTH[contract]
    live = [i for i in range(len(cards)) if not (void and i < len(void) and void[i])]
    if not live:
        return 0
    trump = trump_suit(contract)
    lead_suit = card_suit(cards[live[0]])
    best = live[0]
    best_key = _key(cards[best], lead_suit, trump, strength)
    for i in live[1:]:
        key = _key(cards[i], lead_suit, trump, strength)
        if key > best_key:
            best, best_key = i, key
    return best


def _key(card: str, lead_suit: str, trump: str | None, strength: dict[str, int]) -> int:
    try:
        value = strength[card]
    except KeyError:
        raise ValueError(f"unknown card id {card!r}") from None
    suit = card_suit(card)
    if suit in (trump, lead_suit):
        return value
    return -1  # a discard of another suit never wins


def legal_cards(hand: Sequence[str], trick: Sequence[str], contract: str) -> list[str]:
    """The cards of ``hand`` that may be laid on ``trick`` (cards so far, lead first).

    - Leading: any card.
    - Follow suit if you can. In a trump contract a trump may be played at any time
      instead (trumping is always allowed).
    - Trump led: you must follow with a trump, except that the trump Under never has to
      be played: if it is your only trump you may play anything.
    - After a plain lead was trumped, no undertrumping (a trump lower than the highest
      trump in the trick), unless the hand holds only trumps (then any card).
    - Obenabe/Undenufe: follow suit if you can, else anything.

    - Slalom and Misère: as Obenabe (no trump in any of their tricks).

    Order of the result: deck order (``scoring.cards.ALL_CARD_IDS``: Eicheln, Schilten,
    Rosen, Schellen, each 6 up to Ass), whatever order ``hand`` is in, so two callers
    with the same cards get the same list.
    """
    contract = play_contract(contract)
    hand = sorted(hand, key=lambda c: CARD_INDEX.get(c, len(CARD_INDEX)))
    if not trick:
        return hand
    lead_suit = card_suit(trick[0])
    trump = trump_suit(contract)
    same = [c for c in hand if card_suit(c) == lead_suit]
    if trump is None:
        return same if same else hand
    trumps = [c for c in hand if card_suit(c) == trump]
    if lead_suit == trump:
        if not trumps or trumps == [f"{trump}-under"]:
            return hand
        return trumps
    # plain lead
    strength = _STRENGTH[contract]
    trumps_in_trick = [c for c in trick if card_suit(c) == trump]
    if not trumps_in_trick or len(trumps) == len(hand):
        return [c for c in hand if card_suit(c) in (lead_suit, trump)] if same else hand
    top = max(strength[c] for c in trumps_in_trick)
    allowed = [c for c in hand if card_suit(c) != trump or strength[c] > top]
    if same:
        return [c for c in allowed if card_suit(c) in (lead_suit, trump)]
    return allowed


def is_legal(card: str, hand: Sequence[str], trick: Sequence[str], contract: str) -> bool:
    """True if ``card`` is in ``hand`` and may be laid on ``trick``."""
    return card in legal_cards(hand, trick, contract)


def next_seat(seat: int) -> int:
    """The seat that plays after ``seat`` (play is counter-clockwise: 0, 1, 2, 3, 0, ...)."""
    _check_seat(seat)
    return (seat + 1) % 4


def turn_order(leader: int) -> list[int]:
    """The four seats in the order they play a trick that ``leader`` leads."""
    order = [leader]
    while len(order) < 4:
        order.append(next_seat(order[-1]))
    return order


def team_of(seat: int) -> int:
    """Team 0 is seats 0 and 2, team 1 is seats 1 and 3."""
    _check_seat(seat)
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat opposite ``seat`` (same team)."""
    _check_seat(seat)
    return (seat + 2) % 4


def _check_seat(seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0..3, got {seat!r}")


def trick_points(cards: Sequence[str], contract: str, *, last: bool = False) -> int:
    """Card points of a trick, plus the last-trick bonus if ``last``."""
    return sum(card_points(c, contract) for c in cards) + (LAST_TRICK_BONUS if last else 0)
