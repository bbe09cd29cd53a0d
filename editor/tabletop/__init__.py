"""The measured (tabletop) systems in the editor: the tape measure and the set-up tool, and the
picture of a table's areas."""
