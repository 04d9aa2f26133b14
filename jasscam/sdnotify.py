"""systemd's notify protocol without a dependency: ready, stopping, watchdog pings.

Under ``Type=notify`` systemd passes ``NOTIFY_SOCKET`` (an AF_UNIX datagram socket, a
leading ``@`` meaning the abstract namespace) and, with ``WatchdogSec=``,
``WATCHDOG_USEC``. Without them every function here does nothing, so the same code runs
on a laptop, in tests and under systemd.
"""

from __future__ import annotations

import os
import socket

#: Longest a notification may wait for room in the receiver's queue.
SEND_TIMEOUT_S = 0.05


def _address() -> str | None:
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return None
    if path.startswith("@"):
        return "\0" + path[1:]
    return path


def notify(state: str) -> bool:
    """Send one state string (``READY=1``...). True if it was sent, False without a socket.

    Errors sending are swallowed: a lost notification must not crash the appliance; a
    missing READY or watchdog ping makes systemd act, which is the right outcome.
    """
    address = _address()
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            # A datagram to a receiver whose queue is full blocks; never let that stall
            # the caller (the capture thread reports camera states through here).
            sock.settimeout(SEND_TIMEOUT_S)
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError:  # includes the timeout
        return False
    return True


def ready(status: str | None = None) -> bool:
    """Start-up is done (the store is open, the source delivers, the dashboard listens)."""
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def stopping() -> bool:
    """Shutdown has begun; systemd waits for the exit instead of reporting a failure."""
    return notify("STOPPING=1")


def status(text: str) -> bool:
    """A one-line status shown by ``systemctl status``."""
    return notify(f"STATUS={text}")


def watchdog_ping() -> bool:
    """Tell the watchdog we are alive; call it only when frames are really advancing."""
    return notify("WATCHDOG=1")


def watchdog_period() -> float | None:
    """Seconds within which a ping is due, or None when no watchdog is configured.

    ``WATCHDOG_PID``, when set, names the process the watchdog is meant for; another
    process (a child) must not ping.
    """
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = os.environ.get("WATCHDOG_PID")
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 1e6 if value > 0 else None
