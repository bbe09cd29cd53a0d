"""Build the printed Iron Cross mapsheet (``maps/data/iron_cross_mapsheet.json``) from its source.

The rulebook text does not include the map, so the mapsheet is a reconstruction that agrees with
everything the rulebook says about it (rule 2.1, the six scenarios of 24.4-24.9 and the hexes the
"Terrain Clarifications and Errata" names). It is kept as readable source in
``maps/mapsheet_source/`` and turned into the map file deterministically::

    python -m maps.mapsheet_build            # writes maps/data/iron_cross_mapsheet.json
    python -m maps.mapsheet_build --check    # exit 1 when the JSON is not up to date with its source
    python -m maps.mapsheet_build --ascii    # print an overview of the map (roads, buildings, ...)

The map is **as printed**, before the errata: where the errata corrects a value the source holds the
wrong, printed value (e.g. 1307 with two trees), so that ``ironcross errata apply`` with the shipped
errata finds its preconditions. ``maps/data/iron_cross_mapsheet_corrected.json`` is made from it by
:mod:`maps.errata`.

Source format
=============

Hex grids: ``map1.txt``, ``map2.txt``, ``map3.txt``
    Together they cover every column of the extent once (``columns 10-29`` and so on). A grid is
    drawn as the sheet looks, row 01 at the top. Each hex row takes two text lines: the line
    starting with the row number holds the even columns, the indented line below it the odd
    columns (odd columns are shifted half a hex down, see :mod:`maps.hexgrid`). Each hex is one
    three-character token ``<level><trees><terrain>``:

    * level: ``.`` (0) or a digit, the hill level (10.34: the lower elevation of the hex);
    * trees: ``.`` (none) or a digit, the number of tree symbols (2 or more is a Woods hex, 8.54);
    * terrain: ``.`` clear or ``m`` marsh.

    So ``...`` is open ground, ``.2.`` a woods hex, ``1..`` a level-1 hill hex, ``11.`` a level-1
    hex with one tree, ``..m`` marsh. Lines starting with ``#`` are comments.

Everything else: ``features.txt``
    Stanzas. A stanza starts at the left margin with ``<kind> <title>``; its fields are the
    indented lines below, ``<key> <value>``; a line indented deeper than the keys continues the
    previous value. Kinds and their keys:

    * ``map <name>``: ``extent 10-70 01-27``, ``description``, ``why`` (the map's provenance
      rationale), ``note`` (one map note each);
    * ``section <name>``: ``columns 10-30``;
    * ``road <title>`` / ``gully <title>``: ``path`` (adjacent hexes in order);
    * ``building <id>``: ``number``, ``name``, ``hexes`` (the symbol is
      :func:`maps.building_shapes.footprint` of them; the build checks that the map computes
      exactly these hexes from the polygon), ``note``;
    * ``hill <name>``: ``at <hex>`` (the feature is the connected group of hexes at level 1 or
      more containing it) or ``hexes``;
    * ``feature <name>``: ``kind`` (hill, area, other), ``hexes``;
    * ``hexes <title>``: ``ids``, ``upper`` (upper_level, 10.34), ``note``: per-hex facts.

    Provenance, on every kind: ``ref <rule>`` makes it ``rulebook`` (and ``why`` adds a rationale);
    ``why <rationale>`` alone makes it ``reconstructed``. Roads, gullies and sections have no
    provenance field in the map model, so theirs goes into the map's ``notes``. Anything without
    provenance falls under the map's own (``reconstructed``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maps import building_shapes, hexgrid
from maps.hexgrid import Hex
from maps.model import MapFile

__all__ = [
    "SOURCE_DIR",
    "OUTPUT",
    "GRID_FILES",
    "SourceError",
    "Stanza",
    "parse_grid",
    "parse_stanzas",
    "read_source",
    "build_mapsheet",
    "render_json",
    "ascii_map",
    "main",
]

SOURCE_DIR = Path(__file__).resolve().parent / "mapsheet_source"
OUTPUT = Path(__file__).resolve().parent / "data" / "iron_cross_mapsheet.json"
GRID_FILES = ("map1.txt", "map2.txt", "map3.txt")
FEATURES_FILE = "features.txt"

_TOKEN_RE = re.compile(r"^([.0-9])([.0-9])([.m])$")
_RANGE_RE = re.compile(r"^(\d{1,2})-(\d{1,2})$")


class SourceError(ValueError):
    """A problem in the mapsheet source, naming the file and line."""

    def __init__(self, file: str, line: int | None, message: str):
        self.file, self.line, self.message = file, line, message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Cell:
    """One hex of a grid: level, tree symbols, terrain."""

    level: int
    trees: int
    terrain: str


# --------------------------------------------------------------------------------------------
# Grids
# --------------------------------------------------------------------------------------------

def parse_grid(text: str, file: str = "<grid>") -> tuple[tuple[int, int], dict[Hex, Cell]]:
    """Parse one hex grid; returns ``((first_column, last_column), {hex: cell})``."""
    cols: tuple[int, int] | None = None
    cells: dict[Hex, Cell] = {}
    pending_row: int | None = None  # row whose even line was read, odd line expected next
    last_row = 0
    lines = text.splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("columns"):
            m = _RANGE_RE.match(line.split(None, 1)[1].strip() if " " in line else "")
            if not m or cols is not None:
                raise SourceError(file, n, "expected one line 'columns FIRST-LAST' before the grid")
            cols = (int(m.group(1)), int(m.group(2)))
            if cols[0] > cols[1]:
                raise SourceError(file, n, "first column is after last column")
            continue
        if cols is None:
            raise SourceError(file, n, "the grid must start with 'columns FIRST-LAST'")
        words = line.split()
        if not line[0].isspace():  # even line: row number, then the even columns
            if pending_row is not None:
                raise SourceError(file, n, f"row {pending_row:02d} has no line of odd columns")
            if not re.fullmatch(r"\d{2}", words[0]):
                raise SourceError(file, n, f"a row line starts with the two-digit row number, not {words[0]!r}")
            row = int(words[0])
            if row != last_row + 1 and not (last_row == 0 and row >= 0):
                raise SourceError(file, n, f"row {row:02d} follows row {last_row:02d}; rows must be in order")
            parity, tokens = "even", words[1:]
            pending_row = row
        else:  # odd line
            if pending_row is None:
                raise SourceError(file, n, "an indented line of odd columns must follow a row line")
            row = pending_row
            parity, tokens = "odd", words
            pending_row, last_row = None, row
        wanted = [c for c in range(cols[0], cols[1] + 1) if c % 2 == (parity == "odd")]
        if len(tokens) != len(wanted):
            raise SourceError(file, n, (
                f"row {row:02d}: {len(tokens)} tokens for the {len(wanted)} {parity} columns "
                f"{'-'.join(str(c) for c in wanted[:1] + wanted[-1:])}"))
        for c, tok in zip(wanted, tokens):
            m = _TOKEN_RE.match(tok)
            if not m:
                raise SourceError(file, n, (
                    f"hex {c:02d}{row:02d}: token {tok!r} is not <level><trees><terrain> "
                    "(e.g. '...', '.2.', '1..', '..m')"))
            lv, tr, te = m.groups()
            cells[Hex(c, row)] = Cell(0 if lv == "." else int(lv), 0 if tr == "." else int(tr),
                                      "marsh" if te == "m" else "clear")
    if pending_row is not None:
        raise SourceError(file, len(lines), f"row {pending_row:02d} has no line of odd columns")
    if cols is None:
        raise SourceError(file, None, "no 'columns FIRST-LAST' line")
    return cols, cells


# --------------------------------------------------------------------------------------------
# Stanzas
# --------------------------------------------------------------------------------------------

@dataclass
class Stanza:
    """``<kind> <title>`` and its ``key value`` fields (keys may repeat), with line numbers."""

    kind: str
    title: str
    line: int
    fields: list[tuple[str, str, int]] = field(default_factory=list)

    def all(self, key: str) -> list[str]:
        return [v for k, v, _ in self.fields if k == key]

    def one(self, key: str, file: str, default: str | None = None) -> str | None:
        vals = self.all(key)
        if len(vals) > 1:
            raise SourceError(file, self.line, f"{self.kind} {self.title!r}: '{key}' given {len(vals)} times")
        return vals[0] if vals else default

    def words(self, key: str) -> list[str]:
        """Every word of every ``key`` line (hex lists may run over several lines)."""
        return [w for v in self.all(key) for w in v.replace(",", " ").split()]


def parse_stanzas(text: str, file: str = "<features>") -> list[Stanza]:
    """Parse the stanza file (see the module docstring)."""
    out: list[Stanza] = []
    key_indent: int | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            kind, _, title = line.partition(" ")
            out.append(Stanza(kind, title.strip(), n))
            key_indent = None
            continue
        if not out:
            raise SourceError(file, n, "an indented field before any stanza")
        st = out[-1]
        if key_indent is None:
            key_indent = indent
        if indent > key_indent:
            if not st.fields:
                raise SourceError(file, n, "a continuation line before any field")
            k, v, ln = st.fields[-1]
            st.fields[-1] = (k, f"{v} {line.strip()}".strip(), ln)
            continue
        if indent < key_indent:
            raise SourceError(file, n, "fields of one stanza must share one indentation")
        key, _, value = line.strip().partition(" ")
        st.fields.append((key, value.strip(), n))
    return out


_KEYS: dict[str, set[str]] = {
    "map": {"extent", "description", "why", "ref", "note"},
    "section": {"columns", "ref", "why"},
    "road": {"path", "ref", "why"},
    "gully": {"path", "ref", "why"},
    "building": {"number", "name", "hexes", "ref", "why", "note"},
    "hill": {"at", "hexes", "ref", "why"},
    "feature": {"kind", "hexes", "ref", "why", "note"},
    "hexes": {"ids", "upper", "ref", "why", "note"},
}


def _provenance(st: Stanza, file: str) -> dict[str, str] | None:
    ref, why = st.one("ref", file), st.one("why", file)
    if ref:
        return {"source": "rulebook", "ref": ref, **({"rationale": why} if why else {})}
    if why:
        return {"source": "reconstructed", "rationale": why}
    return None


def _prov_text(p: dict[str, str] | None) -> str:
    if p is None:
        return "reconstructed (the map's provenance)"
    if p["source"] == "rulebook":
        return f"rulebook {p['ref']}" + (f" ({p['rationale']})" if p.get("rationale") else "")
    return f"reconstructed: {p['rationale']}"


def _hex(text: str, file: str, line: int) -> Hex:
    try:
        return hexgrid.parse_hex_id(text)
    except hexgrid.HexIdError as e:
        raise SourceError(file, line, str(e)) from None


def _range(text: str | None, file: str, line: int | None, what: str) -> tuple[int, int]:
    m = _RANGE_RE.match(text or "")
    if not m:
        raise SourceError(file, line, f"{what}: expected FIRST-LAST, got {text!r}")
    return int(m.group(1)), int(m.group(2))


# --------------------------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------------------------

@dataclass
class Source:
    """The parsed source: the merged grid and the stanzas."""

    cells: dict[Hex, Cell]
    stanzas: list[Stanza]
    columns: dict[str, tuple[int, int]]  # grid file -> its columns


def read_source(source_dir: str | Path = SOURCE_DIR) -> Source:
    """Read and parse every source file (raises :class:`SourceError`)."""
    d = Path(source_dir)
    cells: dict[Hex, Cell] = {}
    columns: dict[str, tuple[int, int]] = {}
    for name in GRID_FILES:
        cols, cs = parse_grid((d / name).read_text(encoding="utf-8"), name)
        overlap = set(cs) & set(cells)
        if overlap:
            raise SourceError(name, None, f"columns {cols[0]}-{cols[1]} overlap another grid file")
        columns[name] = cols
        cells.update(cs)
    stanzas = parse_stanzas((d / FEATURES_FILE).read_text(encoding="utf-8"), FEATURES_FILE)
    return Source(cells, stanzas, columns)


def _component(start: Hex, cells: dict[Hex, Cell]) -> list[Hex]:
    """The connected hexes at level >= 1 containing ``start``."""
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for nb in hexgrid.neighbours(h):
            c = cells.get(nb)
            if nb not in seen and c is not None and c.level >= 1:
                seen.add(nb)
                todo.append(nb)
    return sorted(seen)


def build_mapsheet(source_dir: str | Path = SOURCE_DIR) -> dict[str, Any]:
    """The printed mapsheet as map-file JSON data (a dict), built from ``source_dir``.

    Deterministic: the same source gives the same data. Raises :class:`SourceError` for a
    problem in the source and :class:`maps.document_file.DocumentError` when the result is not a
    valid map.
    """
    F = FEATURES_FILE
    src = read_source(source_dir)
    cells = src.cells
    by_kind: dict[str, list[Stanza]] = {}
    for st in src.stanzas:
        if st.kind not in _KEYS:
            raise SourceError(F, st.line, f"unknown stanza kind {st.kind!r} (known: {', '.join(sorted(_KEYS))})")
        for k, _, ln in st.fields:
            if k not in _KEYS[st.kind]:
                raise SourceError(F, ln, f"{st.kind} {st.title!r}: unknown key {k!r} "
                                         f"(known: {', '.join(sorted(_KEYS[st.kind]))})")
        by_kind.setdefault(st.kind, []).append(st)
    maps_ = by_kind.get("map", [])
    if len(maps_) != 1:
        raise SourceError(F, None, "exactly one 'map' stanza is needed")
    mst = maps_[0]
    ext = (mst.one("extent", F) or "").split()
    if len(ext) != 2:
        raise SourceError(F, mst.line, "map: 'extent FIRSTCOL-LASTCOL FIRSTROW-LASTROW' is needed")
    c0, c1 = _range(ext[0], F, mst.line, "extent columns")
    r0, r1 = _range(ext[1], F, mst.line, "extent rows")
    want = {Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
    if set(cells) != want:
        missing, extra = sorted(want - set(cells)), sorted(set(cells) - want)
        raise SourceError("grids", None, (
            f"the grids must cover columns {c0}-{c1}, rows {r0:02d}-{r1:02d} exactly"
            + (f"; missing {', '.join(h.id for h in missing[:5])}" if missing else "")
            + (f"; outside the extent {', '.join(h.id for h in extra[:5])}" if extra else "")))
    map_prov = _provenance(mst, F)
    notes: list[str] = list(mst.all("note"))

    sections = []
    for st in by_kind.get("section", []):
        a, b = _range(st.one("columns", F), F, st.line, f"section {st.title!r} columns")
        sections.append({"name": st.title, "first_column": a, "last_column": b})
        p = _provenance(st, F)
        if p is not None:
            notes.append(f"Section {st.title} (columns {a}-{b}): {_prov_text(p)}.")

    # per-hex extras: upper_level, provenance, note
    extras: dict[Hex, dict[str, Any]] = {}
    for st in by_kind.get("hexes", []):
        p = _provenance(st, F)
        note = st.one("note", F)
        upper = st.one("upper", F)
        ids = st.words("ids")
        if not ids:
            raise SourceError(F, st.line, f"hexes {st.title!r}: no 'ids'")
        for t in ids:
            h = _hex(t, F, st.line)
            if h not in cells:
                raise SourceError(F, st.line, f"hexes {st.title!r}: {t} is not on the map")
            e = extras.setdefault(h, {})
            if p is not None:
                if "provenance" in e and e["provenance"] != p:
                    raise SourceError(F, st.line, f"hex {t} is given two different provenances")
                e["provenance"] = p
            if note:
                e["note"] = f"{e['note']}; {note}" if "note" in e else note
            if upper is not None:
                if not upper.isdigit() or int(upper) <= cells[h].level:
                    raise SourceError(F, st.line, f"hex {t}: upper {upper!r} must be a level above {cells[h].level}")
                e["upper_level"] = int(upper)

    hexes = []
    for h in sorted(cells):
        c, e = cells[h], extras.get(h, {})
        if c == Cell(0, 0, "clear") and not e:
            continue
        rec: dict[str, Any] = {"id": h.id}
        if c.terrain != "clear":
            rec["terrain"] = c.terrain
        if c.trees:
            rec["trees"] = c.trees
        if c.level:
            rec["level"] = c.level
        if "upper_level" in e:
            rec["upper_level"] = e["upper_level"]
        if "provenance" in e:
            rec["provenance"] = e["provenance"]
        if "note" in e:
            rec["note"] = e["note"]
        hexes.append(rec)

    paths: dict[str, list[list[str]]] = {"road": [], "gully": []}
    for kind in ("road", "gully"):
        for st in by_kind.get(kind, []):
            path = st.words("path")
            if not path:
                raise SourceError(F, st.line, f"{kind} {st.title!r}: no 'path'")
            hs = [_hex(t, F, st.line) for t in path]
            for a, b in zip(hs, hs[1:]):
                if hexgrid.distance(a, b) != 1:
                    raise SourceError(F, st.line, f"{kind} {st.title!r}: {a.id} and {b.id} are not adjacent")
            for h in hs:
                if h not in cells:
                    raise SourceError(F, st.line, f"{kind} {st.title!r}: {h.id} is not on the map")
            paths[kind].append([h.id for h in hs])
            notes.append(f"{kind.capitalize()} {st.title} ({hs[0].id}-{hs[-1].id}): {_prov_text(_provenance(st, F))}.")

    buildings = []
    declared: dict[str, set[Hex]] = {}
    for st in by_kind.get("building", []):
        hs = [_hex(t, F, st.line) for t in st.words("hexes")]
        if not hs:
            raise SourceError(F, st.line, f"building {st.title!r}: no 'hexes'")
        try:
            poly = building_shapes.footprint(hs)
        except ValueError as e:
            raise SourceError(F, st.line, f"building {st.title!r}: {e}") from None
        b: dict[str, Any] = {"id": st.title}
        num = st.one("number", F)
        if num is not None:
            if not num.isdigit():
                raise SourceError(F, st.line, f"building {st.title!r}: number {num!r} is not a whole number")
            b["number"] = int(num)
        if st.one("name", F):
            b["name"] = st.one("name", F)
        b["polygon"] = building_shapes.polygon_coords(poly)
        p = _provenance(st, F)
        if p is not None:
            b["provenance"] = p
        if st.one("note", F):
            b["note"] = st.one("note", F)
        buildings.append(b)
        declared[st.title] = set(hs)

    features = []
    for kind in ("hill", "feature"):
        for st in by_kind.get(kind, []):
            if kind == "hill":
                at = st.one("at", F)
                if at:
                    h = _hex(at, F, st.line)
                    if h not in cells or cells[h].level < 1:
                        raise SourceError(F, st.line, f"hill {st.title!r}: {at} is not a hill hex (level 1 or more)")
                    fhexes = [x.id for x in _component(h, cells)]
                else:
                    fhexes = st.words("hexes")
                fkind = "hill"
            else:
                fhexes = st.words("hexes")
                fkind = st.one("kind", F, "area")
            if not fhexes:
                raise SourceError(F, st.line, f"{kind} {st.title!r}: no hexes")
            f: dict[str, Any] = {"name": st.title, "kind": fkind, "hexes": fhexes}
            p = _provenance(st, F)
            if p is not None:
                f["provenance"] = p
            if st.one("note", F):
                notes.append(f"Feature {st.title!r}: {st.one('note', F)}")
            features.append(f)

    data: dict[str, Any] = {
        "format": "ironcross-map",
        "version": 1,
        "name": mst.title,
        "description": " ".join(mst.all("description")),
        "extent": {"first_column": c0, "last_column": c1, "first_row": r0, "last_row": r1},
        "sections": sections,
        "provenance": map_prov,
        "hexes": hexes,
        "buildings": buildings,
        "roads": paths["road"],
        "gullies": paths["gully"],
        "features": features,
        "notes": notes,
    }
    # validate with the map model and checks, and check each symbol covers exactly its hexes
    from maps.mapfile import map_from_data, map_json

    hm = map_from_data(data, "<mapsheet source>")
    for bid, want_hexes in declared.items():
        got = set(hm.building_hexes[bid])
        if got != want_hexes:
            raise SourceError(F, None, (
                f"building {bid}: its polygon covers {sorted(h.id for h in got)}, "
                f"not the declared {sorted(h.id for h in want_hexes)}"))
    return map_json(MapFile.model_validate(data))   # as saved: no empty obstacles or tank traps


def render_json(data: dict[str, Any]) -> str:
    """The file text for ``data`` (indent 1, like :func:`maps.document_file.save_document`)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------------------------
