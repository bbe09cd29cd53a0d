"""Turn Sequence: Movement -- the movement table and every movement rule of the fragment."""

from __future__ import annotations

import pytest

from core.redflags.actions import (AirStep, Contract, Debus, Embus, EndActivation, Extend, IllegalAction, Limber, Move,
                                   RemoveWire, Unlimber)
from core.redflags.tables import aircraft_table, movement_table
from maps import hexgrid
from tests.redflags.helpers import activate, events, make_game, nb, new_turn, unit

FAR = "3002"  # a Russian unit far away in the north-west corner keeps both sides on the map
ENEMY = [("Far", "K-hearts", [unit("R9", "sov_rifle_section")])]


def reach(g, uid, **kw):
    return set(g.reachable(g.units[uid], **kw)[0])


def dist(a, b):
    return hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))


def one(tmp_path, type_, start="3007", extra=None, wire=(), mines=(), **kw):
    """A German unit ``G`` of ``type_`` in clear ground, activated on a black card (with ``X``, an
    infantry unit in 3003 that keeps the activation open)."""
    units = [unit("G", type_, **(extra or {})), unit("X", "ger_schuetzengruppe")]
    g = make_game(tmp_path, [("A", "A-spades", units)], ENEMY, {"G": start, "X": "3003", "R9": "4925"}, wire=wire,
                  mines=mines, **kw)
    return activate(g, "german", "A")


@pytest.mark.parametrize("type_,hexes", [
    ("ger_schuetzengruppe", 1),      # Infantry 1 hex
    ("ger_pioniergruppe", 1),        # Engineer 1 hex
    ("ger_reitergruppe", 2),         # Cavalry 2 hexes
    ("ger_pak36", 1),                # Unlimbered light artillery 1 hex
    ("ger_pak38", 0),                # Unlimbered medium and heavy artillery: may only move if towed
    ("ger_pzkpfw_ii", 3),            # Light AFVs 3 hexes
    ("ger_pzkpfw_iii", 2),           # Medium AFVs 2 hexes
    ("ger_tiger", 1),                # Heavy AFVs 1 hex
    ("ger_horse_team", 2),           # Horse-drawn transport 2 hexes
    ("ger_opel_blitz", 3),           # Motorized transport 3 hexes
    ("ger_beobachter", 1),           # Artillery spotter on foot 1 hex
    ("ger_kompaniechef", 2),         # Commander on foot 2 hexes if on their own
    ("ger_kradschuetzen", 3),        # Reconnaissance: motorcycles at motorized distance
    ("ger_sdkfz222", 3),             # Reconnaissance: armoured cars at light AFV distance
])
def test_rf_movement_table_rows(tmp_path, type_, hexes):
    g = one(tmp_path, type_)
    r = reach(g, "G")
    assert max((dist("3007", h) for h in r), default=0) == hexes
    assert g.move_allowance(g.units["G"]) == hexes


def test_rf_movement_table_values_are_the_printed_ones():
    t = movement_table()
    assert t["ground"] == {"infantry": 1, "engineer": 1, "cavalry": 2, "light_artillery": 1, "heavy_artillery": 0,
                           "light_afv": 3, "medium_afv": 2, "heavy_afv": 1, "horse_transport": 2, "motor_transport": 3,
                           "observer": 1, "commander": 2}
    assert t["recon"] == {"infantry": 1, "bicycle": 2, "cavalry": 2, "motorcycle": 3, "armoured_car": 3}


def test_rf_movement_all_distances_are_maximums(tmp_path):
    g = one(tmp_path, "ger_pzkpfw_ii")
    r = reach(g, "G")
    assert {h for h in r if dist("3007", h) == 1} and {h for h in r if dist("3007", h) == 2}
    g.apply(Move("G", nb("3007", 4)))  # one hex of three is a legal move
    assert g.units["G"].hexes == [nb("3007", 4)]


