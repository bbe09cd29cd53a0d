"""The shell's wiring of the Play mode and the measured systems' tools onto the scenario's map.

The Scenario controller (:class:`editor.scenario.window.ScenarioController`) is the one place a
scenario is shown on the map, for the Scenario and the Play modes alike; it imports neither the
Play mode (:mod:`editor.play`) nor the tabletop tools (:mod:`editor.tabletop`). The shell gives it
:class:`PlayMode`, which makes those parts and hands them what they need of the scenario: the
game to play (a snapshot of the documents in memory), the designer's set-up and the overlay they
draw on.
"""

from __future__ import annotations

from core.rule_system import ScenarioError
from editor.play.balance_dock import BalancePanel
from editor.play.hotseat import HotseatPanel, HotseatTool
from editor.play.playtest_dock import PlaytestPanel
from editor.play.robust_dock import RobustPanel, storage_beside
from editor.play.watch import WatchPanel
from editor.tabletop.tools import TablePlaceTool, TapeTool, setup_items, table_document

__all__ = ["PlayMode"]


class PlayMode:
    """The Play mode's panels and tool and the tabletop tools for the scenario controller ``ctl``.

    ``playtest`` (batch), ``watch``, ``hotseat``, ``balance`` (the what-if search) and ``robust`` (does the answer
    depend on the AI?, its studies and games kept beside a saved scenario): the Play mode's panels; they play
    ``ctl.playable_file(folder)`` (a snapshot of the scenario, the live map and the roster), start
    from ``ctl.designers_setup()`` when asked, and Watch and Hot-seat draw their games on
    ``ctl.overlay``. Watch and Hot-seat play with the Playtest panel's AIs and rules (Watch: its
    seed and set-up too). ``tools``: the hot-seat tool (its panel is ``hotseat``) and the measured
    systems' Set-up and Tape tools, in that order.
    """

    def __init__(self, ctl):
        self.ctl = ctl
        ctx = ctl.win.ctx
        self.playtest = PlaytestPanel(ctl.playable_file, fixed_setup=ctl.designers_setup)
        self.watch = WatchPanel(ctl.overlay, ctl.playable_file, settings=self.playtest.game_settings,
                                describe_settings=self.playtest.describe_settings)
        self.hotseat = HotseatPanel(ctl.overlay, ctl.playable_file, settings=self.playtest.game_settings,
                                    fixed_setup=ctl.designers_setup, describe_settings=self.playtest.describe_settings)
        self.balance = BalancePanel(ctl.playable_file, apply_change=self.apply_change, playtest=self.playtest,
                                    map_source=self.heat_map_source)
        self.balance.playtest_requested.connect(self._confirming_playtest)
        self.robust = RobustPanel(ctl.playable_file, storage_dir=lambda: storage_beside(getattr(ctl.doc, "path", None)))
        self.playtest.settings_changed.connect(self.watch.update_settings)
        self.playtest.settings_changed.connect(self.hotseat.update_settings)
        hotseat_tool = HotseatTool(ctx)
        hotseat_tool.panel = self.hotseat
        self.tools = (hotseat_tool, TablePlaceTool(ctx), TapeTool(ctx))

    def apply_change(self, texts: list[str], scenario_path: str | None) -> str | None:
        """Make the what-if changes ``texts`` one undoable edit of the open scenario document (its
        rule system's ``apply_change``; ``scenario_path``: the snapshot the search ran on, whose
        roster an OOB change reads). Returns None, or why it cannot be made."""
        doc = self.ctl.doc
        if doc is None or not hasattr(doc, "edit"):
            return "no Iron Cross scenario is open"
        from core.rule_system import get

        system = get(getattr(doc.scenario, "rule_system", None))
        if system.whatif_changes is None:
            return f"{system.title} names no what-if changes"
        kinds = system.whatif_changes()

        def change(data: dict) -> None:
            new = data
            for t in texts:
                new = kinds.apply_change(new, t, scenario_path)
            data.clear()
            data.update(new)

        try:
            doc.edit(f"What-if: {' & '.join(texts)}", change)
        except ValueError as e:   # pydantic's ValidationError is a ValueError
            return str(e).splitlines()[0]
        return None

    def heat_map_source(self):
        """``(HexMap, [section names])`` the open scenario is played on, from the documents in
        memory (the live map), for the heat maps beside today's. Raises ValueError when no Iron
        Cross scenario is open (the only ones the Balance panel applies changes to)."""
        doc = self.ctl.doc
        sc = getattr(doc, "scenario", None)
        if not hasattr(doc, "hexmap") or getattr(sc, "map", None) is None:
            raise ValueError("no Iron Cross scenario is open")
        return doc.hexmap, list(sc.map.sections)

    def _confirming_playtest(self) -> None:
        """The Balance panel's confirming playtest: the Playtest dock runs a batch of the edited scenario."""
        docks = getattr(self.ctl, "docks", {})
        if "playtest" in docks:
            docks["playtest"].show()
            docks["playtest"].raise_()
        self.playtest.start()

    def draw_table_setup(self, doc) -> None:
        """A measured system's units where they set up (``setup_pieces``), unless the Set-up tool
        (which draws them itself, with the selected piece's arc and reach) is the current one."""
        win = self.ctl.win
        cur = win.tools.current
        if table_document(win.ctx) is not doc:
            return
        if cur is not None and cur.name == "tableplace":
            cur.show()
            return
        try:
            self.ctl.overlay.set_layer("units", setup_items(doc))
        except ScenarioError as e:   # the System panel lists the scenario's problems
            win.statusBar().showMessage(f"the set-up cannot be drawn: {e}", 8000)
