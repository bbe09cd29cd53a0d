"""The Scenario mode's builders: forms that build a part of a scenario (a region, a victory
condition, the roster and orders of battle, the sides' entries and set-up) as one undo step each."""
