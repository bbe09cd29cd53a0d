"""Tests of the counter roster (scenarios/counters.py, scenarios/data/iron_cross_counters.json).

The tables below are transcribed from the six scenarios (24.4-24.9): every squad with its
"less ..." removals and "... only" lists, every commander PR, every CW and AFV by the spelling
the scenario uses. Each removal must find a man with exactly that weapon and PR.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from maps.document_file import DocumentError
from maps.provenance import Provenance
from scenarios.counters import (
    AFV,
    VALUE_FIELDS,
    Commander,
    CrewWeapon,
    Infantry,
    RosterError,
    counters_json,
    load_counters,
    save_counters,
    shipped_counters_path,
    value_provenance,
)

ROSTER = load_counters()


def _raw() -> dict:
    return json.loads(shipped_counters_path().read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: dict) -> Path:
    p = tmp_path / "counters.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- scenario tables

S1, S2, S3, S4, S5, S6 = "24.4", "24.5", "24.6", "24.7", "24.8", "24.9"

#: (scenario, side, squad, LMG ammo number or None, removals [(weapon, pr or None)], only-list or None)
SQUADS = [
    (S1, "german", "C", 10, [], None),
    (S1, "russian", "A", 8, [("LMG", 8)], None),
    (S1, "russian", "B", 8, [("LMG", 8)], None),
    (S1, "russian", "C", 8, [("R", 9)], None),
    (S2, "german", "C", 12, [], None),
    (S2, "german", "E", 12, [("LMG", 10), ("FT", None), ("FT", None)], None),   # "less LMG PR10 and 2 FT's"
    (S2, "russian", "A", 10, [("LMG", 8)], None),
    (S2, "russian", "G", None, [], None),
    (S3, "russian", "C", None, [("LMG", 8)], None),
    (S3, "russian", "D", 10, [("R", 8)], None),
    (S3, "german", "B", 10, [], None),
    (S3, "german", "C", 10, [], None),
    (S3, "german", "D", None, [], None),
    (S4, "russian", "A", 7, [("LMG", 8)], None),
    (S4, "russian", "D", 7, [("R", 8)], None),
    (S4, "russian", "F", None, [], [("MP", 9), ("MP", 8), ("MP", 6)]),         # "(3 units, MP PR9, PR8, PR6 only)"
    (S4, "german", "B", 6, [], None),
    (S4, "german", "C", 6, [], None),
    (S4, "german", "D", None, [], None),
    (S4, "german", "E", 10, [], [("MP", 10), ("LMG", 9), ("R", 8), ("FT", 9)]),  # LMG PR9 (10)
    (S5, "russian", "A", 9, [("LMG", 9), ("R", 8), ("R", 7), ("R", 6)], None),
    (S5, "russian", "C", 9, [("R", 9), ("R", 8), ("R", 7), ("R", 6)], None),
    (S5, "russian", "D", 9, [("R", 9), ("R", 9), ("R", 6), ("R", 5)], None),
    (S5, "german", "A", 10, [], None),
    (S5, "german", "B", 10, [], None),
    (S5, "german", "C", 10, [], None),
    (S6, "russian", "A", 18, [("R", 9), ("R", 7), ("R", 6), ("R", 5)], None),
    (S6, "russian", "B", 20, [("R", 9), ("R", 8), ("R", 6), ("R", 5)], None),
    (S6, "russian", "C", 20, [("R", 8), ("R", 7), ("R", 6), ("R", 5)], None),
    (S6, "russian", "D", 22, [("R", 9)], None),
    (S6, "russian", "F", None, [], None),
    (S6, "russian", "G", None, [], None),
    (S6, "german", "A", 24, [], None),
    (S6, "german", "B", 24, [], None),
    (S6, "german", "C", 24, [], None),
    (S6, "german", "E", 20, [], None),                                          # "(20 each)"
]

#: (scenario, side, kind, PR or None) - commanders as the scenarios list them.
COMMANDERS = [
    (S1, "german", "PL", None), (S1, "russian", "PL", 10), (S1, "russian", "APL", 9),
    (S2, "german", "PL", None), (S2, "german", "PS", None), (S2, "russian", "PL", 11), (S2, "russian", "APL", 9),
    (S3, "german", "PL", None), (S3, "german", "PS", None),
    (S4, "russian", "APL", 9), (S4, "german", "PL", None),
    (S5, "german", "PL", None), (S5, "german", "PS", None),
    (S6, "russian", "PL", 10), (S6, "russian", "APL", 9), (S6, "russian", "PL", 11), (S6, "russian", "APL", 10),
    (S6, "german", "PL", None), (S6, "german", "PS", None),
]

#: (scenario, side, kind as printed, ID numbers)
CREW_WEAPONS = [
    (S1, "german", "MMG", [1]), (S1, "russian", "MMG", [1, 2]),
    (S2, "german", "MMG", [1, 2]),
    (S3, "russian", "MMG", [2]), (S3, "russian", "ATR", [2]), (S3, "russian", "45AT", [1, 2]),
    (S3, "russian", "MOR", [1]), (S3, "german", "MMG", [2]),
    (S4, "russian", "MMG", [2]), (S4, "russian", "45AT", [1, 2]), (S4, "german", "MMG", [1]),
    (S5, "russian", "MMG", [1, 2]), (S5, "russian", "MOR", [1]), (S5, "russian", "ATR", [1, 2]),
    (S5, "russian", "45AT", [2]), (S5, "german", "MMG", [1]), (S5, "german", "MOR", [1]), (S5, "german", "ATR", [1, 2]),
    (S6, "russian", "MMG", [1, 2]), (S6, "russian", "45AT", [1, 2]), (S6, "russian", "76AT", [1]),
    (S6, "german", "MMG", [1, 2]), (S6, "german", "50AT", [1]),
]

#: (scenario, side, type as printed, ID numbers, canonical type)
AFVS = [
    (S3, "german", "IIIe", [1, 2], "IIIe"),
    (S4, "german", "IVe", [1], "IVd"),
    (S5, "russian", "BT7m", [1, 2], "BT7M"), (S5, "russian", "T34a", [1], "T34a"),
    (S5, "german", "IId", [1], "IId"), (S5, "german", "IIIe", [1, 2], "IIIe"),
    (S6, "russian", "T34b", [1, 2], "T34b"),
    (S6, "german", "IId", [1], "IId"), (S6, "german", "IIIe", [1, 2], "IIIe"), (S6, "german", "IVe", [1], "IVd"),
    (S6, "german", "IVf2", [1], "IVf2"), (S6, "german", "Stug III", [1, 2], "StugIIIb"),
    (S6, "german", "IIIj", [1], "IIIj"),
]


def _take(pool: list[Infantry], weapon: str, pr: int | None) -> Infantry:
    for m in pool:
        if m.weapon == weapon and (pr is None or m.pr == pr):
            pool.remove(m)
            return m
    raise AssertionError(f"no {weapon} PR{pr} left in {[(m.weapon, m.pr) for m in pool]}")


@pytest.mark.parametrize("scenario,side,letter,ammo,less,only", SQUADS,
                         ids=[f"{s}-{side}-{l}" for s, side, l, *_ in SQUADS])
def test_24_scenario_squads_less_and_only_lists_resolve(scenario, side, letter, ammo, less, only):
    squad = ROSTER.squad(side, letter)
    pool = list(squad.men)
    for weapon, pr in less:            # 24.1: each removal names a man with that weapon and PR
        _take(pool, weapon, pr)
    if only is not None:               # 24.1 "ONLY": these men, each a distinct counter
        pool = [_take(pool, w, pr) for w, pr in only]
    assert pool, "a squad must keep at least one man"
    # 24.1 AMMO POINTS: a squad's number is for its LMG, so a number means an LMG is left, none means none
    has_lmg = any(m.weapon == "LMG" for m in pool)
    assert has_lmg == (ammo is not None), f"ammo {ammo} but LMG left: {has_lmg}"


def test_24_1_example_russian_squad_d_has_several_rifles_pr9():
    assert len(ROSTER.squad("russian", "D").matching("R", 9)) >= 2


def test_every_squad_letter_the_scenarios_name_exists():
    for side, letters in (("german", "ABCDE"), ("russian", "ABCDEFG")):
        for letter in letters:
            assert len(ROSTER.squad(side, letter)) > 0
    assert ROSTER.squad("R", "a") is ROSTER.squad("Russian", "A")


def test_rule_24_less_removed_men_have_rulebook_provenance():
    # every man a scenario names (weapon + PR) carries a rulebook provenance for weapon and PR
    for _, side, letter, _, less, only in SQUADS:
        for weapon, pr in [*less, *(only or [])]:
            if pr is None:
                continue
            men = ROSTER.squad(side, letter).matching(weapon, pr)
            assert any(value_provenance(m, "pr").source == "rulebook" for m in men), (side, letter, weapon, pr)


def test_5_2_every_squad_has_an_acting_leader_and_squad_sizes_are_plausible():
    for sq in ROSTER.squads():
        assert any(m.can_act_as_leader for m in sq), sq.letter
        assert 7 <= len(sq) <= 12, (sq.side, sq.letter, len(sq))
    assert not ROSTER.unit("G-E-4").can_act_as_leader      # FT PR9: 5.2 excludes flamethrowers


def test_german_gruppen_have_one_lmg_and_squad_e_two_lmgs_and_two_fts():
    for letter in "ABC":
        assert len(ROSTER.squad("german", letter).matching("LMG")) == 1
    e = ROSTER.squad("german", "E")
    assert [m.pr for m in e.matching("LMG")] == [10, 9]
    assert len(e.matching("FT")) == 2
    assert not ROSTER.squad("german", "D").has_lmg


def test_russian_squad_a_two_lmgs_resolves_scenario_1_vs_5():
    a = ROSTER.squad("russian", "A")
    assert sorted(m.pr for m in a.matching("LMG")) == [8, 9]
    assert len(ROSTER.squad("russian", "C").matching("LMG")) == 1
    assert {n.id for n in ROSTER.notes} >= {"two-lmgs-russian-a-b", "two-lmgs-german-e", "ive-is-ivd"}


# --------------------------------------------------------------------------- rulebook values


def test_11_22_example_russian_rifleman_ap4_range7():
    for m in ROSTER.squad("russian", "B").matching("R"):
        assert (m.ap_factor, m.initial_range) == (4, 7)
        assert value_provenance(m, "ap_factor").source == "rulebook"
        assert "11.22" in value_provenance(m, "initial_range").ref
    # 11.22 attenuation: 4 within 7 hexes, 3 within 8-14, 2 within 15-21 (checked on the values)
    m = ROSTER.unit("R-A-4")
    assert [max(0, m.ap_factor - -(-r // m.initial_range) + 1) for r in (7, 8, 14, 15, 21)] == [4, 3, 3, 2, 2]


def test_8_13_afv_movement_bt7m_twelve():
    bt = ROSTER.afv("russian", "BT7m", 1)
    assert bt.type == "BT7M" and bt.movement == 12 and bt.reaction_movement == 6
    assert "8.13" in value_provenance(bt, "movement").ref
    for a in ROSTER.afvs():
        if a.type != "BT7M":
            assert a.movement == 10 and a.reaction_movement == 5


def test_8_12_cw_movement_allowances_and_crews():
    for c in ROSTER.crew_weapons():
        assert c.movement in (0, 3, 4, 5)
        assert 2 <= c.crew <= 4
        assert c.mg_modes == (("DF", "FL", "SP") if c.type == "MMG" else ())
        assert (c.at_factor is not None) == (c.is_atr or c.is_atg)
    assert {c.movement for c in ROSTER.crew_weapons()} == {0, 3, 4, 5}
    mor = ROSTER.crew_weapon("russian", "MOR", 1)
    assert mor.type == "Mor" and mor.min_range == mor.initial_range and mor.crew >= 3   # 14.12, 14.21


def test_16_flamethrowers_have_no_ap_and_range_two():
    ft = ROSTER.unit("G-E-4")
    assert (ft.weapon, ft.ap_factor, ft.initial_range, ft.movement) == ("FT", 0, 2, 4)


@pytest.mark.parametrize("scenario,side,kind,pr", COMMANDERS, ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}" for c in COMMANDERS])
def test_24_commanders_named_by_scenarios_exist_with_their_pr(scenario, side, kind, pr):
    c = ROSTER.commander(side, kind, pr=pr)
    assert isinstance(c, Commander) and c.rank == kind and c.kind == "commander"
    if pr is not None:
        assert c.pr == pr and value_provenance(c, "pr").source == "rulebook"


def test_scenario_6_russian_commanders_are_four_distinct_counters():
    ids = {ROSTER.commander("russian", k, pr=p).id for k, p in (("PL", 10), ("PL", 11), ("APL", 9), ("APL", 10))}
    assert len(ids) == 4
    assert ROSTER.commander("russian", "PL", number=2).pr == 11
    with pytest.raises(KeyError, match="ambiguous") as err:
        ROSTER.commander("russian", "PL")
    assert "'PL PR10'" in str(err.value)   # the form a designer types, not an API argument
    with pytest.raises(KeyError, match="PR7"):
        ROSTER.commander("russian", "PL", pr=7)


@pytest.mark.parametrize("scenario,side,kind,numbers", CREW_WEAPONS,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CREW_WEAPONS])
def test_24_crew_weapons_named_by_scenarios_exist(scenario, side, kind, numbers):
    for n in numbers:
        c = ROSTER.crew_weapon(side, kind, n)
        assert isinstance(c, CrewWeapon) and c.number == n and c.side == side
        assert value_provenance(c, "number").source == "rulebook"


@pytest.mark.parametrize("scenario,side,printed,numbers,canonical", AFVS, ids=[f"{a[0]}-{a[1]}-{a[2]}" for a in AFVS])
def test_24_afvs_named_by_scenarios_exist(scenario, side, printed, numbers, canonical):
    for n in numbers:
        a = ROSTER.afv(side, printed, n)
        assert isinstance(a, AFV) and a.type == canonical and a.number == n
        assert value_provenance(a, "number").source == "rulebook"


def test_2_22_and_2_23_every_listed_type_exists():
    assert {a.type for a in ROSTER.afvs("russian")} == {"BT7M", "T34a", "T34b", "KV1A", "T26S"}
    assert {a.type for a in ROSTER.afvs("german")} == {"IId", "IIIe", "IIIj", "IVd", "IVf2", "StugIIIb"}
    assert {c.type for c in ROSTER.crew_weapons("russian")} == {"MMG", "ATR", "Mor", "45AT", "76AT"}
    assert {c.type for c in ROSTER.crew_weapons("german")} == {"MMG", "ATR", "Mor", "37AT", "50AT"}


def test_afv_aliases_and_garbled_spellings():
    assert ROSTER.afv_type("german", "Stug III 6's 1 & 2") == "StugIIIb"
    assert ROSTER.afv_type("german", "STB") == "StugIIIb"
    assert ROSTER.afv_type("german", "Stug IIIb") == "StugIIIb"
    assert ROSTER.afv_type("russian", "t34/76b") == "T34b"
    assert ROSTER.afv("german", "IVe", 1) is ROSTER.afv("german", "IVd", 1)
    assert not ROSTER.afv("german", "Stug", 1).turreted and ROSTER.afv("german", "Stug", 1).is_stug
    with pytest.raises(KeyError, match="Tiger"):
        ROSTER.afv("german", "Tiger", 1)
    with pytest.raises(KeyError, match="#3"):
        ROSTER.afv("russian", "BT7M", 3)


# --------------------------------------------------------------------------- balance (12.3, 9.2 C, 13.2)


def _p_2d6_at_most(n: int) -> float:
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= n) / 36


def _kill(gun, target: AFV, frontal: bool = True) -> float:
    """12.31-12.33: destroyed if 2d6 + armour modifier <= AT factor; all 1's always destroy."""
    need = gun.at_factor - (target.frontal_modifier if frontal else target.flank_modifier)
    return max(_p_2d6_at_most(need), 1 / 36)


