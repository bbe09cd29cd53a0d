"""Terrain LOS tables (rule 10.3): every line of sight of a set of hexes, precomputed in bulk and
cached on disk, with :func:`maps.los.line_of_sight` still the one truth.

A :class:`LosTable` holds, for every ordered pair of hexes of a playing area, the answers of
:func:`maps.los.line_of_sight` for the *terrain alone* (hills, trees, building symbols, marsh; no
AFVs, no wrecks): clear with the firer UP, clear with the firer DOWN (10.31 c), the trees along the
line (10.31 b, 11.16 b, 23.2 d) and the marsh hexes along it (23.2 e). It is a cache of those
answers, computed the same way (the same exact lines of :func:`maps.hexgrid.line_hexes`, the same
clauses, the same exact building-symbol test), only vectorised over all pairs with numpy; the tests
compare it with :func:`maps.los.line_of_sight` pair by pair. LOS between two hexes is symmetric:
the line meets the same hexes either way, 10.31 a-c count them alike, 10.32 measures from the lower
unit whoever fires, and 10.31 c reads the firer's state, which the DOWN column stands for; so each
unordered pair is computed once and fills both orders (every order of every pair of the three
shipped sections was checked against line_of_sight when this was written).

:class:`LosOracle` answers queries: from the table when the line meets no hex holding AFVs or wrecks
(:class:`TableLos`), else exactly with :func:`maps.los.line_of_sight` (:class:`OccupiedLos`; AFVs
and wrecks count along the line, 10.31 b, 11.16 b; a line meets a hex when it crosses it or runs
along one of its hexsides, the hexes whose numbers 10.31 b adds up). The exact answers are cached
by the line and the AFVs/wrecks of the hexes it meets, so an AFV moving elsewhere does not
invalidate them; an OccupiedLos knows ``clear`` without them where AFVs and wrecks cannot change it
(different levels, 10.32; the terrain alone blocks). :func:`los_oracle` gives one oracle per map
object, its table loaded now or, ``wait=False``, on a daemon thread (answers exact meanwhile).

**The disk cache.** Tables are stored as compressed numpy files ``los-<key>.npz`` in
:func:`cache_dir` (``$IRONCROSS_CACHE_DIR``, else ``$XDG_CACHE_HOME/ironcross/los``, else
``~/.cache/ironcross/los``), shared by every process (playtest workers, the editor). ``<key>`` is
a SHA-256 of everything an answer depends on (:func:`table_key`): the map's LOS content (extent,
each hex's trees, level and marsh, each building symbol's polygon), the terrain chart's obstacle
heights (10.32 a), the set of hexes, and the source of the LOS code itself (``maps/los.py``,
``maps/hexgrid.py``, this module). A change to any of them gives a new key, so a stale table is
never read: it is rebuilt and stored under its new key; files unused for
:data:`CACHE_MAX_AGE_DAYS` days are deleted when a table is written. ``IRONCROSS_LOS_CACHE=off``
keeps tables in memory only; ``IRONCROSS_LOS_TABLE=off`` answers everything with line_of_sight.
Files are written atomically (a temporary file renamed), so workers racing to build the same table
never read half a file; an unreadable file is reported (a warning) and rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import time
import warnings
import zipfile
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import numpy as np
import shapely

from maps import hexgrid
from maps.hexgrid import Hex

__all__ = ["LosTable", "LosOracle", "TableLos", "OccupiedLos", "FrozenOccupancy", "build_los_table", "load_los_table",
           "los_oracle", "table_key", "cache_dir", "CACHE_MAX_AGE_DAYS"]

#: Table files not used (read or written) for this many days are deleted when a table is written.
CACHE_MAX_AGE_DAYS = 60

_UP, _DOWN = 1, 2  # flag bits: clear with the firer UP / DOWN
_M = 2  # margin of the terrain grid around the hexes (lines touch hexes just outside the block)
_CODE = 256  # hex code = col * _CODE + row (rows < 100)
_EPS = 1e-6  # map units: far above rounding, far below any drawn feature


# ---------------------------------------------------------------------------------------------
# keys and the disk cache

_SOURCE_DIGEST: str | None = None


def _source_digest() -> str:
    """SHA-256 of the LOS code (this module, maps/los.py, maps/hexgrid.py): a change to how LOS is
    decided makes every cached table stale."""
    global _SOURCE_DIGEST
    if _SOURCE_DIGEST is None:
        from maps import los

        h = hashlib.sha256()
        for mod in (los, hexgrid):
            h.update(Path(mod.__file__).read_bytes())
        h.update(Path(__file__).read_bytes())
        _SOURCE_DIGEST = h.hexdigest()
    return _SOURCE_DIGEST


def _real_map(hexmap):
    """The :class:`maps.hexmap.HexMap` behind a view of it (the engine's playing area)."""
    return getattr(hexmap, "_map", hexmap)


def _chart_of(hexmap, chart):
    """The chart :func:`maps.los.line_of_sight` uses for ``chart`` on ``hexmap``."""
    from maps.los import default_chart

    return chart or getattr(hexmap, "chart", None) or default_chart()


def table_key(hexmap, hexes, chart=None) -> str:
    """The cache key (hex digest) of the terrain LOS table of ``hexes`` (ids or :class:`Hex`) on
    ``hexmap`` with ``chart`` (default: the map's own): a SHA-256 of the map's LOS content, the
    chart's obstacle heights, the hexes and the LOS code (see the module docstring)."""
    from maps.los import _chart_heights

    m = _real_map(hexmap)
    q, heights = _chart_heights(_chart_of(m, chart))
    recs = []
    for rec in m.doc.hexes:
        h = hexgrid.parse_hex_id(rec.id)
        recs.append((rec.id, m.trees(h), m.level(h), m.is_marsh(h)))
    payload = {
        "extent": [m.first_column, m.last_column, m.first_row, m.last_row],
        "hexes": sorted(recs),
        "buildings": sorted((bid, [list(map(float, p)) for p in poly.exterior.coords],
                             [[list(map(float, p)) for p in r.coords] for r in poly.interiors])
                            for bid, poly in m.building_polygons.items()),
        "heights": [q, sorted(heights.items())],
        "area": sorted(h if isinstance(h, str) else h.id for h in hexes),
        "code": _source_digest(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def cache_dir() -> Path | None:
    """Where tables are stored (see the module docstring); None when the disk cache is off."""
    if os.environ.get("IRONCROSS_LOS_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    d = os.environ.get("IRONCROSS_CACHE_DIR")
    if d:
        return Path(d) / "los"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ironcross" / "los"


def _table_path(key: str) -> Path | None:
    d = cache_dir()
    return None if d is None else d / f"los-{key[:40]}.npz"


def _prune(d: Path) -> None:
    """Delete table files unused for CACHE_MAX_AGE_DAYS days."""
    now = time.time()
    for pattern, age in (("los-*.npz", CACHE_MAX_AGE_DAYS * 86400), ("los-*.tmp", 86400)):
        for p in d.glob(pattern):  # tables unused for long; temporary files a crash left behind
            try:
                if p.stat().st_mtime < now - age:
                    p.unlink()
            except FileNotFoundError:
                pass  # another process pruned it first


# ---------------------------------------------------------------------------------------------
# the table


class LosTable:
    """Terrain-only LOS answers for every ordered pair of ``ids`` (see the module docstring).

    ``flags`` (N x N, uint8): bit 1 clear with the firer UP, bit 2 clear with the firer DOWN;
    ``count``: trees along the line (10.31 b; AFVs and wrecks not included); ``marsh``: marsh
    hexes along it (23.2 e); row = firer, column = target, in the order of ``ids``. The diagonal
    (a hex to itself) is not in the table.
    """

    def __init__(self, key: str, ids: list[str], levels, flags, count, marsh):
        self.key = key
        self.ids = list(ids)
        self.n = n = len(self.ids)
        self.hexes = [hexgrid.parse_hex_id(x) for x in self.ids]
        self.id_index = {x: i for i, x in enumerate(self.ids)}
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.levels = [int(v) for v in levels]
        self.flags_array = np.asarray(flags, dtype=np.uint8).reshape(n, n)
        self.count_array = np.asarray(count, dtype=np.uint8).reshape(n, n)
        self.marsh_array = np.asarray(marsh, dtype=np.uint8).reshape(n, n)
        # bytes index fast (an int per item) for single queries
        self._flags = self.flags_array.tobytes()
        self._count = self.count_array.tobytes()
        self._marsh = self.marsh_array.tobytes()
        self._cols = [h.col for h in self.hexes]
        self._rows = [h.row for h in self.hexes]
        self._ys = [2 * h.row + (h.col & 1) for h in self.hexes]  # lattice y of each centre

    def clear(self, a: str | Hex, b: str | Hex, firer_down: bool = False) -> bool:
        """Terrain-only LOS from ``a`` to ``b`` (both in the table, a != b); raises KeyError."""
        i = self.id_index[a] if isinstance(a, str) else self.index[a]
        j = self.id_index[b] if isinstance(b, str) else self.index[b]
        if i == j:
            raise KeyError("a hex to itself is not in the table")
        return bool(self._flags[i * self.n + j] & (_DOWN if firer_down else _UP))

    def save(self, path: Path) -> None:
        """Write the table to ``path`` atomically (a temporary file renamed)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.stem + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, key=np.array(self.key), ids=np.array(self.ids),
                                    levels=np.array(self.levels, dtype=np.int16), flags=self.flags_array,
                                    count=self.count_array, marsh=self.marsh_array)
            os.chmod(tmp, 0o644)  # readable by whoever shares the cache (mkstemp makes it private)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    @classmethod
    def load(cls, path: Path, key: str) -> "LosTable | None":
        """The table stored at ``path`` when it is the one for ``key``, else None."""
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["key"]) != key:
                    return None
                t = cls(key, [str(x) for x in z["ids"]], z["levels"], z["flags"], z["count"], z["marsh"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            warnings.warn(f"LOS cache file {path} is unreadable ({type(e).__name__}: {e}); building the table again")
            return None
        try:
            os.utime(path)  # used now (age-based pruning)
        except OSError:
            pass
        return t


def _rel_arrays(parity: int, dc: int, dr: int, gh: int):
    """The exact line of a displacement (:func:`maps.los._relative`) as arrays over its
    intermediate hexes (neither the firer's nor the target's): grid offsets, contact codes (0
    interior, 1 hexside, 2 vertex), the hexside partner's grid offset, the distance from the firer;
    then the range. None when a hexside partner is not
    itself an intermediate hex (never on a hex grid; line_of_sight's pair rule would not reduce to
    a max then, so such a displacement is done pair by pair)."""
    from maps.los import _relative

    rel = _relative(parity, dc, dr)
    entries = [e for e in rel if not ((e[0] == 0 and e[1] == 0) or (e[0] == dc and e[1] == dr))]
    sides = {(e[0], e[1]) for e in entries if e[4] == "hexside"}
    if any((e[5], e[6]) not in sides for e in entries if e[4] == "hexside"):
        return None
    off = np.array([e[0] * gh + e[1] for e in entries], dtype=np.int64)
    contact = np.array([0 if e[4] == "interior" else 1 if e[4] == "hexside" else 2 for e in entries], dtype=np.int8)
    poff = np.array([(e[5] * gh + e[6]) if e[4] == "hexside" else e[0] * gh + e[1] for e in entries], dtype=np.int64)
    dist = np.array([e[7] for e in entries], dtype=np.int64)
    rng = rel[-1][7] if rel else 0
    return off, contact, poff, dist, rng


class _Builder:
    """The terrain of a block of hexes (plus a margin) as flat grids, and the vectorised clauses."""

    def __init__(self, m, chart, hs: list[Hex]):
        from maps.los import _chart_heights, _map_los

        self.m, self.chart, self.hs = m, chart, hs
        self.n = n = len(hs)
        self.flags = np.zeros((n, n), dtype=np.uint8)
        self.count = np.zeros((n, n), dtype=np.uint8)
        self.marsh = np.zeros((n, n), dtype=np.uint8)
        self.levels = np.array([m.level(h) for h in hs], dtype=np.int64)
        if not n:
            return
        self.c0, self.c1 = min(h.col for h in hs), max(h.col for h in hs)
        self.r0, self.r1 = min(h.row for h in hs), max(h.row for h in hs)
        gw, self.gh = self.c1 - self.c0 + 1 + 2 * _M, self.r1 - self.r0 + 1 + 2 * _M
        size = gw * self.gh
        self.mlos = mlos = _map_los(m)
        self.trees = np.zeros(size, dtype=np.int64)
        self.level = np.zeros(size, dtype=np.int64)
        self.is_marsh = np.zeros(size, dtype=bool)
        self.bids = sorted(mlos.buildings)
        self.touch = {bid: np.zeros(size, dtype=bool) for bid in self.bids}
        self.hex_at: list[Hex] = [Hex(0, 0)] * size
        for col in range(self.c0 - _M, self.c1 + _M + 1):
            for row in range(self.r0 - _M, self.r1 + _M + 1):
                h = Hex(col, row)
                cell = mlos.cells.get(h, (0, 0, False, ()))
                k = self.g(h)
                self.hex_at[k] = h
                self.trees[k], self.level[k], self.is_marsh[k] = cell[0], cell[1], cell[2]
                for bid in cell[3]:
                    self.touch[bid][k] = True
        self.q, heights = _chart_heights(chart)
        self.woods_h, self.tree_h = heights["woods"], heights["trees"]
        self.bheight = {bid: heights["building_multi"] if m.is_multi_hex_building(bid) else heights["building_single"]
                        for bid in self.bids}
        self.pending: dict[str, list] = {}
        self._piece_cache: dict = {}
        self.pos = np.full(size, -1, dtype=np.int64)
        self.hg = np.array([self.g(h) for h in hs], dtype=np.int64)
        self.pos[self.hg] = np.arange(n)
        self.cols = np.array([h.col for h in hs], dtype=np.int64)
        self.rows = np.array([h.row for h in hs], dtype=np.int64)
        self.cx, self.cy = 3 * self.cols, 2 * self.rows + (self.cols & 1)

    def g(self, h: Hex) -> int:
        """The grid index of hex ``h`` (inside the block plus its margin)."""
        return (h.col - self.c0 + _M) * self.gh + (h.row - self.r0 + _M)

    def run(self) -> None:
        if not self.n:
            return
        cols, rows = self.cols, self.rows
        for parity in (0, 1):
            sel = np.nonzero((cols & 1) == parity)[0]
            if not len(sel):
                continue
            # LOS is symmetric (see the module docstring): each unordered pair once, from the end
            # on its left (or, in one column, from the upper end); _fill writes both orders
            for dc in range(0, self.c1 - self.c0 + 1):
                ok_c = sel[(cols[sel] + dc >= self.c0) & (cols[sel] + dc <= self.c1)]
                if not len(ok_c):
                    continue
                for dr in range(self.r0 - self.r1 if dc else 1, self.r1 - self.r0 + 1):
                    ok = ok_c[(rows[ok_c] + dr >= self.r0) & (rows[ok_c] + dr <= self.r1)]
                    if not len(ok):
                        continue
                    tgt = self.pos[self.hg[ok] + (dc * self.gh + dr)]
                    keep = tgt >= 0
                    ok, tgt = ok[keep], tgt[keep]
                    if not len(ok):
                        continue
                    arr = _rel_arrays(parity, dc, dr, self.gh)
                    if arr is None:
                        self._exact_pairs(ok, tgt)
                    else:
                        self._fill(ok, tgt, *arr)
        self._apply_buildings()

    def _exact_pairs(self, ok, tgt) -> None:
        """Pair by pair with line_of_sight (a displacement the vectorised form does not cover)."""
        from maps.los import line_of_sight

        for i0, j0 in zip(ok.tolist(), tgt.tolist()):
            for i, j in ((i0, j0), (j0, i0)):
                up = line_of_sight(self.m, self.hs[i], self.hs[j], chart=self.chart)
                down = line_of_sight(self.m, self.hs[i], self.hs[j], chart=self.chart, firer_down=True)
                self.flags[i, j] = (_UP if up.clear else 0) | (_DOWN if down.clear else 0)
                self.count[i, j] = min(up.trees_afvs_wrecks, 255)
                self.marsh[i, j] = min(up.marsh_hexes, 255)

    def _building_candidates(self, ok, tgt, G, L, dx, rng) -> None:
        """Record, per building symbol, every (line, intermediate hex) where the line may meet the
        symbol: the hexes the symbol touches. Decided in :meth:`_apply_buildings`."""
        for bid in self.bids:
            touched = self.touch[bid][G]
            if not touched.any():
                continue
            rows, ks = np.nonzero(touched)
            self.pending.setdefault(bid, []).append(
                (ok[rows], tgt[rows], G[rows, ks], L[rows, ks], dx[rows, ks], np.full(len(rows), rng)))

    def _apply_buildings(self) -> None:
        """10.31 a / 10.32 for building symbols. A symbol is met in a hex where the line meets the
        part of the symbol lying in that hex, closure(interior of symbol & interior of hex), as
        maps.los._building_hexes decides it: for a symbol inside one hex, wherever the line meets
        the symbol (GEOS's exact predicate); else never where that part is empty (its area, exact
        in rationals, is 0), surely where the line meets the part shrunk by _EPS, surely not where
        it misses the symbol and the hex both grown by _EPS (GEOS, vectorised), and any other case
        by maps.los._building_hexes itself (exact). Then, per line and hex, the first symbol by id
        met there is the obstacle (line_of_sight takes them in that order): on the same level it
        blocks (10.31 a); on different levels it blocks when it reaches the sight line (10.32 b)."""
        from maps.los import _building_hexes, _relative

        met_parts = []
        for bidx, bid in enumerate(self.bids):
            recs = self.pending.get(bid)
            if not recs:
                continue
            pi, pj, hx, lv, dxv, rngv = (np.concatenate(x) for x in zip(*recs))
            sym = self.mlos.buildings[bid]
            met = np.zeros(len(pi), dtype=bool)
            groups = [(self.g(sym.home), None)] if sym.home is not None else [(gk, 0) for gk in np.unique(hx).tolist()]
            for gk, _ in groups:
                sel = np.nonzero(hx == gk)[0]
                if not len(sel):
                    continue
                lines = shapely.linestrings(np.stack([np.stack([self.cx[pi[sel]], self.cy[pi[sel]]], axis=1),
                                                      np.stack([self.cx[pj[sel]], self.cy[pj[sel]]], axis=1)],
                                                     axis=1).astype(np.float64))
                if sym.home is not None:  # the whole symbol in one hex: met there wherever the line meets it
                    met[sel] = shapely.intersects(sym.poly, lines)
                    continue
                inner, outer = self._pieces(bid, gk)
                if outer is None:
                    continue  # the symbol has no part in this hex (it touches it at most)
                sure = shapely.intersects(inner, lines) if inner is not None else np.zeros(len(sel), dtype=bool)
                maybe = shapely.intersects(outer, lines) & ~sure
                if maybe.any():
                    # where the line meets the closed hex (a corner, a hexside, a crossing) deep
                    # inside the symbol: the symbol is all around that point, met there too
                    deep = shapely.intersects(self._shrunk(bid), shapely.intersection(hexgrid.hex_polygon(
                        self.hex_at[gk]), lines[maybe]))
                    sure[np.nonzero(maybe)[0][deep]] = True
                    maybe &= ~sure
                met[sel[sure]] = True
                h = self.hex_at[gk]
                for r in sel[maybe].tolist():  # too close to call in floats: the exact test
                    a, b = self.hs[pi[r]], self.hs[pj[r]]
                    rel = _relative(a.col & 1, b.col - a.col, b.row - a.row)
                    e = next(e for e in rel if e[0] == h.col - a.col and e[1] == h.row - a.row)
                    if _building_hexes(sym, hexgrid.centre(a), hexgrid.centre(b), [(0, h, e)]):
                        met[r] = True
            sel = np.nonzero(met)[0]
            if len(sel):
                met_parts.append((pi[sel], pj[sel], hx[sel], lv[sel], dxv[sel], rngv[sel],
                                  np.full(len(sel), bidx), np.full(len(sel), self.bheight[bid])))
        if not met_parts:
            return
        pi, pj, hx, lv, dxv, rngv, bidx, bh = (np.concatenate(x) for x in zip(*met_parts))
        # the first symbol by id in each (line, hex)
        order = np.lexsort((bidx, hx, pj, pi))
        pi, pj, hx, lv, dxv, rngv, bh = (x[order] for x in (pi, pj, hx, lv, dxv, rngv, bh))
        first = np.ones(len(pi), dtype=bool)
        first[1:] = (pi[1:] != pi[:-1]) | (pj[1:] != pj[:-1]) | (hx[1:] != hx[:-1])
        pi, pj, lv, dxv, rngv, bh = (x[first] for x in (pi, pj, lv, dxv, rngv, bh))
        la, lb = self.levels[pi], self.levels[pj]
        q = self.q
        hgt = lv * q + bh
        low_q, high_q = np.minimum(la, lb) * q, np.maximum(la, lb) * q
        blocks = np.where(la == lb, True, (hgt > 0) & (hgt * rngv >= low_q * rngv + (high_q - low_q) * dxv))
        self.flags[pi[blocks], pj[blocks]] = 0
        self.flags[pj[blocks], pi[blocks]] = 0  # symmetric

    def _shrunk(self, bid: str):
        """Symbol ``bid`` shrunk by _EPS (prepared): its points lie inside the symbol."""
        hit = self._piece_cache.get(bid)
        if hit is None:
            hit = self.mlos.buildings[bid].poly.buffer(-_EPS)
            shapely.prepare(hit)
            self._piece_cache[bid] = hit
        return hit

    def _pieces(self, bid: str, gk: int):
        """(inner, outer) for symbol ``bid`` in the hex at grid index ``gk``: the part of the symbol
        lying in the hex shrunk by _EPS, and symbol and hex both grown by _EPS (prepared); outer is
        None when the symbol has no part in the hex (area 0, exact), inner None when the shrunk
        part is empty."""
        key = (bid, gk)
        hit = self._piece_cache.get(key)
        if hit is None:
            poly = self.mlos.buildings[bid].poly
            hexp = hexgrid.hex_polygon(self.hex_at[gk])
            if _clipped_area(poly, hexgrid.vertices(self.hex_at[gk])) == 0:
                hit = (None, None)
            else:
                parts = [p for p in shapely.get_parts(shapely.intersection(poly, hexp))
                         if p.geom_type == "Polygon" and p.area > 0]
                inner = shapely.union_all(parts).buffer(-_EPS) if parts else None
                outer = shapely.intersection(poly.buffer(_EPS), hexp.buffer(_EPS))
                hit = tuple(None if (x is None or x.is_empty) else x for x in (inner, outer))
                for x in hit:
                    if x is not None:
                        shapely.prepare(x)
            self._piece_cache[key] = hit
        return hit

    def _fill(self, ok, tgt, off, contact, poff, dist, rng) -> None:
        """The answers for every pair ok[s] -> tgt[s] of one displacement, clause by clause as in
        maps.los.line_of_sight."""
        la, lb = self.levels[ok], self.levels[tgt]
        if not len(off):  # adjacent hexes: nothing in between, always clear
            self.flags[ok, tgt] = self.flags[tgt, ok] = _UP | _DOWN
            return
        base = self.hg[ok][:, None]
        G = base + off[None, :]
        P = base + poff[None, :]
        T, L, MS = self.trees[G], self.level[G], self.is_marsh[G]
        TP, MP = self.trees[P], self.is_marsh[P]
        inter, side, nv = contact == 0, contact == 1, contact != 2
        # 10.31 b: a crossed hex counts its trees; along a hexside the adjoining hex with more
        # counts (each pair is listed twice, once from each side, so the max is halved)
        total = (T * inter).sum(axis=1) + (np.maximum(T, TP) * side).sum(axis=1) // 2
        # 23.2 e / 10.31 c: marsh crossed, or a hexside pair with marsh on either side (once)
        mcount = (MS & inter).sum(axis=1) + ((MS | MP) & side).sum(axis=1) // 2
        dx = np.where((la > lb)[:, None], rng - dist[None, :], dist[None, :])
        self._building_candidates(ok, tgt, G, L, dx, rng)
        # same level (10.31): a building symbol met or a higher hill hex met (a), more than three
        # trees (b), DOWN firer through marsh (c)
        blocked_a = (L > la[:, None]).any(axis=1)  # building symbols: _apply_buildings
        same_up = ~blocked_a & (total <= 3)
        same_down = same_up & (mcount == 0)
        # different levels (10.32): the Sighting Chart in steps of 1/q level, x from the lower unit;
        # trees are no obstruction in a hex touched only at a corner
        q = self.q
        ground = L * q
        hgt = ground.copy()
        np.maximum(hgt, np.where(nv[None, :] & (T >= 2), ground + self.woods_h, ground), out=hgt)
        np.maximum(hgt, np.where(nv[None, :] & (T == 1), ground + self.tree_h, ground), out=hgt)
        low_q, high_q = np.minimum(la, lb) * q, np.maximum(la, lb) * q
        sight = ((hgt > 0) & (hgt * rng >= (low_q * rng)[:, None] + (high_q - low_q)[:, None] * dx)).any(axis=1)
        same = la == lb
        clear_up = np.where(same, same_up, ~sight)
        clear_down = np.where(same, same_down, ~sight)
        self.flags[ok, tgt] = self.flags[tgt, ok] = clear_up * _UP + clear_down * _DOWN
        self.count[ok, tgt] = self.count[tgt, ok] = np.minimum(total, 255)
        self.marsh[ok, tgt] = self.marsh[tgt, ok] = np.minimum(mcount, 255)


def _clipped_area(poly, clip) -> Fraction:
    """Exact area of ``poly`` (a shapely polygon, holes allowed) inside the convex polygon ``clip``
    (vertices, integers): each ring clipped by Sutherland-Hodgman in rationals (exact for any
    simple ring against a convex clip region); holes subtract."""

    def ring_area(pts) -> Fraction:
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2

    cl = [(Fraction(x), Fraction(y)) for x, y in clip]
    if sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(cl, cl[1:] + cl[:1])) < 0:
        cl.reverse()  # counter-clockwise: inside is on the left of each edge

    def clip_ring(coords) -> list:
        pts = [(Fraction(x), Fraction(y)) for x, y in list(coords)[:-1]]
        for (ex0, ey0), (ex1, ey1) in zip(cl, cl[1:] + cl[:1]):
            if not pts:
                break

            def side(p):
                return (ex1 - ex0) * (p[1] - ey0) - (ey1 - ey0) * (p[0] - ex0)

            out = []
            for k, cur in enumerate(pts):
                prev = pts[k - 1]
                sc, sp = side(cur), side(prev)
                if sc >= 0:
                    if sp < 0:
                        out.append(_cut(prev, cur, sp, sc))
                    out.append(cur)
                elif sp >= 0:
                    out.append(_cut(prev, cur, sp, sc))
            pts = out
        return pts

    total = ring_area(clip_ring(poly.exterior.coords))
    for r in poly.interiors:
        total -= ring_area(clip_ring(r.coords))
    return total


def _cut(p, c, sp, sc):
    """The point where segment p-c crosses the clip edge (signed sides sp, sc of p and c)."""
    t = sp / (sp - sc)
    return (p[0] + (c[0] - p[0]) * t, p[1] + (c[1] - p[1]) * t)


def build_los_table(hexmap, hexes=None, chart=None, *, key: str | None = None) -> LosTable:
    """Compute the terrain LOS table of ``hexes`` (ids or :class:`Hex`; default every hex of the
    map) on ``hexmap`` with ``chart`` (default the map's own): the answers of
    :func:`maps.los.line_of_sight` without occupancy for every ordered pair. No disk access.
    Raises :class:`maps.hexmap.UnknownHexError` for a hex off the map.

    Vectorised per displacement: every pair with the same firer-column parity and the same
    displacement meets the same hexes up to translation (:func:`maps.hexgrid.line_hexes`), so one
    numpy pass decides all of them. Clauses as in :func:`maps.los.line_of_sight`: 10.31 a (a
    building symbol met in an intermediate hex; a higher hill hex met, corners too), 10.31 b
    (trees; along a hexside the adjoining hex with more), 10.31 c (a DOWN firer; marsh crossed or
    along a hexside), 10.32 (the Sighting Chart, exact in steps of 1/q level). Building symbols
    are decided by the same exact test as line_of_sight (:func:`maps.los._building_hexes`).
    """
    m = _real_map(hexmap)
    chart = _chart_of(m, chart)
    hs = sorted({m.hex(h) for h in (hexes if hexes is not None else m.all_hexes())})
    b = _Builder(m, chart, hs)
    b.run()
    return LosTable(key or table_key(m, hs, chart), [h.id for h in hs], b.levels, b.flags, b.count, b.marsh)


# ---------------------------------------------------------------------------------------------
# queries


def _cells(occupancy) -> tuple:
    """(col, lattice y of the centre, code, HexOccupancy) of each hex holding AFVs or wrecks, by
    column."""
    return tuple(sorted(((h.col, 2 * h.row + (h.col & 1), h.col * _CODE + h.row, o) for h, o in occupancy.items()
                         if o.afvs or o.wrecks), key=lambda c: c[2]))


class FrozenOccupancy(dict):
    """AFVs and wrecks per hex (``Hex -> HexOccupancy``, 10.31 b) that never changes once built,
    so :class:`LosOracle` may remember what it derived from it. Raises TypeError on any change."""

    def __init__(self, items=()):
        super().__init__(items)
        self.cells = _cells(self)
        self.cols = [c[0] for c in self.cells]  # for bisect: the cells of a column range

    def __reduce__(self):
        return (FrozenOccupancy, (dict(self),))

    def _frozen(self, *args, **kwargs):
        raise TypeError("FrozenOccupancy cannot be changed; build a new one")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _frozen  # type: ignore[assignment]


class TableLos:
    """A table answer to one LOS question (no AFV or wreck along the line): ``firer``, ``target``,
    ``clear``, ``firer_level``, ``target_level``, ``level_difference``, ``firer_down``,
    ``trees_afvs_wrecks``, ``marsh_hexes`` and ``range`` as :class:`maps.los.LosResult` has them;
    every other attribute (``rule``, ``blocking_hex``, ``reason``, ``hexes``, ``hex_ids``,
    ``sighting``, ``to_json`` ...) is the exact result's, computed on first use (:meth:`exact`)."""

    __slots__ = ("firer", "target", "clear", "firer_level", "target_level", "firer_down", "trees_afvs_wrecks",
                 "marsh_hexes", "_oracle", "_occ", "_full")

    def __init__(self, firer, target, clear, firer_level, target_level, firer_down, count, marsh, oracle, occ):
        self.firer, self.target, self.clear = firer, target, clear
        self.firer_level, self.target_level, self.firer_down = firer_level, target_level, firer_down
        self.trees_afvs_wrecks, self.marsh_hexes = count, marsh
        self._oracle, self._occ, self._full = oracle, occ, None

    @property
    def level_difference(self) -> int:
        return self.target_level - self.firer_level

    @property
    def range(self) -> int:
        return hexgrid.distance(hexgrid.parse_hex_id(self.firer), hexgrid.parse_hex_id(self.target))

    def exact(self):
        """The full :class:`maps.los.LosResult` (computed once)."""
        if self._full is None:
            from maps.los import line_of_sight

            o = self._oracle
            self._full = line_of_sight(o.hexmap, self.firer, self.target, occupancy=self._occ,
                                       firer_down=self.firer_down, chart=o.chart)
        return self._full

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.exact(), name)

    def __repr__(self) -> str:
        return (f"TableLos({self.firer}->{self.target}, clear={self.clear}, levels {self.firer_level}/"
                f"{self.target_level}, trees {self.trees_afvs_wrecks}, marsh {self.marsh_hexes}, "
                f"down={self.firer_down})")


class OccupiedLos:
    """The answer for a line that meets hexes holding AFVs or wrecks: :func:`maps.los.line_of_sight`'s.
    ``clear``, ``trees_afvs_wrecks``, ``marsh_hexes`` and ``level_difference`` come without
    tracing the line again: AFVs and wrecks change only the 10.31 b count
    (:func:`maps.los.count_trees_afvs_wrecks`, cached by the oracle), so clear/blocked is the
    terrain's between different levels (the Sighting Chart, 10.32, has no AFVs or wrecks) and where
    the terrain alone blocks (10.31 a and c do not count them), else the count's (at most three);
    Marsh hexes are the table's. Every other attribute is the exact result's, computed on first
    use (:meth:`exact`, cached by the oracle)."""

    __slots__ = ("firer", "target", "firer_level", "target_level", "firer_down", "_terrain_clear", "_oracle",
                 "_ij", "_key", "_occ")

    def __init__(self, firer, target, firer_level, target_level, firer_down, terrain_clear, oracle, ij, key, occ):
        self.firer, self.target = firer, target
        self.firer_level, self.target_level, self.firer_down = firer_level, target_level, firer_down
        self._terrain_clear, self._oracle, self._ij, self._key, self._occ = terrain_clear, oracle, ij, key, occ

    @property
    def clear(self) -> bool:
        if self.firer_level != self.target_level or not self._terrain_clear:
            return self._terrain_clear
        return self.trees_afvs_wrecks <= 3  # 10.31 b: the AFVs/wrecks may make it more than three

    @property
    def trees_afvs_wrecks(self) -> int:
        """10.31 b: Woods/Orchard hexes, AFVs and wrecks along the line."""
        return self._oracle._occupied_count(self._ij, self._key, self._occ)

    @property
    def marsh_hexes(self) -> int:
        """10.31 c: Marsh hexes along the line (AFVs and wrecks change nothing)."""
        t = self._oracle.table
        i, j = self._ij
        return t._marsh[i * t.n + j]

    @property
    def level_difference(self) -> int:
        return self.target_level - self.firer_level

    def exact(self):
        """The full :class:`maps.los.LosResult` with the AFVs and wrecks (cached by the oracle)."""
        o = self._oracle
        t = o.table
        i, j = self._ij
        return o._exact_los(t.hexes[i], t.hexes[j], self.firer_down, self._occ, self._key)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.exact(), name)

    def __repr__(self) -> str:
        return f"OccupiedLos({self.firer}->{self.target}, down={self.firer_down})"


class LosOracle:
    """LOS answers on one map with one chart: from the terrain table when the line meets no hex
    holding AFVs or wrecks (:class:`TableLos`), else :func:`maps.los.line_of_sight` itself
    (:class:`OccupiedLos`; cached per line, firer state and the AFVs/wrecks of the hexes it meets,
    so a change elsewhere keeps the answer). Without a table (``table`` None: small areas, or
    tables switched off) every answer is line_of_sight's :class:`maps.los.LosResult`.
    """

    def __init__(self, hexmap, chart, table: LosTable | None):
        self.hexmap = _real_map(hexmap)
        self.chart = chart
        self.table = table
        self._met: dict[tuple[int, int, int], frozenset[int]] = {}
        self._exact: dict = {}
        self._counts: dict = {}  # (i, j, the AFVs/wrecks met) -> the 10.31 b count

    def terrain_blocks(self, a: str, b: str, firer_down: bool = False) -> bool:
        """True when the table says the terrain alone blocks the line from hex id ``a`` to hex id
        ``b`` (10.31 a/c, 10.32): AFVs and wrecks only add to the 10.31 b count, so :meth:`los` is
        then blocked whatever stands on the line (see :class:`OccupiedLos`). False when the
        terrain leaves it clear, and when the oracle has no table or either hex is not in it (the
        caller asks :meth:`los`)."""
        t = self.table
        if t is None:
            return False
        i = t.id_index.get(a)
        j = t.id_index.get(b)
        if i is None or j is None or i == j:
            return False
        return not t._flags[i * t.n + j] & (_DOWN if firer_down else _UP)

    def _met_offsets(self, parity: int, dc: int, dr: int) -> frozenset[int]:
        """Code offsets of the hexes a line of this displacement meets between its ends, crossed
        or along a hexside (the hexes whose AFVs/wrecks 10.31 b counts; a corner is no contact)."""
        from maps.los import _relative

        key = (parity, dc, dr)
        s = self._met.get(key)
        if s is None:
            s = frozenset(e[0] * _CODE + e[1] for e in _relative(parity, dc, dr)
                          if e[4] != "vertex" and not ((e[0] == 0 and e[1] == 0) or (e[0] == dc and e[1] == dr)))
            self._met[key] = s
        return s

    def _occupied_count(self, ij: tuple[int, int], key: tuple, occupancy) -> int:
        """The 10.31 b count of the table's line ``ij`` through the AFVs and wrecks of
        ``occupancy`` (``key``: the line's key of :meth:`los`, naming those it meets), cached."""
        ck = (key[0], key[1], key[3])
        n = self._counts.get(ck)
        if n is None:
            from maps.los import count_trees_afvs_wrecks

            t = self.table
            if len(self._counts) > 200_000:
                self._counts.clear()
            n = self._counts[ck] = count_trees_afvs_wrecks(self.hexmap, t.hexes[ij[0]], t.hexes[ij[1]], occupancy)
        return n

    def _exact_los(self, a, b, firer_down, occupancy, key):
        from maps.los import line_of_sight

        r = self._exact.get(key) if key is not None else None
        if r is None:
            r = line_of_sight(self.hexmap, a, b, occupancy=occupancy, firer_down=firer_down, chart=self.chart)
            if key is not None:
                if len(self._exact) > 200_000:
                    self._exact.clear()
                self._exact[key] = r
        return r

    def _occupied_met(self, t: LosTable, i: int, j: int, cells: tuple, cols: list | None = None) -> tuple | None:
        """The AFVs/wrecks the line i -> j meets, as a cache key (with those in its own hexes),
        or None when it meets none. A hex outside the box of the line's two centres cannot be met.
        ``cols``: the cells' columns (sorted) to look at the line's columns only."""
        ac, bc = t._cols[i], t._cols[j]
        ya, yb = t._ys[i], t._ys[j]
        c0, c1 = (ac, bc) if ac <= bc else (bc, ac)
        y0, y1 = (ya - 1, yb + 1) if ya <= yb else (yb - 1, ya + 1)
        met = None
        base = ac * _CODE + t._rows[i]
        near = cells[bisect_left(cols, c0):bisect_right(cols, c1)] if cols is not None else cells
        for oc, oy, code, _o in near:
            if c0 <= oc <= c1 and y0 <= oy <= y1:
                if met is None:
                    met = self._met_offsets(ac & 1, bc - ac, t._rows[j] - t._rows[i])
                if code - base in met:
                    ends = (base, bc * _CODE + t._rows[j])
                    return tuple((c, o.afvs, o.wrecks) for _x, _y, c, o in cells if c - base in met or c in ends)
        return None

    def los(self, a: str | Hex, b: str | Hex, *, firer_down: bool = False,
            occupancy: Mapping | None = None):
        """LOS from ``a`` to ``b`` (10.3): a :class:`TableLos`, an :class:`OccupiedLos` or a
        :class:`maps.los.LosResult`, the answer of :func:`maps.los.line_of_sight` in every case. ``occupancy`` maps hexes to their
        AFVs and wrecks (a :class:`FrozenOccupancy` is fastest). Raises
        :class:`maps.hexmap.UnknownHexError` for a hex off the map."""
        t = self.table
        if t is not None:
            i = t.id_index.get(a) if a.__class__ is str else t.index.get(a)
            j = t.id_index.get(b) if b.__class__ is str else t.index.get(b)
            if i is not None and j is not None and i != j:
                if occupancy:
                    if occupancy.__class__ is FrozenOccupancy:
                        cells, cols = occupancy.cells, occupancy.cols
                    else:
                        cells, cols = _cells(occupancy), None
                    if cells:
                        hit = self._occupied_met(t, i, j, cells, cols)
                        if hit is not None:  # AFVs or wrecks on the line (10.31 b): line_of_sight
                            return OccupiedLos(t.ids[i], t.ids[j], t.levels[i], t.levels[j], firer_down,
                                               bool(t._flags[i * t.n + j] & (_DOWN if firer_down else _UP)),
                                               self, (i, j), (i, j, firer_down, hit), occupancy)
                k = i * t.n + j
                return TableLos(t.ids[i], t.ids[j], bool(t._flags[k] & (_DOWN if firer_down else _UP)),
                                t.levels[i], t.levels[j], firer_down, t._count[k], t._marsh[k], self, occupancy)
        key = None
        if not occupancy or occupancy.__class__ is FrozenOccupancy:
            key = (a if a.__class__ is str else a.id, b if b.__class__ is str else b.id, firer_down,
                   occupancy.cells if occupancy else ())
        return self._exact_los(a, b, firer_down, occupancy, key)


#: Areas smaller than this are answered exactly (a table would cost more than it saves).
TABLE_MIN_HEXES = 250

_TABLES: dict[str, LosTable] = {}  # key -> table, this process (most recent last)
_LOCK = threading.Lock()


def tables_enabled() -> bool:
    """False when ``IRONCROSS_LOS_TABLE=off`` (every answer exact; for checks and debugging)."""
    return os.environ.get("IRONCROSS_LOS_TABLE", "").lower() not in ("off", "0", "no", "false")


def load_los_table(hexmap, hexes=None, chart=None) -> LosTable:
    """The terrain LOS table of ``hexes`` (default all) on ``hexmap`` with ``chart`` (default the
    map's own): from this process's memory, else from the disk cache (:func:`cache_dir`), else
    built (:func:`build_los_table`) and stored there."""
    m = _real_map(hexmap)
    chart = _chart_of(m, chart)
    hs = sorted({m.hex(h) for h in (hexes if hexes is not None else m.all_hexes())})
    key = table_key(m, hs, chart)
    with _LOCK:
        t = _TABLES.pop(key, None)
        if t is None:
            path = _table_path(key)
            t = LosTable.load(path, key) if path is not None and path.exists() else None
            if t is None:
                t = build_los_table(m, hs, chart, key=key)
                if path is not None:
                    try:
                        t.save(path)
                        _prune(path.parent)
                    except OSError:
                        pass  # a read-only cache directory: the table still serves this process
        _TABLES[key] = t
        while len(_TABLES) > 6:
            _TABLES.pop(next(iter(_TABLES)))
    return t


def los_oracle(hexmap, hexes=None, chart=None, *, min_hexes: int | None = None, wait: bool = True) -> LosOracle:
    """The :class:`LosOracle` of ``hexes`` (ids or :class:`Hex`, default every hex of the map) on
    ``hexmap`` with ``chart`` (default the map's own), shared by every caller on the same map
    object. Its table is loaded (or built) now (:func:`load_los_table`), or with ``wait=False`` on a
    daemon thread while the oracle answers every question exactly (the same answers, slower; for a
    UI thread that must not wait). Areas of fewer than ``min_hexes`` (default
    :data:`TABLE_MIN_HEXES`) hexes, and every area when tables are switched off
    (:func:`tables_enabled`), are answered exactly."""
    m = _real_map(hexmap)
    chart = _chart_of(m, chart)
    ids = frozenset(h if isinstance(h, str) else h.id for h in (hexes if hexes is not None else ()))
    limit = TABLE_MIN_HEXES if min_hexes is None else min_hexes
    memo = m.__dict__.setdefault("_los_oracles", {})
    mkey = (id(chart), ids, limit, tables_enabled())
    hit = memo.get(mkey)
    if hit is not None and hit.chart is chart:
        return hit
    n = len(ids) if hexes is not None else m.hex_count
    area = sorted(ids) if hexes is not None else None
    if not (tables_enabled() and n >= limit):
        o = LosOracle(m, chart, None)
    elif wait:
        o = LosOracle(m, chart, load_los_table(m, area, chart))
    else:
        o = LosOracle(m, chart, None)

        def fill() -> None:
            o.table = load_los_table(m, area, chart)  # an error is reported by threading.excepthook

        threading.Thread(target=fill, name="los-table", daemon=True).start()
    memo[mkey] = o
    return o
