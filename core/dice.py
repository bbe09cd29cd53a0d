"""Seeded dice: every roll is recorded with what it was for and the rule that asked for it.

A game owns one :class:`Dice`. Rolls come from ``random.Random(seed)`` (the Mersenne Twister,
stable across Python versions for integer draws), so a game is exactly reproducible from its
seed and the players' decisions. Each roll is appended to the dice's ``rolls`` list and handed to
an optional ``on_roll`` callback (the game's event log).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Roll", "Dice", "derive_seed"]


@dataclass(frozen=True)
class Roll:
    """One roll of ``len(dice)`` six-sided dice, for ``purpose``, under rule ``rule``."""

    index: int
    dice: tuple[int, ...]
    purpose: str
    rule: str

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def all_ones(self) -> bool:
        """All dice show 1 with more than one die rolled (11.44, 12.33)."""
        return len(self.dice) > 1 and all(d == 1 for d in self.dice)

    def to_json(self) -> dict:
        return {"index": self.index, "dice": list(self.dice), "total": self.total, "purpose": self.purpose, "rule": self.rule}


@dataclass
class Dice:
    """Seeded six-sided dice with a log of every roll.

    ``roll(2, "movement PC for G-A-3", "8.22")`` returns a :class:`Roll`; ``rolls`` keeps them all.
    """

    seed: int
    on_roll: Callable[[Roll], None] | None = None
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def roll(self, n: int, purpose: str, rule: str) -> Roll:
        """Roll ``n`` dice (n >= 1) and record the roll; raises ValueError for n < 1."""
        if n < 1:
            raise ValueError(f"cannot roll {n} dice")
        r = Roll(len(self.rolls), tuple(self._rng.randint(1, 6) for _ in range(n)), purpose, rule)
        self.rolls.append(r)
        if self.on_roll is not None:
            self.on_roll(r)
        return r

    def choice_index(self, n: int, purpose: str, rule: str) -> int:
        """A uniformly random index in ``range(n)`` for a random pick the rules call for
        (e.g. 24.1 "randomly determines which unit"), recorded like a roll (as one die-like value)."""
        if n < 1:
            raise ValueError("nothing to choose from")
        v = self._rng.randrange(n)
        r = Roll(len(self.rolls), (v + 1,), purpose, rule)
        self.rolls.append(r)
        if self.on_roll is not None:
            self.on_roll(r)
        return v


def derive_seed(batch_seed: int, game_index: int) -> int:
    """The seed of game ``game_index`` of a batch seeded ``batch_seed`` (independent of workers)."""
    import hashlib

    h = hashlib.sha256(f"ironcross:{batch_seed}:{game_index}".encode()).digest()
    return int.from_bytes(h[:8], "big")
