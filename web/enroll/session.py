"""One guided enrolment at the table: captures, labels, and the profile built in the background.

The dashboard asks for a few cards at a time (one suit's number cards, then its court
cards and Ass), the user lays them in a row and captures; the cards found are labelled
in reading order with the cards asked for, so a correct row needs no typing, and any
label can be fixed afterwards. Building the profile (views, then training the deck's detail head) takes
over a minute on a 2-core machine (CHANGELOG.md), so it runs in a thread and reports its
progress.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from scoring.cards import RANKS, SUITS
from vision.detection import BACK
from vision.enroll import (
    DeckLibrary,
    DeckProfile,
    Enroller,
    EnrollReport,
    ProfileError,
    Sample,
    display_name,
    own_id,
    slugify,
)
from vision.enroll.names import SUIT_SYSTEMS
from web.errors import ApiError

#: The rows the user is asked to lay, in order: per suit its number cards, then its court cards and Ass.
NUMBER_RANKS = ("6", "7", "8", "9", "10")
COURT_RANKS = ("under", "ober", "koenig", "ass")
PLAN: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{suit}-{rank}" for rank in group) for suit in SUITS for group in (NUMBER_RANKS, COURT_RANKS)
) + ((BACK,),)
MAX_SAMPLES = 400
#: Rounds of pictures the dashboard asks for: every face twice, the second round elsewhere on the
#: table or in other light. A deck can be saved after the first; the second makes its prototypes
#: from two looks at each card (rendered phone photos of a look-alike deck: 0.86 of its cards
#: named right from one photo a card, 0.96 from two; models/README.md).
ROUNDS = 2


@dataclass
class Captured:
    id: int
    sample: Sample
    capture: int
    png: bytes


@dataclass
class Build:
    """The background build: progress 0..1, then the stored profile's report or an error."""

    fraction: float = 0.0
    message: str = "starting"
    done: bool = False
    error: str | None = None
    report: EnrollReport | None = None
    stored: str | None = None
    profile: DeckProfile | None = None


