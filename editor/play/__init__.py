"""The Play mode: the batch Playtest dock, the Watch (a game step by step), the Hot-seat and the
game record they share."""
