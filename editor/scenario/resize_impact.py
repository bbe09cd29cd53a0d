"""What resizing the map changes in the scenario open on it, said before the resize.

A resize keeps every hex id (ids are printed), but a map section that ended on the edge grows or
shrinks with it, a zone on a map edge of the playing area (2.1, ``map_edge``) follows that edge,
and a placed unit or the north indicator (24.1) in a removed column or row is left off the map.
:func:`resize_changes` lists these for one reading of the sections. A scenario of another rule
system (Red Flags, 20 mm: :class:`editor.scenario.system.scenario.SystemScenarioDocument`) is
played on map sections too: :func:`system_resize_changes` lists its sections that change and the
hexes, set-up blocks and table positions (inches, 20 mm) its file names that the resize leaves
off its playing area. :meth:`ResizeImpact.confirm_resize` asks the designer to extend the
sections with the map or keep them where they are on the ground, or to cancel."""

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
    out = section_changes(sc.map.sections, old, new)
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


def section_changes(names, old: MapFile, new: MapFile) -> list[str]:
    """One sentence per map section of ``names`` (the sections a scenario plays on) that the
    resize from ``old`` to ``new`` makes grow, shrink or go."""
    out = []
    before = {s.name: s for s in old.sections}
    after = {s.name: s for s in new.sections}
    for name in names:
        a, b = before.get(name), after.get(name)
        if a is None:
            continue
        if b is None:
            out.append(f"map section {name} is removed (it lay wholly in the removed columns)")
        elif (a.first_column, a.last_column) != (b.first_column, b.last_column):
            grows = b.last_column - b.first_column > a.last_column - a.first_column
            out.append(f"map section {name} {'grows' if grows else 'shrinks'}: columns "
                       f"{a.first_column:02d}-{a.last_column:02d} become {b.first_column:02d}-{b.last_column:02d}")
    return out


def _playing_area(mf: MapFile, sections: list[str]):
    """``(column ranges, (first row, last row))`` of the sections ``sections`` of map ``mf``
    (the whole map without sections; no column for a section the map lacks)."""
    ex = mf.extent
    if not sections:
        return [(ex.first_column, ex.last_column)], (ex.first_row, ex.last_row)
    by = {s.name: s for s in mf.sections}
    return [(by[n].first_column, by[n].last_column) for n in sections if n in by], (ex.first_row, ex.last_row)


def _in_area(area, hid: str) -> bool:
    from maps import hexgrid

    cols, (r0, r1) = area
    h = hexgrid.parse_hex_id(hid)
    return r0 <= h.row <= r1 and any(a <= h.col <= b for a, b in cols)


def _system_refs(data, scale: float | None) -> list[tuple[str, list[str]]]:
    """``(what, hex ids)`` for each place a scenario file of another rule system names, in file
    order: a ``hex``, a ``hexes`` list, a block of ``columns`` and ``rows`` (Red Flags' set-up
    zones) and, on a measured table (``scale`` inches per hex: 20 mm), a position ``at`` in inches
    (the hex under it). ``what`` is the entry's ``id`` or ``name``, else its JSON path."""
    from maps import hexgrid
    from maps.table_map import TableMap

    table = None
    if scale:
        # only the lattice scale is read (TableMap.hex_at); the table's terrain is not built
        table = TableMap(hexmap=None, scale=float(scale), sections=None, snow=False, see_into=0.0,
                         obstacle_height=0.0, road_width=1.0, gully_width=1.0, woods_difficult=True, behind=1.0)
    out: list[tuple[str, list[str]]] = []

    def ids(values) -> list[str]:
        got = []
        for v in values:
            try:
                got.append(hexgrid.parse_hex_id(v).id)
            except (hexgrid.HexIdError, TypeError, ValueError, AttributeError):
                continue
        return got

    def walk(node, path: str) -> None:
        if isinstance(node, list):
            for i, x in enumerate(node):
                walk(x, f"{path}[{i}]")
            return
        if not isinstance(node, dict):
            return
        what = str(node.get("id") or node.get("name") or path)
        if isinstance(node.get("hex"), str):
            out.append((what, ids([node["hex"]])))
        if isinstance(node.get("hexes"), list):
            out.append((f"{path}.hexes" if what == path else what, ids(node["hexes"])))
        cols, rows = node.get("columns"), node.get("rows")
        if isinstance(cols, list) and isinstance(rows, list) and len(cols) == 2 and len(rows) == 2 \
                and all(isinstance(x, int) for x in cols + rows):
            out.append((path, [hexgrid.Hex(c, r).id for c in range(cols[0], cols[1] + 1)
                               for r in range(rows[0], rows[1] + 1)]))
        at = node.get("at")
        if table is not None and isinstance(at, list) and len(at) == 2 \
                and all(isinstance(x, (int, float)) for x in at):
            out.append((what, [table.hex_at((float(at[0]), float(at[1]))).id]))
        for k, v in node.items():
            if isinstance(v, (dict, list)):
                walk(v, f"{path}.{k}")

    walk(data, "$")
    return out


