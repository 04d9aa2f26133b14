"""sd_notify against a real AF_UNIX datagram socket, as systemd provides it."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from jasscam import sdnotify


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2.0)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_stopping_and_ping_arrive_as_systemd_expects(notify_socket: socket.socket) -> None:
    assert sdnotify.ready("watching the table")
    assert notify_socket.recv(4096) == b"READY=1\nSTATUS=watching the table"
    assert sdnotify.watchdog_ping()
    assert notify_socket.recv(4096) == b"WATCHDOG=1"
    assert sdnotify.stopping()
    assert notify_socket.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"jasscam-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2.0)
    monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
    try:
        assert sdnotify.status("camera lost")
        assert sock.recv(4096) == b"STATUS=camera lost"
    finally:
        sock.close()


def test_without_notify_socket_everything_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.ready() is False
    assert sdnotify.watchdog_ping() is False


def test_a_vanished_socket_does_not_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert sdnotify.watchdog_ping() is False


def test_watchdog_period_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert sdnotify.watchdog_period() is None
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    assert sdnotify.watchdog_period() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert sdnotify.watchdog_period() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))  # meant for another process
    assert sdnotify.watchdog_period() is None
    monkeypatch.delenv("WATCHDOG_PID")
    monkeypatch.setenv("WATCHDOG_USEC", "garbage")
    assert sdnotify.watchdog_period() is None


def test_a_full_receiver_queue_does_not_block_the_sender(notify_socket: socket.socket) -> None:
    import time

    started = time.monotonic()
    sent = [sdnotify.watchdog_ping() for _ in range(60)]  # nobody reads: the queue (about 10) fills
    assert sent[0] is True and sent[-1] is False
    assert time.monotonic() - started < 5.0
