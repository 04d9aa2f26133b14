"""Card names an enrolment accepts and the names a deck shows.

Scoring only knows the 36 Swiss ids (``scoring.cards``). A French deck is scored as its
Swiss equivalent (kreuz=eicheln, schaufel=schilten, herz=rosen, ecken=schellen), but the
table calls its cards by their own names, so a deck profile keeps its suit system and
the dashboard shows the deck's own words.
"""

from __future__ import annotations

import re
from typing import Final

from scoring.cards import FRENCH_TO_SWISS, RANKS, SUITS
from vision.detection import BACK

SUIT_SYSTEMS: Final[tuple[str, ...]] = ("swiss", "french")

#: Everything a file name may call a suit, mapped to (Swiss suit, suit system it implies).
SUIT_ALIASES: Final[dict[str, tuple[str, str]]] = {
    **{s: (s, "swiss") for s in SUITS},
    "eichel": ("eicheln", "swiss"),
    "schilte": ("schilten", "swiss"),
    "rose": ("rosen", "swiss"),
    "schelle": ("schellen", "swiss"),
    **{f: (s, "french") for f, s in FRENCH_TO_SWISS.items()},
    "clubs": ("eicheln", "french"),
    "club": ("eicheln", "french"),
    "trefle": ("eicheln", "french"),
    "spades": ("schilten", "french"),
    "spade": ("schilten", "french"),
    "pik": ("schilten", "french"),
    "pique": ("schilten", "french"),
    "hearts": ("rosen", "french"),
    "heart": ("rosen", "french"),
    "coeur": ("rosen", "french"),
    "diamonds": ("schellen", "french"),
    "diamond": ("schellen", "french"),
    "karo": ("schellen", "french"),
    "carreau": ("schellen", "french"),
    "egge": ("schellen", "french"),
}

RANK_ALIASES: Final[dict[str, str]] = {
    **{r: r for r in RANKS},
    "banner": "10",
    "u": "under",
    "unter": "under",
    "bube": "under",
    "jack": "under",
    "j": "under",
    "valet": "under",
    "o": "ober",
    "dame": "ober",
    "queen": "ober",
    "q": "ober",
    "konig": "koenig",
    "könig": "koenig",
    "king": "koenig",
    "k": "koenig",
    "roi": "koenig",
    "a": "ass",
    "as": "ass",
    "ace": "ass",
}

#: The deck's own words per suit system and language: Swiss suit -> name, rank -> name.
SUIT_NAMES: Final[dict[str, dict[str, dict[str, str]]]] = {
    "swiss": {
        "de": {"eicheln": "Eicheln", "schilten": "Schilten", "rosen": "Rosen", "schellen": "Schellen"},
        "fr": {"eicheln": "Glands", "schilten": "Écus", "rosen": "Roses", "schellen": "Grelots"},
        "en": {"eicheln": "Acorns", "schilten": "Shields", "rosen": "Roses", "schellen": "Bells"},
    },
    "french": {
        "de": {"eicheln": "Kreuz", "schilten": "Schaufel", "rosen": "Herz", "schellen": "Ecken"},
        "fr": {"eicheln": "Trèfle", "schilten": "Pique", "rosen": "Cœur", "schellen": "Carreau"},
        "en": {"eicheln": "Clubs", "schilten": "Spades", "rosen": "Hearts", "schellen": "Diamonds"},
    },
}
RANK_NAMES: Final[dict[str, dict[str, dict[str, str]]]] = {
    "swiss": {
        "de": {
            "6": "6",
            "7": "7",
            "8": "8",
            "9": "9",
            "10": "Banner",
            "under": "Under",
            "ober": "Ober",
            "koenig": "König",
            "ass": "Ass",
        },
        "fr": {
            "6": "6",
            "7": "7",
            "8": "8",
            "9": "9",
            "10": "Banneret",
            "under": "Valet",
            "ober": "Dame",
            "koenig": "Roi",
            "ass": "As",
        },
        "en": {
            "6": "6",
            "7": "7",
            "8": "8",
            "9": "9",
            "10": "Banner",
            "under": "Under",
            "ober": "Ober",
            "koenig": "King",
            "ass": "Ace",
        },
    },
    "french": {
        "de": {
            "6": "6",
            "7": "7",
            "8": "8",
            "9": "9",
            "10": "10",
            "under": "Bube",
            "ober": "Dame",
            "koenig": "König",
            "ass": "Ass",
        },
        "fr": {
            "6": "6",
            "7": "7",
            "8": "8",
            "9": "9",
            "10": "10",
            "under": "Valet",
            "ober": "Dame",
            "koenig": "Roi",
            "ass": "As",
        },
        "en": {
            "6": "6",
            "7": "7",
            "8": "8",
            "9": "9",
            "10": "10",
            "under": "Jack",
            "ober": "Queen",
            "koenig": "King",
            "ass": "Ace",
        },
    },
}
SWISS_TO_FRENCH: Final[dict[str, str]] = {s: f for f, s in FRENCH_TO_SWISS.items()}


