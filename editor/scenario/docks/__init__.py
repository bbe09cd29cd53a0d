"""The Scenario mode's panels (docks), one module each: properties, orders of battle (``oob``),
regions, validation and set-up, and the unit drag they share; the counter roster is
:mod:`editor.scenario.builders.roster_panel`, the region builder
:mod:`editor.scenario.builders.region_builder`, the victory builder
:mod:`editor.scenario.builders.victory_builder`. Each panel observes a
:class:`editor.scenario.document.ScenarioDocument` (``set_document``) and turns the user's edits into
commands through ``ScenarioDocument.edit``; none changes the model itself. How they word things is
:mod:`editor.scenario.wording`.
"""