def test_rf_movement_uphill_at_most_one_hex(tmp_path):
    # 3514 (level 0) -> 3615 (level 1): a cavalry unit (2 hexes) moving uphill stops after 1 hex
    g = one(tmp_path, "ger_reitergruppe", start="3514")
    up = nb("3514", 3)
    assert g.terrain.level(up) > g.terrain.level("3514")
    r, blocked = g.reachable(g.units["G"])
    assert up in r
    beyond = [h for h in (nb(up, s) for s in range(1, 7)) if h not in r and dist("3514", h) == 2]
    assert beyond and all(blocked.get(h) in ("movement.uphill", None) for h in beyond)
    assert any(blocked.get(h) == "movement.uphill" for h in beyond)
    with pytest.raises(IllegalAction) as e:
        g.apply(Move("G", nb(up, 3)))
    assert e.value.rule == "movement.uphill"


def test_rf_movement_road_complete_move_plus_one(tmp_path):
    # the road runs down column 33: infantry (1 hex) moves 2 hexes along it
    g = one(tmp_path, "ger_schuetzengruppe", start="3320")
    r = reach(g, "G")
    assert "3322" in r and "3318" in r
    assert all(dist("3320", h) == 1 for h in r if h not in ("3322", "3318"))
    g.apply(Move("G", "3322"))
    assert events(g, "move")[-1]["rule"] == "movement.road"


def test_rf_movement_road_bonus_needs_the_whole_move_on_the_road(tmp_path):
    g = one(tmp_path, "ger_reitergruppe", start="3320")  # cavalry 2, 3 along the road
    r = reach(g, "G")
    assert "3323" in r  # three hexes along the road
    off = nb("3320", 2)  # a step off the road, then one more: only 2 hexes in all
    assert not g.terrain.road_connected("3320", off)
    assert all(dist("3320", h) <= 2 for h in r if h not in ("3323", "3317"))


def test_rf_movement_barbed_wire_stops_and_is_removed_next_turn_on_a_black_card(tmp_path):
    wire = nb("3007", 4)
    g = one(tmp_path, "ger_reitergruppe", wire=[wire])
    assert wire in reach(g, "G")
    assert nb(wire, 4) not in reach(g, "G")  # cannot pass through: entering ends the move
    g.apply(Move("G", wire))
    u = g.units["G"]
    assert u.wire_held and events(g, "wire")
    # the same turn: may not remove it
    assert g._remove_wire_ok(u)[0] == "movement.wire"
    # next turn, red card: may neither move nor remove it
    new_turn(g)
    activate(g, "german", "A", suit="hearts")
    assert not reach(g, "G") and RemoveWire("G") not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(RemoveWire("G"))
    assert e.value.rule == "movement.wire" and "black card" in str(e.value)
    # a black card: removes it (its move), moves again the turn after
    activate(g, "german", "A", suit="clubs")
    assert RemoveWire("G") in g.legal_actions()
    g.apply(RemoveWire("G"))
    assert wire not in g.wire and not u.wire_held and not reach(g, "G")
    new_turn(g)
    activate(g, "german", "A")
    assert reach(g, "G")


def test_rf_movement_afv_is_not_held_by_barbed_wire(tmp_path):
    wire = nb("3007", 4)
    g = one(tmp_path, "ger_pzkpfw_ii", wire=[wire])
    assert nb(wire, 4) in reach(g, "G")  # drives through
    g.apply(Move("G", wire))
    assert not g.units["G"].wire_held


def test_rf_movement_mined_hex_needs_a_black_card_to_enter_and_stops(tmp_path):
    mined = nb("3007", 4)
    g = one(tmp_path, "ger_reitergruppe", mines=[mined])
    activate(g, "german", "A", suit="hearts")
    r, blocked = g.reachable(g.units["G"])
    assert mined not in r and blocked[mined] == "movement.mines"
    activate(g, "german", "A", suit="spades")
    r = reach(g, "G")
    assert mined in r and nb(mined, 4) not in r  # stops there
    n = len(g.events)
    g.apply(Move("G", mined))
    assert events(g, "mined_hex", n)
    mine_rolls = [e for e in g.events[n:] if e["kind"] == "roll" and e["rule"] == "fire.minefield"]
    assert len(mine_rolls) == 1 and len(mine_rolls[0]["dice"]) == 4  # 4D6 per hex of mines


