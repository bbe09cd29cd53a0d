"""The shared drawing at the bottom of the editor: the map canvas (scene, view, cached layers),
the map painter (the same renderer as ``ironcross render``), the tool framework every mode's
tools build on, the pieces and marks drawn over the map, and small shared widgets. Imports no mode
and not the shell."""
