"""The Iron Cross rule system (rulebook rules 3.0-24.0)."""
