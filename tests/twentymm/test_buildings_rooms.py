"""20 mm rules (seed 003), "Infantry Moving and Firing in Buildings": rooms, doors and windows."""

from __future__ import annotations

import pytest

from core.twentymm.actions import Fire, Move
from core.twentymm.game import TwentyIllegal
from tests.twentymm.helpers import game, inf, script, table

#: A house split into a west and an east room (map units; about 65.8-72.7 by 38-42 inches): a window
#: in the west room's north wall, a door in the east room's south wall, a door between the rooms.
HOUSE = {"id": "B1", "polygon": [[57, 19], [63, 19], [63, 21], [57, 21]],
         "rooms": [[[57, 19], [60, 19], [60, 21], [57, 21]], [[60, 19], [63, 19], [63, 21], [60, 21]]],
         "openings": [{"kind": "window", "segment": [[58, 19], [59, 19]]},
                      {"kind": "door", "segment": [[61, 21], [62, 21]]},
                      {"kind": "door", "segment": [[60, 19.8], [60, 20.2]]}]}
#: The same house as one large building without rooms, a window in its north wall only.
HALL = {"id": "B1", "polygon": HOUSE["polygon"], "openings": [{"kind": "window", "segment": [[58, 19], [59, 19]]}]}


def _x(t, X):
    return t.to_table(X, 20)[0]


def test_20mm_infantry_moving_and_firing_in_buildings_fire_only_out_of_sides_of_the_room_with_windows_or_doors():
    t = table(buildings=[HOUSE])
    wx, ex = _x(t, 58.5), _x(t, 61.5)
    g = game([inf("R", "russian", (wx, 38.5), facing=270.0, men=2), inf("B", "russian", (wx, 41.5), facing=90.0, men=2),
              inf("E", "russian", (ex, 41.5), facing=90.0, men=2),
              inf("G", "german", (wx, 32.0), men=4, facing=90.0), inf("S", "german", (wx, 48.0), facing=270.0, men=4),
              inf("T", "german", (ex, 48.0), facing=270.0, men=4)], t=t, first="russian")
    assert g.table.room_at((wx, 40)).index == 0 and g.table.room_at((ex, 40)).index == 1
    with pytest.raises(TwentyIllegal, match="Infantry Moving and Firing in Buildings: no window or door"):
        g.apply(Fire("B", "small_arms", "S"))          # the west room's south side is blank
    assert not g.can_see(g.units["B"], g.units["S"]) and not g.can_see(g.units["S"], g.units["B"])   # nor shot at
    assert g.can_see(g.units["T"], g.units["E"])       # the east room's door side: shot at through it
    script(g, 1, 1)
    g.apply(Fire("R", "small_arms", "G"))               # out of the window side
    script(g, 1, 1)
    g.apply(Fire("E", "small_arms", "T"))               # out of the door side


def test_20mm_infantry_moving_and_firing_in_buildings_move_through_a_door_freely():
    t = table(buildings=[HOUSE])
    ex, a, b = _x(t, 61.5), _x(t, 59.5), _x(t, 60.5)
    g = game([inf("Q", "russian", (ex, 43.0), facing=270.0), inf("Y", "russian", (a, 40.0), facing=0.0),
              inf("X", "german", (40.0, 75.0))], t=t, first="russian")
    g.apply(Move("Q", ((ex, 40.2),)))                 # in by the south door: 2.8 inches, more than an obstacle crossing allows
    g.apply(Move("Y", ((b, 40.0),)))                  # west room to east room by the inner door
    assert g.table.room_at(g.units["Q"].pos).index == 1 and g.table.room_at(g.units["Y"].pos).index == 1
    # a door is no obstacle: no crossing counted, the move is an ordinary one
    assert g.leg_cost(g.units["Q"], (ex, 43.0), (ex, 41.0))[1]["obstacles"] == []
    assert [w.kind for w in g.leg_cost(g.units["Q"], (ex, 43.0), (ex, 41.0))[1]["walls"]] == ["door"]


def test_20mm_infantry_moving_and_firing_in_buildings_windows_only_is_an_obstacle():
    t = table(buildings=[HOUSE])
    wx = _x(t, 58.5)
    g = game([inf("Q", "russian", (wx, 36.5), facing=90.0), inf("P", "russian", (wx, 34.0), facing=90.0),
              inf("X", "german", (40.0, 75.0))], t=t, first="russian")
    with pytest.raises(TwentyIllegal, match="one turn to cross an obstacle"):
        g.apply(Move("P", ((wx, 39.0),)))               # 5 inches through the window: too far for a crossing
    g.apply(Move("Q", ((wx, 38.5),)))                   # in through the window: the whole turn
    assert g.table.room_at(g.units["Q"].pos).index == 0


def test_20mm_infantry_moving_and_firing_in_buildings_never_through_a_blank_wall():
    t = table(buildings=[HOUSE])
    wx, ex = _x(t, 58.5), _x(t, 61.5)
    g = game([inf("Q", "russian", (wx, 44.0), facing=270.0), inf("W", "russian", (wx, 39.0), facing=0.0),
              inf("X", "german", (40.0, 75.0))], t=t, first="russian")
    with pytest.raises(TwentyIllegal, match="Infantry Moving and Firing in Buildings: no door or window in B1's wall"):
        g.apply(Move("Q", ((wx, 41.5),)))               # the west room's south wall is blank
    with pytest.raises(TwentyIllegal, match="no door or window"):
        g.apply(Move("W", ((ex, 39.0),)))               # the inner wall away from its door
    assert g.units["Q"].pos == (wx, 44.0) and g.units["W"].pos == (wx, 39.0)


def test_20mm_infantry_moving_and_firing_in_buildings_large_building_fires_only_across_the_wall_it_is_against():
    t = table(buildings=[HALL])
    wx = _x(t, 58.5)
    g = game([inf("R", "russian", (wx, 38.5), facing=270.0, men=2), inf("B", "russian", (wx, 41.5), facing=90.0, men=2),
              inf("G", "german", (wx, 32.0), men=4, facing=90.0), inf("S", "german", (wx, 48.0), facing=270.0, men=4)],
             t=t, first="russian")
    assert g.table.room_at((wx, 40)).sectioned is False
    with pytest.raises(TwentyIllegal, match="Infantry Moving and Firing in Buildings"):
        g.apply(Fire("B", "small_arms", "S"))          # against the south wall, which has no window
    script(g, 1, 1)
    g.apply(Fire("R", "small_arms", "G"))               # against the north wall, out of its window