def system_resize_changes(doc, old: MapFile, new: MapFile) -> list[str]:
    """One sentence per change the resize from map ``old`` to map ``new`` makes in the scenario
    ``doc`` of another rule system (a :class:`editor.scenario.system.scenario.SystemScenarioDocument`:
    Red Flags, 20 mm): a section it plays on that grows, shrinks or goes, and each hex, set-up
    block or table position its file names that lay on its playing area and is left off it
    (wholly or in part). Empty when the scenario is untouched."""
    data = doc.data if isinstance(doc.data, dict) else {}
    sections = doc.sections()
    out = section_changes(sections, old, new)
    was, now = _playing_area(old, sections), _playing_area(new, sections)
    scale = data.get("scale") if isinstance(data.get("scale"), (int, float)) else None
    for what, hexes in _system_refs(data, scale):
        on_before = [h for h in hexes if _in_area(was, h)]
        off = [h for h in on_before if not _in_area(now, h)]
        if not off:
            continue
        if len(hexes) == 1:
            out.append(f"{what} in {off[0]} is left off the playing area")
        else:
            out.append(f"{what}: {len(off)} of its {len(on_before)} hexes are left off the playing area")
    return out


class ResizeImpact:
    """The resize half of :class:`editor.scenario.window.ScenarioController`."""

    def confirm_resize(self, map_doc, resize, **sizes) -> dict | None:
        """Before ``map_doc`` is resized by ``sizes`` (``left``, ``right``, ``top``, ``bottom``
        columns/rows; ``resize(map, hexmap, grow_sections=..., **sizes)`` makes the new map):
        the options of the resize to make (``{"grow_sections": bool}``), or None when the designer
        cancels. Without a scenario on this map (of any rule system) nothing is asked (sections
        grow, as before). Raises ValueError as ``resize`` does."""
        from editor.scenario.document import ScenarioDocument
        from editor.scenario.system.scenario import SystemScenarioDocument

        doc = self.doc
        grown = resize(map_doc.map, map_doc.hexmap, grow_sections=True, **sizes)
        if not isinstance(doc, (ScenarioDocument, SystemScenarioDocument)) or doc.map_document is not map_doc:
            return {"grow_sections": True}
        kept = resize(map_doc.map, map_doc.hexmap, grow_sections=False, **sizes)
        if isinstance(doc, ScenarioDocument):
            chart = map_doc.hexmap.chart

            def changes(new):
                return resize_changes(doc, map_doc.map, new, chart)
        else:
            def changes(new):
                return system_resize_changes(doc, map_doc.map, new)
        extend = changes(grown)
        keep = changes(kept) if kept.sections != grown.sections else extend
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


__all__ = ["EXTEND", "KEEP", "RESIZE", "ResizeImpact", "resize_changes", "section_changes", "system_resize_changes"]
