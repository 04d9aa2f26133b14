"""Reading the dashboard's pages in the browser tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page


def text_of(page: Page, selector: str) -> str:
    """The text of the first element ``selector`` matches, after Playwright's wait for it.

    Playwright types ``text_content`` as optional because a document node has none; an element always has
    text (the empty string at least), so a None here is a broken page and fails the test where it is read."""
    content = page.text_content(selector)
    assert content is not None, f"{selector} has no text content"
    return content
