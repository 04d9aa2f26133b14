"""A table's appliance publishes its Punkteblatt to the tournament's MQTT broker.

One retained message per table (see :mod:`jasscam.tournament.topics`), replaced after
every change of the sheet, so the broker always holds each table's latest state and a
ranking page needs no history. paho-mqtt's network thread handles reconnects; a message
published while the broker is away is queued by paho (QoS 1) and sent on reconnect.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt

from jasscam.tournament.topics import status_topic, table_message, table_topic


class PublishError(RuntimeError):
    """The broker did not take a message in time."""


class TablePublisher:
    """Publishes one table's results; ``with TablePublisher(...) as pub: pub.publish(...)``."""

    def __init__(
        self,
        host: str,
        port: int = 1883,
        *,
        tournament: str,
        table: str,
        client_id: str | None = None,
        connect_timeout: float = 10.0,
    ) -> None:
        self.tournament = tournament
        self.table = table
        self.topic = table_topic(tournament, table)
        self.status = status_topic(tournament, table)
        self._connected = threading.Event()
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or f"jasscam-{tournament}-{table}", clean_session=True
        )
        self.client.will_set(self.status, "offline", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.reconnect_delay_set(1, 30)
        self.client.connect_async(host, port, keepalive=30)
        self.client.loop_start()
        if not self._connected.wait(connect_timeout):
            self.client.loop_stop()
            raise PublishError(f"cannot reach the MQTT broker at {host}:{port} within {connect_timeout:g}s")

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if not reason.is_failure:
            client.publish(self.status, "online", qos=1, retain=True)
            self._connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._connected.clear()

    def publish(self, game_id: int, blatt: dict[str, Any], *, timeout: float = 10.0) -> dict[str, Any]:
        """Publish the table's Punkteblatt (retained, QoS 1); waits until the broker has it."""
        msg = table_message(
            self.tournament, self.table, game_id, blatt, datetime.now(UTC).isoformat(timespec="seconds")
        )
        info = self.client.publish(self.topic, json.dumps(msg, ensure_ascii=False), qos=1, retain=True)
        info.wait_for_publish(timeout)
        if not info.is_published():
            raise PublishError(f"the broker did not acknowledge {self.topic} within {timeout:g}s")
        return msg

    def close(self) -> None:
        """Say ``offline`` (retained) and disconnect cleanly."""
        try:
            if self._connected.is_set():
                self.client.publish(self.status, "offline", qos=1, retain=True).wait_for_publish(5)
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    def __enter__(self) -> TablePublisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def follow_store(
    store: Any, game_id: int, publisher: TablePublisher, stop: threading.Event, *, poll: float = 5.0
) -> int:
    """Publish the game's Punkteblatt now and after every change, until ``stop`` is set.

    ``store`` is the appliance's event store (``events``, ``wait``). Returns how many
    messages were published. The running game's live points are part of the message.
    """
    from scoring.game import fold
    from scoring.speck import punkteblatt

    sent = 0
    count = -1
    last: dict[str, Any] | None = None
    while not stop.is_set():
        now = store.wait(game_id, count, poll) if count >= 0 else len(store.events(game_id))
        if now == count:
            continue
        count = now
        blatt = punkteblatt(fold(store.events(game_id)))
        if blatt != last:
            publisher.publish(game_id, blatt)
            last = blatt
            sent += 1
    return sent
