"""The checks every event type's fields share: seats, cards, times, whole numbers, refs.

Each returns the value in its normal form (a card id, a float time, a sorted card list)
or raises ``EventError`` naming the field, so a bad event is refused whole.
"""

from __future__ import annotations

import math
from typing import Any

from scoring.cards import CARD_INDEX, Card, UnknownCardError
from scoring.events.schema import EventError


def as_seat(value: Any, name: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise EventError(f"{name} must be a seat number 0..3, got {value!r}")
    return value


def as_card(value: Any, name: str = "card") -> str:
    try:
        card = Card.parse(value)
    except UnknownCardError as exc:
        raise EventError(f"{name}: {exc}") from None
    return card.id


def as_time(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise EventError(f"t must be a non-negative number of seconds, got {value!r}")
    return float(value)


def as_whole(value: Any, name: str, most: int | None = None) -> int:
    """A whole number >= 0 (and at most ``most``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (most is not None and value > most):
        bound = f" and at most {most}" if most is not None else ""
        raise EventError(f"{name} must be a whole number >= 0{bound}, got {value!r}")
    return value


def as_card_list(value: Any, name: str) -> tuple[str, ...]:
    """A non-empty list of different card ids, returned in deck order."""
    if not isinstance(value, (list, tuple)) or not value:
        raise EventError(f"{name} must be a non-empty list of card ids")
    ids = tuple(as_card(c, name) for c in value)
    if len(set(ids)) != len(ids):
        raise EventError(f"{name}: the cards of a Weis must be different cards")
    return tuple(sorted(ids, key=CARD_INDEX.__getitem__))


def as_ref(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EventError(f"ref must be the position of an earlier event (int >= 0), got {value!r}")
    return value


def check_clean(value: Any, where: str) -> None:
    """Refuse values JSON cannot carry: NaN and Infinity (``JSON.parse`` fails on them in
    every browser, so a stored game would break every phone) and lone surrogates (not
    encodable as UTF-8, so neither storable nor sendable)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise EventError(f"{where} must be a finite number, got {value!r}")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise EventError(f"{where} is not valid text (it holds a lone surrogate)") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            check_clean(key, where)
            check_clean(item, f"{where}.{key}")
    elif isinstance(value, (list, tuple)):
        for item in value:
            check_clean(item, where)


__all__ = ["as_card", "as_card_list", "as_ref", "as_seat", "as_time", "as_whole", "check_clean"]
