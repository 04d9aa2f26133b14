"""The event schema: the one contract between vision, the store, the rules and the web.

A game is an append-only list of events; everything else (rounds, tricks, Weis, Stöck,
totals, the Jasstafel) is a fold over that list (``scoring.game``). Each event is a
JSON object with ``"type"`` and ``"v"`` (schema version); ``parse_event`` validates one
and returns a frozen dataclass, or raises ``EventError`` naming the field, so a bad
event is rejected whole and never half-applied. Documented in docs/events.md.

Events refer to earlier events by their position in the game's list (``ref``, 0-based),
which never changes because the list is append-only.

The package is the schema's one front door; its parts: ``schema`` (the event
dataclasses and the schema's constants), ``fields`` (the checks every type shares),
``config`` (checking ``game_configured``), ``validate`` (``parse_event``) and ``codec``
(the JSON form and what keeps it readable across builds).
"""

from __future__ import annotations

from scoring.events.codec import dumps, event_to_dict, loads
from scoring.events.schema import (
    BLOCKS,
    CONTRACTS,
    DEFAULT_COIFFEUR_ROWS,
    EVENT_TYPES,
    IMAGE_EDGES,
    INDIVIDUAL_VARIANTS,
    MAX_FORECAST,
    MAX_FORECAST_WITH_WEIS,
    MAX_NAME,
    MAX_UNSEEN,
    MULTIPLIER_TABLES,
    ROUND_CONTRACTS,
    ROW_ONLY_CONTRACTS,
    SCHEMA_VERSION,
    VARIANTS,
    CardCorrected,
    CardPlayed,
    Event,
    EventError,
    EventVoided,
    ForecastMade,
    GameConfigured,
    MisplayRuled,
    RoundEntered,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
    WeisDeclared,
)
from scoring.events.validate import parse_event

__all__ = [
    "BLOCKS",
    "CONTRACTS",
    "DEFAULT_COIFFEUR_ROWS",
    "EVENT_TYPES",
    "IMAGE_EDGES",
    "INDIVIDUAL_VARIANTS",
    "MAX_FORECAST",
    "MAX_FORECAST_WITH_WEIS",
    "MAX_UNSEEN",
    "MAX_NAME",
    "MULTIPLIER_TABLES",
    "ROUND_CONTRACTS",
    "ROW_ONLY_CONTRACTS",
    "SCHEMA_VERSION",
    "VARIANTS",
    "CardCorrected",
    "CardPlayed",
    "Event",
    "EventError",
    "EventVoided",
    "ForecastMade",
    "GameConfigured",
    "MisplayRuled",
    "RoundEntered",
    "RoundStarted",
    "StoeckCalled",
    "TrickCollected",
    "WeisDeclared",
    "dumps",
    "event_to_dict",
    "loads",
    "parse_event",
]
