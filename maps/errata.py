"""Published errata as data (format ``ironcross-errata``) and applying them to a map.

An errata file lists **corrections**. Each names its target, the value *as printed* (a
precondition: the map must show it before the correction applies), the corrected value and the
errata line it comes from (quoted verbatim). Four kinds of target (see ``docs/errata.md``)::

    {"hex": "1307", "attribute": "trees", "printed": 2, "corrected": 1, "line": "..."}
    {"hex": "2125", "attribute": "level", "printed": 0, "corrected": 1, "line": "..."}
    {"hex": "1322", "attribute": "building", "printed": "single", "corrected": "none", "line": "..."}
    {"feature": "crest", "attribute": "label", "printed": "present", "corrected": "absent", "line": "..."}
    {"scenario": 4, "field": "russian.notes", "point": 3, "printed": "2703", "corrected": "2613", "line": "..."}

:func:`apply_errata` applies the map corrections to a :class:`maps.model.MapFile` and returns a
new one plus one :class:`Change` per correction. Scenario corrections are reported as skipped
(the scenario side applies them). The shipped errata of the rulebook are
``maps/data/iron_cross_errata.json`` (rulebook, "Terrain Clarifications and Errata").

``python -m maps.errata build-corrected`` regenerates ``maps/data/iron_cross_mapsheet_corrected.json``
from the printed mapsheet and the shipped errata.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag
from shapely.geometry import Polygon

from maps import building_shapes, hexgrid
from maps.document_file import DocumentError, Problem, load_document
from maps.model import Building, HexRecord, MapFile
from maps.provenance import Provenance

__all__ = [
    "ERRATA_FORMAT",
    "ERRATA_VERSION",
    "ERRATA_REF",
    "DATA_DIR",
    "SHIPPED_ERRATA",
    "PRINTED_MAPSHEET",
    "CORRECTED_MAPSHEET",
    "HexCorrection",
    "BuildingCorrection",
    "LabelCorrection",
    "ScenarioCorrection",
    "Correction",
    "Errata",
    "Change",
    "ErrataMismatchError",
    "check_errata",
    "load_errata",
    "apply_errata",
    "building_state",
    "build_corrected_mapsheet",
]

ERRATA_FORMAT = "ironcross-errata"
ERRATA_VERSION = 1
#: The provenance ``ref`` of every value an errata correction sets.
ERRATA_REF = "Terrain Clarifications and Errata"

DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_ERRATA = DATA_DIR / "iron_cross_errata.json"
PRINTED_MAPSHEET = DATA_DIR / "iron_cross_mapsheet.json"
CORRECTED_MAPSHEET = DATA_DIR / "iron_cross_mapsheet_corrected.json"

BuildingState = Literal["none", "single", "multi"]

#: (printed, corrected) building transitions that :func:`apply_errata` knows how to make.
BUILDING_TRANSITIONS: frozenset[tuple[str, str]] = frozenset({
    ("single", "none"),   # "Hex 1322 is not a building hex": remove the one-hex symbol
    ("single", "multi"),  # "Hex 2513 is a multi-building hex": join with the adjacent multi-hex building
    ("none", "single"),   # "Hex 4109 has a one-hex building": add a one-hex symbol
})


#: The printed mapsheet the published errata correct: columns 10-70, rows 01-27 (rule 2.1). A hex off
#: the sheet (``9999``) is a typo, refused; a hex on the sheet but off a smaller map is skipped on apply.
SHEET_COLUMNS = (10, 70)
SHEET_ROWS = (1, 27)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Base(_Strict):
    line: str = Field(min_length=1, description="the errata line this correction comes from, quoted verbatim")
    note: str | None = None


class HexCorrection(_Base):
    """A per-hex number: ``trees`` (tree symbols) or ``level`` (hill level that counts, 10.34)."""

    hex: str
    attribute: Literal["trees", "level"]
    printed: int = Field(ge=0, le=9)
    corrected: int = Field(ge=0, le=9)

    @property
    def target(self) -> str:
        return self.hex


class BuildingCorrection(_Base):
    """What building symbol occupies a hex: ``none``, a one-hex ``single``, or part of a ``multi``-hex one."""

    hex: str
    attribute: Literal["building"]
    printed: BuildingState
    corrected: BuildingState

    @property
    def target(self) -> str:
        return self.hex


class LabelCorrection(_Base):
    """A printed map label (a :class:`maps.model.NamedFeature` by name): ``present`` or ``absent``."""

    feature: str = Field(min_length=1)
    attribute: Literal["label"]
    printed: Literal["present", "absent"]
    corrected: Literal["present", "absent"]

    @property
    def target(self) -> str:
        return self.feature


class ScenarioCorrection(_Base):
    """A text reference in a scenario: in ``field`` point ``point`` (1-based, as printed), the text
    ``printed`` reads ``corrected``. ``field`` is ``<side>.notes`` (``russian`` or ``german``).
    Applied by the scenario side; :func:`apply_errata` skips it on maps."""

    scenario: int = Field(ge=1, le=99)
    field: Literal["russian.notes", "german.notes"]
    point: int = Field(ge=1, le=99)
    printed: str = Field(min_length=1)
    corrected: str = Field(min_length=1)

    @property
    def target(self) -> str:
        return f"scenario {self.scenario}"

    @property
    def attribute(self) -> str:
        return f"{self.field} point {self.point}"


def _correction_kind(v: Any) -> str | None:
    if isinstance(v, dict):
        if "scenario" in v:
            return "scenario"
        if "feature" in v:
            return "label"
        if "hex" in v:
            return "building" if v.get("attribute") == "building" else "hex"
        return None
    return {HexCorrection: "hex", BuildingCorrection: "building", LabelCorrection: "label",
            ScenarioCorrection: "scenario"}.get(type(v))


Correction = Annotated[
    Union[
        Annotated[HexCorrection, Tag("hex")],
        Annotated[BuildingCorrection, Tag("building")],
        Annotated[LabelCorrection, Tag("label")],
        Annotated[ScenarioCorrection, Tag("scenario")],
    ],
    Discriminator(
        _correction_kind,
        custom_error_type="correction_kind",
        custom_error_message="a correction needs 'hex', 'feature' or 'scenario' to name its target",
    ),
]


class Errata(_Strict):
    """A whole errata file (format ``ironcross-errata``)."""

    format: Literal["ironcross-errata"] = ERRATA_FORMAT
    version: int = ERRATA_VERSION
    title: str = Field(min_length=1)
    source: str = Field(min_length=1, description="where the errata were published")
    notes: list[str] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)


def check_errata(errata: Errata) -> list[Problem]:
    """Whole-file checks of parsed errata; returns the problems (empty when valid).

    Checks: hex ids are four digits and on the mapsheet (:data:`SHEET_COLUMNS`, :data:`SHEET_ROWS`); printed differs from corrected; building transitions are
    ones :func:`apply_errata` can make (:data:`BUILDING_TRANSITIONS`); only the removal of a label
    (``present`` -> ``absent``); no target corrected twice.
    """
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    for i, c in enumerate(errata.corrections):
        where = f"$.corrections[{i}]"
        if isinstance(c, (HexCorrection, BuildingCorrection)):
            try:
                h = hexgrid.parse_hex_id(c.hex)
            except hexgrid.HexIdError as e:
                problems.append(Problem(where + ".hex", str(e)))
            else:
                (c0, c1), (r0, r1) = SHEET_COLUMNS, SHEET_ROWS
                if not (c0 <= h.col <= c1 and r0 <= h.row <= r1):
                    problems.append(Problem(where + ".hex", (
                        f"hex {c.hex} is not on the Iron Cross mapsheet (columns {c0}-{c1}, rows {r0:02d}-{r1:02d}, "
                        "rule 2.1)")))
        if c.printed == c.corrected:
            problems.append(Problem(where + ".corrected", f"corrected value {c.corrected!r} equals the printed value"))
        if isinstance(c, BuildingCorrection) and (c.printed, c.corrected) not in BUILDING_TRANSITIONS and c.printed != c.corrected:
            known = ", ".join(f"{a} -> {b}" for a, b in sorted(BUILDING_TRANSITIONS))
            problems.append(Problem(where, f"building correction {c.printed} -> {c.corrected} is not supported (supported: {known})"))
        if isinstance(c, LabelCorrection) and (c.printed, c.corrected) == ("absent", "present"):
            problems.append(Problem(where, "adding a label is not supported (a label needs hexes); add the feature in the map"))
        if isinstance(c, ScenarioCorrection):
            key: tuple = ("scenario", c.scenario, c.field, c.point, c.printed)
        else:
            key = (type(c).__name__, c.target.casefold(), c.attribute)
        if key in seen:
            problems.append(Problem(where, f"{c.target} {c.attribute} is already corrected at $.corrections[{seen[key]}]"))
        else:
            seen[key] = i
    return problems


def load_errata(path: str | os.PathLike[str], data: Any = None) -> Errata:
    """Load and check an errata file (``data``: already-parsed JSON, optional).

    Returns :class:`Errata`; raises :class:`maps.document_file.DocumentError` naming the file, the
    JSON path and the problem.
    """
    try:
        errata = load_document(path, Errata, format_name=ERRATA_FORMAT, version=ERRATA_VERSION, data=data)
    except DocumentError as e:
        # pydantic puts the union tag into the location ($.corrections[3].hex.printed); drop it
        raise DocumentError(e.file, [Problem(_TAG_IN_PATH.sub(r"\1", p.path), p.message) for p in e.problems]) from None
    problems = check_errata(errata)
    if problems:
        raise DocumentError(path, problems)
    return errata


_TAG_IN_PATH = re.compile(r"^(\$\.corrections\[\d+\])\.(?:hex|building|label|scenario)(?=[.\[]|$)")


# --------------------------------------------------------------------------------------------
# Applying
# --------------------------------------------------------------------------------------------

Status = Literal["applied", "already applied", "mismatch", "forced", "skipped"]


@dataclass(frozen=True)
class Change:
    """What one correction did (or would do) to a map.

    ``hex`` or ``feature`` (or ``scenario``) names the target; ``before`` is the map's value before,
    ``after`` its value after (for a refused mismatch: the corrected value it would get); ``status``
    is ``applied``, ``already applied`` (the map already shows the corrected value; nothing changed),
    ``mismatch`` (the map shows neither the printed nor the corrected value), ``forced`` (a mismatch
    overwritten with ``force=True``) or ``skipped`` (a scenario correction, or a hex off this map).
    ``printed`` is the errata's printed value, ``detail`` an explanation, ``line`` the errata line.
    """

    attribute: str
    before: Any
    after: Any
    status: Status
    line: str
    printed: Any = None
    hex: str | None = None
    feature: str | None = None
    scenario: int | None = None
    detail: str = ""

    @property
    def target(self) -> str:
        """``"1307"``, ``"crest"`` or ``"scenario 4"``."""
        if self.hex is not None:
            return self.hex
        if self.feature is not None:
            return self.feature
        return f"scenario {self.scenario}"

    def __str__(self) -> str:
        status = self.status
        if self.status == "mismatch":
            status = f"mismatch: printed {self.printed}"
        if self.detail:
            status += f"; {self.detail}" if self.status == "mismatch" else f": {self.detail}"
        return f"{self.target} {self.attribute}: {self.before} -> {self.after} ({status})"


class ErrataMismatchError(ValueError):
    """Some corrections' preconditions fail (the map shows neither the printed nor the corrected
    value), and ``force`` was not given or cannot fix them. ``changes`` lists every correction's
    outcome; ``mismatches`` those that failed."""

    def __init__(self, changes: list[Change], forced: bool = False):
        self.changes = list(changes)
        self.mismatches = [c for c in self.changes if c.status == "mismatch"]
        head = (f"{len(self.mismatches)} correction(s) cannot be forced" if forced else
                f"{len(self.mismatches)} correction(s) do not match the map (use --force to overwrite)")
        super().__init__("\n".join([head + ":"] + [f"  {c}" for c in self.mismatches]))


def _coords(poly: Polygon) -> list[tuple[float, float]]:
    """Exterior ring as rounded points (:func:`maps.building_shapes.polygon_coords`) without
    consecutive duplicates (rounding can make two neighbouring vertices equal)."""
    out: list[tuple[float, float]] = []
    for x, y in building_shapes.polygon_coords(poly):
        if not out or out[-1] != (x, y):
            out.append((x, y))
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def _errata_provenance() -> Provenance:
    return Provenance(source="rulebook", ref=ERRATA_REF)


def building_state(doc: MapFile, hex_text: str) -> tuple[str, list[str]]:
    """The building state of a hex: ``("none" | "single" | "multi" | "several", building ids)``.

    ``single``: exactly one building symbol occupies the hex and no other hex; ``multi``: exactly
    one occupies it and it spans several hexes; ``several``: more than one symbol occupies it.
    """
    from maps.hexmap import HexMap

    hm = HexMap(doc)
    h = hexgrid.parse_hex_id(hex_text)
    ids = hm.buildings_at(h)
    if not ids:
        return "none", []
    if len(ids) > 1:
        return "several", ids
    return ("multi" if hm.is_multi_hex_building(ids[0]) else "single"), ids


class _Applier:
    def __init__(self, doc: MapFile, errata: Errata, force: bool):
        self.doc = doc.model_copy(deep=True)
        self.errata = errata
        self.force = force
        self.changes: list[Change] = []

    # -- helpers
    def on_map(self, hex_text: str) -> bool:
        h = hexgrid.parse_hex_id(hex_text)
        ex = self.doc.extent
        return ex.first_column <= h.col <= ex.last_column and ex.first_row <= h.row <= ex.last_row

    def record(self, hex_text: str) -> HexRecord:
        for rec in self.doc.hexes:
            if rec.id == hex_text:
                return rec
        rec = HexRecord(id=hex_text)
        self.doc.hexes.append(rec)
        return rec

    def current(self, hex_text: str) -> HexRecord:
        for rec in self.doc.hexes:
            if rec.id == hex_text:
                return rec
        return HexRecord(id=hex_text)

    def mark(self, rec: HexRecord, what: str) -> None:
        """Give a corrected hex record the errata provenance and note what changed (and where its
        other values came from before)."""
        old = rec.provenance
        parts = [rec.note] if rec.note else []
        if old is not None and old != _errata_provenance():
            parts.append(f"other values: {old.short()}")
        parts.append(f"{ERRATA_REF}: {what}")
        rec.provenance = _errata_provenance()
        rec.note = "; ".join(parts)

    def outcome(self, before, printed, corrected) -> Status:
        if before == corrected:
            return "already applied"
        if before == printed:
            return "applied"
        return "forced" if self.force else "mismatch"

    # -- kinds
    def hex_attr(self, c: HexCorrection) -> Change:
        base = dict(hex=c.hex, attribute=c.attribute, line=c.line, printed=c.printed)
        if not self.on_map(c.hex):
            return Change(before=None, after=None, status="skipped", detail="hex not on this map", **base)
        rec = self.current(c.hex)
        before = getattr(rec, c.attribute)
        status = self.outcome(before, c.printed, c.corrected)
        detail = ""
        if status in ("applied", "forced"):
            rec = self.record(c.hex)
            setattr(rec, c.attribute, c.corrected)
            what = f"{c.attribute} {before} -> {c.corrected}"
            if c.attribute == "level" and rec.upper_level is not None and rec.upper_level <= c.corrected:
                # 10.34 overrides: the hex counts at the lower elevation, which is now the corrected
                # level; an upper elevation that is not above it no longer exists, so drop it.
                detail = f"upper_level {rec.upper_level} dropped, the hex is now wholly level {c.corrected} (10.34)"
                what += f", {detail}"
                rec.upper_level = None
            elif c.attribute == "level" and rec.upper_level is not None:
                detail = f"upper_level {rec.upper_level} kept; the hex counts at level {c.corrected} (10.34)"
            self.mark(rec, what)
        return Change(before=before, after=c.corrected, status=status, detail=detail, **base)

    def building(self, c: BuildingCorrection) -> Change:
        base = dict(hex=c.hex, attribute="building", line=c.line, printed=c.printed)
        if not self.on_map(c.hex):
            return Change(before=None, after=None, status="skipped", detail="hex not on this map", **base)
        before, ids = building_state(self.doc, c.hex)
        if before == c.corrected:
            return Change(before=before, after=c.corrected, status="already applied", **base)
        if before != c.printed:
            # Forcing a building state is only possible for none -> multi (add, then join).
            if not (self.force and before == "none" and c.corrected == "multi"):
                why = "" if not self.force else "cannot be forced; edit the buildings by hand"
                return Change(before=before, after=c.corrected, status="mismatch", detail=why, **base)
            status: Status = "forced"
        else:
            status = "applied"
        detail = ""
        if c.corrected == "none":  # single -> none
            removed = self._building(ids[0])
            self.doc.buildings = [b for b in self.doc.buildings if b.id != removed.id]
            detail = f"removed building {removed.id}"
        elif c.corrected == "single":  # none -> single
            bid = self._new_id(c.hex)
            self.doc.buildings.append(Building(
                id=bid, polygon=_coords(building_shapes.footprint([c.hex])),
                provenance=_errata_provenance(),
                note=f"{ERRATA_REF}: one-hex building added in {c.hex} (symbol shape reconstructed)"))
            detail = f"added building {bid}"
        else:  # -> multi: join the one-hex building with the one adjacent multi-hex building
            if before == "none":
                bid = self._new_id(c.hex)
                single = Building(id=bid, polygon=_coords(
                    building_shapes.footprint([c.hex])))
                self.doc.buildings.append(single)
            else:
                single = self._building(ids[0])
            partners = self._adjacent_multi(c.hex, exclude=single.id)
            if len(partners) != 1:
                why = ("no multi-hex building is adjacent" if not partners else
                       f"{len(partners)} multi-hex buildings are adjacent ({', '.join(b.id for b in partners)})")
                if before == "none":
                    self.doc.buildings.remove(single)
                return Change(before=before, after=c.corrected, status="mismatch", detail=why, **base)
            multi = partners[0]
            joined = building_shapes.join(Polygon(single.polygon), Polygon(multi.polygon))
            idx = self.doc.buildings.index(multi)
            note = f"{ERRATA_REF}: joined with the one-hex building in {c.hex} ({single.id})"
            if multi.provenance is not None:
                note += f"; before: {multi.provenance.short()}"
            if multi.note:
                note = f"{multi.note}; {note}"
            self.doc.buildings[idx] = multi.model_copy(update={
                "polygon": _coords(joined),
                "provenance": _errata_provenance(), "note": note})
            self.doc.buildings = [b for b in self.doc.buildings if b.id != single.id]
            detail = f"building {single.id} joined into {multi.id} ({multi.display_name()})"
        after, _ = building_state(self.doc, c.hex)
        if after != c.corrected:  # pragma: no cover - guards the geometry helpers
            raise RuntimeError(f"building correction in {c.hex} left the hex {after}, expected {c.corrected}")
        return Change(before=before, after=c.corrected, status=status, detail=detail, **base)

    def _building(self, bid: str) -> Building:
        return next(b for b in self.doc.buildings if b.id == bid)

    def _new_id(self, hex_text: str) -> str:
        """``M<n>-<hex>`` when a section "Map <n>" holds the hex (the shipped mapsheet's convention
        for unnumbered buildings), else ``B<hex>``; suffixed ``-2``, ``-3`` ... if taken."""
        col = hexgrid.parse_hex_id(hex_text).col
        prefix = "B"
        for s in self.doc.sections:
            m = re.fullmatch(r"Map (\d+)", s.name)
            if m and s.first_column <= col <= s.last_column:
                prefix = f"M{m.group(1)}-"
                break
        taken = {b.id for b in self.doc.buildings}
        bid, n = f"{prefix}{hex_text}", 1
        while bid in taken:
            n += 1
            bid = f"{prefix}{hex_text}-{n}"
        return bid

    def _adjacent_multi(self, hex_text: str, exclude: str) -> list[Building]:
        from maps.hexmap import HexMap

        hm = HexMap(self.doc)
        h = hexgrid.parse_hex_id(hex_text)
        out = []
        for b in self.doc.buildings:
            if b.id == exclude or not hm.is_multi_hex_building(b.id):
                continue
            hexes = hm.building_hexes[b.id]
            if h not in hexes and any(hexgrid.distance(h, x) == 1 for x in hexes):
                out.append(b)
        return out

    def label(self, c: LabelCorrection) -> Change:
        base = dict(feature=c.feature, attribute="label", line=c.line, printed=c.printed)
        matches = [f for f in self.doc.features if f.name.casefold() == c.feature.casefold()]
        before = "present" if matches else "absent"
        if before == c.corrected:
            return Change(before=before, after=c.corrected, status="already applied", **base)
        # present -> absent (check_errata refuses the other way)
        self.doc.features = [f for f in self.doc.features if f not in matches]
        return Change(before=before, after=c.corrected, status="applied",
                      detail=f"removed feature {', '.join(repr(f.name) for f in matches)}", **base)

    def run(self) -> tuple[MapFile, list[Change]]:
        for c in self.errata.corrections:
            if isinstance(c, ScenarioCorrection):
                ch = Change(scenario=c.scenario, attribute=c.attribute, before=c.printed, after=c.corrected,
                            printed=c.printed, status="skipped", line=c.line,
                            detail="scenario correction, not applied to a map")
            elif isinstance(c, HexCorrection):
                ch = self.hex_attr(c)
            elif isinstance(c, BuildingCorrection):
                ch = self.building(c)
            else:
                ch = self.label(c)
            self.changes.append(ch)
        if any(ch.status == "mismatch" for ch in self.changes):
            raise ErrataMismatchError(self.changes, forced=self.force)
        if any(ch.status in ("applied", "forced") for ch in self.changes):
            note = f"Errata applied: {self.errata.title} ({self.errata.source})."
            if note not in self.doc.notes:
                self.doc.notes.append(note)
        from maps.mapfile import check_map

        problems = check_map(self.doc)
        if problems:  # pragma: no cover - every step keeps the map valid
            raise DocumentError("<errata result>", problems)
        return self.doc, self.changes


def apply_errata(doc: MapFile, errata: Errata, force: bool = False) -> tuple[MapFile, list[Change]]:
    """Apply the map corrections of ``errata`` to ``doc``; pure (``doc`` is not changed).

    Returns ``(new_map, changes)``: a new :class:`MapFile` that passes
    :func:`maps.mapfile.check_map`, and one :class:`Change` per correction in file order.
    Corrections are applied in order, each against the map as the earlier ones left it.

    * trees / level: set the hex's value; a level that reaches the hex's ``upper_level`` drops
      ``upper_level`` (10.34: the hex is then wholly at the corrected level).
    * building ``single -> none`` removes the one-hex symbol; ``none -> single`` adds one
      (:func:`maps.building_shapes.footprint`; id ``M<n>-<hex>`` in section "Map <n>", else
      ``B<hex>``); ``single -> multi`` joins the one-hex symbol with the one adjacent multi-hex building (:func:`maps.building_shapes.join`),
      keeping that building's id, number and name.
    * label ``present -> absent`` removes the named feature (name compared case-insensitively).
    * scenario corrections: ``skipped`` ("scenario correction, not applied to a map").
    * hexes outside the map's extent: ``skipped`` ("hex not on this map").

    Corrected hex records and buildings get provenance ``rulebook`` /
    ``"Terrain Clarifications and Errata"`` and a note of what changed. When something changed, a
    line naming the errata is added to the map's ``notes`` (once).

    Raises :class:`ErrataMismatchError` when a precondition fails (the map shows neither the
    printed nor the corrected value) and ``force`` is False; with ``force`` such values are
    overwritten (status ``forced``), except building mismatches that cannot be resolved (e.g. no
    single adjacent multi-hex building to join), which still raise.
    """
    return _Applier(doc, errata, force).run()


# --------------------------------------------------------------------------------------------
# The shipped corrected mapsheet
# --------------------------------------------------------------------------------------------

def build_corrected_mapsheet(printed: str | os.PathLike[str] = PRINTED_MAPSHEET,
                             errata: str | os.PathLike[str] = SHIPPED_ERRATA) -> tuple[MapFile, list[Change]]:
    """The printed mapsheet with the shipped errata applied, as shipped in
    ``maps/data/iron_cross_mapsheet_corrected.json``.

    Reads ``printed`` (default ``maps/data/iron_cross_mapsheet.json``) and ``errata`` (default
    ``maps/data/iron_cross_errata.json``) and returns ``(map, changes)`` from :func:`apply_errata`.
    The name loses "(as printed)" and gains "(errata applied)"; the description and map provenance
    say the file is generated; notes starting "As printed" are dropped. Raises
    :class:`DocumentError` for invalid files and :class:`ErrataMismatchError` when the printed map
    does not show the printed values.
    """
    from maps.mapfile import load_map_file

    doc = load_map_file(printed)
    err = load_errata(errata)
    out, changes = apply_errata(doc, err)
    out = label_corrected(doc, out, Path(printed).name, ERRATA_REF, generated=True)
    return out, changes


def label_corrected(before: MapFile, after: MapFile, source: str, errata_name: str, *,
                    generated: bool = False) -> MapFile:
    """Name and describe a map the errata were applied to: "(as printed)" becomes "(errata
    applied)", the description and the map provenance say what was applied to what, and notes that
    start "As printed" are dropped (they describe the uncorrected map)."""
    suffix = " (errata applied)"
    name = after.name.replace(" (as printed)", "")
    name = name if name.endswith(suffix) else name + suffix
    desc = f"{name}: the map {source} ({before.name!r}) with the {errata_name} applied."
    if generated:
        desc += (" Generated by `python -m maps.errata build-corrected`; edit the printed map or the errata, "
                 "not this file.")
    prov = after.provenance
    if prov is not None and prov.source == "reconstructed" and not prov.rationale.startswith("the printed mapsheet"):
        prov = Provenance(source="reconstructed", rationale=(
            f"the printed mapsheet {source} with the {errata_name} applied (corrected hexes and buildings carry "
            f"rulebook provenance); the printed map's rationale: {prov.rationale}"))
    notes = [n for n in after.notes if not n.startswith("As printed")]
    return after.model_copy(update={"name": name, "description": desc, "provenance": prov, "notes": notes})


def _main(argv: list[str]) -> int:
    """``python -m maps.errata build-corrected [--check]``: write (or check) the corrected mapsheet."""
    import argparse

    from maps.mapfile import load_map_file, save_map

    ap = argparse.ArgumentParser(prog="python -m maps.errata")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build-corrected", help="write maps/data/iron_cross_mapsheet_corrected.json")
    b.add_argument("--check", action="store_true", help="only check the shipped file is up to date")
    b.add_argument("-o", "--output", default=str(CORRECTED_MAPSHEET))
    args = ap.parse_args(argv)
    try:
        out, changes = build_corrected_mapsheet()
        if args.check:
            shipped = load_map_file(args.output)
            if shipped != out:
                print(f"{args.output} is out of date; run python -m maps.errata build-corrected", file=sys.stderr)
                return 1
            print(f"{args.output} is up to date")
            return 0
        save_map(args.output, out)
    except (DocumentError, ErrataMismatchError) as e:
        print(str(e), file=sys.stderr)
        return 1
    for ch in changes:
        print(ch)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main(sys.argv[1:]))
