"""The JSON form of an event, and what keeps it readable across builds.

The schema has one version (``SCHEMA_VERSION``, 1): fields added since are optional
and mean what their absence meant before. So ``event_to_dict`` leaves every field out
at its default (``_LATER_DEFAULTS`` for the settings added after version 1 was first
written), and a log that does not use them reads in an older build; one that does is
refused there with an «unknown field» error rather than misread. ``loads`` reads back
through ``parse_event``, so a stored line is checked as a new event is.
"""

from __future__ import annotations

import json
import numbers
from dataclasses import asdict
from typing import Any, Final

from scoring.events.schema import SCHEMA_VERSION, Event, EventError
from scoring.events.validate import parse_event


def _plain(value: Any) -> Any:
    """Plain JSON values: a producer may hand in numpy scalars (the recogniser does)."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


#: Settings added after version 1 was first written, left out at their default so a log
#: that does not use them stays readable by a build that does not know them.
_LATER_DEFAULTS: Final[dict[str, Any]] = {
    "target_rule": "reached",
    "weis_card_once": False,
    "prior_games": 0,
    "coiffeur_match_bonus": 100,
    "differenzler_rounds": 12,
    "match": False,
    "seat_seen": False,
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON form of an event (with ``type`` and ``v``), omitting unset optional fields."""
    raw = asdict(event)
    out: dict[str, Any] = {"type": raw.pop("type"), "v": SCHEMA_VERSION}
    for key, value in raw.items():
        if value is None or (isinstance(value, tuple) and not value):
            continue
        if key in _LATER_DEFAULTS and value == _LATER_DEFAULTS[key] and type(value) is type(_LATER_DEFAULTS[key]):
            continue
        out[key] = _plain(value)
    if len(out.get("unseen", ())) == 1:
        # One unseen seat is written as a number, as builds that know only one read it.
        out["unseen"] = out["unseen"][0]
    return out


def dumps(event: Event) -> str:
    """One event as one line of JSON (keys sorted, text as is), as the store and the .jsonl logs keep it."""
    return json.dumps(event_to_dict(event), ensure_ascii=False, sort_keys=True, allow_nan=False)


def loads(line: str) -> Event:
    """One stored line back to its event, checked as a new event is (``EventError`` if not)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EventError(f"not valid JSON: {exc}") from None
    return parse_event(data)


__all__ = ["dumps", "event_to_dict", "loads"]
