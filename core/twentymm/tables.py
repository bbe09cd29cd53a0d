"""The charts of the 20 mm rules (seed 003) as data and pure functions. Distances in inches.

Every function names the seed section it reads. The Vehicle and Anti-Tank Gun Reference Table is
``data/reference_table.json`` (``"provenance": "rulebook"``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "reference_table.json"

# Infantry Small Arms Weapons: (weapon, [(upto, need), ...])
SMALL_ARMS: dict[str, tuple[tuple[float, int], ...]] = {
    "smg": ((4, 3),),
    "rifle": ((4, 4), (8, 5), (12, 6)),
    "lmg": ((4, 3), (8, 4), (12, 5), (16, 6)),
    "hmg": ((4, 3), (8, 4), (12, 4), (16, 5), (20, 6)),
}
# Anti-Tank Guns: to-hit on 2D6 by band (beyond 40: reading, +1 per 10 inches up to 60)
AT_TO_HIT: tuple[tuple[float, int], ...] = ((5, 5), (10, 6), (20, 7), (30, 8), (40, 9), (50, 10), (60, 11))
# Mortars and Other Indirect Fire Weapons
MORTAR_RANGE = {"mortar_light": 24.0, "mortar_medium": 48.0, "mortar_heavy": 120.0}
MORTAR_MIN_RANGE = 6.0
TEMPLATE_DIAMETER = {"light": 2.0, "medium": 3.0, "heavy": 3.0, "artillery": 4.0}
MORTAR_CLASS = {"mortar_light": "light", "mortar_medium": "medium", "mortar_heavy": "heavy"}
# vehicle effect table: class -> (no effect up to, damaged up to); above = destroyed
VEHICLE_EFFECT = {"soft": (2, 4), "armoured": (3, 5), "tank": (4, 5)}
# Cover Saves: (cover, vs) -> need
COVER_SAVE = {("soft", "small_arms"): 5, ("hard", "small_arms"): 2, ("hard", "at_he"): 5}
SPOTTING = {"normal": 12.0, "command": 24.0, "hatches_open": 24.0, "closed_up": 0.0}
CONTACT = 1.0   # reading: "make contact" = within 1 inch
DAMAGE = {1: "stunned", 2: "immobilised", 3: "immobilised", 4: "turret_jammed", 5: "crew_hit", 6: "crew_killed"}


#: The tables of the reference file the rules read: name -> JSON type (``bands`` is a list of range bands).
REFERENCE_TABLES: dict[str, type] = {"vehicles": dict, "guns": dict, "bands": list, "movement": dict,
                                     "infantry_at": dict}


@lru_cache(maxsize=1)
def reference() -> dict:
    """The Vehicle and Anti-Tank Gun Reference Table (rulebook provenance) as a dict.

    Read through the safe reader (:func:`maps.document_file.read_json`), so a hand-edited or damaged
    copy is refused with :class:`maps.document_file.DocumentError` naming the file and the JSON path
    (bad JSON, or one of :data:`REFERENCE_TABLES` missing or of another type), never a traceback later."""
    from maps.document_file import DocumentError, Problem, read_json

    data = read_json(DATA)
    if not isinstance(data, dict):
        raise DocumentError(DATA, [Problem("$", "expected a JSON object (the reference table)")])
    problems = [Problem(f"$.{k}", "missing" if k not in data
                        else f"expected a JSON {'object' if tp is dict else 'array'}")
                for k, tp in REFERENCE_TABLES.items() if not isinstance(data.get(k), tp)]
    if problems:
        raise DocumentError(DATA, problems)
    return data


def vehicle(name: str) -> dict:
    """The reference-table row of vehicle ``name``; KeyError naming the known ones."""
    v = reference()["vehicles"].get(name)
    if v is None:
        raise KeyError(f"unknown vehicle {name!r}; known: {', '.join(sorted(reference()['vehicles']))}")
    return v


def gun(name: str) -> dict:
    """The reference-table row of anti-tank gun ``name``; KeyError naming the known ones."""
    g = reference()["guns"].get(name)
    if g is None:
        raise KeyError(f"unknown gun {name!r}; known: {', '.join(sorted(reference()['guns']))}")
    return g


def band_need(table, distance: float) -> int | None:
    """The score needed at ``distance`` from a ((upto, need), ...) table; None beyond it."""
    for upto, need in table:
        if distance <= upto + 1e-9:
            return need
    return None


def small_arms_need(weapon: str, distance: float, elite: bool = False) -> int | None:
    """Infantry Small Arms Weapons: the 1D6 score to hit with ``weapon`` (smg, rifle, lmg, hmg)
    at ``distance`` inches; None out of range. Elite Units: +1 to hit (need one less, at least 2)."""
    need = band_need(SMALL_ARMS[weapon], distance)
    if need is None:
        return None
    return max(2, need - 1) if elite else need


def small_arms_range(weapon: str) -> float:
    """The longest band of ``weapon`` in inches (SMG 4, rifle 12, LMG 16, HMG 20)."""
    return SMALL_ARMS[weapon][-1][0]


def sv_at(sv: list, distance: float, bands: list | None = None) -> int | None:
    """The Strike Value at ``distance`` from a per-band list (None = '-', out of effective range)."""
    bands = bands or reference()["bands"]
    for upto, v in zip(bands, sv):
        if distance <= upto + 1e-9:
            return v
    return None


def at_need(distance: float) -> int | None:
    """Anti-Tank Guns: the 2D6 score to hit at ``distance`` inches (5+ up to 5 ... 9+ up to 40;
    reading: 10+ up to 50 and 11+ up to 60 for the guns the table gives a Strike Value there)."""
    return band_need(AT_TO_HIT, distance)


def he_class(calibre: int) -> str:
    """Direct Fire High Explosive: a gun of 75-88 mm counts as a medium mortar, smaller as a light
    mortar, larger as artillery."""
    if calibre < 75:
        return "light"
    if calibre <= 88:
        return "medium"
    return "artillery"


def vehicle_effect(target_class: str, he: str, score: int) -> str:
    """Mortars and Other Indirect Fire Weapons, the vehicle effect table: ``target_class``
    (soft, armoured, tank), ``he`` the firer's class (light, medium, heavy, artillery), the 1D6
    ``score`` -> "none", "damaged" or "destroyed". Light mortars never affect vehicles; medium
    mortars only soft-skinned vehicles."""
    if he == "light" or (he == "medium" and target_class != "soft"):
        return "none"
    none_upto, damaged_upto = VEHICLE_EFFECT[target_class]
    if score <= none_upto:
        return "none"
    return "damaged" if score <= damaged_upto else "destroyed"


def cover_save_need(cover: str | None, vs: str) -> int | None:
    """Cover Saves: the 1D6 score to save (soft 5+ / hard 2+ against small arms; hard 5+ against
    AT or HE; soft none against AT or HE). ``vs``: "small_arms" or "at_he"."""
    if cover is None:
        return None
    return COVER_SAVE.get((cover, vs))


def assault_dice(rifles: int, smgs: int) -> int:
    """Close Assault: 1D6 per 4 rifle-armed men (rounding down) and per SMG-armed man."""
    return rifles // 4 + smgs


def assault_kills(mine: list[int], theirs: list[int]) -> tuple[int, int]:
    """Close Assault: pair the highest dice of both sides; the higher of each pair kills one enemy
    (a tie kills none: reading); unpaired dice kill on 2+. Returns (kills by mine, kills by theirs)."""
    a, b = sorted(mine, reverse=True), sorted(theirs, reverse=True)
    ka = kb = 0
    for x, y in zip(a, b):
        if x > y:
            ka += 1
        elif y > x:
            kb += 1
    ka += sum(1 for x in a[len(b):] if x >= 2)
    kb += sum(1 for y in b[len(a):] if y >= 2)
    return ka, kb
