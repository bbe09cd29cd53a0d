"""AI players for Iron Cross: the heuristic player and its influence maps and evaluation."""

from core.ironcross.ai.heuristic import HeuristicPlayer

__all__ = ["HeuristicPlayer"]