def test_12_3_at_balance():
    t34, pz2, pz3e, pz3j = (ROSTER.afv("R", "T34a", 1), ROSTER.afv("G", "IId", 1), ROSTER.afv("G", "IIIe", 1),
                            ROSTER.afv("G", "IIIj", 1))
    g37, g45, g76 = (ROSTER.crew_weapon("G", "37AT", 1), ROSTER.crew_weapon("R", "45AT", 1),
                     ROSTER.crew_weapon("R", "76AT", 1))
    assert _kill(g37, t34) <= 1 / 36                      # only all 1's
    assert _kill(g45, pz2) >= 0.7
    assert 0.15 <= _kill(g45, pz3j) <= 0.5                # "sometimes"
    for a in ROSTER.afvs("german"):
        assert _kill(g76, a) >= 0.8
        assert a.frontal_modifier > a.flank_modifier
    assert _kill(ROSTER.crew_weapon("G", "50AT", 1), t34, frontal=False) > _kill(g37, t34, frontal=False)
    assert _kill(ROSTER.afv("G", "IVf2", 1), t34) > _kill(ROSTER.afv("G", "IIIj", 1), t34)


def test_9_2_and_13_2_afv_values_in_range():
    for a in ROSTER.afvs():
        assert 4 <= a.overrun_factor <= 8
        assert a.ap_factor > 4            # 13.2 caps opportunity AP fire at 4 factors
        assert 7 <= a.pr <= 10 and a.can_fire_at


