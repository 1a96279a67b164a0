"""Headless Chromium for the tests that look at a page as a user's browser renders it (not tests):
the Debian package ``chromium``; the tests that need it are marked ``browser`` and skip without it."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
