"""Checking one event against the schema: ``parse_event``, field by field, type by type.

A JSON object becomes an event only through here. The first fault raises
``EventError`` with the field and why, so a bad event is refused whole and never half
applied; every accepted value comes out in its normal form (card ids, tuples, floats).
Whether the event fits the game (the rules) is not asked here but by the fold.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import fields
from typing import Any, Final

from scoring.events.config import check_config
from scoring.events.fields import as_card, as_card_list, as_ref, as_seat, as_time, as_whole, check_clean
from scoring.events.schema import (
    EVENT_TYPES,
    MAX_FORECAST_WITH_WEIS,
    MAX_UNSEEN,
    ROUND_CONTRACTS,
    SCHEMA_VERSION,
    Event,
    EventError,
)


def _round_head(out: dict[str, Any]) -> None:
    """The fields a played and an entered round share: contract, declarer, Schieben, row."""
    if out.get("contract") not in ROUND_CONTRACTS:
        raise EventError(f"contract must be one of {', '.join(ROUND_CONTRACTS)}, got {out.get('contract')!r}")
    if out.get("declarer") is not None:
        out["declarer"] = as_seat(out["declarer"], "declarer")
    if not isinstance(out.get("schoben", False), bool):
        raise EventError("schoben must be true or false")
    if out.get("row") is not None:
        out["row"] = as_whole(out["row"], "row")


#: Weis a team can write in one round add up to one of these: every Weis is worth a
#: multiple of 10 from 20 on, so 10 and 30 cannot be made.
_NO_WEIS_SUM: Final[frozenset[int]] = frozenset({10, 30})


def _entered_points(out: dict[str, Any]) -> None:
    """A round entered by hand: one team's points (or every seat's), Weis and Stöck by value.

    Only the form is checked here; which of the two forms the variant takes, and the
    variant's own limits, the fold checks (``scoring.variants``).
    """
    team_form = out.get("team") is not None or out.get("points") is not None
    if team_form == (out.get("player_points") is not None):
        raise EventError(
            "round_entered needs team and points (a team game) or player_points (Speck, Differenzler), not both"
        )
    if team_form:
        out["team"] = as_seat(out.get("team"), "team")
        if out["team"] > 1:
            raise EventError(f"team must be 0 or 1, got {out['team']!r}")
        out["points"] = as_whole(out.get("points"), "points", 157)
        if not isinstance(out.get("match", False), bool):
            raise EventError("match must be true or false")
        if out.get("match") and out["points"] != 157:
            raise EventError(f"a Match is all nine tricks: its points are 157 (written 257), got {out['points']}")
    else:
        pp = out["player_points"]
        if not isinstance(pp, (list, tuple)) or len(pp) != 4:
            raise EventError("player_points must be four whole numbers, seat 0 first")
        out["player_points"] = tuple(as_whole(v, "player_points", 157) for v in pp)
        if sum(out["player_points"]) != 157:
            raise EventError(f"player_points add up to {sum(out['player_points'])}; a round's points are 157")
        if out.get("match"):
            raise EventError("match belongs to a team's points (a player alone with all tricks still takes 157)")
    weis = out.get("weis", ())
    if not isinstance(weis, (list, tuple)) or len(weis) not in (0, 2, 4):
        raise EventError(
            "weis must list what each team writes for Weis (two numbers; four, one per seat, in Differenzler)"
        )
    out["weis"] = tuple(as_whole(v, "weis") for v in weis)
    for v in out["weis"]:
        if v % 10 or v in _NO_WEIS_SUM:
            raise EventError(f"weis: {v} cannot be made of Weis (each is 20, 50, 100, 150, 200 or more)")
    if out.get("stoeck") is not None:
        out["stoeck"] = as_seat(out["stoeck"], "stoeck")


def _round_started(out: dict[str, Any]) -> None:
    out["forehand"] = as_seat(out.get("forehand"), "forehand")
    _round_head(out)
    if out.get("bodentrumpf") is not None:
        out["bodentrumpf"] = as_card(out["bodentrumpf"], "bodentrumpf")


def _forecast_made(out: dict[str, Any]) -> None:
    out["seat"] = as_seat(out.get("seat"))
    out["points"] = as_whole(out.get("points"), "points", MAX_FORECAST_WITH_WEIS)


def _round_entered(out: dict[str, Any]) -> None:
    if out.get("forehand") is not None:
        out["forehand"] = as_seat(out["forehand"], "forehand")
    _round_head(out)
    _entered_points(out)


def _card_played(out: dict[str, Any]) -> None:
    out["seat"] = as_seat(out.get("seat"))
    out["card"] = as_card(out.get("card"))
    conf = out.get("confidence")
    if conf is not None:
        if isinstance(conf, bool) or not isinstance(conf, numbers.Real) or not 0 <= float(conf) <= 1:
            raise EventError(f"confidence must be between 0 and 1, got {conf!r}")
        out["confidence"] = float(conf)
    alts = out.get("alternatives", ())
    try:
        out["alternatives"] = tuple((as_card(a[0], "alternatives"), float(a[1])) for a in alts)
    except (TypeError, IndexError, ValueError) as exc:
        if isinstance(exc, EventError):
            raise
        raise EventError("alternatives must be a list of [card, confidence] pairs") from None
    if not isinstance(out.get("seat_seen", False), bool):
        raise EventError(f"seat_seen must be true or false, got {out.get('seat_seen')!r}")
    if out.get("source", "camera") not in ("camera", "manual"):
        raise EventError(f"source must be 'camera' or 'manual', got {out.get('source')!r}")


def _trick_collected(out: dict[str, Any]) -> None:
    if out.get("seat") is not None:
        out["seat"] = as_seat(out["seat"])
    unseen = out.get("unseen")
    if unseen is None:
        out.pop("unseen", None)
        return
    seats = unseen if isinstance(unseen, (list, tuple)) else [unseen]
    out["unseen"] = tuple(as_seat(s, "unseen") for s in seats)
    if not 1 <= len(out["unseen"]) <= MAX_UNSEEN or len(set(out["unseen"])) != len(out["unseen"]):
        raise EventError(f"unseen must name one to {MAX_UNSEEN} different seats, got {unseen!r}")


def _weis_declared(out: dict[str, Any]) -> None:
    out["seat"] = as_seat(out.get("seat"))
    if ("cards" in out) == ("weis" in out):
        raise EventError("weis_declared needs either weis (a list of Weis, each a list of card ids) or cards, not both")
    if "cards" in out:
        out["cards"] = as_card_list(out["cards"], "cards")
    else:
        groups = out["weis"]
        if not isinstance(groups, (list, tuple)) or not groups:
            raise EventError("weis must be a non-empty list of Weis, each a list of card ids")
        out["weis"] = tuple(as_card_list(g, f"weis[{i}]") for i, g in enumerate(groups))
        if len(set(out["weis"])) != len(out["weis"]):
            raise EventError("weis lists the same Weis twice")


def _stoeck_called(out: dict[str, Any]) -> None:
    out["seat"] = as_seat(out.get("seat"))


def _card_corrected(out: dict[str, Any]) -> None:
    out["ref"] = as_ref(out.get("ref"))
    out["card"] = as_card(out.get("card"))
    if out.get("seat") is not None:
        out["seat"] = as_seat(out["seat"])


def _event_voided(out: dict[str, Any]) -> None:
    out["ref"] = as_ref(out.get("ref"))


def _misplay_ruled(out: dict[str, Any]) -> None:
    out["ref"] = as_ref(out.get("ref"))
    if out.get("ruling") not in ("penalty", "ignore"):
        raise EventError(f"ruling must be 'penalty' or 'ignore', got {out.get('ruling')!r}")


#: Each event type's own checks, by its ``type`` (``game_configured`` has a module of its own).
_CHECKS: Final[dict[str, Callable[[dict[str, Any]], None]]] = {
    "game_configured": check_config,
    "round_started": _round_started,
    "forecast_made": _forecast_made,
    "round_entered": _round_entered,
    "card_played": _card_played,
    "trick_collected": _trick_collected,
    "weis_declared": _weis_declared,
    "stoeck_called": _stoeck_called,
    "card_corrected": _card_corrected,
    "event_voided": _event_voided,
    "misplay_ruled": _misplay_ruled,
}


def validate(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Check and normalise the fields of one event of type ``kind``; raise EventError on the first fault."""
    out: dict[str, Any] = dict(data)
    if "t" in out:
        out["t"] = as_time(out["t"])
    check = _CHECKS.get(kind)
    if check is not None:
        check(out)
    return out


def parse_event(data: Any) -> Event:
    """Validate one event (a dict, as read from JSON) and return its dataclass."""
    if not isinstance(data, dict):
        raise EventError(f"an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise EventError(f"unknown event type {kind!r}; expected one of {', '.join(EVENT_TYPES)}")
    version = data.get("v", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise EventError(f"event schema version {version!r} is not supported (this build reads {SCHEMA_VERSION})")
    allowed = {f.name for f in fields(cls)}
    payload = {k: v for k, v in data.items() if k not in ("type", "v")}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise EventError(f"{kind}: unknown field(s) {', '.join(unknown)}")
    for key, value in payload.items():
        check_clean(value, key)
    payload = validate(kind, payload)
    try:
        return cls(**payload)
    except TypeError as exc:
        raise EventError(f"{kind}: {exc}") from None


__all__ = ["parse_event", "validate"]
