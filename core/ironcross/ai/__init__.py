"""AI players for Iron Cross (issue 8): the heuristic player and its influence maps and evaluation."""

from core.ai.heuristic import HeuristicPlayer

__all__ = ["HeuristicPlayer"]