# --------------------------------------------------------------------------- provenance, ids, file


def test_every_value_has_provenance():
    n = 0
    for u in ROSTER:
        for f in VALUE_FIELDS[u.kind]:
            p = value_provenance(u, f)
            assert isinstance(p, Provenance)
            assert (p.ref if p.source == "rulebook" else p.rationale), (u.id, f)
            n += 1
    assert n > 1000


def test_unit_ids_and_kinds():
    assert ROSTER.unit("R-B-3").squad == "B" and ROSTER.unit("R-B-3").index == 3
    assert {u.kind for u in ROSTER} == {"infantry", "commander", "cw", "afv"}
    assert all(u.side in ("german", "russian") and 2 <= u.pr <= 12 for u in ROSTER)
    with pytest.raises(KeyError, match="X-9"):
        ROSTER.unit("X-9")
    with pytest.raises(KeyError, match="Squad 'Z'"):
        ROSTER.squad("german", "Z")
    with pytest.raises(KeyError, match="side"):
        ROSTER.squad("french", "A")
    with pytest.raises(KeyError, match="Flak"):
        ROSTER.crew_weapon("german", "Flak", 1)


def test_shipped_file_round_trips_and_validates_via_document_kinds(tmp_path):
    out = tmp_path / "saved.json"
    save_counters(ROSTER, out)
    assert out.read_text(encoding="utf-8") == shipped_counters_path().read_text(encoding="utf-8")
    assert counters_json(ROSTER.document) == out.read_text(encoding="utf-8")
    from core.document_kinds import validate_file

    s = validate_file(shipped_counters_path())
    assert s.startswith("counters: ") and "infantry in 12 squads" in s


