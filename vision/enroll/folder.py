"""Enrolment from a folder of images named by card: ``kreuz-7.png``, ``rosen-ober-2.jpg``, ``schellen-ass/*.jpg``.

A photo of several cards laid in rows is named by its cards in reading order (row by
row, left to right), joined by ``+``: ``kreuz-6+kreuz-7+kreuz-8.jpg``. The photo must
show exactly that many face-up cards; otherwise it is reported, not guessed at.

A file's name (or, for files in a sub-folder, the sub-folder's name) says which card it
shows; Swiss, French, German and English suit and rank names are accepted. A file whose
name names no card is an error, not silently skipped: a typo would otherwise become a
missing card far from its cause.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vision.enroll.crops import IMAGE_SUFFIXES, EnrollImageError, read_image
from vision.enroll.names import SUIT_SYSTEMS, CardNameError, label_from_filename, named, parse_label
from vision.enroll.pictures import Detector, Sample, card_in_image, cards_in_image


@dataclass
class FolderScan:
    """What a folder holds: labelled samples, the suit system their names imply, and the files that failed.

    ``errors`` stop the deck being stored. ``warnings`` are files left out whose cards
    are all learnt from other pictures: a player who photographed each card twice
    loses nothing when one photo of a card shows no card the cutter can find, and is
    told which file to take again.
    """

    samples: list[Sample] = field(default_factory=list)
    suits: str = "swiss"
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


#: Joins the cards of a photo of several in its file name, in reading order.
SEVERAL = "+"


def labels_from_filename(stem: str) -> list[tuple[str, str | None]]:
    """The cards a file name lists (one, or several joined by ``+``), each with its implied suit system."""
    return (
        [label_from_filename(part) for part in stem.split(SEVERAL)] if SEVERAL in stem else [label_from_filename(stem)]
    )


def label_files(folder: Path) -> tuple[list[tuple[Path, str, str | None]], list[str]]:
    """(image path, card label, implied suit system) for every image; plus the names that are no card.

    A photo of several cards appears once per card, in the order its name lists them."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder")
    found: list[tuple[Path, str, str | None]] = []
    errors: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_dir():
            try:
                label, system = parse_label(path.name)
            except CardNameError as exc:
                errors.append(f"{path.name}/: {exc}")
                continue
            for f in sorted(path.iterdir()):
                if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES:
                    found.append((f, label, system))
        elif path.suffix.lower() in IMAGE_SUFFIXES:
            try:
                named = labels_from_filename(path.stem)
            except CardNameError as exc:
                errors.append(f"{path.name}: {exc}")
                continue
            found += [(path, label, system) for label, system in named]
    return found, errors


def scan_folder(
    folder: Path,
    detector: Detector | None = None,
    suits: str | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> FolderScan:
    """Read every card image of ``folder`` into upright pictures.

    ``suits``: the deck's suit system; by default the one the file names imply (French
    names make a French deck). Unreadable images and images without a card are listed in
    ``errors`` by file name. ``progress`` (0..1, the file's name) follows the files, which
    take seconds each when they are phone photos to cut cards out of.
    """
    if suits is not None and suits not in SUIT_SYSTEMS:
        raise ValueError(f"suits must be one of {', '.join(SUIT_SYSTEMS)}, got {suits!r}")
    files, errors = label_files(folder)
    scan = FolderScan(errors=errors)
    implied = Counter(s for _, _, s in files if s is not None)
    if suits is None:
        if len(implied) > 1:
            scan.errors.append(
                f"file names mix suit systems ({implied['swiss']} Swiss, {implied['french']} French);"
                " pass --suits to choose"
            )
        suits = implied.most_common(1)[0][0] if implied else "swiss"
    scan.suits = suits
    grouped: dict[Path, list[str]] = {}
    for path, label, _ in files:
        grouped.setdefault(path, []).append(label)
    failed: list[tuple[str, list[str], str]] = []
    for done, (path, labels) in enumerate(grouped.items()):
        rel = str(path.relative_to(folder))
        if progress is not None:
            progress(done / max(len(grouped), 1), rel)
        try:
            if len(labels) == 1:
                picture, aspect = card_in_image(read_image(path), detector)
                scan.samples.append(Sample(labels[0], picture, rel, aspect))
                continue
            cards = cards_in_image(read_image(path), detector, expected=len(labels))
            if len(cards) != len(labels):
                raise EnrollImageError(
                    f"the name lists {len(labels)} cards but {len(cards)} face-up cards were found; lay them apart"
                    " in rows on a plain background, or photograph them one by one"
                )
            for k, (label, (picture, aspect)) in enumerate(zip(labels, cards, strict=True)):
                scan.samples.append(Sample(label, picture, f"{rel}#{k + 1}", aspect))
        except EnrollImageError as exc:
            failed.append((rel, labels, str(exc)))
    learnt = {s.label for s in scan.samples}
    for rel, labels, message in failed:
        if all(label in learnt for label in labels):
            which = ", ".join(named(label, suits) for label in labels)
            verb = "is" if len(labels) == 1 else "are"
            scan.warnings.append(f"{rel}: {message}; left out, since {which} {verb} learnt from other pictures")
        else:
            scan.errors.append(f"{rel}: {message}")
    return scan
