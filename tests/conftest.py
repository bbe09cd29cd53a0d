"""Shared test set-up: headless Qt, and tiny maps built from compact literals."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
