"""Content keys name a map's content exactly, and the content cache stays bounded
(:mod:`maps.content_cache`)."""

from __future__ import annotations

import pytest

from maps.content_cache import ContentCache, content_key
from maps.model import HexRecord
from tests.mapbuilder import make_map


def test_equal_maps_have_one_key_and_any_edit_another():
    a = make_map(cols=(10, 20), rows=(1, 10), trees={"1205": 2})
    b = make_map(cols=(10, 20), rows=(1, 10), trees={"1205": 2})
    assert a.doc is not b.doc and content_key(a.doc) == content_key(b.doc)
    # one hex painted (a tree symbol more), as the editor's brush replaces its record
    painted = a.doc.model_copy(update={"hexes": [HexRecord(id="1205", trees=3)]})
    assert content_key(painted) != content_key(a.doc)
    # a hex record added, a name changed: every field counts
    assert content_key(a.doc.model_copy(update={"hexes": [*a.doc.hexes, HexRecord(id="1306", level=1)]})) \
        != content_key(a.doc)
    assert content_key(a.doc.model_copy(update={"name": "other"})) != content_key(a.doc)


def test_no_key_for_what_is_not_a_model():
    assert content_key(None) is None
    assert content_key({"name": "a dict"}) is None


def test_the_cache_keeps_the_most_recently_used_entries():
    c = ContentCache(2)
    c.put("a", 1)
    c.put("b", 2)
    assert c.get("a") == 1          # "a" now the most recently used
    c.put("c", 3)                   # "b" goes
    assert "b" not in c and c.get("a") == 1 and c.get("c") == 3
    assert len(c) == 2
    assert c.get("b") is None
    assert (c.hits, c.misses) == (3, 1)
    c.clear()
    assert len(c) == 0


def test_a_cache_holds_at_least_one_entry():
    with pytest.raises(ValueError, match="at least one"):
        ContentCache(0)


def test_equal_maps_share_their_building_hexes_and_a_moved_building_has_its_own():
    from maps import hexgrid

    def poly(hid):
        return [tuple(p) for p in hexgrid.hex_polygon(hexgrid.parse_hex_id(hid)).exterior.coords[:-1]]

    a = make_map(buildings={"B1": poly("1205")})
    b = make_map(buildings={"B1": poly("1205")})
    assert a.building_hexes is b.building_hexes and b.buildings_at(hexgrid.parse_hex_id("1205")) == ["B1"]
    moved = make_map(buildings={"B1": poly("1306")})
    assert {h.id for h in moved.building_hexes["B1"]} == {"1306"}
    assert {h.id for h in a.building_hexes["B1"]} == {"1205"}
    wider = make_map(cols=(10, 21), buildings={"B1": poly("1205")})   # another extent: built again
    assert wider.building_hexes is not a.building_hexes


def test_a_list_of_models_has_a_key_and_anything_else_none():
    a = make_map(trees={"1205": 2}).doc
    b = make_map(trees={"1205": 3}).doc
    assert content_key([a, b]) == content_key([a, b]) != content_key([b, a])
    assert content_key([]) is not None and content_key([a, "text"]) is None and content_key("text") is None
