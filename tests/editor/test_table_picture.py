"""The picture of a map read as a table (editor/tabletop/table_picture.py): areas where the TableMap has them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtGui import QColor, QImage  # noqa: E402

from editor.tabletop.table_picture import main, render_table_png  # noqa: E402
from maps.mapfile import load_map  # noqa: E402
from maps.table_map import TableMap  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "data" / "sample_village.json"


def test_the_picture_shows_woods_green_and_buildings_red_where_the_table_has_them(tmp_path, qapp):
    t = TableMap.from_map(load_map(SAMPLE), 4.0)
    out = tmp_path / "table.png"
    ppi = 8.0
    w, h = render_table_png(t, out, ppi)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (w, h)
    minx, miny = t.table.bounds[:2]

    def colour(pt) -> QColor:   # the picture's margins: 4 inches, and 5 more above for the title
        return QColor(img.pixel(round((pt[0] - minx + 4) * ppi), round((pt[1] - miny + 9) * ppi)))

    wood = colour(t.hex_centre("1304"))
    assert wood.green() > wood.red() + 40 and wood.green() > wood.blue() + 40
    bpt = next(a for a in t.buildings if a.ref == "B1").polygon.representative_point()
    building = colour((bpt.x, bpt.y))
    assert building.red() > building.green() + 60
    open_ground = colour(t.hex_centre("1109"))
    assert open_ground.red() > 200 and open_ground.green() > 200


def test_the_command_line_writes_the_picture_and_refuses_an_unknown_section(tmp_path, capsys, qapp):
    out = tmp_path / "west.png"
    assert main([str(SAMPLE), "--scale", "3.94", "--section", "West", "-o", str(out)]) == 0
    assert out.exists() and "west.png" in capsys.readouterr().out
    assert main([str(SAMPLE), "--section", "North", "-o", str(tmp_path / "x.png")]) == 1
    assert "no section named 'North'" in capsys.readouterr().err
