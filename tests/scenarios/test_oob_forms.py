"""Every OOB form a designer writes (24.1): the six scenarios' printed set-up lines
(24.4-24.9), the roster's spellings ("Mor #1") and the obvious variants (case, "x2", "#1 and #2",
"#1-#3", "N grenades"); refusals name the text, what was not understood and the accepted forms."""

from __future__ import annotations

import pytest

from scenarios.counters import load_counters
from scenarios.model import (
    OOB_FORMS,
    AFVEntry,
    CommanderEntry,
    CrewWeaponEntry,
    GrenadesEntry,
    IPEntry,
    MinesEntry,
    OOBParseError,
    SquadEntry,
    UnitSpec,
    parse_oob_entry,
    parse_oob_line,
)


def same(text, expected):
    got = parse_oob_entry(text)
    assert got.model_copy(update={"text": ""}) == expected, text
    assert got.text == text.strip()


# ------------------------------------------------------------------ the printed set-up lines, 24.4-24.9

PRINTED = {
    "24.4 Scenario 1": [
        "Squad C (10); MMG #1 (12); PL; IP1 x 2; Grenades (6).",
        "Squad A (8) less LMG PR8; Squad B (8) less LMG PR8; Squad C (8) less R PR9; MMG #'s 1 & 2 (14 each); "
        "PL PR10; APL PR9; Grenades (10).",
    ],
    "24.5 Scenario 2": [
        "Squad C (12); Squad E (12) less LMG PR10 and 2 FT's; MMG #'s 1 & 2 (14 each) with Squad C; PL with Squad E; "
        "PS with Squad C; IP3 x 1 on any building hex; IP2 x 2 on any building hex; IP1 x 3 on any building hex; "
        "Grenades (15).",
        "Squad A (10) less LMG PR8; Squad G; PL 11; APL 9; Grenades (10).",
    ],
    "24.6 Scenario 3": [
        "Squad C less LMG PR8; Squad D (10) less R PR8; MMG #2 (12); ATR #2 (6); 45AT #'s 1 & 2; MOR #1 (21); "
        "IP2 x 1; IP1 x 2; Grenades (6).",
        "Squad B (10); Squad C (10); Squad D; MMG #2 (14); PL; PS; IIIe #'s 1 & 2; Grenades (12).",
    ],
    "24.7 Scenario 4": [
        "Squad A (7) less LMG PR8; Squad D (7) less R PR8; Squad F (3 units, MP PR9, PR8, PR6 only); APL PR9; "
        "MMG #2 (10); 45AT #'s 1 & 2; IP1 x 3; IP2 x 1; 10 AT Mine Factors; Grenades (10).",
        "Squad B (6); Squad C (6); Squad D; Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only); PL; "
        "MMG #1 (11); IVe #1; IP2 x 1; Grenades (24).",
    ],
    "24.8 Scenario 5": [
        "Squad A (9) less LMG PR9, R PR8, PR7, PR6; Squad C (9) less R PR9, PR8, PR7, PR6; Squad D (9) less R PR9, "
        "PR9, PR6, PR5; MMG #'s 1 & 2 (12 each); MOR #1 (24); ATR #'s 1 & 2 (10 each); 45AT #2; BT7m #'s 1 & 2; "
        "T34a #1; IP1 x 3; 12 AT Mine Factors; Grenades (12).",
        "Squad A (10); Squad B (10); Squad C (10); PL; PS; MMG #1 (15); MOR #1 (30); ATR #'s 1 & 2 (10 each); IId #1; "
        "IIIe #'s 1 & 2; Grenades (15).",
    ],
    "24.9 Scenario 6": [
        "GROUP 1: Squad A (18) less R PR9, PR7, PR6, PR5; PL PR10; IP2 x 1.",
        "GROUP 2: Squad B (20) less R PR9, PR8, PR6, PR5; Squad C (20) less R PR8, PR7, PR6, PR5; APL PR9; "
        "MMG #'s 1 & 2 (22 each); 45AT #'s 1 & 2; 76AT #1; IP3 x 1; IP2 x 1; IP1 x 1; 38 AT Mine Factors; "
        "38 AP Mine Factors.",
        "GROUP 3: Squad D (22) less R PR9, IP1 x 2; 12 AT Mine Factors; 12 AP Mine Factors.",
        "GROUP 4: Squad F; Squad G; PL PR11; APL PR10; T34b #'s 1 & 2; Grenades (32).",
        "GROUP 1: Squad A (24); Squad B (24); Squad C (24); PL; PS; MMG #'s 1 & 2 (28 each); 50AT #1; IId #1; "
        "IIIe #'s 1 & 2; IVe #1; IVf2 #1.",
        "GROUP 2: Squad E (20 each); Stug III 6's 1 & 2.",
        "GROUP 3: IIIj #1.",
        "Grenades (32).",
    ],
}


