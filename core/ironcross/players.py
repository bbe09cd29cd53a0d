"""Players: anything that, given its view of the game and the legal actions, chooses one.

AI players and the editor's human player implement :class:`Player`. The registry
:data:`PLAYERS` maps names used on the command line (``--ai german=random``) to factories.
Every choice is seeded: a player built with the same seed makes the same choices.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence

from core.behaviour_settings import canonical_spec, split_spec
from core.ironcross.actions import Action

__all__ = ["Player", "RandomPlayer", "PLAYERS", "make_player", "split_spec", "canonical_settings",
           "SETTINGS_PLAYERS"]


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


def _heuristic(seed: int, settings: str = "") -> Player:
    from core.ironcross.ai.heuristic import HeuristicPlayer
    from core.ironcross.ai.settings import parse_settings

    return HeuristicPlayer(seed, parse_settings(settings) if settings else None)


#: name -> factory(seed) for ``--ai SIDE=NAME``.
PLAYERS: dict[str, Callable[[int], Player]] = {"random": RandomPlayer, "heuristic": _heuristic}


#: the players whose behaviour takes settings (``--ai german=heuristic:aggression=0.7``):
#: name -> the settings' canonical text of a ``k=v,...``/``@FILE`` text (raises ValueError)
SETTINGS_PLAYERS: dict[str, Callable[[str], str]] = {}


def _heuristic_settings(text: str) -> str:
    from core.ironcross.ai.settings import parse_settings, settings_text

    return settings_text(parse_settings(text))


SETTINGS_PLAYERS["heuristic"] = _heuristic_settings


def canonical_settings(spec: str) -> str:
    """The player spec with its settings validated and written out (a ``@FILE`` read now, defaults
    left out; :func:`core.behaviour_settings.canonical_spec` over :data:`SETTINGS_PLAYERS`):
    ``"heuristic:@s.json"`` -> ``"heuristic:aggression=0.7"``. Raises ValueError naming an unknown
    setting, a value out of range, an unreadable file, or a player that takes no settings."""
    return canonical_spec(spec, SETTINGS_PLAYERS)


def make_player(name: str, seed: int) -> Player:
    """Build the registered player ``name`` -- a spec ``NAME[:k=v,...]`` whose settings go to a
    player of :data:`SETTINGS_PLAYERS`; raises KeyError naming the known players, ValueError for
    settings a player does not take."""
    base, settings = split_spec(name)
    try:
        factory = PLAYERS[base]
    except KeyError:
        raise KeyError(f"unknown AI player {base!r}; known: {', '.join(sorted(PLAYERS))}") from None
    if settings:
        if base not in SETTINGS_PLAYERS:
            raise ValueError(f"the AI player {base!r} takes no settings")
        return factory(seed, settings)
    return factory(seed)
