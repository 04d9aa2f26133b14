"""Fixtures shared by every test folder.

One Playwright driver per test session: Playwright's sync API refuses a second
``sync_playwright()`` while one is running, so the browser is started here once and the
web, Speck and enrolment tests all use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
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
