"""The Scenario mode: the scenario document, the controller that shows a scenario on the map
(its docks, overlay and tools), the builders of its parts (``builders/``: regions, victory,
roster and OOB, sides and set-up) and the schema-driven form for the other rule systems
(``system/``). It hosts the Play mode's docks and the tabletop tools on the scenario's map."""