@pytest.mark.parametrize("where", sorted(PRINTED))
def test_24_every_printed_set_up_line_of_the_six_scenarios_is_read(where):
    for line in PRINTED[where]:
        entries = parse_oob_line(line)
        assert len(entries) == line.count(";") + 1 + line.count(", IP"), line


# ------------------------------------------------------------------ 15.9 grenades

@pytest.mark.parametrize("text, n", [("Grenades (6)", 6), ("6 grenades", 6), ("8 Grenades", 8), ("grenades (10)", 10),
                                     ("GRENADES 12", 12), ("Grenades: 15", 15), ("Grenades x 24", 24),
                                     ("1 grenade", 1), ("32 x grenades", 32)])
def test_15_9_grenades_in_every_form(text, n):
    same(text, GrenadesEntry(count=n))


# ------------------------------------------------------------------ 18.1 improved positions

@pytest.mark.parametrize("text, points, count", [
    ("IP1 x 2", 1, 2), ("IP1 x2", 1, 2), ("IP1 ×2", 1, 2), ("IP1x2", 1, 2), ("IP1 X 2", 1, 2), ("ip2 x 1", 2, 1),
    ("2 x IP1", 1, 2), ("2x IP1", 1, 2), ("2 IP1", 1, 2), ("2 IP1's", 1, 2), ("IP3", 3, 1)])
def test_18_1_ips_in_every_form(text, points, count):
    same(text, IPEntry(points=points, count=count))


def test_18_1_ip_building_restriction_in_any_case():
    e = parse_oob_entry("IP1 x2 ON ANY BUILDING HEX")
    assert (e.points, e.count, e.where.describe()) == (1, 2, "building hexes")


# ------------------------------------------------------------------ 19.1 mines

@pytest.mark.parametrize("text, kind, n", [("10 AT Mine Factors", "AT", 10), ("38 ap mine factors", "AP", 38),
                                           ("12 AT mines", "AT", 12), ("1 AP Mine Factor", "AP", 1),
                                           ("10 AT", "AT", 10), ("AT Mine Factors (12)", "AT", 12),
                                           ("AP mines: 6", "AP", 6), ("AT mines x 10", "AT", 10)])
def test_19_1_mine_factors_in_every_form(text, kind, n):
    same(text, MinesEntry(mine_type=kind, factors=n))


# ------------------------------------------------------------------ 24.1 squads, commanders; 14/22 ammo

@pytest.mark.parametrize("text, expected", [
    ("squad d (10) less r pr9", SquadEntry(letter="D", ammo=10, less=[UnitSpec(type="R", pr=9)])),
    ("SQUAD E (12) LESS LMG PR10 AND 2 FT's", SquadEntry(letter="E", ammo=12, less=[
        UnitSpec(type="LMG", pr=10), UnitSpec(type="FT", count=2)])),
    ("Squad F (MP PR9, PR8, PR6 only)", SquadEntry(letter="F", only=[
        UnitSpec(type="MP", pr=9), UnitSpec(type="MP", pr=8), UnitSpec(type="MP", pr=6)])),
    ("Squad F MP PR9, PR8, PR6 ONLY", SquadEntry(letter="F", only=[
        UnitSpec(type="MP", pr=9), UnitSpec(type="MP", pr=8), UnitSpec(type="MP", pr=6)])),
    ("Squad E (20 EACH)", SquadEntry(letter="E", ammo=20)),
])
def test_24_1_squads_in_any_case_and_only_without_the_count(text, expected):
    same(text, expected)


@pytest.mark.parametrize("text, expected", [
    ("pl", CommanderEntry(type="PL")), ("Apl pr9", CommanderEntry(type="APL", pr=9)),
    ("PL PR 10", CommanderEntry(type="PL", pr=10)), ("ps with squad c", CommanderEntry(type="PS", with_unit="Squad C"))])
def test_24_1_commanders_in_any_case(text, expected):
    same(text, expected)


@pytest.mark.parametrize("text, numbers, ammo", [
    ("Mor #1 (12)", [1], 12),   # the roster's own spelling
    ("MOR (12)", [1], 12),      # a type without ID number is counter #1
    ("mor #1 (21)", [1], 21),
    ("MOR", [1], None),
])
def test_14_mortar_ammo_in_the_rulebooks_and_the_rosters_spelling(text, numbers, ammo):
    same(text, CrewWeaponEntry(weapon="MOR", numbers=numbers, ammo=ammo))


