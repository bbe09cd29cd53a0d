"""General Rules (100 mm hexes, several units in a hex, line of sight) and the activation deck."""

from __future__ import annotations

import pytest

from core.redflags.actions import EndActivation, Fire, IllegalAction, Move
from core.redflags.terrain import Sight, Terrain, terrain_mapping
from core.redflags.view import PlayerView
from tests.mapbuilder import make_map
from tests.redflags.helpers import activate, events, make_game, nb, unit

# ------------------------------------------------------------------ LOS on a small map
# Column 12 runs straight down the sheet: the line from 1203 to 1207 crosses 1204, 1205 and 1206.


def sight(**kw) -> Sight:
    return Sight(Terrain(make_map(**kw)))


def test_rf_general_los_clear_ground():
    assert sight().los("1203", "1207")


def test_rf_general_los_woods_are_a_vertical_obstacle():
    assert not sight(trees={"1205": 2}).los("1203", "1207")
    assert sight(trees={"1205": 1}).los("1203", "1207")  # one tree symbol: scattered trees, no obstacle
    assert sight(trees={"1203": 3, "1207": 3}).los("1203", "1207")  # the ends' own hexes never obscure


def test_rf_general_los_other_units_are_vertical_obstacles():
    s = sight()
    assert not s.los("1203", "1207", {"1205"})
    assert s.los("1203", "1207", {"1203", "1207", "1105"})


def test_rf_general_los_building_symbol_obscures_where_the_line_crosses_it():
    on_line = {"B1": [(35.5, 9.5), (36.5, 9.5), (36.5, 10.5), (35.5, 10.5)]}
    off_line = {"B1": [(36.8, 9.5), (37.6, 9.5), (37.6, 10.5), (36.8, 10.5)]}
    assert not sight(buildings=on_line).los("1203", "1207")
    assert sight(buildings=off_line).los("1203", "1207")  # a building hex whose symbol the line misses


def test_rf_general_los_a_hill_between_obscures():
    assert not sight(levels={"1205": 1}).los("1203", "1207")
    assert not sight(levels={"1203": 1, "1205": 2}).los("1203", "1207")  # higher than both ends


def test_rf_general_los_from_higher_terrain_vertical_obstacles_may_not_obscure():
    # 1203 on a hill: the wood in 1205 stands two hexes in front of the target: it sees over it
    s = sight(levels={"1203": 1}, trees={"1205": 2})
    assert s.los("1203", "1207") and s.los("1207", "1203")
    assert sight(levels={"1203": 1}).los("1203", "1207", {"1205", "1204"})  # nor do units


def test_rf_general_los_common_sense_dead_ground_behind_an_obstacle():  # r.los
    # the wood adjoins the lower end: the target stands close behind it
    assert not sight(levels={"1203": 1}, trees={"1206": 2}).los("1203", "1207")
    assert not sight(levels={"1203": 1}).los("1203", "1207", {"1206"})


def test_rf_general_los_common_sense_crest():  # r.los
    assert sight(levels={"1203": 1, "1204": 1}).los("1203", "1207")  # at the crest of its own hill
    assert not sight(levels={"1203": 1, "1205": 1}).los("1203", "1207")  # a crest two hexes in front
    assert not sight(levels={"1203": 1, "1204": 1}, trees={"1204": 2}).los("1203", "1207")  # a wood on the hill


def test_rf_general_los_both_on_hills_see_over_the_valley_wood():
    assert sight(levels={"1203": 1, "1207": 1}, trees={"1205": 2}).los("1203", "1207")


def test_rf_general_los_along_a_hexside_obscured_only_if_both_sides_are():
    # 1205 -> 1405 runs along the side between 1304 and 1305
    assert sight(trees={"1304": 2}).los("1205", "1405")
    assert not sight(trees={"1304": 2, "1305": 2}).los("1205", "1405")