def test_rf_movement_leaving_a_mined_hex_needs_a_black_card(tmp_path):
    g = one(tmp_path, "ger_schuetzengruppe", start="3007", mines=["3007"])
    activate(g, "german", "A", suit="diamonds")
    assert not reach(g, "G")
    with pytest.raises(IllegalAction) as e:
        g.apply(Move("G", nb("3007", 4)))
    assert e.value.rule == "movement.mines"
    activate(g, "german", "A", suit="clubs")
    assert reach(g, "G")


def test_rf_movement_afv_one_hex_on_hills_or_in_woods(tmp_path):
    """Movement: "AFV units may not move more than 1 hex per turn on hills or in woods": one hex of
    the move on a hill or in woods, the rest in the open (a medium tank may go one clear hex, then
    one hex into woods); never two steps on hills or in woods."""
    g = one(tmp_path, "ger_pzkpfw_ii", start="3616")  # on Hill J
    r, _blocked = g.reachable(g.units["G"])
    rough = lambda h: g.terrain.is_hill(h) or g.terrain.woods_for_vehicles(h)  # noqa: E731
    for h, path in r.items():   # from the hill: the first step is its one hex there, then only open ground
        assert not any(rough(x) for x in path[2:]), path
    g = one(tmp_path, "ger_pzkpfw_ii", start="3120")  # next to the woods 3121
    r, blocked = g.reachable(g.units["G"])
    assert "3121" in r
    assert nb("3121", 4) not in r or r[nb("3121", 4)][1] != "3121"   # never on through the woods
    for h, path in r.items():   # a step into woods or onto a hill ends the move: never two
        assert sum(1 for x in path[1:] if rough(x)) <= 1 and all(not rough(x) for x in path[1:-1]), path


def test_rf_movement_afv_on_hills_or_in_woods_one_clear_hex_then_one_into_woods(tmp_path):
    """The clause limits the hexes moved on hills or in woods, not the whole move (unlike "moving
    uphill ... a maximum movement distance of 1 hex"): a tank two hexes from the woods reaches them."""
    g = one(tmp_path, "ger_pzkpfw_iii", start="3119")   # two hexes from the woods 3121
    assert not g.terrain.woods_for_vehicles("3119") and not g.terrain.woods_for_vehicles("3120")
    r, _blocked = g.reachable(g.units["G"])
    assert "3121" in r and r["3121"][0] == "3119" and len(r["3121"]) == 3


def test_rf_movement_transport_on_hills_or_in_woods_needs_a_black_card(tmp_path):
    g = one(tmp_path, "ger_opel_blitz", start="3514")
    hill = nb("3514", 3)
    activate(g, "german", "A", suit="hearts")
    r, blocked = g.reachable(g.units["G"])
    assert hill not in r and blocked[hill] == "movement.transport_hills_woods"
    activate(g, "german", "A", suit="spades")
    assert hill in reach(g, "G")


def test_rf_movement_marsh_stops_vehicles_not_foot(tmp_path):  # r.terrain (reconstructed)
    g = one(tmp_path, "ger_pzkpfw_ii", start="4322")
    assert "4323" not in reach(g, "G")
    g = one(tmp_path, "ger_schuetzengruppe", start="4322")
    assert "4323" in reach(g, "G")


def test_rf_movement_embus_and_debus_keep_the_vehicle_stationary(tmp_path):
    units = [unit("G", "ger_schuetzengruppe"), unit("T", "ger_opel_blitz"), unit("X", "ger_schuetzengruppe")]
    g = make_game(tmp_path, [("A", "A-spades", units)], ENEMY, {"G": "3007", "T": "3007", "X": "3003", "R9": "4925"})
    activate(g, "german", "A")
    assert Embus("G", "T") in g.legal_actions()
    g.apply(Embus("G", "T"))
    assert g.units["G"].carried_by == "T" and g.units["G"].hexes == []
    assert not reach(g, "T")  # the vehicle must remain stationary during the turn
    assert g._blocked_move(g.units["T"])[0] == "movement.embus"
    new_turn(g)
    activate(g, "german", "A")
    g.apply(Move("T", nb("3007", 4)))
    assert g.units["G"].carried_by == "T"
    assert Debus("G") not in g.legal_actions()  # it moved: no debus this turn
    new_turn(g)
    activate(g, "german", "A")
    g.apply(Debus("G"))
    assert g.units["G"].hexes == [nb("3007", 4)] and not reach(g, "T")


