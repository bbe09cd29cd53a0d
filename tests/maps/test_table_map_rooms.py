"""Rooms, doors and windows on the table (20 mm seed 003, "Infantry Moving and Firing in
Buildings"): room_at, wall_openings, wall_crossings, can_fire_across."""

from __future__ import annotations

import json

import pytest

from maps.mapfile import map_from_data
from maps.table_map import TableMap
from tests.maps.test_map_rooms import SAMPLE, with_rooms


def _table(data) -> TableMap:
    return TableMap.from_map(map_from_data(data, "x.json"), 4.0)


@pytest.fixture(scope="module")
def tm() -> TableMap:
    return _table(with_rooms())


def _p(tm, x, y):
    return tm.to_table(x, y)


def test_20mm_infantry_moving_and_firing_in_buildings_room_at(tm):
    w, e = tm.room_at(_p(tm, 32.5, 13)), tm.room_at(_p(tm, 33.5, 13))
    assert (w.building, w.index, w.sectioned) == ("B2", 0, True)
    assert (e.building, e.index) == ("B2", 1)
    assert tm.room_at(_p(tm, 30, 13)) is None
    assert [r.index for r in tm.rooms("B2")] == [0, 1]
    assert tm.has_openings("B2") and not tm.has_openings("B1")
    b1 = tm.room_at(_p(tm, 44, 15))   # a building without rooms is one room
    assert (b1.building, b1.index, b1.sectioned) == ("B1", 0, False)


def test_20mm_infantry_moving_and_firing_in_buildings_wall_openings(tm):
    assert tm.wall_openings("B2", [_p(tm, 32.207, 12.5), _p(tm, 33, 12.5)]) == ["window"]
    assert tm.wall_openings("B2", [_p(tm, 33, 12.5), _p(tm, 33, 13.5)]) == ["door"]
    assert tm.wall_openings("B2", [_p(tm, 32.207, 13.5), _p(tm, 33, 13.5)]) == []
    assert tm.wall_openings("B1", [_p(tm, 41.166, 13.4), _p(tm, 42.834, 13.4)]) == ["door", "window"]


def test_20mm_infantry_moving_and_firing_in_buildings_wall_crossings_door_window_blank(tm):
    west, east = _p(tm, 32.5, 13), _p(tm, 33.5, 13)
    assert [c.kind for c in tm.wall_crossings(west, _p(tm, 32.6, 11.5))] == ["window"]
    assert [c.kind for c in tm.wall_crossings(west, east)] == ["door"]
    assert [c.kind for c in tm.wall_crossings(east, _p(tm, 33.45, 14.5))] == ["door"]
    assert [c.kind for c in tm.wall_crossings(west, _p(tm, 32.5, 14.5))] == ["wall"]
    # in from outside through the window, then through the inner door: nearest first
    got = tm.wall_crossings(_p(tm, 32.6, 11.5), _p(tm, 32.6, 13.0))
    assert [c.kind for c in got] == ["window"] and got[0].building == "B2"
    assert tm.wall_crossings(west, _p(tm, 32.6, 13.2)) == []   # inside one room
    # a building without openings data: every wall is a door (free)
    assert [c.kind for c in tm.wall_crossings(_p(tm, 44, 15), _p(tm, 44, 12))] == ["door"]


def test_20mm_infantry_moving_and_firing_in_buildings_fire_out_of_sides_with_openings(tm):
    west, east = _p(tm, 32.5, 13), _p(tm, 33.5, 13)
    assert tm.can_fire_across(west, _p(tm, 32.6, 10))         # the west room's window side
    assert not tm.can_fire_across(west, _p(tm, 32.5, 16))     # a blank side
    assert tm.can_fire_across(east, _p(tm, 33.45, 16))        # the east room's door side
    assert not tm.can_fire_across(east, _p(tm, 33.4, 10))     # blank
    assert tm.can_fire_across(west, _p(tm, 32.7, 13.3))       # same room
    assert tm.can_fire_across(_p(tm, 30, 13), west)           # outside any building
    assert tm.can_fire_across(_p(tm, 44, 15), _p(tm, 44, 10))   # no openings data: any side


def test_20mm_infantry_moving_and_firing_in_buildings_large_building_fires_across_its_nearest_wall():
    d = json.loads(SAMPLE.read_text())
    d["buildings"][1]["openings"] = [{"kind": "window", "segment": [[32.4, 12.5], [32.8, 12.5]]}]
    tm = _table(d)
    room = tm.room_at(tm.to_table(32.5, 12.6))
    assert room.sectioned is False
    near_top, near_bottom = tm.to_table(32.5, 12.6), tm.to_table(32.5, 13.4)
    side = tm.fire_side(near_top, tm.to_table(32.5, 16))   # the wall nearest it, whatever the target
    want = sorted([tm.to_table(32.207, 12.5), tm.to_table(33.793, 12.5)])
    assert [c for pt in sorted(side) for c in pt] == pytest.approx([c for pt in want for c in pt])
    assert tm.can_fire_across(near_top, tm.to_table(32.6, 10))       # against the window wall, out of it
    assert not tm.can_fire_across(near_top, tm.to_table(32.5, 16))   # not out of another wall
    assert not tm.can_fire_across(near_bottom, tm.to_table(32.5, 16))   # its wall has no window
    assert tm.can_fire_across(near_top, tm.to_table(33.5, 13))       # within the building