# Overview
# --------------------------------------------------------------------------------------------

def ascii_map(data: dict[str, Any], first_column: int | None = None, last_column: int | None = None) -> str:
    """A text overview of the map, staggered like the grids, one two-character cell per hex.

    First character: ``#`` bridge, ``=`` road, ``~`` gully, a building's number or ``b``
    (unnumbered), ``W`` woods (2+ trees), ``t`` one tree, ``,`` marsh, ``.`` open.
    Second character: the hill level (blank for 0; ``^`` when the hex has an upper level).
    """
    from maps.mapfile import map_from_data, map_json

    hm = map_from_data(data, "<mapsheet>")
    c0 = hm.first_column if first_column is None else first_column
    c1 = hm.last_column if last_column is None else last_column
    numbers = {b.id: (str(b.number) if b.number is not None else "b") for b in hm.doc.buildings}

    def cell(h: Hex) -> str:
        if hm.is_bridge(h):
            a = "#"
        elif hm.is_road(h):
            a = "="
        elif hm.is_gully(h):
            a = "~"
        elif hm.is_building_hex(h):
            a = numbers[hm.buildings_at(h)[0]]
        elif hm.is_woods(h):
            a = "W"
        elif hm.trees(h):
            a = "t"
        elif hm.is_marsh(h):
            a = ","
        else:
            a = "."
        rec = hm.record(h)
        b = "^" if rec.upper_level is not None else (str(rec.level) if rec.level else " ")
        return a + b

    out = ["    " + "".join(f"{c:<4d}" for c in range(c0, c1 + 1) if c % 2 == 0)]
    out.append("      " + "".join(f"{c:<4d}" for c in range(c0, c1 + 1) if c % 2 == 1))
    for r in range(hm.first_row, hm.last_row + 1):
        even = "  ".join(cell(Hex(c, r)) for c in range(c0, c1 + 1) if c % 2 == 0)
        odd = "  ".join(cell(Hex(c, r)) for c in range(c0, c1 + 1) if c % 2 == 1)
        pad_e = "" if c0 % 2 == 0 else "  "
        pad_o = "  " if c0 % 2 == 0 else ""
        out.append(f"{r:02d}  {pad_e}{even}".rstrip())
        out.append(f"    {pad_o}{odd}".rstrip())
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m maps.mapsheet_build", description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default=str(SOURCE_DIR), help="source folder (default: maps/mapsheet_source)")
    ap.add_argument("-o", "--output", default=str(OUTPUT),
                    help="output JSON (default: maps/data/iron_cross_mapsheet.json)")
    ap.add_argument("--check", action="store_true",
                    help="only check that the output is up to date (exit 1 if not)")
    ap.add_argument("--ascii", metavar="COLS", nargs="?", const="", default=None,
                    help="print a text overview instead (optionally only columns FIRST-LAST)")
    args = ap.parse_args(argv)
    try:
        data = build_mapsheet(args.source)
    except SourceError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.ascii is not None:
        cols = _range(args.ascii, "--ascii", None, "columns") if args.ascii else (None, None)
        sys.stdout.write(ascii_map(data, *cols))
        return 0
    text = render_json(data)
    out = Path(args.output)
    if args.check:
        if not out.is_file() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is not up to date with {args.source}; run python -m maps.mapsheet_build", file=sys.stderr)
            return 1
        print(f"{out} is up to date")
        return 0
    from maps.document_file import atomic_write_text

    atomic_write_text(out, text)
    out.chmod(0o644)  # a shipped data file, readable like the others (the temporary file was 0600)
    print(f"wrote {out} ({len(data['hexes'])} hex records, {len(data['buildings'])} buildings, "
          f"{len(data['roads'])} roads, {len(data['gullies'])} gullies, {len(data['features'])} features)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
