"""Players: anything that, given its view of the game and the legal actions, chooses one.

AI players and the editor's human player implement :class:`Player`. The registry
:data:`PLAYERS` maps names used on the command line (``--ai german=random``) to factories.
Every choice is seeded: a player built with the same seed makes the same choices.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence

from core.ironcross.actions import Action

__all__ = ["Player", "RandomPlayer", "PLAYERS", "make_player"]


class Player(Protocol):
    """Chooses one of ``actions`` for ``side``; ``view`` is what that side may know
    (a :class:`core.ironcross.view.PlayerView`: read-only, the opponent's secret mines hidden)."""

    name: str

    def choose(self, view, side: str, actions: Sequence[Action]) -> Action: ...


class RandomPlayer:
    """Uniformly random over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def choose(self, view, side: str, actions: Sequence[Action]) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[self._rng.randrange(len(actions))]


def _heuristic(seed: int) -> Player:
    from core.ironcross.ai.heuristic import HeuristicPlayer

    return HeuristicPlayer(seed)


#: name -> factory(seed) for ``--ai SIDE=NAME``.
PLAYERS: dict[str, Callable[[int], Player]] = {"random": RandomPlayer, "heuristic": _heuristic}


def make_player(name: str, seed: int) -> Player:
    """Build the registered player ``name``; raises KeyError naming the known players."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise KeyError(f"unknown AI player {name!r}; known: {', '.join(sorted(PLAYERS))}") from None
    return factory(seed)
