"""Fixtures for the Speck screens and the tournament: the real SQLite store, the
dashboard app (which mounts the Speck blueprint), a real Mosquitto broker on loopback,
and Debian's Chromium through Playwright."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from scoring.events import Event
from scoring.simulate import random_game_events

# The dashboard's fixtures (real store, app, test client, served app) with its PIN.
from tests.web.conftest import PIN, app, client, live, store  # noqa: F401

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PLAYERS = ("Anna Muster", "Beat Keller", "Claudia Frei", "Dario Rossi")
SETUP = {
    "players": [{"first": n.split()[0], "last": n.split()[1]} for n in PLAYERS],
    "scorer": 2,
    "dealer": 2,
    "games": 12,
}
MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
CHROMIUM = "/usr/bin/chromium"


def speck_events(seed: int = 1, players: tuple[str, ...] = PLAYERS, **config: object) -> list[Event]:
    """A whole random legal Speck game (12 games, random Bodentrumpf) from the engine's simulator."""
    return random_game_events(random.Random(seed), variant="speck", players=players, **config)  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[int]:
    """A real Mosquitto broker on 127.0.0.1 at a free port, with a temporary config."""
    if MOSQUITTO is None:
        pytest.skip("the mosquitto broker binary is absent: install it with `apt-get install -y mosquitto`")
    port = free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n", encoding="utf-8")
    log = (tmp_path / "mosquitto.log").open("w")
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"mosquitto did not start: {(tmp_path / 'mosquitto.log').read_text()}") from None
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone-sized page (390x844, touch) that fails the test on any JavaScript error."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert not errors, errors
