"""Helpers for engine tests: advance a game to a phase, find events."""

from __future__ import annotations

from core.ironcross.actions import EndPhase
from core.ironcross.state import Phase


def advance_to(g, phase: Phase, *, sub: str | None = None, player_turn: int | None = None, limit: int = 200):
    """Apply EndPhase until the game is in ``phase`` (and sub-step ``sub``, Player Turn ``player_turn``)."""
    for _ in range(limit):
        if (g.state.phase is phase and (sub is None or g._sub == sub)
                and (player_turn is None or g.state.player_turn == player_turn)):
            return g
        g.apply(EndPhase())
    raise AssertionError(f"never reached {phase} (now {g.state.phase}, sub {g._sub!r})")


def events(g, kind: str, since: int = 0) -> list[dict]:
    return [e for e in g.events[since:] if e["kind"] == kind]


def rolls(g, since: int = 0) -> list[dict]:
    return events(g, "roll", since)
