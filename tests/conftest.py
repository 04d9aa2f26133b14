"""Fixtures shared by every test folder.

One Playwright driver per test session: Playwright's sync API refuses a second
``sync_playwright()`` while one is running, so the browser is started here once and the
web, Speck and enrolment tests all use it.

The shipped recogniser and the enrolled paris deck are made here once per session too:
a fixture a test module imports from another folder's conftest is a second fixture to
pytest, built a second time. ``tests/decks.py`` says how the deck is kept between runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from vision.enroll import DeckProfile
    from vision.recognizer import Recognizer

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium driven by Playwright (never a downloaded browser)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is absent: install it with `apt-get install -y chromium` to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    """The shipped models on one thread (test modules that need other settings define their own)."""
    from tests.decks import models_dir
    from vision.recognizer import Recognizer, RecognizerSettings

    return Recognizer(models_dir(), settings=RecognizerSettings(threads=1))


@pytest.fixture(scope="session")
def paris_profile(recognizer: Recognizer, request: pytest.FixtureRequest) -> DeckProfile:
    """The whole paris deck enrolled (French suits, Swiss ids)."""
    from tests.decks import cached_profile, enrol_paris

    return cached_profile(request.config, "paris", lambda: enrol_paris(recognizer))


@pytest.fixture(scope="session")
def paris_suit_profile(
    recognizer: Recognizer, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> DeckProfile:
    """The paris deck's herz cards and back, enrolled as "Paris": for the tests that wait for a profile to be
    rebuilt, which takes a quarter of the whole deck's time (each rebuild lays tables and trains the detail
    head). What the full deck reads is tested on ``paris_profile``."""
    from tests.decks import cached_profile, enrol_paris_herz

    return cached_profile(
        request.config, "paris-herz", lambda: enrol_paris_herz(recognizer, tmp_path_factory.mktemp("paris-herz"))
    )
