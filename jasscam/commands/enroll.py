"""``jasscam enroll DIR --name NAME``: teach the appliance a deck from a folder of card images.

One image per card is enough (a scan, a photo, or the card art as a PNG), named by card:
``kreuz-7.png``, ``rosen-ober.jpg``, ``back.png``; a second phone photo of each card, taken
elsewhere or in other light (``kreuz-7-2.jpg``, or a folder ``kreuz-7/``), reads the deck
more surely and is what a player photographing a real deck should take (``TWO_PHOTOS``);
a phone photo of up to nine cards laid in rows is named by its cards in reading order
(``kreuz-6+kreuz-7+kreuz-8.jpg``). The profile is stored in the appliance's state directory
and used by a table once selected (``--activate`` here, or on the dashboard). Missing,
mislabelled and duplicated cards are reported by name; the profile is not stored while
there are such errors unless ``--force``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

NAME = "enroll"
#: Said after a deck taught from phone photos with one photo of a card: what a second photo gave
#: on rendered photos of two decks never trained on (models/README.md, "Two or three photos a card").
TWO_PHOTOS = (
    "tip: a second photo of each card, taken elsewhere or in other light and named like kreuz-7-2.jpg,"
    " reads the deck more surely (on rendered phone photos of a look-alike deck 0.96 of the cards"
    " were named right instead of 0.86)"
)
HELP = "enrol a deck from a folder of card images named by card id (kreuz-7.png, rosen-ober.jpg, ...)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder",
        metavar="DIR",
        type=Path,
        help="folder of card images named by card id (kreuz-7.jpg); a photo of several cards in rows is named by its"
        " cards in reading order, joined by + (kreuz-6+kreuz-7+kreuz-8.jpg)",
    )
    parser.add_argument("--name", required=True, help="the deck's name (e.g. 'Paris' or 'Grossvaters Jasskarten')")
    parser.add_argument("--suits", choices=("french", "swiss"), help="suit system (default: what the file names say)")
    parser.add_argument("--activate", action="store_true", help="make it the table's deck right away")
    parser.add_argument("--table", default="main", help="which table --activate selects it for (default main)")
    parser.add_argument("--replace", action="store_true", help="replace an enrolled deck of the same name")
    parser.add_argument(
        "--force", action="store_true", help="store the profile even if cards are missing or mislabelled"
    )
    parser.add_argument("--views", type=int, default=None, help="camera-like views per image (default 32)")
    parser.add_argument(
        "--models", metavar="DIR", help="recogniser models (default: recognizer.models_dir, else models/)"
    )
    parser.add_argument("--config", metavar="FILE", help="appliance configuration (for the state directory and models)")
    parser.add_argument("--state-dir", metavar="DIR", help="state directory (overrides store.state_dir)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument(
        "--cutouts",
        metavar="DIR",
        type=Path,
        help="also write every card as it was cut out of its image (<card>-<n>.png), to see what was learnt",
    )


def write_cutouts(samples: list[Any], folder: Path) -> list[Path]:
    """Every sample's picture as ``<card>-<n>.png`` in ``folder``: the cards as enrolment will learn them."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    seen: dict[str, int] = {}
    paths = []
    for s in samples:
        label = str(s.label)
        seen[label] = seen.get(label, 0) + 1
        path = folder / f"{label}-{seen[label]}.png"
        cv2.imwrite(str(path), s.picture)
        paths.append(path)
    return paths


def run(args: argparse.Namespace) -> int:
    from jasscam.config import ConfigError, default_path, load
    from jasscam.decks import open_library
    from vision.enroll import Enroller, ProfileError, scan_folder, slugify
    from vision.enroll.enroller import DEFAULT_VIEWS
    from vision.recognizer import MODELS_DIR, Recognizer, RecognizerSettings

    def fail(message: str, code: int = 2) -> int:
        print(f"jasscam enroll: {message}", file=sys.stderr)
        return code

    try:
        config = load(args.config or default_path())
        slugify(args.name)
    except (ConfigError, ProfileError) as exc:
        return fail(str(exc))
    if not args.folder.is_dir():
        return fail(f"{args.folder} is not a folder")
    views = DEFAULT_VIEWS if args.views is None else args.views
    if not 0 <= views <= 200:
        return fail("--views must be between 0 and 200")
    state_dir = Path(args.state_dir).expanduser() if args.state_dir else config.state_dir()
    models = Path(args.models or config.recognizer.models_dir or MODELS_DIR).expanduser()
    try:
        rec = Recognizer(models, settings=RecognizerSettings(threads=config.recognizer.threads))
    except (FileNotFoundError, ValueError) as exc:
        return fail(f"cannot load the recogniser from {models}: {exc}")
    library = open_library(state_dir)
    quiet = args.json

    def cutting(fraction: float, message: str) -> None:
        if not quiet and sys.stderr.isatty():
            print(f"\r  cutting out {fraction:4.0%} ({message})   ", end="", file=sys.stderr, flush=True)

    scan = scan_folder(args.folder, rec, args.suits, cutting)
    if args.cutouts is not None:
        write_cutouts(scan.samples, args.cutouts)

    def progress(fraction: float, message: str) -> None:
        if not quiet and sys.stderr.isatty():
            print(f"\r  embedding {fraction:4.0%} ({message})   ", end="", file=sys.stderr, flush=True)

    try:
        profile, report = Enroller(rec, views=views).build(
            args.name, scan.suits, scan.samples, progress, learn_if_wrong=args.force
        )
    except (ValueError, ProfileError) as exc:
        for e in scan.errors:
            print(f"  error: {e}", file=sys.stderr)
        return fail(str(exc))
    if not quiet and sys.stderr.isatty():
        print(file=sys.stderr)
    errors = list(scan.errors) + [i.message for i in report.issues if i.is_error]
    stored = False
    if not errors or args.force:
        try:
            library.save(profile, replace=args.replace)
            stored = True
            if args.activate:
                library.set_active(profile.slug, args.table)
        except ProfileError as exc:
            return fail(str(exc))
    if args.json:
        out = {
            "deck": profile.summary(),
            "report": report.to_json(),
            "file_errors": scan.errors,
            "file_warnings": scan.warnings,
            "stored": stored,
            "folder": str(library.root / profile.slug) if stored else None,
            "active": library.active(args.table),
        }
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        print(
            f"Deck {profile.name!r} ({profile.suits} suits): {len(scan.samples)} images of {len(profile.cards)} cards, "
            f"{views} views each, {report.seconds:.1f} s"
        )
        for e in scan.errors:
            print(f"  error: {e}")
        for w in scan.warnings:
            print(f"  warning: {w}")
        for issue in report.issues:
            print(f"  {'error' if issue.is_error else 'warning'}: {issue.message}")
        if _photos_once(scan.samples):
            print(f"  {TWO_PHOTOS}")
        if stored:
            print(
                f"Stored in {library.root / profile.slug}"
                + (
                    f"; table {args.table!r} now plays with it"
                    if args.activate
                    else "; select it on the dashboard or with --activate"
                )
            )
        else:
            print("Not stored: fix the errors above (or pass --force to store it anyway).")
    return 0 if stored and not errors else 1


def _photos_once(samples: list[Any]) -> bool:
    """Were most cards taught from one photo each? Photos, not scans or card art (``Sample.aspect``
    is None for a card cut out of a photo): a scan shows the card as it is, a photo in one light."""
    from collections import Counter

    photos = Counter(s.label for s in samples if s.aspect is None)
    counts = Counter(s.label for s in samples)
    return len(photos) >= len(counts) // 2 > 0 and sum(n >= 2 for n in counts.values()) < len(counts) // 2
