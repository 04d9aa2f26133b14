"""The tournament board: subscribes to every table of a tournament and keeps the latest
message of each, for the ranking page.

Retained messages mean the board has the whole tournament the moment it subscribes.
``version`` grows with every change and ``wait`` blocks until it does, so the page's
live stream sends a new ranking only when something changed.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

import paho.mqtt.client as mqtt

from jasscam.tournament.ranking import tournament_ranking
from jasscam.tournament.topics import SCHEMA, check_name, parse_topic, tables_filter

log = logging.getLogger(__name__)


class TournamentBoard:
    """Latest message per table of ``tournament`` from the broker at ``host:port``."""

    def __init__(self, host: str, port: int = 1883, *, tournament: str, client_id: str | None = None) -> None:
        self.tournament = check_name(tournament, "tournament")
        self.host, self.port = host, port
        self._cond = threading.Condition()
        self.version = 0
        self.tables: dict[str, dict[str, Any]] = {}
        self.status: dict[str, str] = {}
        self.rejected: list[str] = []
        self._subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or "", clean_session=True)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(1, 30)

    def start(self, timeout: float = 10.0) -> TournamentBoard:
        """Connect and subscribe (paho's network thread keeps it connected)."""
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()
        if not self._subscribed.wait(timeout):
            self.client.loop_stop()
            raise ConnectionError(f"cannot subscribe at the MQTT broker {self.host}:{self.port} within {timeout:g}s")
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def __enter__(self) -> TournamentBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- paho callbacks (network thread)
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if not reason.is_failure:
            client.subscribe(tables_filter(self.tournament), qos=1)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: Any, reasons: Any, properties: Any) -> None:
        self._subscribed.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.handle(message.topic, bytes(message.payload))

    def handle(self, topic: str, payload: bytes) -> bool:
        """Take one message; returns whether it changed the board. Bad messages are
        logged and kept in ``rejected`` (one broken table must not stop the ranking)."""
        parsed = parse_topic(topic)
        if parsed is None or parsed[0] != self.tournament:
            return False
        _tournament, table, kind = parsed
        with self._cond:
            if kind == "status":
                self.status[table] = payload.decode("utf-8", "replace")
            elif not payload:
                if self.tables.pop(table, None) is None:
                    return False
            else:
                try:
                    msg = json.loads(payload)
                    if (
                        not isinstance(msg, dict)
                        or msg.get("schema") != SCHEMA
                        or not isinstance(msg.get("blatt"), dict)
                    ):
                        raise ValueError(f"expected a schema {SCHEMA} table message")
                except ValueError as exc:
                    log.warning("table %s: bad message: %s", table, exc)
                    self.rejected.append(f"{table}: {exc}")
                    return False
                self.tables[table] = msg
            self.version += 1
            self._cond.notify_all()
        return True

    # -- readers (web threads)
    def snapshot(self) -> dict[str, Any]:
        with self._cond:
            tables = {k: {**v, "online": self.status.get(k) == "online"} for k, v in self.tables.items()}
            version = self.version
        out = tournament_ranking(tables)
        out.update(tournament=self.tournament, version=version)
        return out

    def wait(self, version: int, timeout: float) -> int:
        """Block until ``self.version`` differs from ``version`` or ``timeout`` passes."""
        with self._cond:
            self._cond.wait_for(lambda: self.version != version, timeout)
            return self.version
