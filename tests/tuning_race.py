"""The toy dice race with a tunable player, for the tuning tests: a player that rolls two dice
(T.2 of ``tests/toy_system.py``) with probability ``two_dice`` (its one setting) races the toy's
players. Two dice add 7 a roll on average against 3.5, and a reset (T.3, two 1s) comes once in 36
rolls, so the more often two dice, the better: the best ``two_dice`` is near 1.

The system lives in this module (``SYSTEM``, registered with :data:`MODULE`), so worker processes
of the local pool and of a Dask cluster find it by importing this module.
"""

from __future__ import annotations

import random
from dataclasses import replace

from core.dice import derive_seed
from tests.toy_system import SYSTEM as TOY_SYSTEM
from tests.toy_system import TOY_PLAYERS, ToyRoll

NAME = "toytune"
MODULE = "tests.tuning_race"


class TwoDice:
    """Rolls two dice with probability ``two_dice`` (its one setting), else one."""

    name = "tunable"

    def __init__(self, seed: int, two_dice: float = 0.0):
        self._rng = random.Random(seed)
        self.two_dice = two_dice

    def choose(self, view, side, actions):
        n = 2 if self._rng.random() < self.two_dice else 1
        return next(a for a in actions if isinstance(a, ToyRoll) and a.dice == n)


def canonical(spec: str) -> str:
    """The player spec checked and written one way: ``"tunable:two_dice=0.5"``; ValueError for an
    unknown setting or a value outside 0-1."""
    name, _, body = spec.partition(":")
    if not body:
        return name
    k, _, v = body.partition("=")
    if k != "two_dice" or "," in v:
        raise ValueError(f"unknown setting {k!r}")
    x = float(v)
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"setting 'two_dice' = {x}: allowed 0 to 1")
    return f"{name}:two_dice={x!r}" if x else name


def make_players(setup, ai, seed):
    """side -> player for the ``ai`` specs (``tunable[:two_dice=X]`` or a toy player)."""
    out = {}
    for side in ai:
        name, _, body = ai[side].partition(":")
        s = derive_seed(seed, 1 if side == "german" else 2)
        out[side] = TwoDice(s, float(body.split("=")[1]) if body else 0.0) if name == "tunable" \
            else TOY_PLAYERS[name](s)
    return out


def _space(player: str):
    if player != "tunable":
        raise KeyError(player)
    return {"two_dice": (0.0, 1.0, False)}, {"two_dice": 0.0}


SYSTEM = replace(TOY_SYSTEM, name=NAME, players={**TOY_SYSTEM.players, "tunable": "two dice with a probability"},
                 make_players=make_players, player_settings=canonical, settings_space=_space)
