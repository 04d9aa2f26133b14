"""Weis: what a declared set of cards is worth, and which team writes.

A Weis is a sequence of 3..9 cards of one suit in the natural order 6 7 8 9 10 Under
Ober König Ass (also in Undenufe), worth 20, 50, 100, 150, 200, 250, 300, or four of a
kind: four 10, Ober, König or Ass 100, four 9 150, four Under 200.

Comparison (first difference decides): points, number of cards, the higher top card
(natural order), a sequence in the trump suit, then the Weis declared first in play
order (forehand first). Only the team holding the single best Weis writes, and it writes
all its Weis; the other team writes none (Stöck are separate, see ``scoring.stoeck``).
Settings may first drop a Weis that shares a card with a stronger one of the same
player, and leave out a team that took no trick (:func:`judge`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from scoring.cards import CARD_INDEX, NATURAL_ORDER, RANKS, SUITS

SEQUENCE_POINTS: Final[dict[int, int]] = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}
FOUR_POINTS: Final[dict[str, int]] = {"10": 100, "ober": 100, "koenig": 100, "ass": 100, "9": 150, "under": 200}

RANK_LABEL: Final[dict[str, str]] = {
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "10": "10",
    "under": "Under",
    "ober": "Ober",
    "koenig": "König",
    "ass": "Ass",
}


class WeisError(ValueError):
    """Declared cards that do not form a Weis."""


@dataclass(frozen=True)
class Weis:
    """One Weis: ``kind`` is ``sequence`` or ``four``; ``top`` the highest rank (natural order)."""

    kind: str
    cards: tuple[str, ...]
    points: int
    top: str
    suit: str | None = None

    @property
    def label(self) -> str:
        """A short German name, e.g. ``Vierblatt Rosen bis König`` or ``Vier Under``."""
        if self.kind == "four":
            return f"Vier {RANK_LABEL[self.top]}"
        names = {3: "Dreiblatt", 4: "Vierblatt", 5: "Fünfblatt", 6: "Sechsblatt", 7: "Siebenblatt"}
        name = names.get(len(self.cards), f"{len(self.cards)}-Blatt")
        return f"{name} {str(self.suit).capitalize()} bis {RANK_LABEL[self.top]}"


def _split(card_id: str) -> tuple[str, str]:
    suit, _, rank = card_id.partition("-")
    if suit not in SUITS or rank not in NATURAL_ORDER:
        raise WeisError(f"unknown card id {card_id!r}")
    return suit, rank


def _runs(cards: Iterable[str]) -> list[Weis]:
    by_suit: dict[str, list[int]] = {}
    for cid in cards:
        suit, rank = _split(cid)
        by_suit.setdefault(suit, []).append(NATURAL_ORDER[rank])
    out: list[Weis] = []
    for suit in SUITS:
        ranks = sorted(set(by_suit.get(suit, [])))
        start = 0
        for i in range(1, len(ranks) + 1):
            if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
                run = ranks[start:i]
                if len(run) >= 3:
                    ids = tuple(f"{suit}-{RANKS[r]}" for r in run)
                    out.append(Weis("sequence", ids, SEQUENCE_POINTS[len(run)], RANKS[run[-1]], suit))
                start = i
    return out


def _fours(cards: Iterable[str]) -> list[Weis]:
    by_rank: dict[str, set[str]] = {}
    for cid in cards:
        suit, rank = _split(cid)
        by_rank.setdefault(rank, set()).add(suit)
    out: list[Weis] = []
    for rank in RANKS:
        if rank in FOUR_POINTS and len(by_rank.get(rank, ())) == 4:
            ids = tuple(f"{s}-{rank}" for s in SUITS)
            out.append(Weis("four", ids, FOUR_POINTS[rank], rank))
    return out


def find_weis(hand: Iterable[str]) -> list[Weis]:
    """Every Weis in a hand: each maximal sequence of 3+ cards and each valuable four of a kind.

    Order: strongest first by the comparison of :func:`weis_key` without trump (points,
    cards, top card); equal ones in deck order of their first card.
    """
    hand = list(hand)
    return sorted(
        _runs(hand) + _fours(hand), key=lambda w: (tuple(-k for k in weis_key(w, None, 0)), CARD_INDEX[w.cards[0]])
    )


def evaluate(cards: Sequence[str]) -> list[Weis]:
    """Split a declared set of cards into the Weis it consists of.

    Usually one Weis; a declaration may also combine several (each counts on its own).
    Every card must belong to a sequence of 3+ or to a valuable four of a kind, else
    :class:`WeisError` names the cards that form nothing. Order: as :func:`find_weis`,
    strongest first.
    """
    if not cards:
        raise WeisError("a Weis needs cards")
    if len(set(cards)) != len(cards):
        raise WeisError("a Weis cannot contain the same card twice")
    found = find_weis(cards)
    used = {c for w in found for c in w.cards}
    loose = [c for c in cards if c not in used]
    if loose:
        raise WeisError(
            f"cards {', '.join(loose)} are in no Weis (a Weis is 3+ cards in sequence of one suit, "
            "or four 10, Ober, König, Ass, 9 or Under)"
        )
    return found


def evaluate_each(groups: Sequence[Sequence[str]]) -> list[Weis]:
    """The Weis of a declaration that names each Weis on its own, in the order given.

    Each group must be exactly one Weis (one sequence of 3+ or one valuable four of a
    kind). A card may be in a sequence and in a four of a kind at once (000 «Ein
    Kartenblatt darf gleichzeitig zu einer Sequenz und zu einem Vierling gehören»), but
    not in two sequences: those would be one longer sequence.
    """
    if not groups:
        raise WeisError("a Weis needs cards")
    out: list[Weis] = []
    for cards in groups:
        found = evaluate(cards)
        if len(found) != 1:
            raise WeisError(f"{', '.join(cards)} are {len(found)} Weis; name each Weis on its own")
        out.append(found[0])
    sequences = [w for w in out if w.kind == "sequence"]
    for i, a in enumerate(sequences):
        for b in sequences[i + 1 :]:
            shared = set(a.cards) & set(b.cards)
            if shared:
                raise WeisError(
                    f"{a.label} and {b.label} share {', '.join(sorted(shared, key=CARD_INDEX.__getitem__))}: "
                    "a card may be in a sequence and a four of a kind, not in two sequences"
                )
    return out


def weis_key(weis: Weis, trump: str | None, play_position: int) -> tuple[int, int, int, int, int]:
    """Sort key, higher is better: points, cards, top card, trump sequence, earlier in play order.

    ``play_position`` is the declaring seat's place in the first trick (0 = forehand).
    """
    in_trump = int(weis.kind == "sequence" and trump is not None and weis.suit == trump)
    return (weis.points, len(weis.cards), NATURAL_ORDER[weis.top], in_trump, -play_position)


@dataclass(frozen=True)
class Declared:
    """One Weis as declared at the table: by ``seat``, from event ``ref``."""

    seat: int
    weis: Weis
    ref: int


@dataclass(frozen=True)
class WeisJudgement:
    """Who writes: ``team`` (None if nobody declared), the best Weis, and what each team writes.

    ``shares_card``: Weis dropped because a stronger Weis of the same player uses one of
    their cards (setting ``card_once``); ``left_out``: Weis of a team left out of the
    comparison (``without_teams``: a team that took no trick).
    """

    team: int | None
    best: Declared | None
    counted: tuple[Declared, ...]
    points: tuple[int, int]
    shares_card: tuple[Declared, ...] = ()
    left_out: tuple[Declared, ...] = ()


def drop_shared_cards(declared: Sequence[Declared], trump: str | None) -> tuple[list[Declared], list[Declared]]:
    """Rule text 003 «Eine Karte kann nicht für mehrere Weise verwendet werden. Nur der
    höhere Weis zählt.»: per player, the strongest Weis first, each later one kept only
    if it shares no card with one already kept. Returns (kept, dropped), each in the
    order given."""
    dropped: set[int] = set()
    for seat in {d.seat for d in declared}:
        mine = sorted(
            (i for i, d in enumerate(declared) if d.seat == seat),
            key=lambda i: (weis_key(declared[i].weis, trump, 0), -i),
            reverse=True,
        )
        used: set[str] = set()
        for i in mine:
            cards = set(declared[i].weis.cards)
            if cards & used:
                dropped.add(i)
            else:
                used |= cards
    kept = [d for i, d in enumerate(declared) if i not in dropped]
    return kept, [d for i, d in enumerate(declared) if i in dropped]


def judge(
    declared: Sequence[Declared],
    trump: str | None,
    forehand: int,
    *,
    one_per_player: bool = False,
    card_once: bool = False,
    without_teams: Iterable[int] = (),
) -> WeisJudgement:
    """Compare all valid declarations of a round and decide which team writes what.

    With ``card_once`` a Weis that shares a card with a stronger one of the same player
    is dropped first (:func:`drop_shared_cards`). The Weis of the teams in
    ``without_teams`` (setting «Weis counts only with a trick»: a team that took no
    trick) are left out before the comparison, so the other team writes even its lower
    Weis. With ``one_per_player`` only each player's best Weis counts (the others are
    ignored, both for the comparison and for writing).
    """
    pool = list(declared)
    shared: list[Declared] = []
    if card_once:
        pool, shared = drop_shared_cards(pool, trump)
    out = set(without_teams)
    left_out = [d for d in pool if d.seat % 2 in out]
    pool = [d for d in pool if d.seat % 2 not in out]
    if one_per_player:
        best_of: dict[int, Declared] = {}
        for d in pool:
            cur = best_of.get(d.seat)
            if cur is None or weis_key(d.weis, trump, 0) > weis_key(cur.weis, trump, 0):
                best_of[d.seat] = d
        pool = [d for d in pool if best_of[d.seat] is d]
    if not pool:
        return WeisJudgement(None, None, (), (0, 0), tuple(shared), tuple(left_out))
    best = max(pool, key=lambda d: weis_key(d.weis, trump, (d.seat - forehand) % 4))
    team = best.seat % 2
    counted = tuple(d for d in pool if d.seat % 2 == team)
    total = sum(d.weis.points for d in counted)
    return WeisJudgement(team, best, counted, (total, 0) if team == 0 else (0, total), tuple(shared), tuple(left_out))
