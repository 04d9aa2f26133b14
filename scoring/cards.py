"""The 36 Swiss-German Jass cards and their one canonical id, ``<suit>-<rank>``.

Every other part of jasscam (the recogniser's labels, the deck art files, the event
schema, the dashboard) names cards by these ids, so this module is the single place that
knows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SUITS: Final[tuple[str, ...]] = ("eicheln", "schilten", "rosen", "schellen")
RANKS: Final[tuple[str, ...]] = ("6", "7", "8", "9", "10", "under", "ober", "koenig", "ass")

#: Natural order (6 lowest, Ass highest): the order of sequences in Weis and of Obenabe.
NATURAL_ORDER: Final[dict[str, int]] = {rank: i for i, rank in enumerate(RANKS)}

#: French-suited decks are scored as their Swiss equivalents.
FRENCH_TO_SWISS: Final[dict[str, str]] = {
    "kreuz": "eicheln",
    "schaufel": "schilten",
    "herz": "rosen",
    "ecken": "schellen",
}


class UnknownCardError(ValueError):
    """A card id that is not one of the 36 Jass cards."""


@dataclass(frozen=True, order=True)
class Card:
    """One of the 36 cards; compare and hash by suit and rank."""

    suit: str
    rank: str

    def __post_init__(self) -> None:
        if self.suit not in SUITS:
            raise UnknownCardError(f"unknown suit {self.suit!r}; expected one of {', '.join(SUITS)}")
        if self.rank not in RANKS:
            raise UnknownCardError(f"unknown rank {self.rank!r}; expected one of {', '.join(RANKS)}")

    @property
    def id(self) -> str:
        return f"{self.suit}-{self.rank}"

    @classmethod
    def parse(cls, card_id: str) -> Card:
        """Parse ``<suit>-<rank>``; French suit names are accepted and mapped to Swiss."""
        if not isinstance(card_id, str) or "-" not in card_id:
            raise UnknownCardError(f"unknown card id {card_id!r}; expected '<suit>-<rank>' such as 'rosen-10'")
        suit, rank = card_id.strip().lower().split("-", 1)
        suit = FRENCH_TO_SWISS.get(suit, suit)
        try:
            return cls(suit, rank)
        except UnknownCardError as exc:
            raise UnknownCardError(f"unknown card id {card_id!r}: {exc}") from None

    def __str__(self) -> str:
        return self.id


ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card(s, r) for s in SUITS for r in RANKS)
ALL_CARD_IDS: Final[tuple[str, ...]] = tuple(c.id for c in ALL_CARDS)
CARD_INDEX: Final[dict[str, int]] = {cid: i for i, cid in enumerate(ALL_CARD_IDS)}


def parse_card(card_id: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(card_id)
