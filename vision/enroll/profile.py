"""A deck profile: what the appliance needs to read one physical deck, stored as a folder.

``<root>/<slug>/``
    ``profile.json``    name, suit system, when, from which images, views per picture
    ``prototypes.npz``  the identifier prototypes (``vision.recognizer.Prototypes`` file)
    ``pictures.npz``    every enrolled card picture, upright, 160x240 BGRA
    ``probe.npy``       the identifier's embedding of a fixed test pattern at enrolment
    ``thumbs/<id>.png`` one picture per card for the dashboard (canonical Swiss id)

Why keep the pictures: prototypes are only valid for the identifier that made them. When
the shipped model is replaced, ``probe.npy`` no longer matches the new model's embedding
of the same pattern and the prototypes are rebuilt from the pictures in seconds, without
asking the user to lay the deck out again.

Prototype labels are always canonical Swiss ids (plus ``back``), so the recognizer, the
tracker and scoring never see a French name; ``suits`` says how to show them.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.detection import BACK
from vision.enroll.head import DeckPrototypes
from vision.enroll.names import SUIT_SYSTEMS, display_name, own_id
from vision.recognizer.prototypes import Prototypes

FORMAT_VERSION = 1
#: Stored enrolment pictures: upright, this size, BGRA (alpha 0 where the card is not).
PICTURE_W, PICTURE_H = 160, 240
#: Dashboard thumbnails, the size of web/static/cards.
THUMB_W, THUMB_H = 120, 187


class ProfileError(ValueError):
    """A deck profile that cannot be saved or loaded (bad name, missing or damaged files)."""


def slugify(name: str) -> str:
    """The folder name for a deck name: lower case letters, digits and dashes."""
    if not isinstance(name, str) or not name.strip():
        raise ProfileError("a deck needs a name")
    table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "é": "e", "è": "e", "à": "a", "ç": "c", "ß": "ss"})
    slug = re.sub(r"[^a-z0-9]+", "-", name.strip().lower().translate(table)).strip("-")[:40]
    if not slug:
        raise ProfileError(f"deck name {name!r} has no letters or digits")
    if slug == "builtin":
        raise ProfileError("'builtin' is the shipped deck's name; choose another")
    return slug


@dataclass
class DeckProfile:
    """One enrolled deck. ``pictures[label]``: its upright BGRA pictures; ``sources[label]``: where each came from."""

    name: str
    suits: str
    prototypes: Prototypes
    pictures: dict[str, list[np.ndarray]]
    probe: np.ndarray
    sources: dict[str, list[str]] = field(default_factory=dict)
    views: int = 0
    created: float = field(default_factory=time.time)
    notes: list[str] = field(default_factory=list)
    #: The recogniser's ``outlines_digest`` when the profile was built: the detector,
    #: refiner and verifier that cut its table views and judged them ("" in an older profile).
    outlines: str = ""

    def __post_init__(self) -> None:
        if self.suits not in SUIT_SYSTEMS:
            raise ProfileError(f"suits must be one of {', '.join(SUIT_SYSTEMS)}, got {self.suits!r}")
        unknown = sorted(set(self.pictures) - {*ALL_CARD_IDS, BACK})
        if unknown:
            raise ProfileError(f"pictures for unknown cards: {', '.join(unknown)}")

    @property
    def slug(self) -> str:
        return slugify(self.name)

    @property
    def cards(self) -> list[str]:
        """Enrolled labels in canonical order (faces, then the back if enrolled)."""
        return [c for c in (*ALL_CARD_IDS, BACK) if self.pictures.get(c)]

    def missing(self) -> list[str]:
        return [c for c in ALL_CARD_IDS if not self.pictures.get(c)]

    def thumbnail(self, card: str) -> np.ndarray | None:
        """The card's first picture at dashboard size (BGRA), or None if not enrolled."""
        pics = self.pictures.get(card)
        if not pics:
            return None
        return cv2.resize(pics[0], (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)

    def summary(self, lang: str = "de") -> dict[str, Any]:
        """JSON-able description: names, suit system, per-card own id, display name and picture count."""
        return {
            "name": self.name,
            "slug": self.slug,
            "suits": self.suits,
            "created": self.created,
            "views": self.views,
            "cards": {
                c: {
                    "own_id": own_id(c, self.suits),
                    "name": display_name(c, self.suits, lang),
                    "pictures": len(self.pictures.get(c, [])),
                }
                for c in (*ALL_CARD_IDS, BACK)
                if self.pictures.get(c)
            },
            "missing": self.missing(),
            "notes": list(self.notes),
        }

    # -- disk ---------------------------------------------------------------------------

    def save(self, folder: Path) -> None:
        """Write the profile into ``folder`` atomically (a temporary folder renamed into place)."""
        folder = Path(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = folder.parent / f".{folder.name}.tmp"
        if tmp.exists():
            shutil.rmtree(tmp)
        (tmp / "thumbs").mkdir(parents=True)
        labels = [c for c in self.cards for _ in self.pictures[c]]
        images = (
            np.stack([p for c in self.cards for p in self.pictures[c]])
            if labels
            else np.zeros((0, PICTURE_H, PICTURE_W, 4), np.uint8)
        )
        np.savez_compressed(tmp / "pictures.npz", labels=np.array(labels), images=images)
        self.prototypes.save(tmp / "prototypes.npz")
        np.save(tmp / "probe.npy", self.probe.astype(np.float32))
        for c in self.cards:
            thumb = self.thumbnail(c)
            assert thumb is not None
            ok, png = cv2.imencode(".png", thumb)
            if not ok:
                raise ProfileError(f"cannot encode the thumbnail of {c}")
            (tmp / "thumbs" / f"{c}.png").write_bytes(png.tobytes())
        meta = {
            "format": FORMAT_VERSION,
            "name": self.name,
            "suits": self.suits,
            "created": self.created,
            "views": self.views,
            "sources": self.sources,
            "notes": self.notes,
            "outlines": self.outlines,
        }
        (tmp / "profile.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
        old = folder.parent / f".{folder.name}.old"
        if old.exists():
            shutil.rmtree(old)
        if folder.exists():
            folder.rename(old)
        tmp.rename(folder)
        if old.exists():
            shutil.rmtree(old)

    @classmethod
    def load(cls, folder: Path) -> DeckProfile:
        folder = Path(folder)
        meta_path = folder / "profile.json"
        if not meta_path.is_file():
            raise ProfileError(f"no deck profile in {folder} (profile.json missing)")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT_VERSION:
                raise ProfileError(
                    f"{folder}: profile format {meta.get('format')!r}, this version reads {FORMAT_VERSION}"
                )
            with np.load(folder / "pictures.npz", allow_pickle=False) as z:
                labels, images = [str(x) for x in z["labels"]], z["images"]
            pictures: dict[str, list[np.ndarray]] = {}
            for lab, img in zip(labels, images, strict=True):
                pictures.setdefault(lab, []).append(img)
            return cls(
                name=str(meta["name"]),
                suits=str(meta["suits"]),
                prototypes=DeckPrototypes.load(folder / "prototypes.npz"),
                pictures=pictures,
                probe=np.load(folder / "probe.npy", allow_pickle=False),
                sources={str(k): [str(v) for v in vs] for k, vs in meta.get("sources", {}).items()},
                views=int(meta.get("views", 0)),
                created=float(meta.get("created", 0.0)),
                notes=[str(n) for n in meta.get("notes", [])],
                outlines=str(meta.get("outlines", "")),
            )
        except ProfileError:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ProfileError(f"deck profile {folder} is damaged: {exc}") from exc
