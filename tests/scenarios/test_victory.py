"""Victory conditions: composition, unit filters, control, victory points and outcome order."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from scenarios.regions import RegionContext
from scenarios.victory import (
    Condition,
    UnitRef,
    Victory,
    VictoryPoints,
    condition_holds,
    evaluate,
    max_points,
    score,
    update_control,
)
from tests.scenarios.test_regions import hex_poly
from tests.mapbuilder import make_map

cond = TypeAdapter(Condition).validate_python


@pytest.fixture(scope="module")
def ctx():
    m = make_map((10, 15), (1, 6), buildings={"B1": hex_poly("1102", "1103"), "B2": hex_poly("1305"),
                                               "B3": hex_poly("1402", "1502")})
    return RegionContext(m, ("1002", "1001"))


def G(uid, kind="infantry", squad="A"):
    return UnitRef("german", uid, kind, squad if kind == "infantry" else None)


def R(uid, kind="infantry", squad="A"):
    return UnitRef("russian", uid, kind, squad if kind == "infantry" else None)


HEX = lambda *h: {"kind": "hexes", "hexes": list(h)}  # noqa: E731
BLD = {"kind": "feature_kind", "feature": "building_hexes"}
MULTI = {"kind": "feature_kind", "feature": "multi_hex_buildings"}


def test_at_least_and_none_in(ctx):
    c = cond({"kind": "at_least", "side": "german", "count": 2, "region": HEX("1101", "1201")})
    assert not condition_holds(c, {"1101": [G("g1")]}, ctx)
    assert condition_holds(c, {"1101": [G("g1")], "1201": [G("g2"), R("r1")]}, ctx)
    n = cond({"kind": "none_in", "side": "russian", "region": BLD})
    assert condition_holds(n, {"1101": [R("r1")], "1102": [G("g1")]}, ctx)
    assert not condition_holds(n, {"1305": [R("r1")]}, ctx)


def test_unit_filters(ctx):
    """Scenario 4: three units, any commander unit(s) or non-commander units from the same squad."""
    c = cond({"kind": "at_least", "side": "russian", "count": 3, "region": HEX("1101", "1201"),
              "units": {"grouping": "same_squad_or_commanders"}})
    mixed = {"1101": [R("a1", squad="A"), R("a2", squad="A")], "1201": [R("d1", squad="D")]}
    assert not condition_holds(c, mixed, ctx)
    with_cmd = {"1101": [R("a1", squad="A"), R("a2", squad="A")], "1201": [R("pl", "commander")]}
    assert condition_holds(c, with_cmd, ctx)
    same = {"1101": [R("a1"), R("a2"), ("russian", "a3", "infantry", "A")]}
    assert condition_holds(c, same, ctx)
    cw = {"1101": [R("a1"), R("a2"), R("mmg", "crew_weapon")]}
    assert not condition_holds(c, cw, ctx)
    afv_only = cond({"kind": "at_least", "side": "german", "region": HEX("1101"), "units": {"kinds": ["afv"]}})
    assert not condition_holds(afv_only, {"1101": [G("g1")]}, ctx)
    assert condition_holds(afv_only, {"1101": [G("t1", "afv")]}, ctx)


def test_sole_occupant_region_and_buildings(ctx):
    c = cond({"kind": "sole_occupant", "side": "russian", "region": MULTI, "scope": "each_building"})
    assert condition_holds(c, {"1102": [R("r1")]}, ctx)
    assert not condition_holds(c, {"1102": [R("r1")], "1103": [G("g1")]}, ctx)   # B1 shared
    assert condition_holds(c, {"1102": [R("r1")], "1103": [G("g1")], "1502": [R("r2")]}, ctx)  # B3 is his
    assert not condition_holds(c, {"1305": [R("r1")]}, ctx)  # B2 is one hex
    two = cond({"kind": "sole_occupant", "side": "russian", "region": MULTI, "scope": "each_building", "min_buildings": 2})
    assert not condition_holds(two, {"1102": [R("r1")]}, ctx)
    whole = cond({"kind": "sole_occupant", "side": "german", "region": HEX("1101", "1201")})
    assert condition_holds(whole, {"1101": [G("g1")]}, ctx)
    assert not condition_holds(whole, {}, ctx)
    assert not condition_holds(whole, {"1101": [G("g1")], "1201": [R("r1")]}, ctx)


def test_control_is_last_to_occupy(ctx):
    control = update_control({}, {"1102": [G("g1")], "1103": [G("g2")]})
    control = update_control(control, {"1102": [R("r1")], "1103": [R("r2"), G("g2")]})  # contested: unchanged
    assert {h.id: s for h, s in control.items()} == {"1102": "russian", "1103": "german"}
    c = cond({"kind": "controls", "side": "german", "region": HEX("1102", "1103")})
    assert condition_holds(c, {}, ctx, control={"1102": "german", "1103": "german"})
    assert not condition_holds(c, {"1102": [R("r1")]}, ctx, control={"1102": "german", "1103": "german"})


def test_boolean_composition(ctx):
    a = {"kind": "at_least", "side": "german", "region": HEX("1101")}
    b = {"kind": "at_least", "side": "german", "region": HEX("1201")}
    both = cond({"kind": "all_of", "of": [a, b]})
    either = cond({"kind": "any_of", "of": [a, b]})
    neither = cond({"kind": "not", "of": {"kind": "any_of", "of": [a, b]}})
    pl = {"1101": [G("g1")]}
    assert (condition_holds(both, pl, ctx), condition_holds(either, pl, ctx), condition_holds(neither, pl, ctx)) == \
        (False, True, False)
    assert condition_holds(neither, {}, ctx)


def test_outcomes_in_order_with_default(ctx):
    v = Victory.model_validate({
        "outcomes": [
            {"result": "german", "condition": {"kind": "at_least", "side": "german", "region": HEX("1101")}},
            {"result": "russian", "condition": {"kind": "at_least", "side": "russian", "region": HEX("1101")}}],
        "default": "draw"})
    assert evaluate(v, {"1101": [G("g")]}, ctx).result == "german"
    r = evaluate(v, {"1101": [R("r")]}, ctx)
    assert (r.result, r.outcome) == ("russian", 1)
    assert evaluate(v, {"1101": [G("g"), R("r")]}, ctx).outcome == 0   # first listed outcome decides
    assert evaluate(v, {}, ctx).result == "draw"
    with pytest.raises(ValidationError, match="needs 'outcomes' or 'points'"):
        Victory.model_validate({"default": "draw"})


VP = {
    "side": "german",
    "awards": [{"kind": "per_hex", "region": {"kind": "feature", "name": "B1"}, "points": 1},
               {"kind": "per_building", "points": 3,
                "region": {"kind": "difference", "of": BLD, "minus": [{"kind": "feature", "name": "B1"}]}}],
    "schedule": [{"min": 0, "max": 2, "result": "russian"}, {"min": 3, "max": 4, "result": "draw"},
                 {"min": 5, "max": 8, "result": "german"}],
}


def test_victory_points_and_schedule(ctx):
    vp = VictoryPoints.model_validate(VP)
    assert max_points(vp, ctx) == 2 + 3 + 3
    assert score(vp, ctx, {"1102": "german"}) == 1
    assert score(vp, ctx, {"1102": "german", "1402": "german"}) == 1          # B3 not wholly controlled
    assert score(vp, ctx, {"1402": "german", "1502": "german", "1305": "german"}) == 6
    assert score(vp, ctx, {}, placement={"1305": [G("g")], "1102": [G("h")]}) == 4
    v = Victory.model_validate({"points": VP})
    assert evaluate(v, {}, ctx, control={"1102": "german"}).result == "russian"
    r = evaluate(v, {}, ctx, control={"1102": "german", "1103": "german", "1305": "german"})
    assert (r.result, r.points) == ("german", 5)
    assert evaluate(v, {}, ctx, control={"1305": "german"}).result == "draw"
    with pytest.raises(ValidationError, match="overlap"):
        VictoryPoints.model_validate({**VP, "schedule": [{"min": 0, "max": 3, "result": "draw"},
                                                         {"min": 3, "max": 4, "result": "german"}]})
