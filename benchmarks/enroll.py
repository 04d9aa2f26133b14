"""Enrolment benchmark: how well a deck the model never saw is read after one picture per card.

``python -m benchmarks enroll`` (``BENCH_QUICK=1``: fewer scenes; ``BENCH_ENROLL_SCENES=N``
renders N scenes per deck, default 240; ``BENCH_ENROLL_SEEDS=N`` enrols each deck N times,
with enrolment seeds 0..N-1, default 1; ``BENCH_ENROLL_GAMES=N``
replays N rendered games per deck, default 1, 0 in quick mode; ``JASSCAM_MODELS=DIR``
measures models other than the shipped ones; ``BENCH_ENROLL_WORK=DIR`` keeps the rendered
games there and reuses them). Decks:

- ``swiss-xvii`` with the shipped prototypes: the reference (the training deck, with its
  procedural variants, as the recogniser benchmark renders it);
- ``paris``, the French deck held out of training, enrolled from its flat card PNGs
  (``vision/assets/decks/paris``) through ``jasscam enroll``'s folder path;
- ``four-colour`` and ``flat-swiss``, procedural decks in other styles
  (``vision.synth.other_decks``), written out as PNGs and enrolled the same way.

For each: identity accuracy of matched detections of cards at least 70 % visible (the
recogniser benchmark's definition) on rendered "mixed" scenes with held-out seeds; for
the enrolled decks also the same with plain art prototypes (no views, no deck head), to
show what enrolment adds; and whether the built-in deck reads exactly as before once
the other decks are enrolled. Optionally, trick accuracy on rendered games replayed
through recogniser and tracker (``jasscam replay --compare``), the built-in deck against
each enrolled deck. Each identity accuracy is printed with its 95 % interval (Wilson):
at 120 scenes, about 250 named cards a deck, one card is 0.4 points and 99 % cannot be
told from 98.5 %; at 240 one card is 0.2 points and the interval about 1.4 times narrower.
The views enrolment makes are random (seeded), and which views a deck was learnt from
moves its count by a few cards: with several seeds, each seed's accuracy is printed and the
targets are judged on their pooled count, the accuracy to expect from one enrolment.
Then issue 8's targets: identity >= 99 % for each enrolled deck, and each enrolled deck's
trick accuracy within one point of the built-in deck's.
Writes ``out/bench-enroll.json``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from benchmarks import models_dir
from benchmarks.recognizer import match
from vision.detection import BACK, Detection
from vision.recognizer import Recognizer, RecognizerSettings

if TYPE_CHECKING:
    from vision.enroll import DeckProfile, EnrollReport

SCENE_SEED = 40_000_000
GAME_SEED = 5_100_000
MIN_VISIBLE = 0.7
#: Issue 8's targets: identity of an enrolled deck, and how far below the built-in deck's its trick accuracy may be.
TARGET_IDENTITY = 0.99
TARGET_TRICK_GAP = 0.01
ASSETS = Path(__file__).resolve().parents[1] / "vision" / "assets" / "decks"


def interval95(right: int, n: int) -> tuple[float, float]:
    """Wilson's 95 % interval for ``right`` of ``n``: what the benchmark's count can and cannot tell apart."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.959964
    p = right / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * float(np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def targets(result: dict[str, Any], decks: tuple[str, ...]) -> dict[str, bool]:
    """Which of issue 8's targets the enrolled ``decks`` meet in ``result`` (as ``main`` collects it)."""
    met = {
        f"identity {d}": result[d].get("over_seeds", result[d])["identity_accuracy"] >= TARGET_IDENTITY for d in decks
    }
    tricks = result.get("tricks")
    if tricks:
        base = tricks["swiss-xvii"]["trick_accuracy"]
        met |= {f"tricks {d}": tricks[d]["trick_accuracy"] >= base - TARGET_TRICK_GAP for d in decks}
    return met


def identity(rec: Recognizer, scenes: list[Any]) -> dict[str, Any]:
    """Identity accuracy of matched face-up cards >= 70 % visible, the confusions, and confidence."""
    n = right = found = truth_n = 0
    confusions: dict[str, int] = {}
    conf_right: list[float] = []
    conf_wrong: list[float] = []
    for scene in scenes:
        dets = rec.recognize(scene.image)
        cards = [t for t in scene.cards if t.visible >= MIN_VISIBLE and t.card != BACK]
        truth_n += len(cards)
        for i, j in match(dets, cards):
            found += 1
            d, t = dets[i], cards[j]
            if d.card == BACK:
                continue  # read as a back: a detector matter, counted in recall below
            n += 1
            if d.card == t.card:
                right += 1
                conf_right.append(d.confidence)
            else:
                key = f"{t.card}->{d.card}"
                confusions[key] = confusions.get(key, 0) + 1
                conf_wrong.append(d.confidence)
    return {
        "scenes": len(scenes),
        "cards": truth_n,
        "matched": found,
        "named": n,
        "right": right,
        "identity_accuracy": right / max(n, 1),
        "identity_interval95": interval95(right, n),
        "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:10]),
        "median_confidence_right": float(np.median(conf_right)) if conf_right else None,
        "median_confidence_wrong": float(np.median(conf_wrong)) if conf_wrong else None,
    }


def identity_given_quads(rec: Recognizer, scenes: list[Any]) -> dict[str, Any]:
    """Identity alone: each face-up card >= 70 % visible cut at its true corners (either way up) and named."""
    from vision.recognizer.geometry import rectify

    rng = np.random.default_rng(0)
    crops, truth = [], []
    for scene in scenes:
        for t in scene.cards:
            if t.visible >= MIN_VISIBLE and t.card != BACK:
                q = np.asarray(t.corners)
                crops.append(rectify(scene.image, np.roll(q, -2, axis=0) if rng.random() < 0.5 else q))
                truth.append(t.card)
    if not crops:
        return {"cards": 0, "identity_accuracy": None}
    x = np.stack(crops)
    emb, _, trunk = rec.embed_trunk(x)
    probs = rec.prototypes.scores(emb, x, trunk)
    names = np.array(rec.prototypes.names)
    faces = np.array([n != BACK for n in names])
    pred = names[faces][probs[:, faces].argmax(axis=1)]
    return {"cards": len(truth), "identity_accuracy": float(np.mean(pred == np.array(truth)))}


def over_seeds(
    rec: Recognizer, folder: Path, deck: str, scenes: list[Any], seeds: int, first: dict[str, Any]
) -> dict[str, Any]:
    """The deck enrolled again with seeds 1..``seeds``-1 and read on the same scenes, pooled with
    seed 0's ``first`` read.

    The pooled interval counts every read as a separate card; the same scenes are read each
    time, so it is narrower than what the scenes can tell about the deck.
    """
    reads = [first]
    for seed in range(1, seeds):
        profile, _, _ = enrol(rec, folder, deck, seed=seed)
        rec.prototypes = profile.prototypes
        reads.append(identity(rec, scenes))
    right, named = sum(r["right"] for r in reads), sum(r["named"] for r in reads)
    return {
        "seeds": seeds,
        "right": right,
        "named": named,
        "identity_accuracy": right / max(named, 1),
        "identity_interval95": interval95(right, named),
        "per_seed": [r["identity_accuracy"] for r in reads],
    }


def render(deck: str, n: int) -> list[Any]:
    from vision.synth.other_decks import OTHER_DECKS, render_other_scene
    from vision.synth.scene import render_scene

    if deck in OTHER_DECKS:
        return [render_other_scene(SCENE_SEED + k, deck, style="mixed") for k in range(n)]
    return [render_scene(SCENE_SEED + k, style="mixed", deck=deck) for k in range(n)]


def enrol(rec: Recognizer, folder: Path, name: str, **kwargs: Any) -> tuple[DeckProfile, EnrollReport, float]:
    from vision.enroll import Enroller, scan_folder

    t0 = time.perf_counter()
    scan = scan_folder(folder, rec)
    if scan.errors:
        raise RuntimeError(f"{folder}: {scan.errors}")
    profile, report = Enroller(rec, **kwargs).build(name, scan.suits, scan.samples)
    return profile, report, time.perf_counter() - t0


def trick_accuracy(
    deck: str, recognize: Callable[[np.ndarray], list[Detection]], work: Path, games: int
) -> dict[str, Any]:
    """Render ``games`` one-round games with ``deck`` and replay them as ``jasscam replay --compare`` does."""
    from jasscam.replay import replay_recording
    from vision.recording import Recording
    from vision.synth.game import render_game
    from vision.tracker.evaluate import compare

    tricks = right = rounds = exact = 0
    for g in range(games):
        folder = work / f"{deck}-{g}"
        if not (folder / "recording.json").exists():
            render_game(GAME_SEED + g, folder, deck=deck, style="clean", overwrite=True)
        recording = Recording.open(folder)
        result = replay_recording(recording, recognize)
        s = compare(recording.events, result.camera_events).summary()
        tricks += int(s["tricks"])  # type: ignore[call-overload]
        right += int(s["tricks_right"])  # type: ignore[call-overload]
        rounds += int(s["rounds"])  # type: ignore[call-overload]
        exact += int(s["rounds_exact"])  # type: ignore[call-overload]
    return {
        "games": games,
        "tricks": tricks,
        "tricks_right": right,
        "trick_accuracy": right / max(tricks, 1),
        "rounds": rounds,
        "rounds_exact": exact,
    }


def main() -> int:
    from vision.synth.other_decks import OTHER_DECKS, write_deck

    quick = os.environ.get("BENCH_QUICK") == "1"
    n_scenes = 40 if quick else int(os.environ.get("BENCH_ENROLL_SCENES", "240"))
    games = int(os.environ.get("BENCH_ENROLL_GAMES", "0" if quick else "1"))
    seeds = max(1, int(os.environ.get("BENCH_ENROLL_SEEDS", "1")))
    rec = Recognizer(models_dir(), settings=RecognizerSettings(threads=1))
    builtin = rec.prototypes
    result: dict[str, Any] = {"scenes_per_deck": n_scenes, "min_visible": MIN_VISIBLE}

    swiss = render("swiss-xvii", n_scenes)
    before = [rec.recognize(s.image) for s in swiss[:20]]
    result["swiss-xvii"] = {
        "prototypes": "shipped",
        **identity(rec, swiss),
        "true_quads": identity_given_quads(rec, swiss),
    }
    del swiss

    with tempfile.TemporaryDirectory() as tmp:
        folders = {"paris": ASSETS / "paris"}
        for deck in OTHER_DECKS:
            folders[deck] = Path(tmp) / deck
            write_deck(deck, str(folders[deck]))
        profiles = {}
        for deck, folder in folders.items():
            scenes = render(deck, n_scenes)
            plain, _, _ = enrol(rec, folder, deck, views=0, adapt=False)
            rec.prototypes = plain.prototypes
            art = identity(rec, scenes)
            art_quads = identity_given_quads(rec, scenes)
            profile, report, seconds = enrol(rec, folder, deck)
            profiles[deck] = profile
            rec.prototypes = profile.prototypes
            enrolled = identity(rec, scenes)
            enrolled["true_quads"] = identity_given_quads(rec, scenes)
            result[deck] = {
                "enrol_seconds": round(seconds, 1),
                "enrol_issues": [i.message for i in report.issues],
                "art_prototypes_only": {
                    "identity_accuracy": art["identity_accuracy"],
                    "named": art["named"],
                    "true_quads_identity_accuracy": art_quads["identity_accuracy"],
                },
                **enrolled,
            }
            if seeds > 1:
                result[deck]["over_seeds"] = over_seeds(rec, folder, deck, scenes, seeds, enrolled)
            rec.prototypes = builtin
        # The built-in deck is untouched by all this: same detections as before.
        swiss = render("swiss-xvii", 20)
        after = [rec.recognize(s.image) for s in swiss]
        result["builtin_unchanged"] = after == before

        if games > 0:
            work = Path(os.environ.get("BENCH_ENROLL_WORK") or Path(tmp) / "games")
            result["tricks"] = {"swiss-xvii": trick_accuracy("swiss-xvii", rec.recognize, work, games)}
            for deck in ("paris", *OTHER_DECKS):
                rec.prototypes = profiles[deck].prototypes
                result["tricks"][deck] = trick_accuracy(deck, rec.recognize, work, games)
            rec.prototypes = builtin
    result["targets_met"] = targets(result, ("paris", *OTHER_DECKS))

    for deck in ("swiss-xvii", "paris", *OTHER_DECKS):
        r = result[deck]
        extra = ""
        if "art_prototypes_only" in r:
            a = r["art_prototypes_only"]
            extra = (
                f"  (art prototypes only: {a['identity_accuracy']:.4f} / {a['true_quads_identity_accuracy']:.4f};"
                f" enrolment {r['enrol_seconds']} s)"
            )
        lo, hi = r["identity_interval95"]
        print(
            f"{deck:<11} cards>=0.7 {r['cards']:5d} matched {r['matched']:5d} named {r['named']:5d}  "
            f"identity {r['identity_accuracy']:.4f} (95 % {lo:.3f}-{hi:.3f})  at true corners "
            f"{r['true_quads']['identity_accuracy']:.4f}{extra}"
        )
        if r["confusions"]:
            print(f"    confusions: {r['confusions']}")
        if "over_seeds" in r:
            o = r["over_seeds"]
            lo, hi = o["identity_interval95"]
            per = " ".join(f"{a:.4f}" for a in o["per_seed"])
            print(
                f"    over {o['seeds']} enrolment seeds: {o['right']}/{o['named']} = {o['identity_accuracy']:.4f} "
                f"(95 % {lo:.3f}-{hi:.3f}); each: {per}"
            )
        if r.get("enrol_issues"):
            print(f"    enrolment issues: {r['enrol_issues']}")
    print(f"built-in deck's detections unchanged after enrolling: {result['builtin_unchanged']}")
    for deck, t in result.get("tricks", {}).items():
        print(
            f"tricks {deck:<11} {t['tricks_right']}/{t['tricks']} = {t['trick_accuracy']:.4f}, rounds exact "
            f"{t['rounds_exact']}/{t['rounds']}"
        )
    print(f"targets met (issue 8): {result['targets_met']}")
    out = Path("out")
    out.mkdir(exist_ok=True)
    (out / "bench-enroll.json").write_text(json.dumps(result, indent=2))
    return 0 if result["builtin_unchanged"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
