"""The enrolment-from-photos benchmark can give every card a second photo, as a player adds one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchmarks.enroll_photos import write_photo_sessions
from vision.enroll.folder import label_files


def test_a_second_round_of_photos_names_each_card_twice_and_looks_different(tmp_path: Path) -> None:
    folder = tmp_path / "paris"
    write_photo_sessions("paris", folder, seed=5, per_photo=9, per_card=2)
    found, errors = label_files(folder)
    assert errors == []
    counts = Counter(label for _, label, _ in found)
    assert len(counts) == 37 and set(counts.values()) == {2}
    first = sorted(p.name for p in folder.glob("*.jpg") if not p.stem.endswith("-2"))
    assert len(first) == 5 and all((folder / f"{Path(n).stem}-2.jpg").exists() for n in first)
    # The second round is photographed apart (other tables, light and hands), not a copy.
    a, b = folder / first[0], folder / f"{Path(first[0]).stem}-2.jpg"
    assert a.read_bytes() != b.read_bytes()
    assert not list(tmp_path.glob("*-round-*"))