def test_rf_units_horse_drawn_transport_only_tows(tmp_path):
    units = [unit("G", "ger_schuetzengruppe"), unit("H", "ger_horse_team")]
    g = make_game(tmp_path, [("A", "A-spades", units)], ENEMY, {"G": "3007", "H": "3007", "R9": "4925"})
    activate(g, "german", "A")
    assert Embus("G", "H") not in g.legal_actions()
    with pytest.raises(IllegalAction) as e:
        g.apply(Embus("G", "H"))
    assert e.value.rule == "units.transport"


def test_rf_movement_commander_in_a_vehicle_adds_a_hex(tmp_path):
    units = [unit("C", "ger_kompaniechef"), unit("T", "ger_opel_blitz")]
    g = make_game(tmp_path, [("A", "A-spades", units)], ENEMY, {"C": "3007", "T": "3007", "R9": "4925"})
    activate(g, "german", "A")
    g.apply(Embus("C", "T"))
    new_turn(g)
    activate(g, "german", "A")
    assert g.move_allowance(g.units["T"]) == 4


def test_rf_movement_limber_and_unlimber_take_a_turn(tmp_path):
    units = [unit("P", "ger_pak38", tow="Z"), unit("Z", "ger_sdkfz7"), unit("X", "ger_schuetzengruppe")]
    g = make_game(tmp_path, [("A", "A-spades", units)], ENEMY, {"P": "3007", "Z": "3007", "X": "3003", "R9": "4925"})
    activate(g, "german", "A")
    assert not reach(g, "P")  # medium AT gun: may only move if towed
    g.apply(Limber("P"))
    assert g.units["P"].limbered and g.units["Z"].towing == "P"
    assert not reach(g, "Z") and Unlimber("P") not in g.legal_actions()  # it takes the turn
    new_turn(g)
    activate(g, "german", "A")
    dest = nb(nb("3007", 4), 4)
    g.apply(Move("Z", dest))
    assert g.units["P"].hexes == [dest]
    assert not g.fire_options(g.units["P"])  # limbered guns do not fire
    new_turn(g)
    activate(g, "german", "A")
    g.apply(Unlimber("P"))
    assert not g.units["P"].limbered and g.weapon_counts(g.units["P"], "personnel") == []  # not this turn
    new_turn(g)
    activate(g, "german", "A")
    assert g.weapon_counts(g.units["P"], "personnel") == [("medium_at_gun", 2)]


def test_rf_movement_commander_adds_one_hex_when_he_goes_along(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), unit("X", "ger_schuetzengruppe")]),
                             ("HQ", "2-spades", [unit("C", "ger_kompaniechef")])], ENEMY,
                  {"G": "3007", "X": "3003", "C": "3007", "R9": "4925"})
    activate(g, "german", "A")
    assert max(dist("3007", h) for h in reach(g, "G")) == 1
    assert max(dist("3007", h) for h in reach(g, "G", with_commander=True)) == 2
    two = nb(nb("3007", 4), 4)
    g.apply(Move("G", two, with_commander=True))
    assert g.units["C"].hexes == [two] and g.units["G"].hexes == [two]
    activate(g, "german", "HQ")  # his own card, the same turn: he has moved
    assert not reach(g, "C") and g._blocked_move(g.units["C"])[0] == "r.commander"


def test_rf_setup_a_dug_in_commander_going_along_loses_dug_in_with_his_unit(tmp_path):
    """r.setup: units set up dug in lose it when they move; the commander who goes along moves too."""
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe"), unit("C", "ger_kompaniechef")])],
                  ENEMY, {"G": "3007", "C": "3007", "R9": "4925"}, dug_in=True)
    assert g.units["G"].dug_in and g.units["C"].dug_in
    activate(g, "german", "A")
    g.apply(Move("G", nb("3007", 4), with_commander=True))
    assert g.units["C"].hexes == g.units["G"].hexes == [nb("3007", 4)]
    assert not g.units["G"].dug_in and not g.units["C"].dug_in


