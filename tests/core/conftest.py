"""Shared fixtures of the runner's tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def pools_started(monkeypatch) -> list:
    """Count the local process pools :mod:`core.playtest` starts (one item a pool): a caller that
    keeps one pool open for many batches (tuning, the what-if search) starts exactly one."""
    from core import playtest

    started: list = []
    real = playtest._LocalPool

    def counting(*a, **kw):
        started.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(playtest, "_LocalPool", counting)
    return started