def test_rf_general_los_is_symmetric_on_the_mapsheet(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": "3007", "R": "4925"})
    for a, b in (("3617", "3624"), ("3121", "3525"), ("3412", "3816"), ("3717", "4019"), ("3005", "3905")):
        assert g.sight.terrain_los(a, b) == g.sight.terrain_los(b, a)


# ------------------------------------------------------------------ scale, stacking, hexes
def test_rf_general_one_map_hex_is_one_100mm_hex():
    m = terrain_mapping()
    assert m["scale"]["provenance"] == "rulebook" and "100mm" in m["scale"]["source"]


def test_rf_general_several_units_in_a_hex_as_space_allows(tmp_path):  # r.stacking
    units = [unit("G1", "ger_schuetzengruppe"), unit("G2", "ger_schuetzengruppe"), unit("T", "ger_opel_blitz"),
             unit("C", "ger_kompaniechef")]
    g = make_game(tmp_path, [("A", "A-spades", units)], [("B", "K-hearts", [unit("R", "sov_rifle_section")])],
                  {"G1": "3007", "G2": "3008", "T": "3007", "C": "3007", "R": "4925"})
    assert g.space_of(g.units["G1"]) == 6 and g.free_space("3007") == 12 - 6 - 4 - 1
    activate(g, "german", "A")
    r, blocked = g.reachable(g.units["G2"])
    assert "3009" in r and "3007" not in r and blocked["3007"] == "r.stacking"


def test_rf_general_several_units_in_a_hex_activate_separately(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G1", "ger_schuetzengruppe")]),
                             ("A2", "2-spades", [unit("G2", "ger_reitergruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G1": "3007", "G2": "3007", "R": "4925"})
    activate(g, "german", "A")
    assert any(isinstance(a, Move) and a.unit == "G1" for a in g.legal_actions())
    assert not any(getattr(a, "unit", None) == "G2" for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        g.apply(Move("G2", "3008"))
    assert e.value.rule == "activation"


def test_rf_general_a_hex_never_holds_both_sides(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_reitergruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": "3007", "R": "3008"})
    activate(g, "german", "A")
    r, blocked = g.reachable(g.units["G"])
    assert "3008" not in r and blocked["3008"] == "r.stacking"


# ------------------------------------------------------------------ the activation deck
def test_rf_activation_one_card_per_group_shuffled_every_turn(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")]),
                             ("A2", "3-diamonds", [unit("G2", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")]), ("B2", "4-clubs", [unit("R2", "sov_scouts")])],
                  {"G": "3007", "G2": "3001", "R": "4925", "R2": "4920"})
    assert sorted(c["label"] for c in g.cards) == sorted(["A♠", "3♦", "K♥", "4♣"])
    assert [c["black"] for c in g.cards] == [True, False, False, True]
    shuffle = [e for e in g.events if e["kind"] == "roll" and e["rule"] == "activation"]
    assert len(shuffle) == 3  # Fisher-Yates over 4 cards: each step a logged die
    assert len(events(g, "card")) == 1 and g.card is not None


def test_rf_activation_the_turn_ends_when_every_card_is_turned(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")]),
                             ("A2", "3-diamonds", [unit("G2", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])],
                  {"G": "3007", "G2": "3001", "R": "4925"}, seed=3)
    seen = []
    while g.turn_no == 1:
        seen.append(g.card["group"])
        g.apply(EndActivation())
    assert sorted(seen) == ["A", "A2", "B"]
    assert events(g, "turn_end")[0]["turn"] == 1 and g.turn_no == 2
    assert len(g.turned) == 1  # the cards are collected and dealt again


def test_rf_activation_the_named_group_acts_and_no_other(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"G": "3007", "R": "3009"})
    activate(g, "german", "A")
    assert g.current_side() == "german"
    assert {getattr(a, "unit", None) for a in g.legal_actions()} <= {"G", None}
    with pytest.raises(IllegalAction) as e:
        g.apply(Fire("R", "3007", "G"))
    assert e.value.rule == "activation"


def test_rf_activation_the_view_shows_the_cards_left_but_not_their_order(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("G", "ger_schuetzengruppe")]),
                             ("A2", "3-diamonds", [unit("G2", "ger_schuetzengruppe")]),
                             ("A3", "5-diamonds", [unit("G3", "ger_schuetzengruppe")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])],
                  {"G": "3007", "G2": "3001", "G3": "3003", "R": "4925"})
    v = PlayerView(g, "russian")
    left = v.cards_left
    assert len(left) == len(g.deck) == 3
    assert left == sorted(left, key=lambda c: (c["side"], c["group"]))
    assert v.card == g.card


def test_rf_activation_a_group_with_nothing_to_do_is_passed(tmp_path):
    g = make_game(tmp_path, [("A", "A-spades", [unit("T", "ger_pak38")])],
                  [("B", "K-hearts", [unit("R", "sov_rifle_section")])], {"T": "3007", "R": "4925"}, seed=5)
    # the German gun can neither move nor see anything: its card passes by itself
    assert g.current_side() == "russian"
    assert any(e["kind"] == "activation_end" and e.get("auto") for e in g.events) or g.card["group"] == "B"