@dataclass
class EnrollSession:
    """The captures of one deck being enrolled, and its build."""

    name: str
    suits: str
    started: float = field(default_factory=time.time)
    samples: dict[int, Captured] = field(default_factory=dict)
    captures: int = 0
    build: Build | None = None
    _next: int = 1
    lock: threading.RLock = field(default_factory=threading.RLock)

    def __post_init__(self) -> None:
        if self.suits not in SUIT_SYSTEMS:
            raise ApiError(f"suits must be one of {', '.join(SUIT_SYSTEMS)}")

    # -- what to lay next ---------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.samples.values():
            if c.sample.label is not None:
                out[c.sample.label] = out.get(c.sample.label, 0) + 1
        return out

    def next_round(self) -> int:
        """The round of pictures being taken: 1 until every face has a picture, then 2 (``ROUNDS``);
        ``ROUNDS + 1`` once every face has that many. The back does not hold a round up: the camera
        finds face-up cards only, and a deck needs no back."""
        have = self.counts()
        for n in range(1, ROUNDS + 1):
            if any(have.get(c, 0) < n for group in PLAN for c in group if c != BACK):
                return n
        return ROUNDS + 1

    def next_group(self) -> tuple[str, ...]:
        """The first planned row of this round with a card it has not captured yet; the back, once,
        after the rounds; empty when all are captured."""
        have = self.counts()
        n = self.next_round()
        for group in PLAN:
            if n <= ROUNDS and group != (BACK,) and any(have.get(c, 0) < n for c in group):
                return tuple(c for c in group if have.get(c, 0) < n)
        return (BACK,) if have.get(BACK, 0) < 1 else ()

    # -- captures -----------------------------------------------------------------------

    def add(
        self,
        pictures: list[np.ndarray],
        expected: tuple[str, ...] | None,
        source: str,
        aspects: list[float | None] | None = None,
    ) -> list[Captured]:
        """Add a capture's pictures, labelled in order with ``expected`` (the row asked for); ``aspects``:
        each card's measured proportions, where its image showed them (``Sample.aspect``)."""
        with self.lock:
            if self.build is not None and not self.build.done:
                raise ApiError("the deck is being built; wait for it to finish", 409)
            if len(self.samples) + len(pictures) > MAX_SAMPLES:
                raise ApiError(f"at most {MAX_SAMPLES} pictures per deck")
            self.captures += 1
            labels = list(expected or ())
            out = []
            for k, pic in enumerate(pictures):
                label = labels[k] if k < len(labels) else None
                ok, png = cv2.imencode(".png", pic)
                if not ok:
                    raise ApiError("cannot encode a captured picture", 500)
                aspect = aspects[k] if aspects is not None and k < len(aspects) else None
                sample = Sample(label, pic, f"capture {self.captures} card {k + 1}", aspect)
                item = Captured(self._next, sample, self.captures, png.tobytes())
                self.samples[item.id] = item
                self._next += 1
                out.append(item)
            return out

    def relabel(self, sample_id: int, label: str | None) -> Captured:
        with self.lock:
            item = self.samples.get(sample_id)
            if item is None:
                raise ApiError(f"no captured picture {sample_id}", 404)
            item.sample.label = label
            return item

    def remove(self, sample_id: int) -> None:
        with self.lock:
            if self.samples.pop(sample_id, None) is None:
                raise ApiError(f"no captured picture {sample_id}", 404)

    # -- build ----------------------------------------------------------------------------

    def start_build(
        self, enroller: Enroller, library: DeckLibrary, *, replace: bool, force: bool, activate: str | None
    ) -> Build:
        """Build and store the profile in a thread; poll ``build`` for progress and the report."""
        with self.lock:
            if self.build is not None and not self.build.done:
                raise ApiError("the deck is being built already", 409)
            samples = [
                Sample(c.sample.label, c.sample.picture, c.sample.source, c.sample.aspect)
                for c in self.samples.values()
                if c.sample.label
            ]
            if not samples:
                raise ApiError("no labelled pictures yet: capture some cards first")
            if not replace and library.exists(slugify(self.name)):
                raise ApiError(f"a deck named {self.name!r} exists already; replace it or choose another name", 409)
            build = Build()
            self.build = build

        def progress(fraction: float, message: str) -> None:
            build.fraction, build.message = 0.95 * fraction, message

        def work() -> None:
            try:
                profile, report = enroller.build(self.name, self.suits, samples, progress, learn_if_wrong=force)
                build.report, build.profile = report, profile
                if report.ok or force:
                    build.message = "storing"
                    build.stored = library.save(profile, replace=replace)
                    if activate is not None:
                        library.set_active(build.stored, activate)
            except (ValueError, ProfileError, OSError) as exc:
                build.error = str(exc)
            finally:
                build.fraction, build.done = 1.0, True
                build.message = "done" if build.error is None else "failed"

        threading.Thread(target=work, name="enroll-build", daemon=True).start()
        return build

    # -- view -----------------------------------------------------------------------------

    def view(self, lang: str = "de") -> dict[str, Any]:
        with self.lock:
            counts = self.counts()
            samples = [
                {
                    "id": c.id,
                    "label": c.sample.label,
                    "name": display_name(c.sample.label, self.suits, lang) if c.sample.label else None,
                    "own_id": own_id(c.sample.label, self.suits) if c.sample.label else None,
                    "capture": c.capture,
                    "source": c.sample.source,
                }
                for c in self.samples.values()
            ]
            faces = [f"{s}-{r}" for s in SUITS for r in RANKS]
            missing = [c for c in faces if c not in counts]
            build = None
            if self.build is not None:
                b = self.build
                build = {
                    "fraction": round(b.fraction, 3),
                    "message": b.message,
                    "done": b.done,
                    "error": b.error,
                    "stored": b.stored,
                    "report": b.report.to_json() if b.report is not None else None,
                }
            nxt = self.next_group()
            return {
                "name": self.name,
                "suits": self.suits,
                "captures": self.captures,
                "samples": samples,
                "round": min(self.next_round(), ROUNDS),
                "rounds": ROUNDS,
                "cards_twice": sum(1 for c in faces if counts.get(c, 0) >= ROUNDS),
                "cards_done": len(faces) - len(missing),
                "cards_total": len(faces),
                "missing": missing,
                "missing_names": [display_name(c, self.suits, lang) for c in missing],
                "labels": [{"card": c, "name": display_name(c, self.suits, lang)} for c in (*faces, BACK)],
                "next": [
                    {"card": c, "own_id": own_id(c, self.suits), "name": display_name(c, self.suits, lang)} for c in nxt
                ],
                "build": build,
            }