def test_rf_movement_extend_and_contract(tmp_path):  # General Rules: more than one hex (r.multi_hex)
    units = [unit("G", "ger_schuetzengruppe"), unit("P", "ger_pzkpfw_iii"), unit("K", "ger_pak38"),
             unit("L", "ger_le_ig18", tow="Z"), unit("Z", "ger_sdkfz7")]
    g = make_game(tmp_path, [("A", "A-spades", units)], ENEMY,
                  {"G": "3007", "P": "3003", "K": "3005", "L": "3009", "Z": "3010", "R9": "4925"})
    activate(g, "german", "A")
    acts = g.legal_actions()
    assert Extend("G", nb("3007", 4)) in acts
    assert not any(isinstance(a, Extend) and a.unit in ("P", "K") for a in acts)  # AFVs, untowed guns: no
    assert any(isinstance(a, Extend) and a.unit == "L" for a in acts)  # a towed artillery unit may
    g.apply(Extend("G", nb("3007", 4)))
    assert g.units["G"].hexes == ["3007", nb("3007", 4)]
    new_turn(g)
    activate(g, "german", "A")
    assert not reach(g, "G")
    assert g._blocked_move(g.units["G"])[0] == "r.multi_hex"
    g.apply(Contract("G", nb("3007", 4)))
    assert g.units["G"].hexes == [nb("3007", 4)]


def test_rf_movement_aircraft_table_rows():
    assert aircraft_table() == {"reconnaissance": (4, 10), "fighter": (9, 6), "ground_attack": (6, 5),
                                "dive_bomber": (5, 5), "bomber": (6, 8), "transport": (6, 8)}


def _plane(tmp_path, type_, arrives=1, entry="3020", heading=1):
    g = make_game(tmp_path, [("Air", "10-clubs", [unit("A", type_, arrives=arrives, entry=entry, heading=heading)]),
                             ("B", "2-clubs", [unit("G", "ger_schuetzengruppe")])], ENEMY,
                  {"G": "3007", "R9": "4925"})
    return activate(g, "german", "Air")


@pytest.mark.parametrize("type_,every", [("ger_bf109", 2), ("ger_he111", 3)])
def test_rf_movement_aircraft_turn_60_degrees_every_2_or_3_hexes(tmp_path, type_, every):
    g = _plane(tmp_path, type_, entry="4025")
    a = g.units["A"]
    for i in range(every):
        assert (AirStep("A", 1) in g.legal_actions()) == (i >= every)
        with pytest.raises(IllegalAction) as e:
            g.apply(AirStep("A", -1))
        assert e.value.rule == "movement.aircraft"
        g.apply(AirStep("A", 0))
    assert AirStep("A", 1) in g.legal_actions() and AirStep("A", -1) in g.legal_actions()
    g.apply(AirStep("A", 1))
    assert a.heading == 2 and a.straight == 1


def test_rf_movement_aircraft_fly_their_hexes_per_turn(tmp_path):
    g = _plane(tmp_path, "ger_ju87", entry="4025")
    for _ in range(5):
        g.apply(AirStep("A", 0))
    assert not any(isinstance(x, AirStep) for x in g.legal_actions())
    assert g.units["A"].hexes == ["4020"]


def test_rf_movement_aircraft_leave_after_their_turns_over_the_battlefield(tmp_path):
    g = _plane(tmp_path, "ger_ju87", entry="4025")
    a = g.units["A"]
    for t in range(2, 6):
        new_turn(g)
        activate(g, "german", "Air")
        assert a.status == "ok"
    new_turn(g)
    activate(g, "german", "Air")  # the sixth activation: 5 turns are spent
    assert a.status == "gone" and events(g, "aircraft_leaves")


def test_rf_movement_aircraft_flying_off_the_section_leave(tmp_path):
    g = _plane(tmp_path, "ger_bf109", entry="3002", heading=1)
    g.apply(AirStep("A", 0))
    g.apply(AirStep("A", 0))  # off the top edge of the map
    assert g.units["A"].status == "gone"


def test_rf_movement_end_activation_passes_the_turn_on(tmp_path):
    g = one(tmp_path, "ger_schuetzengruppe", start="3009")
    n = g.turn_no
    g.apply(EndActivation())
    assert g.turn_no == n + 1 and events(g, "shuffle")
