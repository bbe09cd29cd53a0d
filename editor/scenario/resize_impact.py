"""What resizing the map changes in the scenario open on it, said before the resize.

A resize keeps every hex id (ids are printed), but a map section that ended on the edge grows or
shrinks with it, a zone on a map edge of the playing area (2.1, ``map_edge``) follows that edge,
and a placed unit or the north indicator (24.1) in a removed column or row is left off the map.
:func:`resize_changes` lists these for one reading of the sections;
:meth:`ResizeImpact.confirm_resize` asks the designer to extend the sections with the map or keep
them where they are on the ground, or to cancel."""

from __future__ import annotations

from maps.hexmap import HexMap
from maps.mapfile import MapFile

from editor.drawing import widgets

#: the answers to the resize question
EXTEND = "Extend sections and edge zones with the map"
KEEP = "Keep sections and zones where they are"
RESIZE = "Resize"


def _on(extent, hid: str) -> bool:
    from maps import hexgrid

    h = hexgrid.parse_hex_id(hid)
    return extent.first_column <= h.col <= extent.last_column and extent.first_row <= h.row <= extent.last_row


def resize_changes(doc, old: MapFile, new: MapFile, chart=None) -> list[str]:
    """One sentence per change the resize from map ``old`` to map ``new`` makes in the scenario
    ``doc`` (an :class:`editor.scenario.document.ScenarioDocument`): a section it plays on that
    grows, shrinks or goes, a region whose hexes change (a zone on a map edge that moves), a
    placed unit or the north indicator left off the map. Empty when the scenario is untouched."""
    from scenarios.regions import RegionError
    from scenarios.scenario_file import scenario_context

    from editor.scenario.wording import loc_label

    sc = doc.scenario
    out = []
    before = {s.name: s for s in old.sections}
    after = {s.name: s for s in new.sections}
    for name in sc.map.sections:
        a, b = before.get(name), after.get(name)
        if a is None:
            continue
        if b is None:
            out.append(f"map section {name} is removed (it lay wholly in the removed columns)")
        elif (a.first_column, a.last_column) != (b.first_column, b.last_column):
            grows = b.last_column - b.first_column > a.last_column - a.first_column
            out.append(f"map section {name} {'grows' if grows else 'shrinks'}: columns "
                       f"{a.first_column:02d}-{a.last_column:02d} become {b.first_column:02d}-{b.last_column:02d}")
    ctx_old = scenario_context(sc, HexMap(old, chart=chart))
    try:
        ctx_new = scenario_context(sc, HexMap(new, chart=chart))
    except Exception:  # noqa: BLE001 - a map the scenario cannot be laid on: its regions are not compared
        ctx_new = None
    for loc, region in doc.regions():
        try:
            was = {h.id for h in region.resolve(ctx_old)}
        except RegionError:
            continue
        try:
            now = {h.id for h in region.resolve(ctx_new)} if ctx_new is not None else set()
        except RegionError as e:
            out.append(f"{loc_label(doc, loc)}: can no longer be resolved ({e.message})")
            continue
        if was != now:
            gone, added = len(was - now), len(now - was)
            what = "moves" if gone and added else "shrinks" if gone else "grows"
            out.append(f"{loc_label(doc, loc)} {what}: {len(was)} hexes become {len(now)} "
                       f"({added} added, {gone} left out)")
    for uid, p in sorted(doc.placement.items()):
        if not _on(new.extent, p.hex):
            out.append(f"placed unit {uid} in {p.hex} is left off the map")
    north = sc.north
    for which, hid in (("hex", north.hex), ("points-to hex", north.points_to)):
        if not _on(new.extent, hid):
            out.append(f"the north indicator's {which} {hid} is left off the map")
    return out


class ResizeImpact:
    """The resize half of :class:`editor.scenario.window.ScenarioController`."""

    def confirm_resize(self, map_doc, resize, **sizes) -> dict | None:
        """Before ``map_doc`` is resized by ``sizes`` (``left``, ``right``, ``top``, ``bottom``
        columns/rows; ``resize(map, hexmap, grow_sections=..., **sizes)`` makes the new map):
        the options of the resize to make (``{"grow_sections": bool}``), or None when the designer
        cancels. Without a forms scenario on this map nothing is asked (sections grow, as before).
        Raises ValueError as ``resize`` does."""
        from editor.scenario.document import ScenarioDocument

        doc = self.doc
        grown = resize(map_doc.map, map_doc.hexmap, grow_sections=True, **sizes)
        if not isinstance(doc, ScenarioDocument) or doc.map_document is not map_doc:
            return {"grow_sections": True}
        kept = resize(map_doc.map, map_doc.hexmap, grow_sections=False, **sizes)
        chart = map_doc.hexmap.chart
        extend = resize_changes(doc, map_doc.map, grown, chart)
        keep = resize_changes(doc, map_doc.map, kept, chart) if kept.sections != grown.sections else extend
        if not extend and not keep:
            return {"grow_sections": True}
        name = doc.display_name()
        if keep is extend:
            text = f"Resizing the map changes the open scenario {name}:\n\n- " + "\n- ".join(extend)
            choice = widgets.ask_choice(self.win, "Resize map", text, [RESIZE])
            return None if choice is None else {"grow_sections": True}
        text = (f"Resizing the map changes the open scenario {name}.\n\nExtending the sections with the map:\n- "
                + ("\n- ".join(extend) or "nothing")
                + "\n\nKeeping the sections and zones where they are on the ground:\n- "
                + ("\n- ".join(keep) or "nothing"))
        choice = widgets.ask_choice(self.win, "Resize map", text, [KEEP, EXTEND])
        if choice is None:
            return None
        return {"grow_sections": choice == EXTEND}


__all__ = ["EXTEND", "KEEP", "RESIZE", "ResizeImpact", "resize_changes"]