class CardNameError(ValueError):
    """A name that is not one of the 36 cards (or the back)."""


def parse_label(text: str) -> tuple[str, str | None]:
    """``"Kreuz-7"``, ``"herz_ober"``, ``"rosen-10"``, ``"back"`` -> (canonical Swiss id or ``back``, implied system).

    The system is ``"french"`` or ``"swiss"`` when the suit name says so, None for the back.
    """
    words = [w for w in re.split(r"[-_\s.]+", text.strip().lower()) if w]
    if words in (["back"], ["rueckseite"], ["rücken"], ["dos"]):
        return BACK, None
    if len(words) != 2 or words[0] not in SUIT_ALIASES or words[1] not in RANK_ALIASES:
        raise CardNameError(
            f"{text!r} is not a card name; expected '<suit>-<rank>' such as 'rosen-10' or 'kreuz-ober', or 'back'"
        )
    suit, system = SUIT_ALIASES[words[0]]
    return f"{suit}-{RANK_ALIASES[words[1]]}", system


def label_from_filename(stem: str) -> tuple[str, str | None]:
    """A card label from a file name: the name itself, or its first two words (``kreuz-7-photo2``)."""
    try:
        return parse_label(stem)
    except CardNameError:
        words = [w for w in re.split(r"[-_\s.]+", stem.strip().lower()) if w]
        if words[:1] == ["back"]:
            return BACK, None
        if len(words) > 2:
            try:
                return parse_label("-".join(words[:2]))
            except CardNameError:
                pass
        raise CardNameError(
            f"file name {stem!r} names no card; expected e.g. 'kreuz-7.png', 'rosen-ober-2.jpg', 'back.png'"
        ) from None


def own_id(card: str, system: str) -> str:
    """The deck's own id for a canonical card: ``eicheln-7`` is ``kreuz-7`` in a French deck."""
    if card == BACK or system != "french":
        return card
    suit, rank = card.split("-", 1)
    return f"{SWISS_TO_FRENCH[suit]}-{rank}"


def display_name(card: str, system: str, lang: str = "de") -> str:
    """``"Kreuz Bube"``: the card as a player of this deck calls it."""
    if card == BACK:
        return {"de": "Rückseite", "fr": "Dos", "en": "Back"}.get(lang, "Back")
    suit, rank = card.split("-", 1)
    lang = lang if lang in SUIT_NAMES[system] else "de"
    return f"{SUIT_NAMES[system][lang][suit]} {RANK_NAMES[system][lang][rank]}"


def named(card: str, system: str) -> str:
    """For messages: ``"kreuz-7 (Kreuz 7)"``, the id the user typed and the card's words."""
    return f"{own_id(card, system)} ({display_name(card, system)})"
