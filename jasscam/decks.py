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

import numpy as np

from jasscam.config import Config
from vision.detection import Detection
from vision.enroll import BUILTIN, DeckLibrary, DeckProfile, Enroller, ProfileError
from vision.enroll.head import DeckPrototypes
from vision.enroll.library import DEFAULT_TABLE
from vision.recognizer import Prototypes, Recognizer

#: Sub-folder of the state directory holding the deck profiles.
DECKS_FOLDER = "decks"


def decks_dir(state_dir: Path) -> Path:
    return Path(state_dir) / DECKS_FOLDER


def open_library(config_or_state_dir: Config | Path | str) -> DeckLibrary:
    """The deck library of this appliance (``<state dir>/decks``)."""
    if isinstance(config_or_state_dir, Config):
        return DeckLibrary(decks_dir(config_or_state_dir.state_dir()))
    return DeckLibrary(decks_dir(Path(config_or_state_dir)))


def current_profile(library: DeckLibrary, slug: str, enroller: Enroller) -> DeckProfile:
    """The profile ``slug``, with prototypes rebuilt (and saved) if another identifier made them."""
    profile = library.load(slug)
    if not enroller.is_current(profile):
        profile = enroller.refresh(profile)
        library.save(profile, replace=True)
    return profile


class DeckAwareRecognizer:
    """A recogniser that reads the cards of whichever deck ``table`` has selected.

    Checks the library at most every ``check_s`` seconds (two file stats) and swaps the
    recogniser's prototype set when the choice or the profile changed; a profile that
    cannot be loaded leaves the built-in deck in place and is reported in ``error``.
    """

    def __init__(self, recognizer: Recognizer, library: DeckLibrary, table: str = DEFAULT_TABLE, check_s: float = 1.0) -> None:
        self.recognizer = recognizer
        self.library = library
        self.table = table
        self.check_s = check_s
        self.builtin: Prototypes = recognizer.prototypes
        self.deck = BUILTIN
        self.error: str | None = None
        self._token: tuple[str, int] = (BUILTIN, 0)
        self._checked = float("-inf")
        self._lock = threading.Lock()
        self._enroller = Enroller(recognizer, back=self._builtin_back())
        self.sync()

    def _builtin_back(self) -> np.ndarray | None:
        idx = [i for i, lab in enumerate(self.builtin.labels) if lab == "back"]
        return self.builtin.vectors[idx] if idx and not isinstance(self.builtin, DeckPrototypes) else None

    def sync(self) -> str:
        """Load the table's deck now if it changed; returns its slug (or ``builtin``)."""
        with self._lock:
            self._checked = time.monotonic()
            token = self.library.token(self.table)
            if token == self._token:
                return self.deck
            self._token = token
            slug = token[0]
            if slug == BUILTIN:
                self.recognizer.prototypes = self.builtin
                self.deck, self.error = BUILTIN, None
                return self.deck
            try:
                profile = current_profile(self.library, slug, self._enroller)
                self._token = self.library.token(self.table)  # a refresh rewrote the profile
            except (ProfileError, ValueError, OSError) as exc:
                self.recognizer.prototypes = self.builtin
                self.deck, self.error = BUILTIN, f"deck {slug!r} cannot be used, reading the built-in deck: {exc}"
                return self.deck
            self.recognizer.prototypes = profile.prototypes
            self.deck, self.error = slug, None
            return self.deck

    def recognize(self, frame: np.ndarray) -> list[Detection]:
        if time.monotonic() - self._checked >= self.check_s:
            self.sync()
        return self.recognizer.recognize(frame)

    __call__ = recognize
