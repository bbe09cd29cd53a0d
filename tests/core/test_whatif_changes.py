"""Iron Cross's what-if changes (core.ironcross.whatif_changes): each kind changes exactly what it
says in the scenario's JSON, and the changed scenario validates (errors and design checks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.ironcross import whatif_changes as wc
from core.whatif import candidate_file

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"
S1 = DATA / "scenario_1_demyansk_pocket.json"
S4 = DATA / "scenario_4_tula.json"
S5 = DATA / "scenario_5_through_the_marshes.json"
S6 = DATA / "scenario_6_spartakovka.json"


def load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


def diff(a, b, path="$") -> list[str]:
    """The JSON paths where ``a`` and ``b`` differ (the first level that differs)."""
    if type(a) is not type(b):
        return [path]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}")
            else:
                out += diff(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [path]
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in diff(x, y, f"{path}[{i}]")]
    return [] if a == b else [path]


def test_turns():
    d = load(S1)
    assert wc.apply_change(d, "turns+=2", str(S1))["turns"] == 9
    assert wc.apply_change(d, "turns=5", str(S1))["turns"] == 5
    assert diff(d, wc.apply_change(d, "turns-=1", str(S1))) == ["$.turns"]
    with pytest.raises(ValueError, match="game length"):
        wc.apply_change(d, "turns-=7", str(S1))
    assert d["turns"] == 7   # the input is never edited


def test_oob_squad_member_removed_and_put_back():
    d = load(S1)
    # 24.1 "less": one more rifleman left out of the German Squad C
    new = wc.apply_change(d, "german.oob-=R", str(S1))
    assert diff(d, new) == ["$.german.groups[0].oob[0].less"]
    assert new["german"]["groups"][0]["oob"][0]["less"] == [{"type": "R", "count": 1}]
    # the Russian Squad C "less R PR9": the rifleman put back
    new = wc.apply_change(d, "russian.oob+=R", str(S1))
    assert diff(d, new) == ["$.russian.groups[0].oob[2].less"]
    assert new["russian"]["groups"][0]["oob"][2]["less"] == []
    # LMG@B names the squad
    new = wc.apply_change(d, "russian.oob+=LMG@B", str(S1))
    assert diff(d, new) == ["$.russian.groups[0].oob[1].less"]
    with pytest.raises(ValueError, match="full"):
        wc.apply_change(d, "german.oob+=R", str(S1))


def test_oob_crew_weapon_and_afv():
    d = load(S1)
    new = wc.apply_change(d, "german.oob+=MMG", str(S1))
    assert new["german"]["groups"][0]["oob"][1]["numbers"] == [1, 2]
    assert diff(d, new) == ["$.german.groups[0].oob[1].numbers"]
    new = wc.apply_change(d, "russian.oob-=MMG", str(S1))
    assert new["russian"]["groups"][0]["oob"][3]["numbers"] == [1]
    gone = wc.apply_change(d, "german.oob-=MMG", str(S1))
    assert [e["kind"] for e in gone["german"]["groups"][0]["oob"]] == ["squad", "commander", "ip"]
    with pytest.raises(ValueError, match="every russian MMG"):
        wc.apply_change(d, "russian.oob+=MMG", str(S1))
    d6 = load(S6)
    afvs = [e for g in d6["german"]["groups"] for e in g["oob"] if e.get("kind") == "afv" and e["type"] == "IIIe"]
    before = sum(len(e["numbers"]) for e in afvs)
    new = wc.apply_change(d6, "german.oob-=IIIe", str(S6))
    after = sum(len(e["numbers"]) for g in new["german"]["groups"] for e in g["oob"]
                if e.get("kind") == "afv" and e["type"] == "IIIe")
    assert after == before - 1


def test_grenades_ips_hidden_entry():
    d = load(S1)
    new = wc.apply_change(d, "russian.grenades-=2", str(S1))
    assert new["russian"]["oob"][0]["count"] == 8 and diff(d, new) == ["$.russian.oob[0].count",
                                                                          "$.russian.oob[0].text"]
    new = wc.apply_change(d, "german.ips+=1", str(S1))
    assert new["german"]["groups"][0]["oob"][3]["count"] == 3
    assert wc.apply_change(d, "german.hidden-=1", str(S1))["german"]["hidden_hexes"] == 1
    new = wc.apply_change(d, "russian.entry+=1", str(S1))
    assert new["russian"]["groups"][0]["entry"]["options"][0]["turn"] == 2
    assert diff(d, new) == ["$.russian.groups[0].entry.options[0].turn"]
    with pytest.raises(ValueError, match="entry turn"):
        wc.apply_change(d, "russian.entry-=1", str(S1))


def test_mines_and_vp_band():
    d5 = load(S5)
    mines = [e for g in d5["russian"]["groups"] for e in g["oob"] if e.get("kind") == "mines"] + \
        [e for e in d5["russian"].get("oob", []) if e.get("kind") == "mines"]
    kind = mines[0]["mine_type"]
    new = wc.apply_change(d5, f"russian.mines.{kind}-=1", str(S5))
    changed = diff(d5, new)
    assert len(changed) == 1 and changed[0].endswith(".factors")
    d6 = load(S6)
    new = wc.apply_change(d6, "victory.band+=1", str(S6))
    old = sorted(d6["victory"]["points"]["schedule"], key=lambda b: b["min"])
    got = sorted(new["victory"]["points"]["schedule"], key=lambda b: b["min"])
    assert got[0]["min"] == old[0]["min"] and got[-1]["max"] == old[-1]["max"]
    assert [b["max"] for b in got[:-1]] == [b["max"] + 1 for b in old[:-1]]


def test_victory_count_and_regions():
    d = load(S1)
    new = wc.apply_change(d, "victory.count+=1", str(S1))
    assert [c["count"] for o in new["victory"]["outcomes"] for c in o["condition"]["of"]] == [2, 2, 2, 2]
    with pytest.raises(ValueError, match="unit count"):
        wc.apply_change(d, "victory.count-=1", str(S1))
    new = wc.apply_change(d, "german.setup+=1", str(S1))
    r = new["german"]["groups"][0]["setup"]["region"]
    assert r["kind"] == "within" and r["distance"] == 1 and r["of"] == d["german"]["groups"][0]["setup"]["region"]
    new = wc.apply_change(d, "russian.entry_edge-=1", str(S1))
    r = new["russian"]["groups"][0]["entry"]["options"][0]["region"]
    assert r["kind"] == "difference" and r["of"] == d["russian"]["groups"][0]["entry"]["options"][0]["region"]


def test_regions_resolve_one_ring_wider_and_narrower():
    """The set-up zone one ring wider holds the old zone and its neighbours; narrower loses the
    hexes next to the outside; the wider entry edge stays on the map edge."""
    from maps import hexgrid
    from scenarios.model import Scenario
    from scenarios.scenario_file import load_scenario_map, scenario_context
    from scenarios.regions import region_from_data

    d = load(S1)
    sc = Scenario.model_validate(d)
    ctx = scenario_context(sc, load_scenario_map(sc, S1))
    old = region_from_data(d["german"]["groups"][0]["setup"]["region"]).resolve(ctx)
    wide = region_from_data(wc.apply_change(d, "german.setup+=1", str(S1))["german"]["groups"][0]["setup"]["region"]).resolve(ctx)
    narrow = region_from_data(wc.apply_change(d, "german.setup-=1", str(S1))["german"]["groups"][0]["setup"]["region"]).resolve(ctx)
    ring = {n for h in old for n in hexgrid.neighbours(h)} | set(old)
    assert set(wide) == ring & set(ctx.area) or set(wide) == ring
    assert set(narrow) == {h for h in old if all(n in old for n in hexgrid.neighbours(h))}
    entry = region_from_data(d["russian"]["groups"][0]["entry"]["options"][0]["region"]).resolve(ctx)
    new = wc.apply_change(d, "russian.entry_edge+=1", str(S1))["russian"]["groups"][0]["entry"]["options"][0]["region"]
    wider = region_from_data(new).resolve(ctx)
    assert set(entry) < set(wider)


def test_grammar_refuses_with_the_text():
    for bad, words in (("turns", "TARGET OP VALUE"), ("italian.oob-=R", "unknown target"),
                       ("german.grenades+=x", "no whole number"), ("german.oob=R", "added")):
        with pytest.raises(ValueError, match=words):
            wc.parse_change(bad)
    assert wc.parse_change("russian.oob-=LMG").field == "russian.oob.LMG"


def test_defaults_of_scenario_1_and_they_validate(tmp_path):
    d = load(S1)
    texts = wc.default_changes(d, str(S1))
    assert texts[:4] == ["turns+=1", "turns-=1", "turns+=2", "turns-=2"]
    assert "russian.oob-=LMG" in texts and "german.setup-=1" in texts and "victory.count+=1" in texts
    assert not any(t.startswith(("german.ammo", "russian.ammo")) for t in texts)   # 22.0: basic rules
    assert "victory.count-=1" not in texts     # counts are 1 already
    base = candidate_file(d, S1.parent, tmp_path, "as_is.json")
    known = wc.check_file(str(base))
    assert isinstance(known, frozenset)
    for i, t in enumerate(["turns-=2", "russian.oob-=LMG", "german.setup+=1"]):
        path = candidate_file(wc.apply_change(d, t, str(S1)), S1.parent, tmp_path, f"c{i}.json")
        assert isinstance(wc.check_file(str(path), known), frozenset), t
    path = candidate_file(wc.apply_change(d, "russian.hidden+=1", str(S1)), S1.parent, tmp_path, "bad.json")
    assert "oob_unused" in wc.check_file(str(path), known)