def test_designer_override_keeps_provenance(tmp_path):
    data = _raw()
    data["russian"]["squads"]["A"]["men"][0]["ap_factor"] = 7
    data["russian"]["squads"]["A"]["men"][0]["sources"] = {"ap_factor": {"source": "designer", "rationale": "printed"}}
    r = load_counters(_write(tmp_path, data))
    assert r.unit("R-A-1").ap_factor == 7 and value_provenance(r.unit("R-A-1"), "ap_factor").source == "designer"
    assert value_provenance(r.unit("R-A-1"), "initial_range").source == "reconstructed"


def _error(tmp_path, data) -> RosterError:
    with pytest.raises(RosterError) as ei:
        load_counters(_write(tmp_path, data))
    assert isinstance(ei.value, DocumentError) and isinstance(ei.value, ValueError)
    return ei.value


def test_bad_weapon_type_is_named_with_file_and_path(tmp_path):
    data = _raw()
    data["russian"]["squads"]["B"]["men"][2]["weapon"] = "SMG"
    e = _error(tmp_path, data)
    assert "counters.json: $.russian.squads.B.men[2].weapon: unknown weapon type 'SMG'" in str(e)


def test_negative_pr_is_refused(tmp_path):
    data = _raw()
    data["german"]["afvs"][0]["pr"] = -1
    e = _error(tmp_path, data)
    assert "$.german.afvs[0].pr: PR must be 2-12" in str(e)


