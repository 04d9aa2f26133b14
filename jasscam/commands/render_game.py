"""``jasscam render-game --seed N --out DIR``: a simulated game rendered as a recording.

Why: there is no camera here and no recorded real game yet; a rendered recording (video
as the table camera would see it, plus the full ground-truth events) exercises the
tracker, the replay and the dashboard end to end. Same seed, same recording.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scoring.events import ROUND_CONTRACTS, VARIANTS

NAME = "render-game"
HELP = "render a simulated Jass game as a recording folder (video + metadata + ground-truth events)"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 640x480, got {text!r}") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096) or w % 2 or h % 2:
        raise argparse.ArgumentTypeError(f"size {w}x{h}: width and height must be even and within 64..4096")
    return w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, required=True, help="seed of the game and of its look")
    parser.add_argument("--out", type=Path, required=True, help="recording folder to create (must be new or empty)")
    parser.add_argument(
        "--contract",
        choices=ROUND_CONTRACTS,
        help="contract of every round (default: random per round; slalom and misere are Coiffeur rows)",
    )
    parser.add_argument("--deck", default="swiss-xvii", help="card art (default swiss-xvii; paris is held out)")
    parser.add_argument("--style", choices=("clean", "hard"), default="clean", help="camera and light quality")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to play (Speck: games) (default 1)")
    parser.add_argument("--variant", choices=VARIANTS, default="schieber")
    parser.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    parser.add_argument(
        "--size",
        type=_size,
        default=None,
        help="frame size WxH (default 1280x960, the hardware guide's camera); cards stay 9-10 %% of the short side",
    )
    parser.add_argument(
        "--layout",
        choices=("near-centre", "apart"),
        default="near-centre",
        help="how tricks are laid: close about the centre, each card turned toward its player by up to 25 degrees "
        "(default), or a card's length apart",
    )
    parser.add_argument("--codec", choices=("mp4v", "MJPG"), default="mp4v", help="mp4v (.mp4, small) or MJPG (.avi)")
    parser.add_argument(
        "--habits",
        action="store_true",
        help="players' habits now and then, seeded by --seed: hands overlapping, two cards laid together, a card "
        "nudged or laid by mistake and taken back, a trick left lying or picked up, the last trick turned up to count",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing recording folder")


def run(args: argparse.Namespace) -> int:
    from vision.recording import Recording, RecordingError
    from vision.synth.game import render_game

    if args.rounds < 1:
        print("jasscam render-game: --rounds must be at least 1", file=sys.stderr)
        return 2
    try:
        summary = render_game(
            args.seed,
            args.out,
            contract=args.contract,
            deck=args.deck,
            style=args.style,
            rounds=args.rounds,
            fps=args.fps,
            size=args.size,
            variant=args.variant,
            layout=args.layout,
            codec=args.codec,
            overwrite=args.force,
            habits=args.habits,
            progress=(lambda n: print(f"  {n} frames", file=sys.stderr, end="\r")) if sys.stderr.isatty() else None,
        )
        rec = Recording.open(args.out)  # read it back: the file must be replayable
    except (ValueError, RecordingError) as exc:
        print(f"jasscam render-game: {exc}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in Path(args.out).iterdir())
    print(
        f"wrote {args.out}: {rec.frame_count} frames ({summary['duration_s']:.1f} s at {rec.fps:g} fps, "
        f"{rec.width}x{rec.height}), {len(rec.events)} events, {size / 1e6:.1f} MB"
    )
    return 0
