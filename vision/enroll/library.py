"""The deck profiles on disk and which deck each table plays with.

``<root>/<slug>/`` holds one profile (``vision.enroll.profile``); ``<root>/active.json``
maps a table name to the slug of its deck. A table with no entry, or whose deck was
deleted, plays with the built-in deck (``BUILTIN``), so the appliance works out of the
box and a broken profile can never leave it without a deck.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

from vision.enroll.profile import DeckProfile, ProfileError, slugify

#: The shipped deck's name in the library (it is not stored there).
BUILTIN = "builtin"
#: The table name used when an appliance serves a single table.
DEFAULT_TABLE = "main"


class DeckLibrary:
    """Deck profiles under ``root``; loads are cached until the profile's files change."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._lock = threading.RLock()
        self._cache: dict[str, tuple[int, DeckProfile]] = {}

    # -- profiles -----------------------------------------------------------------------

    def slugs(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(
            p.name for p in self.root.iterdir() if not p.name.startswith(".") and (p / "profile.json").is_file()
        )

    def exists(self, slug: str) -> bool:
        return slug != BUILTIN and (self.root / slug / "profile.json").is_file()

    def _stamp(self, slug: str) -> int:
        try:
            return (self.root / slug / "profile.json").stat().st_mtime_ns
        except FileNotFoundError:
            raise ProfileError(f"no deck {slug!r}; known decks: {', '.join(self.slugs()) or 'none'}") from None

    def load(self, slug: str) -> DeckProfile:
        with self._lock:
            stamp = self._stamp(slug)
            hit = self._cache.get(slug)
            if hit is not None and hit[0] == stamp:
                return hit[1]
            profile = DeckProfile.load(self.root / slug)
            self._cache[slug] = (stamp, profile)
            return profile

    def save(self, profile: DeckProfile, *, replace: bool = False) -> str:
        """Store ``profile`` under its slug; refuses to overwrite another deck unless ``replace``."""
        slug = profile.slug
        with self._lock:
            if self.exists(slug) and not replace:
                raise ProfileError(f"a deck named {slug!r} exists already; choose another name or replace it")
            profile.save(self.root / slug)
            self._cache.pop(slug, None)
        return slug

    def stamp(self, slug: str) -> int:
        """When ``slug``'s profile was last written (``ProfileError`` if there is none)."""
        return self._stamp(slug)

    def replace_if_unchanged(self, profile: DeckProfile, stamp: int) -> bool:
        """Store ``profile`` over its deck only if that was not written since ``stamp``, nor deleted.

        Why: a rebuild that ends after the deck was enrolled anew (or deleted) must not bring
        the older pictures back over the user's newer ones.
        """
        with self._lock:
            try:
                if self._stamp(profile.slug) != stamp:
                    return False
            except ProfileError:
                return False
            profile.save(self.root / profile.slug)
            self._cache.pop(profile.slug, None)
            return True

    def delete(self, slug: str) -> None:
        with self._lock:
            if not self.exists(slug):
                raise ProfileError(f"no deck {slug!r}")
            shutil.rmtree(self.root / slug)
            self._cache.pop(slug, None)
            tables = self._tables()
            for table in [t for t, s in tables.items() if s == slug]:
                del tables[table]
            self._write_tables(tables)

    # -- the active deck per table ------------------------------------------------------

    def _tables(self) -> dict[str, str]:
        path = self.root / "active.json"
        if not path.is_file():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return {str(k): str(v) for k, v in data.get("tables", {}).items()}
        except (OSError, ValueError, AttributeError):
            return {}  # a damaged choice falls back to the built-in deck rather than stopping the table

    def _write_tables(self, tables: dict[str, str]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / ".active.json.tmp"
        tmp.write_text(json.dumps({"tables": tables}, indent=1), encoding="utf-8")
        tmp.replace(self.root / "active.json")

    def active(self, table: str = DEFAULT_TABLE) -> str:
        """The slug of ``table``'s deck, or BUILTIN."""
        slug = self._tables().get(table, BUILTIN)
        return slug if slug == BUILTIN or self.exists(slug) else BUILTIN

    def set_active(self, slug: str, table: str = DEFAULT_TABLE) -> None:
        if slug != BUILTIN:
            slug = slug if self.exists(slug) else slugify(slug)
            if not self.exists(slug):
                raise ProfileError(f"no deck {slug!r}; known decks: {', '.join(self.slugs()) or 'none'}")
        with self._lock:
            tables = self._tables()
            if slug == BUILTIN:
                tables.pop(table, None)
            else:
                tables[table] = slug
            self._write_tables(tables)

    def active_profile(self, table: str = DEFAULT_TABLE) -> DeckProfile | None:
        slug = self.active(table)
        return None if slug == BUILTIN else self.load(slug)

    def token(self, table: str = DEFAULT_TABLE) -> tuple[str, int]:
        """Changes whenever ``table``'s deck or that deck's profile changes (cheap: two stats)."""
        slug = self.active(table)
        if slug == BUILTIN:
            return (BUILTIN, 0)
        try:
            return (slug, self._stamp(slug))
        except ProfileError:
            return (BUILTIN, 0)

    def describe(self, table: str = DEFAULT_TABLE, lang: str = "de") -> dict[str, Any]:
        """Every deck with its summary, and the table's active one (JSON-able)."""
        decks = []
        for slug in self.slugs():
            try:
                decks.append(self.load(slug).summary(lang))
            except ProfileError as exc:
                decks.append({"slug": slug, "name": slug, "error": str(exc)})
        return {"active": self.active(table), "decks": decks}
