"""Deck profiles on the appliance: where they live, and a recogniser that follows the table's deck.

Profiles live in ``<state dir>/decks`` (``vision.enroll.DeckLibrary``), next to the game
database, so they survive restarts and updates; the dashboard's enrolment screens
(``web.enroll``) write to the same folder. The built-in deck stays the default: a table
plays with an enrolled deck only after someone selects it, and selecting ``builtin``
(or deleting the profile) returns to the shipped prototypes, which are never modified.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from jasscam.config import Config
from vision.detection import Detection
from vision.enroll import BUILTIN, DeckLibrary, DeckProfile, Enroller, ProfileError
from vision.enroll.enroller import Progress, same_identifier
from vision.enroll.head import DeckPrototypes
from vision.enroll.library import DEFAULT_TABLE
from vision.recognizer import Prototypes, Recognizer
from vision.recognizer.scale import CardScale

#: Sub-folder of the state directory holding the deck profiles.
DECKS_FOLDER = "decks"


def decks_dir(state_dir: Path) -> Path:
    return Path(state_dir) / DECKS_FOLDER


def open_library(config_or_state_dir: Config | Path | str) -> DeckLibrary:
    """The deck library of this appliance (``<state dir>/decks``)."""
    if isinstance(config_or_state_dir, Config):
        return DeckLibrary(decks_dir(config_or_state_dir.state_dir()))
    return DeckLibrary(decks_dir(Path(config_or_state_dir)))


class DeckAwareRecognizer:
    """A recogniser that reads the cards of whichever deck ``table`` has selected.

    Checks the library at most every ``check_s`` seconds (two file stats) and swaps the
    recogniser's prototype set when the choice or the profile changed; a profile that
    cannot be loaded leaves the built-in deck in place and is reported in ``error``.

    A profile made for other models is rebuilt from its pictures (``Enroller.refresh``):
    as long as enrolling it (over a minute on a 2-core machine: CHANGELOG.md). With ``background`` (the
    appliance) that runs in a thread, so neither start-up (systemd waits 90 s for READY)
    nor the frame loop (the watchdog fires after 30 s without frames) waits for it; until
    it is done the table reads the profile as it was if the identifier in use made it,
    else the built-in deck, and ``status`` says so. Without ``background`` (tools and
    tests, whose every frame must be read by the rebuilt deck) ``sync`` waits for it.
    ``on_progress`` follows a rebuild (fraction, words).
    """

    def __init__(
        self,
        recognizer: Recognizer,
        library: DeckLibrary,
        table: str = DEFAULT_TABLE,
        check_s: float = 1.0,
        *,
        background: bool = False,
        on_progress: Progress | None = None,
        scale: CardScale | None = None,
    ) -> None:
        self.recognizer = recognizer
        #: The mounting's card length, learnt from the sure cards (or fixed by the configuration).
        self.scale = scale or CardScale()
        #: The last frame's detections (the set-up page's live view draws them).
        self.last: list[Detection] = []
        self.library = library
        self.table = table
        self.check_s = check_s
        self.background = background
        self.builtin: Prototypes = recognizer.prototypes
        self.deck = BUILTIN
        self.error: str | None = None
        #: The deck being rebuilt in the background (its slug and name), and how far (0-1).
        self.rebuilding: str | None = None
        self.rebuilding_name = ""
        self.progress = 0.0
        self._on_progress = on_progress
        self._rebuild: threading.Thread | None = None
        #: A finished background rebuild, applied by the next ``sync`` (in the frame thread, so
        #: no frame is read half by one prototype set and half by another).
        self._rebuilt: tuple[str, int, DeckProfile | Exception, bool] | None = None
        self._token: tuple[str, int] = (BUILTIN, 0)
        self._checked = float("-inf")
        self._lock = threading.Lock()
        self._enroller = Enroller(recognizer, back=self._builtin_back())
        self.sync()

    def _builtin_back(self) -> np.ndarray | None:
        idx = [i for i, lab in enumerate(self.builtin.labels) if lab == "back"]
        return self.builtin.vectors[idx] if idx and not isinstance(self.builtin, DeckPrototypes) else None

    def sync(self) -> str:
        """Load the table's deck now if it changed; returns its slug (or ``builtin``).

        Call it from the thread that reads frames: it swaps the recogniser's prototypes.
        """
        with self._lock:
            self._checked = time.monotonic()
            if self._rebuilt is not None:
                self._apply_rebuilt(*self._rebuilt)
                self._rebuilt = None
            token = self.library.token(self.table)
            if token == self._token:
                return self.deck
            self._token = token
            slug = token[0]
            if slug == BUILTIN:
                return self._use(BUILTIN, self.builtin)
            try:
                profile = self.library.load(slug)
                if not self._enroller.is_current(profile):
                    if self.background:
                        return self._rebuild_meanwhile(slug, profile, token[1])
                    profile = self._enroller.refresh(profile, self._on_progress)
                    self.library.save(profile, replace=True)
                    self._token = self.library.token(self.table)  # the refresh rewrote the profile
            except (ProfileError, ValueError, OSError) as exc:
                return self._fail(slug, exc)
            return self._use(slug, profile.prototypes)

    def _use(self, slug: str, prototypes: Prototypes, error: str | None = None) -> str:
        self.recognizer.prototypes = prototypes
        self.deck, self.error = slug, error
        return slug

    def _fail(self, slug: str, exc: Exception) -> str:
        return self._use(BUILTIN, self.builtin, f"deck {slug!r} cannot be used, reading the built-in deck: {exc}")

    def _rebuild_meanwhile(self, slug: str, profile: DeckProfile, stamp: int) -> str:
        """Start rebuilding ``profile`` in a thread; meanwhile read it as it is if this
        identifier made it, else the built-in deck.

        One rebuild at a time: a deck chosen during another's rebuild is looked at again after it.
        """
        if self.rebuilding is None:
            self.rebuilding, self.rebuilding_name, self.progress = slug, profile.name, 0.0
            self._rebuild = threading.Thread(
                target=self._rebuild_run, args=(slug, profile, stamp), name=f"rebuild-{slug}", daemon=True
            )
            self._rebuild.start()
        if same_identifier(profile.probe, self._enroller.probe):
            return self._use(slug, profile.prototypes)
        return self._use(BUILTIN, self.builtin)

    def _rebuild_run(self, slug: str, profile: DeckProfile, stamp: int) -> None:
        def progress(fraction: float, text: str) -> None:
            self.progress = fraction
            if self._on_progress is not None:
                self._on_progress(fraction, text)

        result: DeckProfile | Exception
        stored = False
        try:
            result = self._enroller.refresh(profile, progress)
            stored = self.library.replace_if_unchanged(result, stamp)
        except (ProfileError, ValueError, OSError) as exc:
            result = exc
        with self._lock:
            self._rebuilt = (slug, stamp, result, stored)
            self.rebuilding = None
            self._checked = float("-inf")  # the next frame applies it

    def _apply_rebuilt(self, slug: str, stamp: int, result: DeckProfile | Exception, stored: bool) -> None:
        if self._token != (slug, stamp):  # the table chose another deck meanwhile, or this one was enrolled anew
            self._token = (BUILTIN, -1)  # look again
            return
        if isinstance(result, Exception):
            self._fail(slug, result)
            return
        self._use(slug, result.prototypes)
        if stored:
            self._token = self.library.token(self.table)  # the rebuild rewrote the profile

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a background rebuild to end and use its result (call it from the thread that reads
        frames, or while none is read); True when none is running any more."""
        thread = self._rebuild
        if thread is not None:
            thread.join(timeout)
        if self.rebuilding is None:
            self.sync()
            return True
        return False

    def status(self) -> dict[str, Any]:
        """The table's deck for the dashboard: which is read, which is being rebuilt and how far (in tenths, so a
        phone is told ten times, not every frame), and any error."""
        rebuilding = self.rebuilding
        return {
            "deck": self.deck,
            "rebuilding": rebuilding,
            "name": self.rebuilding_name if rebuilding else None,
            "progress": round(self.progress, 1) if rebuilding else None,
            "error": self.error,
        }

    def recognize(self, frame: np.ndarray) -> list[Detection]:
        if time.monotonic() - self._checked >= self.check_s:
            self.sync()
        dets = self.recognizer.recognize(frame, self.scale.length)
        self.scale.observe(dets)
        self.last = dets
        return dets

    __call__ = recognize
