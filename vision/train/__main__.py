"""The whole training recipe:
``python -m vision.train render|detector|identifier|refiner-data|refiner|verifier-data|verifier|``
``corner-data|corners|export*``.

Typical run (see models/README.md for the exact numbers used):

    python -m vision.train render --out data/train --first-seed 0 --scenes 6000
    python -m vision.train render --out data/val --first-seed 900000 --scenes 400
    python -m vision.train detector --epochs 20
    python -m vision.train identifier --epochs 30
    python -m vision.train export
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m vision.train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("render", help="pre-render scenes to data/ (2 processes; run while not training)")
    r.add_argument("--out", type=Path, default=Path("data/train"))
    r.add_argument("--first-seed", type=int, default=0)
    r.add_argument("--scenes", type=int, default=6000)
    r.add_argument("--chunk", type=int, default=200)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--style", default="mixed")
    r.add_argument("--decks", default="swiss-xvii", help="comma-separated deck names passed to the renderer")
    r.add_argument("--renderer", default="vision.synth.scene:render_scene")
    r.add_argument(
        "--jitter", type=float, default=0.035, help="identifier crops: corner noise, fraction of the card's short side"
    )
    r.add_argument(
        "--det-size", type=int, default=320, help="square the detector's input is letterboxed to (a multiple of 32)"
    )
    r.add_argument("--no-crops", action="store_true", help="detector inputs only, no identifier crops")
    for name, epochs, batch, lr, data, val in (
        ("detector", 20, 32, 3e-3, "data/train", "data/val"),
        ("identifier", 30, 128, 3e-3, "data/train", "data/val"),
        ("refiner", 30, 128, 3e-3, "data/refine", "data/refine-val"),
        ("verifier", 20, 128, 2e-3, "data/verify", "data/verify-val"),
        ("corners", 12, 256, 3e-3, "data/corners", "data/corners-val"),
    ):
        what = "index-corner network" if name == "corners" else name
        t = sub.add_parser(name, help=f"train the {what} (resumable with --resume)")
        t.add_argument("--data", type=Path, default=Path(data), help="chunk folder(s), comma-separated")
        t.add_argument("--val", type=Path, default=Path(val))
        t.add_argument("--epochs", type=int, default=epochs)
        t.add_argument("--batch", type=int, default=batch)
        t.add_argument("--lr", type=float, default=lr)
        t.add_argument("--threads", type=int, default=2)
        t.add_argument("--resume", action="store_true")
        t.add_argument("--name", default=name, help="run folder under runs/")
        t.add_argument("--minutes", type=float, default=None, help="wall-clock budget; the LR schedule follows it")
        t.add_argument("--init", type=Path, default=None, help="start from this checkpoint's weights (fresh schedule)")
        if name == "detector":
            t.add_argument(
                "--freeze-bn",
                action="store_true",
                help="keep the batch norms as they are (a checkpoint from an ONNX file)",
            )
            t.add_argument(
                "--input-scale",
                type=float,
                default=1.0,
                help=(
                    "resize every tile (and its cards) by this factor at load: trains the detector for cards "
                    "that much shorter in its input"
                ),
            )
    for cmd, out, seed, what in (
        ("refiner-data", "data/refine", 600_000, "run the shipped detector, cut outline crops for the refiner"),
        (
            "verifier-data",
            "data/verify",
            700_000,
            "run the shipped detector and refiner, cut candidate crops for the verifier",
        ),
    ):
        rd = sub.add_parser(cmd, help=f"render scenes, {what}")
        rd.add_argument("--out", type=Path, default=Path(out))
        rd.add_argument("--first-seed", type=int, default=seed)
        rd.add_argument("--scenes", type=int, default=6000)
        rd.add_argument("--chunk", type=int, default=200)
        rd.add_argument("--workers", type=int, default=2)
        rd.add_argument("--style", default="mixed")
        rd.add_argument("--renderer", default="vision.synth.scene:render_scene")
        rd.add_argument("--models", default="models", help="the shipped networks whose outlines are cut")
    e = sub.add_parser("export", help="ONNX + prototypes from runs/*/best.pt into models/")
    e.add_argument("--models", type=Path, default=Path("models"))
    e.add_argument("--data", type=Path, default=Path("data/val"), help="crops of the built-in deck for its prototypes")
    e.add_argument("--detector-run", default="detector", help="runs/<name>/best.pt to export")
    e.add_argument("--identifier-run", default="identifier", help="runs/<name>/best.pt to export")
    for net in ("detector", "identifier"):
        e.add_argument(
            f"--{net}-checkpoint",
            choices=("best", "last"),
            default="best",
            help=f"the {net} run's best.pt (best validation) or last.pt (end of its schedule)",
        )
    for net, file in (
        ("detector", "card-detector.onnx"),
        ("refiner", "card-refiner.onnx"),
        ("verifier", "card-verifier.onnx"),
        ("corners", "card-corners.onnx"),
    ):
        er = sub.add_parser(f"export-{net}", help=f"ONNX of runs/<run>/<checkpoint>.pt into models/{file}")
        er.add_argument("--models", type=Path, default=Path("models"))
        er.add_argument("--run", default=net)
        er.add_argument("--checkpoint", choices=("best", "last"), default="best")
        if net == "detector":
            er.add_argument("--size", type=int, default=320, help="the square frames are letterboxed to (as trained)")
    rt = sub.add_parser("render-tiles", help="detector tiles from every mounting, scaled as the runtime scales frames")
    rt.add_argument("--out", type=Path, default=Path("data/tiles"))
    rt.add_argument("--first-seed", type=int, default=3_000_000)
    rt.add_argument("--scenes", type=int, default=2000)
    rt.add_argument("--family", choices=("any", "guide"), default="any")
    rt.add_argument("--chunk", type=int, default=100)
    rt.add_argument("--workers", type=int, default=2)
    oc = sub.add_parser(
        "detector-checkpoint", help="a training checkpoint of the detector in an ONNX file (to train it on)"
    )
    oc.add_argument("--models", type=Path, default=Path("models"))
    oc.add_argument("--name", default="shipped-detector", help="written to runs/<name>/best.pt")
    an = sub.add_parser("detector-any-size", help="let a detector exported at one square size read frames of any size")
    an.add_argument("--models", type=Path, default=Path("models"))
    im = sub.add_parser(
        "identifier-map", help="move an identifier's third output to the map an enrolled deck's detail head reads"
    )
    im.add_argument("--models", type=Path, default=Path("models"))
    cd = sub.add_parser("corner-data", help="render scenes at real mountings, cut the cards' index corners")
    cd.add_argument("--out", type=Path, default=Path("data/corners"))
    cd.add_argument("--first-seed", type=int, default=5_000_000)
    cd.add_argument("--scenes", type=int, default=3600)
    cd.add_argument("--chunk", type=int, default=100)
    cd.add_argument("--workers", type=int, default=2)
    a = p.parse_args(argv)

    if a.cmd == "render":
        from vision.train.data import render_dataset

        render_dataset(
            a.out,
            a.first_seed,
            a.scenes,
            chunk=a.chunk,
            workers=a.workers,
            style=a.style,
            decks=tuple(a.decks.split(",")),
            renderer=a.renderer,
            jitter=a.jitter,
            det_size=a.det_size,
            crops=not a.no_crops,
        )
    elif a.cmd in ("detector", "identifier", "refiner", "verifier", "corners"):
        import importlib

        mod = importlib.import_module(f"vision.train.{a.cmd}")
        extra = {"freeze_bn": a.freeze_bn, "input_scale": a.input_scale} if a.cmd == "detector" else {}
        mod.train(
            a.data,
            a.val,
            epochs=a.epochs,
            batch=a.batch,
            lr=a.lr,
            threads=a.threads,
            resume=a.resume,
            name=a.name,
            minutes=a.minutes,
            init=a.init,
            **extra,
        )
    elif a.cmd in ("refiner-data", "verifier-data"):
        from vision.train.outlines import render_dataset as render_outlines

        render_outlines(
            a.out,
            a.first_seed,
            a.scenes,
            style=a.style,
            renderer=a.renderer,
            models=a.models,
            chunk=a.chunk,
            workers=a.workers,
            verdicts=a.cmd == "verifier-data",
        )
    elif a.cmd == "export-detector":
        from vision.recognizer.runtime import DETECTOR_FILE
        from vision.train.common import RUNS_DIR
        from vision.train.export import export_detector

        export_detector(RUNS_DIR / a.run / f"{a.checkpoint}.pt", a.models / DETECTOR_FILE, a.size)
    elif a.cmd == "render-tiles":
        from vision.train.tiles import render_tile_dataset

        render_tile_dataset(a.out, a.first_seed, a.scenes, family=a.family, chunk=a.chunk, workers=a.workers)
    elif a.cmd == "detector-checkpoint":
        from vision.recognizer.runtime import DETECTOR_FILE
        from vision.train.common import RUNS_DIR
        from vision.train.export import detector_checkpoint_from_onnx

        detector_checkpoint_from_onnx(a.models / DETECTOR_FILE, RUNS_DIR / a.name / "best.pt")
    elif a.cmd == "detector-any-size":
        from vision.recognizer.runtime import DETECTOR_FILE
        from vision.train.detector_file import detector_any_size

        detector_any_size(a.models / DETECTOR_FILE, a.models / DETECTOR_FILE)
    elif a.cmd == "identifier-map":
        from vision.recognizer.runtime import IDENTIFIER_FILE
        from vision.train.export import identifier_map_output

        identifier_map_output(a.models / IDENTIFIER_FILE, a.models / IDENTIFIER_FILE)
    elif a.cmd == "export-refiner":
        from vision.recognizer.runtime import REFINER_FILE
        from vision.train.common import RUNS_DIR
        from vision.train.export import export_refiner

        export_refiner(RUNS_DIR / a.run / f"{a.checkpoint}.pt", a.models / REFINER_FILE)
    elif a.cmd == "corner-data":
        from vision.train.corner_data import render as render_corners

        render_corners(a.out, a.first_seed, a.scenes, chunk=a.chunk, workers=a.workers)
    elif a.cmd == "export-corners":
        from vision.recognizer.runtime import CORNERS_FILE
        from vision.train.corners import export as export_corners

        export_corners(a.run, a.checkpoint, a.models / CORNERS_FILE)
    elif a.cmd == "export-verifier":
        from vision.recognizer.runtime import VERIFIER_FILE
        from vision.train.common import RUNS_DIR
        from vision.train.export import export_verifier

        export_verifier(RUNS_DIR / a.run / f"{a.checkpoint}.pt", a.models / VERIFIER_FILE)
    else:
        from vision.train.export import export_all

        export_all(
            a.models,
            a.data,
            detector_run=a.detector_run,
            identifier_run=a.identifier_run,
            detector_checkpoint=a.detector_checkpoint,
            identifier_checkpoint=a.identifier_checkpoint,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
