"""The 20 mm Russo-German rules (seed 003, based on *Battle!*): a measured rule system on the
shared map read as a table (maps/table_map.py). See docs/twentymm.md."""
