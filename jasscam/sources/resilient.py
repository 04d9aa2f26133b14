"""A live source that survives the camera going away: reopen with backoff, observable state.

Why a wrapper and not logic in each source: every camera fails the same ways (unplugged
USB cable, a libcamera pipeline error, a driver that stops delivering), and the
dashboard and the watchdog need one place to ask "is the camera there?". The game is
not touched meanwhile: the store holds every confirmed event, and the tracker simply
sees no frames until the camera is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jasscam.sources.base import EndOfStream, Frame, FrameSource, SourceLost, SourceUnavailable

log = logging.getLogger(__name__)

#: States: opening (first start), live (delivering), lost (reopening with backoff),
#: ended (a finite source finished), failed (SourceUnavailable: needs a person), closed.
STATES = ("opening", "live", "lost", "ended", "failed", "closed")


@dataclass(frozen=True)
class SourceStatus:
    """A snapshot of the source for the dashboard and logs."""

    name: str
    state: str
    since: float  # time.time() when the state was entered
    frames: int
    reopens: int
    error: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "state": self.state,
            "since": self.since,
            "frames": self.frames,
            "reopens": self.reopens,
            "error": self.error,
        }


class ResilientSource:
    """Reads frames from ``source``; on SourceLost closes it and reopens with doubling backoff.

    ``read`` returns the next frame, waiting through outages, or None when ``stop`` is
    set. SourceUnavailable on the very first open propagates (the user has to install
    or connect something); later it counts as lost, since the device did work once.
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        backoff_s: float = 0.5,
        backoff_max_s: float = 10.0,
        read_timeout_s: float = 3.0,
        on_state: Callable[[SourceStatus], None] | None = None,
    ) -> None:
        self.source = source
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self.read_timeout_s = read_timeout_s
        self.on_state = on_state
        self._lock = threading.Lock()
        self._state = "opening"
        self._since = time.time()
        self._frames = 0
        self._reopens = 0
        self._error: str | None = None
        self._open = False
        self._ever_opened = False

    # -- state ------------------------------------------------------------------------

    @property
    def state(self) -> str:
        return self._state

    def status(self) -> SourceStatus:
        with self._lock:
            return SourceStatus(self.source.name, self._state, self._since, self._frames, self._reopens, self._error)

    def _set(self, state: str, error: str | None = None) -> None:
        with self._lock:
            changed = state != self._state or error != self._error
            if state != self._state:
                self._since = time.time()
            self._state, self._error = state, error
        if changed:
            if state == "lost":
                log.warning("camera lost (%s): %s", self.source.name, error)
            elif state == "live":
                log.info("camera live (%s)", self.source.name)
            if self.on_state is not None:
                self.on_state(self.status())

    # -- reading ----------------------------------------------------------------------

    def open(self) -> None:
        """First open; SourceUnavailable propagates with its message. SourceLost is retried by read.

        Opening an open source does nothing, so the appliance can open it early (to report a
        missing camera before loading the model) and the pipeline again when it starts.
        """
        if self._open:
            return
        try:
            self.source.open()
        except SourceUnavailable as exc:
            self._set("failed", str(exc))
            raise
        except SourceLost as exc:
            self._set("lost", str(exc))
            return
        self._open = self._ever_opened = True

    def _reopen(self, stop: threading.Event) -> bool:
        """Close and reopen until it works or ``stop`` is set; True when open again."""
        delay = self.backoff_s
        while not stop.is_set():
            self.source.close()
            self._open = False
            if stop.wait(delay):
                return False
            self._reopens += 1
            try:
                self.source.open()
            except (SourceLost, SourceUnavailable) as exc:
                # Unavailable after it once worked: the USB camera was unplugged. Keep trying.
                self._set("lost", str(exc))
                delay = min(delay * 2, self.backoff_max_s)
                continue
            self._open = self._ever_opened = True
            return True
        return False

    def read(self, stop: threading.Event) -> Frame | None:
        """The next frame; None once ``stop`` is set. EndOfStream propagates for finite sources."""
        while not stop.is_set():
            if not self._open and not self._reopen(stop):
                return None
            try:
                frame = self.source.read(self.read_timeout_s)
            except SourceLost as exc:
                self._set("lost", str(exc))
                self._open = False
                continue
            except EndOfStream:
                self._set("ended")
                raise
            with self._lock:
                self._frames += 1
            if self._state != "live":
                self._set("live")
            return frame
        return None

    def close(self) -> None:
        self.source.close()
        self._open = False
        self._set("closed")
