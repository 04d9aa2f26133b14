"""Asking the appliance to stop never hangs it, however the signals come."""

from __future__ import annotations

import os
import signal
import threading

from jasscam.appliance import stop_on_signals


def test_a_signal_arriving_while_the_stop_event_is_held_does_not_hang_the_main_thread() -> None:
    stop = threading.Event()
    old = signal.getsignal(signal.SIGUSR1)
    try:
        stop_on_signals(stop, (signal.SIGUSR1,))
        # As when a second Ctrl-C lands while the main thread is inside stop.set() or
        # stop.wait(): the event's lock is held by the thread the handler runs on.
        with stop._cond:  # type: ignore[attr-defined]
            os.kill(os.getpid(), signal.SIGUSR1)  # the handler runs here, on this thread
            assert not stop.is_set()  # not set yet, and we were not blocked
        assert stop.wait(5.0)
    finally:
        signal.signal(signal.SIGUSR1, old)