def test_duplicate_id_is_refused(tmp_path):
    data = _raw()
    data["german"]["squads"]["B"]["men"][1]["id"] = "G-A-1"
    e = _error(tmp_path, data)
    assert "$.german.squads.B.men[1].id: duplicate id 'G-A-1' (first used at $.german.squads.A.men[0])" in str(e)


@pytest.mark.parametrize("mutate,expected", [
    (lambda d: d.update(version=2), "$.version: version 2 is newer"),
    (lambda d: d.update(format="ironcross-map"), "$.format: unknown format"),
    (lambda d: d["german"]["squads"]["A"].pop("provenance"), "no provenance for 'weapon'"),
    (lambda d: d["german"]["afv_aliases"]["IVe"].update(type="IVe"), "names unknown german AFV type 'IVe'"),
    (lambda d: d["russian"]["crew_weapons"][0].update(crew=6), "two to four men"),
    (lambda d: d["russian"]["crew_weapons"][0].update(movement=2), "0, 3, 4 or 5"),
    (lambda d: d["russian"]["afvs"][1].update(number=1), "BT7M #1 already defined"),
    (lambda d: d["russian"]["squads"]["A"]["men"][0].update(weapon="FT"), "no russian weapon profile for 'FT'"),
    (lambda d: d["german"]["weapons"]["FT"].update(ap_factor=3), "no AP factors (16.0)"),
    (lambda d: d["german"]["crew_weapons"][0].update(at_factor=5), "has no AT factor"),
    (lambda d: d["german"]["afvs"][0].update(flank_modifier=9), "cannot exceed the frontal"),
    (lambda d: d["german"]["commanders"][0].update(pr="10"), "$.german.commanders[0].pr"),
    (lambda d: d["german"]["commanders"][0].update(sources={"colour": {"source": "rulebook", "ref": "x"}}),
     "unknown field 'colour'"),
])
def test_bad_files_give_clear_errors(tmp_path, mutate, expected):
    data = copy.deepcopy(_raw())
    mutate(data)
    assert expected in str(_error(tmp_path, data))


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(RosterError, match=r"nope\.json: \$: file not found"):
        load_counters(tmp_path / "nope.json")
    p = tmp_path / "bad.json"
    p.write_text("{", encoding="utf-8")
    with pytest.raises(RosterError, match="not valid JSON"):
        load_counters(p)