@pytest.mark.parametrize("text, weapon, numbers, ammo", [
    ("MMG #1 and #2 (14 each)", "MMG", [1, 2], 14), ("mmg #'s 1 & 2", "MMG", [1, 2], None),
    ("ATR #1, #2 (10 each)", "ATR", [1, 2], 10), ("MMG #1-#3", "MMG", [1, 2, 3], None),
    ("MMG #'s 1-3 (9 each)", "MMG", [1, 2, 3], 9), ("MMG #1 to #2", "MMG", [1, 2], None),
    ("MMG x2 (14 each)", "MMG", [1, 2], 14), ("MMG ×2", "MMG", [1, 2], None), ("2 x MMG", "MMG", [1, 2], None),
    ("2x MMG (12 each)", "MMG", [1, 2], 12), ("2 MMGs (14 each)", "MMG", [1, 2], 14), ("2 MMG's", "MMG", [1, 2], None),
    ("45at #2", "45AT", [2], None), ("76AT", "76AT", [1], None), ("MMG #1 (12 ammo)", "MMG", [1], 12),
])
def test_22_crew_weapons_ids_and_ammo_in_every_form(text, weapon, numbers, ammo):
    same(text, CrewWeaponEntry(weapon=weapon, numbers=numbers, ammo=ammo))


@pytest.mark.parametrize("text, typ, numbers", [
    ("BT7m #1 and #2", "BT7m", [1, 2]), ("BT7m #'s 1 & 2", "BT7m", [1, 2]), ("T34b #1-#2", "T34b", [1, 2]),
    ("IIIe x2", "IIIe", [1, 2]), ("2 x IIIe", "IIIe", [1, 2]), ("Stug III x 2", "Stug III", [1, 2]),
    ("Stug III #1 & #2", "Stug III", [1, 2]), ("Stug III 6's 1 & 2", "Stug III", [1, 2]), ("T26S #1", "T26S", [1]),
])
def test_24_8_afvs_with_and_and_ranges(text, typ, numbers):
    same(text, AFVEntry(type=typ, numbers=numbers))


def test_24_8_the_parsed_afvs_and_mortars_are_roster_counters():
    roster = load_counters()
    assert [roster.afv("russian", e.type, n).id for e in [parse_oob_entry("BT7m #1 and #2")] for n in e.numbers] == \
        ["R-BT7M-1", "R-BT7M-2"]
    e = parse_oob_entry("Mor #1 (12)")
    assert roster.crew_weapon("russian", e.weapon, e.numbers[0]).id == "R-Mor-1"


def test_24_1_roster_types_extend_the_parser():
    """A designer's roster adds crew weapon types ("81Mor") and lets its AFV types go without an ID
    number ("T34a" = "T34a #1")."""
    assert parse_oob_entry("81Mor #1 (5)", crew_weapon_types=["81Mor"]) == CrewWeaponEntry(
        text="81Mor #1 (5)", weapon="81Mor", numbers=[1], ammo=5)
    assert parse_oob_entry("T34a", afv_types=["T34a"]).numbers == [1]
    with pytest.raises(OOBParseError):
        parse_oob_entry("T34a")


def test_24_9_a_line_split_on_the_printed_comma_and_new_forms():
    es = parse_oob_line("Squad D (22) less R PR9, IP1 x2, 6 grenades; 12 AT mines")
    assert [type(e).__name__ for e in es] == ["SquadEntry", "IPEntry", "GrenadesEntry", "MinesEntry"]
    assert es[0].less == [UnitSpec(type="R", pr=9)]


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("text, says", [
    ("T34a #1 (10)", "24.1 gives ammo points only to a squad's LMG and to crew weapons"),
    ("T34a (10)", "an AFV needs its ID number ('T34a #1')"),
    ("MMG #x", "cannot read the ID numbers after '#'"),
    ("MMG #2-#1", "runs backwards"),
    ("MMG #1 & 1", "listed twice"),
    ("Squad", "a squad needs its letter"),
    ("Squad D (ten)", "cannot read '(ten)' after Squad D"),
    ("Squad F (2 units, MP PR9, PR8, PR6 only)", "it says 2 units but lists 3"),
    ("Squad D less PR9", "'PR9' has no unit type before it"),
    ("PX PR9", "'PX' is not a commander type"),
    ("2 FT's", "FT is a squad member"),
    ("2 T34a", "a count before 'T34a' needs an 'x'"),
    ("IP2 x 1 on a hill", "unknown IP placement 'on a hill'"),
    ("less R PR9", "a 'less' or 'only' list follows its squad"),
    ("Hill K", "it matches none of the forms"),
    ("", "the entry is empty"),
])
def test_24_1_refusals_name_the_text_the_problem_and_the_accepted_forms(text, says):
    with pytest.raises(OOBParseError) as info:
        parse_oob_entry(text)
    msg = str(info.value)
    assert says in info.value.problem and says in msg
    assert msg.startswith(f"cannot read OOB entry {text!r}")
    assert "Accepted forms:" in msg
    for _what, form, example in OOB_FORMS:   # every form with its example
        assert form in msg and example in msg


def test_24_1_every_example_of_the_accepted_forms_is_read():
    for _what, _form, example in OOB_FORMS:
        assert parse_oob_entry(example).text == example
