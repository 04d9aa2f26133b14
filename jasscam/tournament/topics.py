"""MQTT topic layout and the table message, shared by publisher and subscriber.

``jasscam/tournament/<tournament>/table/<table>``: the table's Punkteblatt, retained JSON
(QoS 1), so a ranking page that starts late gets every table's last state at once.
``.../table/<table>/status``: ``online``/``offline``, retained; ``offline`` is also the
connection's last will, so a table whose appliance loses power shows as offline.
An empty retained payload on the table topic removes the table (organisers' reset).
"""

from __future__ import annotations

import re
from typing import Any, Final

PREFIX: Final[str] = "jasscam/tournament"
SCHEMA: Final[int] = 1
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class TopicError(ValueError):
    """A tournament or table name that cannot be a single MQTT topic level."""


def check_name(value: str, what: str) -> str:
    """Tournament and table names are one topic level: letters, digits, ``_.-`` (no ``/+#``)."""
    if not isinstance(value, str) or not _NAME.match(value):
        raise TopicError(f"{what} must be 1-64 letters, digits, '_', '.' or '-' (one MQTT topic level), got {value!r}")
    return value


def table_topic(tournament: str, table: str) -> str:
    return f"{PREFIX}/{check_name(tournament, 'tournament')}/table/{check_name(table, 'table')}"


def status_topic(tournament: str, table: str) -> str:
    return table_topic(tournament, table) + "/status"


def tables_filter(tournament: str) -> str:
    """Subscription for every table's message and status of one tournament."""
    return f"{PREFIX}/{check_name(tournament, 'tournament')}/table/#"


def parse_topic(topic: str) -> tuple[str, str, str] | None:
    """``(tournament, table, kind)`` with kind ``result`` or ``status``; None if not ours."""
    parts = topic.split("/")
    if len(parts) not in (5, 6) or "/".join(parts[:2]) != PREFIX or parts[3] != "table":
        return None
    if len(parts) == 6:
        return (parts[2], parts[4], "status") if parts[5] == "status" else None
    return parts[2], parts[4], "result"


def table_message(tournament: str, table: str, game_id: int, blatt: dict[str, Any], updated: str) -> dict[str, Any]:
    """The retained message of one table: its Punkteblatt plus who and when."""
    return {
        "schema": SCHEMA,
        "tournament": tournament,
        "table": table,
        "game": game_id,
        "updated": updated,
        "blatt": blatt,
    }
