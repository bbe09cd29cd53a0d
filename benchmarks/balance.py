"""The balance sheet: the heuristic AI against itself in each shipped scenario, written
to ``docs/balance.md``.

For each scenario it plays ``--games`` games (heuristic vs heuristic, seeded as ``ironcross
playtest`` seeds them, through :func:`core.playtest.run_batch`) and writes:

- the outcome shares with their 95 % Wilson intervals (:func:`core.playtest.summarise`), the mean
  game length, the mean losses per side, the trust summary (:func:`core.playtest.trust_report`:
  errored games, units that never entered or never acted) and each side's eliminations by cause
  (:func:`core.ironcross.game_record.elimination_cause`);
- the reconstructed values that touch the scenario, read from the data it is played with: the
  counter values of the units of its orders of battle whose provenance is ``reconstructed``
  (grouped by rationale, sorted by how often those units attacked), the building symbols of its
  playing area (the printed map is lost: every outline is a reconstruction; the ref says why the
  building exists), the terrain-chart rows with reconstructed values that apply to hexes of its
  playing area, and the map layout's provenance;
- for a lopsided scenario (one side wins at least ``LOPSIDED`` of the decisive games) the evidence
  for a cause, computed from the games: the Game Turn from which the outcome stood, whether the
  loser ever stood in the hexes the victory conditions name, the losses of each side against its
  force, the loser's units that never entered, never acted or never attacked, and the replays to
  read. Whether the cause is the scenario or the AI needs a human who read replays: hand-written
  verdicts live in ``docs/balance-verdicts.json`` (keyed by scenario file stem, each with the
  commit, games, seed, rules and shares it was judged on) and are merged in. A verdict is marked
  STALE (and a warning printed) when the shares moved outside the intervals it was judged on, when
  it was judged under other rules, or when the commit differs and a file that can change a game
  (under ``core/``, ``scenarios/`` or ``maps/``) changed since; a differing commit without such a
  change is printed as a warning only.

With ``--robust`` it prints instead the robust-balance table (``docs/ai.md``; the same as
``ironcross playtest SCENARIO --robust``): per scenario, default vs default, each side tuned against
the other's defaults (``--trials`` x ``--tune-games`` games, Optuna), the shares with their 95 %
intervals, each side's gain with its paired interval and the settings that moved, and the verdict
(robust / AI-dependent / undecided); times also in yardstick multiples. It covers the shipped
scenarios of every rule system (Iron Cross by number, the others by key: ``--scenarios
redflags_1,twentymm_1``), each system's heuristic with its own settings. It writes no sheet. With
``--storage DIR`` each side's tuning study and each pairing's check games are kept in ``DIR``: a
run stopped part-way resumes where it stopped, and a run with more ``--games`` plays only the games
it adds (``core.robust_balance.kept_batch``; kept games of other code, seeds or a changed scenario
file are refused, with the file named). With
``--settings-table --storage DIR`` it plays nothing: it reads the studies a robust run kept in
``DIR`` and prints, for each side, the best trial's settings in each scenario beside the defaults
(a Markdown table; "=" where no trial beat the defaults), the table from which a setting that
moved the same way in most scenarios is read as a candidate default.

Run: .venv/bin/python benchmarks/balance.py                          (40 games per scenario: long)
     .venv/bin/python benchmarks/balance.py --robust --games 40 --trials 30 --tune-games 20 --scenarios 1
     .venv/bin/python benchmarks/balance.py --robust --games 100 --scenarios 6 --storage studies  (resumable)
     .venv/bin/python benchmarks/balance.py --robust --games 200 --scenarios redflags_1,twentymm_1
     .venv/bin/python benchmarks/balance.py --settings-table --storage studies      (no games: the studies' best)
     .venv/bin/python benchmarks/balance.py --games 4 --workers 2 --scenarios 1,3 --replays DIR
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.arguments import positive_int, run_benchmark  # noqa: E402
from core.ironcross.game_record import CAUSES, elimination_cause, objective_hexes  # noqa: E402
from core.playtest import DEFAULT_RULES, RULES, GameResult, PlaytestError, run_batch, summarise, wilson_interval  # noqa: E402

DATA = ROOT / "scenarios" / "data"
DEFAULT_OUT = ROOT / "docs" / "balance.md"
DEFAULT_VERDICTS = ROOT / "docs" / "balance-verdicts.json"
VERDICTS_FORMAT = "ironcross-balance-verdicts"
AI = {"german": "heuristic", "russian": "heuristic"}
SIDES = ("german", "russian")
OUTCOMES = ("german", "russian", "draw")
#: a scenario is lopsided when one side wins at least this share of its decisive games
LOPSIDED = 0.75
#: folders whose files can change what a game does (engine, AI, runner; scenarios, roster; map, chart)
PLAY_DIRS = ("core", "scenarios", "maps")
CAUSE_WORDS = ("scenario", "AI", "both", "undecided")
LABEL = {"german": "German", "russian": "Russian", "draw": "draw"}


# --------------------------------------------------------------------------- scenarios and data


def scenario_paths() -> dict[int, Path]:
    """Scenario number -> file of each shipped scenario (``scenarios/data/scenario_N_*.json``)."""
    from benchmarks.ai_strength import scenario_paths as shipped

    return dict(sorted(shipped().items()))


def scenario_facts(path: str | os.PathLike[str]) -> dict:
    """What the sheet needs to know about a scenario, from its file and the data it is played with:
    ``{"stem", "title", "game_length", "setup", "roster", "units": {side: [unit ids]},
    "objectives": frozenset of hex ids, "area": frozenset of hex ids}``. ``units`` are the units
    its orders of battle can bring into play: those of the seed-0 set-up plus every man a 24.1
    "less" choice may leave out; ``names``: :func:`scenario_names`. Raises what :func:`core.ironcross.scenario_setup.load_setup` raises."""
    from core.ironcross.scenario_setup import load_setup
    from scenarios.scenario_file import load_scenario_roster

    sc, setup = load_setup(path, seed=0)
    roster = load_scenario_roster(sc, path)
    ids = set(setup.units)
    for c in getattr(setup, "random_choices", None) or ():
        ids.update(c.get("among") or ())
    units: dict[str, list[str]] = {s: [] for s in SIDES}
    for uid in sorted(ids):
        units[roster.unit(uid).side].append(uid)
    area = frozenset(setup.playing_area or (h.id for h in setup.hexmap.all_hexes()))
    return {"stem": Path(path).stem, "title": sc.title, "game_length": setup.game_length, "setup": setup,
            "roster": roster, "units": units, "objectives": objective_hexes(setup), "area": area,
            "names": scenario_names(path)}


def _compact_ids(ids) -> str:
    """``["G-A-1", "G-A-2", "G-A-3", "G-PL-1"]`` -> ``"G-A-1..3, G-PL-1"`` (runs of consecutive numbers)."""
    groups: dict[str, list[int]] = {}
    other: list[str] = []
    for uid in ids:
        head, _, num = uid.rpartition("-")
        if head and num.isdigit():
            groups.setdefault(head, []).append(int(num))
        else:
            other.append(uid)
    parts = []
    for head, nums in groups.items():
        nums = sorted(set(nums))
        start = prev = nums[0]
        for n in nums[1:] + [None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            parts.append(f"{head}-{start}" if start == prev else f"{head}-{start}..{prev}")
            if n is not None:
                start = prev = n
    return ", ".join(parts + sorted(other))


def _values_text(field: str, values: set) -> str:
    vals = sorted(values, key=str)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals) and len(vals) > 1:
        return f"{field} {min(vals)}-{max(vals)}"
    shown = [("/".join(v) if isinstance(v, tuple) else str(v)) for v in vals]
    return f"{field} {', '.join(x or '-' for x in shown)}"


def scenario_names(path: str | os.PathLike[str]) -> dict[str, list[str]]:
    """The map features and buildings a scenario file names (region ``{"kind": "feature", "name": ...}``),
    each with where: ``{"Hill M": ["victory conditions"], "Building 1": ["region 'x'", ...]}``."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}

    def walk(obj, where: str) -> None:
        if isinstance(obj, dict):
            if obj.get("kind") == "feature" and isinstance(obj.get("name"), str):
                out.setdefault(obj["name"], [])
                if where not in out[obj["name"]]:
                    out[obj["name"]].append(where)
            for v in obj.values():
                walk(v, where)
        elif isinstance(obj, list):
            for v in obj:
                walk(v, where)

    for name, r in (data.get("regions") or {}).items():
        walk(r, f"region '{name}'")
    for side in SIDES:
        walk(data.get(side), f"{LABEL[side]} set-up and entry")
    walk(data.get("victory"), "victory conditions")
    return out


def reconstructed_values(facts: dict, results: list[GameResult]) -> dict:
    """The reconstructed values that touch a scenario, each with where it is used and how much play
    it saw in ``results``:

    - ``counters``: one row per side and rationale: ``{"side", "fields": [values text], "units":
      [ids], "attacks": attacks a game by those units, "rationale"}``, sorted by attacks (the ID
      ``number`` and empty values, such as an ATG's MG modes, are left out: no values of play);
    - ``buildings``: building symbols with a hex in the playing area: ``{"id", "name", "hexes",
      "source", "ref", "rationale", "note", "named_in": [where the scenario names it], "fights":
      attacks at and eliminations in its hexes a game}``;
    - ``features``: the named map features (hills, areas) the scenario names: ``{"name", "hexes",
      "named_in", "source", "ref", "rationale", "fights"}`` (the hexes of every feature are a
      reconstruction: the printed map is lost);
    - ``chart``: terrain-chart rows with reconstructed values that apply to hexes of the playing
      area: ``{"row", "hexes", "values": [reconstructed cell names], "of": cells in the row,
      "attacks": attacks at targets in such hexes a game}``;
    - ``map``: the map layout's provenance (one line) and ``own``: hexes of the area that carry their
      own provenance (errata corrections)."""
    from core.ironcross.hex_terrain import HexTerrain
    from scenarios.counters import VALUE_FIELDS

    played = [r for r in results if r.outcome != "error"]
    n = len(played) or 1
    attacks: Counter = Counter()
    fire_at: Counter = Counter()
    elim_at: Counter = Counter()
    for r in played:
        for side in SIDES:
            attacks.update(r.attacks.get(side) or {})
        fire_at.update(r.fire_at)
        elim_at.update(r.eliminated_at)

    roster = facts["roster"]
    groups: dict[tuple[str, str], dict] = {}
    for side in SIDES:
        for uid in facts["units"][side]:
            u = roster.unit(uid)
            for f in VALUE_FIELDS[u.kind]:
                if f == "number":
                    continue
                p = u.provenance_of(f)
                value = getattr(u, f)
                if p.source != "reconstructed" or value is None or value == ():  # no value (an ATG's MG modes)
                    continue
                g = groups.setdefault((side, p.rationale), {"side": side, "rationale": p.rationale, "fields": {},
                                                            "units": []})
                g["fields"].setdefault(f, set()).add(value)
                if uid not in g["units"]:
                    g["units"].append(uid)
    counters = []
    for g in groups.values():
        counters.append({"side": g["side"], "rationale": g["rationale"],
                         "fields": [_values_text(f, v) for f, v in g["fields"].items()],
                         "units": g["units"], "attacks": sum(attacks[u] for u in g["units"]) / n})
    counters.sort(key=lambda c: (-c["attacks"], -len(c["units"]), c["side"], c["rationale"]))

    setup = facts["setup"]
    hexmap = setup.hexmap
    area = facts["area"]
    named = facts.get("names") or {}
    buildings = []
    for bid, b in hexmap.buildings.items():
        hexes = sorted(h.id for h in hexmap.building_hexes[bid])
        if not any(h in area for h in hexes):
            continue
        p = b.provenance
        buildings.append({"id": bid, "name": b.display_name(), "hexes": hexes,
                          "source": p.source if p else "(none)", "ref": (p.ref if p else None) or "",
                          "rationale": (p.rationale if p else None) or "", "note": b.note or "",
                          "named_in": named.get(b.display_name(), []),
                          "fights": sum(fire_at[h] + elim_at[h] for h in hexes) / n})
    buildings.sort(key=lambda b: (-b["fights"], b["id"]))
    features = []
    for name, where in named.items():
        f = hexmap.features.get(name)
        if f is None:
            continue
        p = f.provenance
        features.append({"name": name, "hexes": sorted(f.hexes), "named_in": where,
                         "source": p.source if p else "(none)", "ref": (p.ref if p else None) or "",
                         "rationale": (p.rationale if p else None) or "",
                         "fights": sum(fire_at[h] + elim_at[h] for h in f.hexes) / n})
    features.sort(key=lambda x: (-x["fights"], x["name"]))

    terrain = HexTerrain(hexmap, setup.chart)
    chart = setup.chart
    rows: dict[str, dict] = {}
    for h in sorted(area):
        for key in terrain.rows(h):
            d = rows.setdefault(key, {"row": key, "hexes": 0, "attacks": 0.0})
            d["hexes"] += 1
            d["attacks"] += fire_at[h] / n
    chart_rows = []
    for key, d in rows.items():
        row = chart.row(key)  # every row hex_row_keys names is in a valid chart (KeyError otherwise)
        cells = [(name, c) for name, c in row.cells("") if name not in (".name", ".notes")]  # labels, not play
        rec = [name.lstrip(".") for name, c in cells if c.reconstructed]
        if rec:
            chart_rows.append({**d, "values": rec, "of": len(cells)})
    chart_rows.sort(key=lambda d: (-d["attacks"], d["row"]))

    mp = hexmap.doc.provenance
    own = sum(1 for rec in hexmap.doc.hexes if rec.id in area and rec.provenance is not None)
    map_line = (f"{mp.source}" + (f" ({mp.ref})" if mp.ref else "")) if mp else "(no provenance)"
    return {"counters": counters, "buildings": buildings, "features": features, "chart": chart_rows,
            "map": {"name": hexmap.name, "provenance": map_line, "own": own, "area": len(area)}}


# --------------------------------------------------------------------------- analysis


def decided_turn(r: GameResult) -> int | None:
    """The Game Turn from whose end on the victory conditions gave the game's final outcome at the
    end of every later Game Turn (``r.standing_by_turn``); None without the record."""
    s = r.standing_by_turn
    if not s:
        return None
    t = len(s)
    while t > 1 and s[t - 2] == r.outcome:
        t -= 1
    return t


def _mean(xs) -> float | None:
    xs = list(xs)
    return statistics.mean(xs) if xs else None


def _force(r: GameResult, side: str) -> int:
    """Units of ``side`` in the game: those that stood on the map and those that never entered."""
    return len(r.attacks.get(side) or {}) + len((r.idle.get(side) or {}).get("never_entered") or [])


def _losses(r: GameResult, side: str) -> int:
    return sum((r.casualties.get(side) or {}).values())


def analyse(facts: dict, results: list[GameResult], replay_dir: str | None = None) -> dict:
    """Everything the sheet says about one scenario's batch: ``summary`` (:func:`summarise`),
    ``decisive`` games, ``winner``/``loser``/``share``/``ci95`` of the decisive games, ``lopsided``,
    ``causes`` (side -> cause -> eliminations a game, games played to the end), ``losses`` (side ->
    units lost a game), and for a lopsided scenario ``evidence`` (:func:`lopsided_evidence`)."""
    s = summarise(results)
    played = [r for r in results if r.outcome != "error"]
    n = len(played)
    causes = {side: {c: 0.0 for c in CAUSES} for side in SIDES}
    for r in played:
        for side in SIDES:
            for rule, k in (r.eliminations_by_side.get(side) or {}).items():
                causes[side][elimination_cause(rule)] += k / n
    wins = {k: s["outcomes"][k] for k in OUTCOMES}
    decisive = wins["german"] + wins["russian"]
    winner = None
    if decisive:
        winner = "german" if wins["german"] >= wins["russian"] else "russian"
    share = wins[winner] / decisive if winner else None
    ci = wilson_interval(wins[winner], decisive) if winner else (0.0, 0.0)
    out = {"facts": facts, "summary": s, "games": len(results), "played": n, "decisive": decisive,
           "winner": winner, "loser": None if winner is None else ("russian" if winner == "german" else "german"),
           "share": share, "ci95": ci, "lopsided": bool(share is not None and share >= LOPSIDED),
           "causes": causes, "losses": {side: _mean(_losses(r, side) for r in played) or 0.0 for side in SIDES},
           "force": {side: _mean(_force(r, side) for r in played) or 0.0 for side in SIDES},
           "decided": _mean(t for t in (decided_turn(r) for r in played if r.outcome in SIDES) if t is not None),
           "replay_dir": replay_dir}
    out["evidence"] = lopsided_evidence(out, played) if out["lopsided"] else None
    return out


def lopsided_evidence(a: dict, played: list[GameResult]) -> dict:
    """The evidence for why the loser of a lopsided scenario loses, from the games the winner won:
    ``decided`` (mean and median Game Turn from which the outcome stood, and how many games stood
    from Game Turn 1), ``objective`` (games in which the loser's units stood in an objective hex at
    the end of some Game Turn / at the end of the game, and the winner's), ``losses`` (per side
    units lost a game, force, share lost; loser/winner ratio), ``idle`` (the loser's units a game
    that never entered / never acted / never attacked, with the most often idle), ``first_contact``
    and ``replays`` (the replays of the lost games decided earliest, when replays were kept)."""
    w, l = a["winner"], a["loser"]
    won = [r for r in played if r.outcome == w]
    k = len(won)
    turns = [t for t in (decided_turn(r) for r in won) if t is not None]
    obj = {}
    for side in SIDES:
        rows = [r.objective_by_turn.get(side) or [] for r in won]
        obj[side] = {"ever": sum(1 for x in rows if any(x)), "end": sum(1 for x in rows if x and x[-1] > 0),
                     "max": _mean(max(x) if x else 0 for x in rows) or 0.0}
    # "no finish": games the loser lost with only one or two of the winner's units left on the
    # objective hexes at the end (units, not hexes: GameResult.objective_units)
    counted = [r for r in won if r.objective_units]
    obj["close"] = {"games": sum(1 for r in counted if r.won_with_few_left(w)),
                    "of": len(counted)}
    losses = {}
    for side in SIDES:
        lost = _mean(_losses(r, side) for r in won) or 0.0
        force = _mean(_force(r, side) for r in won) or 0.0
        losses[side] = {"lost": lost, "force": force, "share": lost / force if force else None}
    ratio = losses[l]["lost"] / losses[w]["lost"] if losses[w]["lost"] else None
    idle = {}
    for what in ("never_entered", "never_acted"):
        c: Counter = Counter()
        for r in won:
            c.update((r.idle.get(l) or {}).get(what) or [])
        idle[what] = {"mean": sum(c.values()) / k if k else 0.0, "most_often": c.most_common(5)}
    c = Counter()
    on_map = []
    for r in won:
        att = r.attacks.get(l) or {}
        on_map.append(len(att))
        c.update(uid for uid, x in att.items() if x == 0)
    idle["never_attacked"] = {"mean": sum(c.values()) / k if k else 0.0, "most_often": c.most_common(5),
                              "on_map": _mean(on_map) or 0.0}
    contact = [r.first_contact for r in won if r.first_contact is not None]
    order = sorted(won, key=lambda r: (decided_turn(r) or 99, r.index))
    replays = [{"index": r.index, "seed": r.seed, "decided": decided_turn(r), "replay": r.replay}
               for r in order[:3]]
    return {"won": k, "decided": {"mean": _mean(turns), "median": statistics.median(turns) if turns else None,
                                  "from_turn_1": sum(1 for t in turns if t == 1)},
            "objective": obj, "objective_hexes": sorted(a["facts"]["objectives"]), "losses": losses,
            "ratio": ratio, "idle": idle, "first_contact": _mean(contact), "replays": replays}


# --------------------------------------------------------------------------- verdicts


def _git(*args: str) -> str | None:
    try:
        p = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.rstrip("\n") if p.returncode == 0 else None


def git_commit() -> dict:
    """``{"commit": full hash or None, "short": ..., "dirty": [files changed but not committed under
    PLAY_DIRS]}`` of the checkout this script runs in."""
    full = (_git("rev-parse", "HEAD") or "").strip() or None
    dirty = _git("status", "--porcelain", "--", *PLAY_DIRS)
    return {"commit": full, "short": full[:10] if full else None,
            "dirty": [line[3:] for line in (dirty or "").splitlines() if line.strip()]}


def play_changes_since(commit: str, head: str | None) -> list[str] | None:
    """Files under :data:`PLAY_DIRS` that differ between ``commit`` and ``head`` (None: git cannot
    tell, e.g. an unknown commit)."""
    if not head:
        return None
    out = _git("diff", "--name-only", commit, head, "--", *PLAY_DIRS)
    return None if out is None else [x for x in out.splitlines() if x.strip()]


def load_verdicts(path: str | os.PathLike[str]) -> dict[str, dict]:
    """The hand-written verdicts: scenario file stem -> verdict. An absent file is no verdicts.

    File shape (``docs/balance-verdicts.json``)::

        {"format": "ironcross-balance-verdicts", "version": 1,
         "verdicts": {"scenario_3_closing_the_ring": {
             "commit": "<full hash judged at>", "date": "YYYY-MM-DD", "games": 40, "seed": 1,
             "rules": "basic",
             "shares": {"german": [rate, lo, hi], "russian": [...], "draw": [...]},
             "cause": "scenario" | "AI" | "both" | "undecided",
             "seen": "what the replays showed", "replays": ["game 3 (seed ...)", ...]}}}

    Raises ValueError naming the file and the problem for a malformed file."""
    p = Path(path)
    if not p.exists():
        return {}
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{p}: not JSON: {e}") from None
    if d.get("format") != VERDICTS_FORMAT:
        raise ValueError(f"{p}: format must be {VERDICTS_FORMAT!r}")
    vs = d.get("verdicts") or {}
    for key, v in vs.items():
        for f in ("commit", "games", "seed", "shares", "cause", "seen"):
            if f not in v:
                raise ValueError(f"{p}: $.verdicts.{key}: missing {f!r}")
        if v["cause"] not in CAUSE_WORDS:
            raise ValueError(f"{p}: $.verdicts.{key}.cause: one of {', '.join(CAUSE_WORDS)}, got {v['cause']!r}")
    return vs


def verdict_status(verdict: dict, a: dict, head: dict, rules: str, changes=play_changes_since) -> dict:
    """Whether a verdict still holds for this batch ``a`` (:func:`analyse`): ``{"stale": bool,
    "reasons": [...], "warnings": [...]}``. Stale when a current share lies outside the interval it
    was judged on, when it was judged under other rules, or when the commit differs and files that
    can change a game changed since (``changes(commit, head)``: a list, or None when git cannot
    tell, which counts as changed). A differing commit without such changes is a warning only."""
    reasons, warnings = [], []
    rates = a["summary"]["rates"]
    for k in OUTCOMES:
        judged = (verdict.get("shares") or {}).get(k)
        if judged is None:
            reasons.append(f"no judged {LABEL[k]} share on file")
            continue
        now = rates[k]["rate"]
        lo, hi = float(judged[1]), float(judged[2])
        if not lo - 1e-9 <= now <= hi + 1e-9:
            reasons.append(f"the {LABEL[k]} share moved to {now:.0%}, outside the interval "
                           f"[{lo:.0%}-{hi:.0%}] it was judged on")
    if verdict.get("rules", DEFAULT_RULES) != rules:
        reasons.append(f"judged under the {verdict.get('rules', DEFAULT_RULES)} rules, this sheet plays {rules}")
    commit = verdict.get("commit") or ""
    now_at = head.get("commit") or ""
    if commit and now_at and now_at.startswith(commit):  # the same commit (a verdict may give a short hash)
        if head.get("dirty"):
            warnings.append(f"uncommitted changes under {', '.join(PLAY_DIRS)} since the verdict's commit")
    else:
        changed = changes(commit, head.get("commit")) if commit else None
        if changed is None:
            reasons.append(f"judged at commit {commit[:10] or '(none)'}, which git cannot compare with "
                           f"{head.get('short') or 'this checkout'}")
        elif changed:
            reasons.append(f"judged at commit {commit[:10]}; {len(changed)} file(s) that can change a game changed "
                           f"since ({', '.join(changed[:4])}{', ...' if len(changed) > 4 else ''})")
        else:
            warnings.append(f"judged at commit {commit[:10]}, the sheet is at {head.get('short')}; no file under "
                            f"{', '.join(PLAY_DIRS)} changed in between")
        if head.get("dirty"):
            reasons.append(f"uncommitted changes under {', '.join(PLAY_DIRS)}")
    return {"stale": bool(reasons), "reasons": reasons, "warnings": warnings}


def verdict_stub(a: dict, head: dict, games: int, seed: int, rules: str) -> dict:
    """A verdict entry to fill in (``cause`` and ``seen``) with the commit and shares of this batch."""
    rates = a["summary"]["rates"]
    return {"commit": head.get("commit") or "", "date": datetime.now(timezone.utc).date().isoformat(),
            "games": games, "seed": seed, "rules": rules,
            "shares": {k: [round(rates[k]["rate"], 4), round(rates[k]["ci95"][0], 4), round(rates[k]["ci95"][1], 4)]
                       for k in OUTCOMES},
            "cause": "undecided", "seen": "", "replays": []}


# --------------------------------------------------------------------------- the sheet


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0%}"


def _num(x: float | None, nd: int = 1) -> str:
    return "n/a" if x is None else f"{x:.{nd}f}"


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _idle_text(d: dict, played: int) -> str:
    ids = ", ".join(f"{u} ({k}/{played})" for u, k in d["most_often"])
    return f"{d['mean']:.1f}" + (f" (most often {ids})" if ids else "")


def _scenario_section(num: int, a: dict, verdict: dict | None, status: dict | None, seed: int = 1) -> list[str]:
    f = a["facts"]
    s = a["summary"]
    t = s["trust"]
    L = [f"## Scenario {num}: {f['title']}", "",
         f"`scenarios/data/{f['stem']}.json`: {a['games']} games, {a['played']} played to the end; "
         f"game length {f['game_length']} Game Turns.", "",
         "| outcome | games | share of games played to the end | 95 % interval (Wilson) |",
         "|---|---:|---:|---|"]
    for k in OUTCOMES:
        r = s["rates"][k]
        L.append(f"| {LABEL[k]} win |" if k != "draw" else "| draw |")
        L[-1] += f" {s['outcomes'][k]} | {r['rate']:.1%} | {r['ci95'][0]:.1%} - {r['ci95'][1]:.1%} |"
    if s["outcomes"].get("error"):
        L.append(f"| error (left out of the shares) | {s['outcomes']['error']} | | |")
    L.append("")
    if a["winner"]:
        L.append(f"Decisive games: {a['decisive']}; the {LABEL[a['winner']]}s won {a['share']:.0%} of them "
                 f"(95 % interval {a['ci95'][0]:.0%} - {a['ci95'][1]:.0%})"
                 + (" - **lopsided**." if a["lopsided"] else "."))
    else:
        L.append("Decisive games: none.")
    L.append("")
    cas = s["casualties_per_game"]
    L.append(f"- Mean game length: {s['turns']['mean']:.1f} Game Turns (sd {s['turns']['stdev']:.1f}); the outcome "
             f"stood from Game Turn {_num(a['decided'])} on average in the decisive games.")
    for side in SIDES:
        kinds = ", ".join(f"{k} {v:.1f}" for k, v in cas[side].items()) or "none"
        L.append(f"- Mean losses a game, {LABEL[side]}: {a['losses'][side]:.1f} of {a['force'][side]:.1f} units "
                 f"({kinds}).")
    fc = s["first_contact"]
    if fc["mean_turn"] is not None:
        L.append(f"- First contact (first combat roll): Game Turn {fc['mean_turn']:.1f} on average "
                 f"({fc['games_with_contact']} of {a['games']} games).")
    L += ["", "Eliminations a game by cause (games played to the end):", "",
          "| side | " + " | ".join(CAUSES) + " |", "|---|" + "---:|" * len(CAUSES)]
    for side in SIDES:
        L.append(f"| {LABEL[side]} units | " + " | ".join(f"{a['causes'][side][c]:.1f}" for c in CAUSES) + " |")
    bl = (t.get("blunders") or {}).get("per_side") or {}
    if bl:  # the blunder report (docs/ai.md): kinds a wargamer names, read off the events
        L += ["", "Blunders a game (games with one; mean Game Turn of the first):", "",
              "| side | kind | a game | games | first in turn |", "|---|---|---:|---:|---:|"]
        for side in SIDES:
            for kind, d in (bl.get(side) or {}).items():
                first = f"{d['first_turn']:.1f}" if d.get("first_turn") is not None else "-"
                L.append(f"| {LABEL[side]} | {kind} | {d['per_game']:.2f} | {d['games']} | {first} |")
    L += ["", f"Trust: {t['played']} of {t['games']} games played to the end; {t['errors']} raised "
              f"({t['player_errors']} inside a player); engine bookkeeping eliminations: "
              f"{sum(t['bookkeeping_eliminations'].values())}; median {t['seconds_per_game']['median']:.2f} s and "
              f"{t['decisions_per_game']['median']:.0f} decisions a game.", ""]
    for side in SIDES:
        L.append(f"- {LABEL[side]} units a game that never entered the map: "
                 f"{_idle_text(t['never_entered'][side], t['played'])}; never acted: "
                 f"{_idle_text(t['never_acted'][side], t['played'])}.")
    for w in t["warnings"]:
        L.append(f"- WARNING: {_md(w)}")
    for e in s["errors"]:
        L.append(f"- ERROR in game {e['index']} (seed {e['seed']}): {_md((e['error'] or '').splitlines()[0])}"
                 + (f"; replay `{e['replay']}`" if e.get("replay") else ""))
    L.append("")
    if a["lopsided"]:
        L += _cause_section(a, verdict, status, seed)
    elif verdict is not None:
        L += ["### Verdict on file", ""] + _verdict_lines(verdict, status) + [""]
    L += _reconstructed_section(a)
    return L


def _cause_section(a: dict, verdict: dict | None, status: dict | None, seed: int = 1) -> list[str]:
    e = a["evidence"]
    w, l = a["winner"], a["loser"]
    W, Lo = LABEL[w], LABEL[l]
    d = e["decided"]
    o = e["objective"]
    hexes = e["objective_hexes"]
    where = (", ".join(hexes) if len(hexes) <= 8 else f"{len(hexes)} hexes ({', '.join(hexes[:6])}, ...)")
    ls = e["losses"]
    idle = e["idle"]
    k = e["won"]
    L = ["### Cause", "",
         f"Evidence (computed from the {k} games the {W}s won):", "",
         f"- Decided: the victory conditions gave the {W}s the game from the end of Game Turn {_num(d['mean'])} "
         f"on average (median {_num(d['median'], 0)}) and at every later Game Turn end; in {d['from_turn_1']} of "
         f"{k} games from Game Turn 1 on.",
         f"- Objective ({where}, the hexes the victory conditions name): the {Lo} units stood in one of them at "
         f"the end of some Game Turn in {o[l]['ever']} of {k} games and at the end of the game in {o[l]['end']} "
         f"(at most {o[l]['max']:.1f} of them at once on average); the {W} units in {o[w]['ever']} and "
         f"{o[w]['end']} games" + (f"; the {W}s won {o['close']['games']} of {o['close']['of']} with only one or two "
                                   f"units left on them at the end (a finish the {Lo}s missed)"
                                   if o.get("close", {}).get("of") else "") + ".",
         f"- Losses a game: {Lo} {ls[l]['lost']:.1f} of {ls[l]['force']:.1f} units ({_pct(ls[l]['share'])}), "
         f"{W} {ls[w]['lost']:.1f} of {ls[w]['force']:.1f} ({_pct(ls[w]['share'])}); ratio {Lo}/{W} "
         f"{_num(e['ratio'], 2)}.",
         f"- {Lo} units a game that never entered the map: {_idle_text(idle['never_entered'], k)}; that stood on "
         f"the map and never acted: {_idle_text(idle['never_acted'], k)}; that never attacked (fire, grenade, "
         f"flame, mortar, assault, overrun; eliminated ones included) of the {idle['never_attacked']['on_map']:.1f} "
         f"that stood on the map: {_idle_text(idle['never_attacked'], k)}.",
         f"- First contact: Game Turn {_num(e['first_contact'])} on average."]
    if e["replays"]:
        # named by batch seed and game index, never by a replay path of the machine that ran the batch:
        # the command below writes the same games anywhere
        rp = "; ".join(f"game {x['index']} (seed {x['seed']}, decided at Game Turn {x['decided']})" for x in e["replays"])
        files = ", ".join(f"`DIR/game_{x['index']:05d}_seed_{x['seed']}.jsonl`" for x in e["replays"])
        L.append(f"- Lost games decided earliest: {rp}. To read them: `ironcross playtest "
                 f"scenarios/data/{a['facts']['stem']}.json --games {a['games']} --seed {seed} --replays DIR` (the "
                 f"sheet's rules) writes {files}; then `ironcross replay FILE`.")
    L.append("")
    if verdict is None:
        L += [f"Verdict: none on file. Read replays of lost games, then add an entry for `{a['facts']['stem']}` to "
              "`docs/balance-verdicts.json` (the script prints a stub with this batch's commit and shares).", ""]
    else:
        L += _verdict_lines(verdict, status) + [""]
    return L


def _verdict_lines(v: dict, status: dict | None) -> list[str]:
    head = (f"Verdict (by hand, judged at commit `{(v.get('commit') or '')[:10]}` on {v.get('date', '?')} from "
            f"{v['games']} games, seed {v['seed']}, {v.get('rules', DEFAULT_RULES)} rules): the cause is "
            f"**{v['cause']}**.")
    L = []
    if status and status["stale"]:
        L.append("**STALE**: " + "; ".join(_md(x) for x in status["reasons"]) + ". Re-read replays and re-judge.")
        L.append("")
    L.append(head + " " + _md(v["seen"]))
    if v.get("replays"):
        L.append("")
        L.append("Replays read: " + "; ".join(_md(x) for x in v["replays"]) + ".")
    for w in (status or {}).get("warnings") or []:
        L.append("")
        L.append(f"Note: {_md(w)}.")
    return L


def _reconstructed_section(a: dict) -> list[str]:
    rv = a["reconstructed"]
    L = ["### Reconstructed values that touch it", "",
         "Counter values of its orders of battle that the rulebook does not print (provenance `reconstructed`, "
         "`scenarios/data/iron_cross_counters.json`, `docs/counters.md`), grouped by rationale, the most used first "
         "(attacks a game by the units that carry them):", "",
         "| side | values | units | attacks a game | rationale |", "|---|---|---|---:|---|"]
    for c in rv["counters"]:
        L.append(f"| {LABEL[c['side']]} | {_md('; '.join(c['fields']))} | {_compact_ids(c['units'])} | "
                 f"{c['attacks']:.1f} | {_md(c['rationale'])} |")
    if not rv["counters"]:
        L.append("| | none | | | |")
    m = rv["map"]
    L += ["", f"Building symbols with a hex in the playing area (`{m['name']}`: the printed map is lost, so every "
              "outline and place is a reconstruction; the provenance says why the building exists), the most fought "
              "over first (attacks at and eliminations in its hexes a game):", "",
          "| building | hexes | named by the scenario in | existence | reconstructed | fights a game |",
          "|---|---|---|---|---|---:|"]
    for b in rv["buildings"]:
        exist = f"{b['source']}" + (f": {b['ref']}" if b["ref"] else "")
        why = b["rationale"] or ("shape and place" if b["source"] != "designer" else "")
        if b["note"]:
            why += f" ({b['note']})"
        L.append(f"| {_md(b['name'])} | {', '.join(b['hexes'])} | {_md(', '.join(b['named_in'])) or '-'} | "
                 f"{_md(exist)} | {_md(why)} | {b['fights']:.1f} |")
    if not rv["buildings"]:
        L.append("| none | | | | | |")
    if rv["features"]:
        L += ["", "Named map features the scenario names (their hexes are a reconstruction; the name is the "
                  "rulebook's):", "",
              "| feature | hexes | named by the scenario in | provenance | fights a game |", "|---|---|---|---|---:|"]
        for x in rv["features"]:
            prov = f"{x['source']}" + (f": {x['ref']}" if x["ref"] else "") + (f" - {x['rationale']}" if x["rationale"]
                                                                                else "")
            hexes = ", ".join(x["hexes"]) if len(x["hexes"]) <= 10 else f"{len(x['hexes'])} hexes"
            L.append(f"| {_md(x['name'])} | {hexes} | {_md(', '.join(x['named_in']))} | {_md(prov)} | "
                     f"{x['fights']:.1f} |")
    L += ["", "Terrain chart rows (`maps/data/terrain_chart.json`, `docs/terrain-chart.md`) with reconstructed values "
              "that apply to hexes of the playing area (attacks at targets in such hexes a game):", "",
          "| row | hexes | reconstructed values | attacks a game |", "|---|---:|---|---:|"]
    for r in rv["chart"]:
        vals = "all" if len(r["values"]) == r["of"] else ", ".join(r["values"])
        L.append(f"| {r['row']} | {r['hexes']} | {_md(vals)} ({len(r['values'])} of {r['of']}) | {r['attacks']:.1f} |")
    if not rv["chart"]:
        L.append("| none | | | |")
    L += ["", f"Map layout (trees, levels, marsh, roads, gullies of the {m['area']} hexes in play): {m['provenance']}; "
              f"{m['own']} of them carry their own provenance (errata corrections).", ""]
    return L


def render_sheet(meta: dict, analyses: dict[int, dict], verdicts: dict[str, dict], statuses: dict[str, dict]) -> str:
    """The sheet as Markdown. ``meta``: ``{"date", "commit", "dirty", "games", "seed", "rules", "options",
    "command", "seconds"}``; ``analyses``: scenario number -> :func:`analyse` (with ``reconstructed``);
    ``verdicts`` / ``statuses``: scenario stem -> verdict / :func:`verdict_status`."""
    commit = meta.get("commit") or "unknown"
    dirty = meta.get("dirty") or []
    L = ["# Balance sheet: heuristic AI against heuristic AI", "",
         f"Generated by `benchmarks/balance.py` on {meta['date']} at commit `{commit}`"
         + (f" **with uncommitted changes** ({', '.join(dirty[:5])})" if dirty else "") + ". Do not edit by hand: "
         "hand-written verdicts go to `docs/balance-verdicts.json`.", "",
         f"- Players: German heuristic, Russian heuristic (`core/ironcross/ai/heuristic.py`).",
         f"- Rules: {meta['rules']}" + (f", options {', '.join(meta['options'])}" if meta["options"] else
                                        ", no optional rules") + "; the scenarios' own rules (hidden hexes, "
         "infiltration) wherever they grant them.",
         f"- Games and seed: {meta['games']} games per scenario, batch seed {meta['seed']} for each (game i uses the "
         "seed derived from it and i, as `ironcross playtest` does; the result does not depend on the workers).",
         f"- Regenerate: `{meta['command']}`",
         f"- Lopsided: one side wins at least {LOPSIDED:.0%} of the decisive games; its cause evidence is computed, "
         "its verdict (scenario or AI) is a human's, read from replays.", "",
         "| scenario | games | German | Russian | draw | lopsided | verdict |", "|---|---:|---|---|---|---|---|"]
    for num, a in analyses.items():
        r = a["summary"]["rates"]
        cells = [f"{r[k]['rate']:.0%} ({r[k]['ci95'][0]:.0%}-{r[k]['ci95'][1]:.0%})" for k in OUTCOMES]
        v = verdicts.get(a["facts"]["stem"])
        st = statuses.get(a["facts"]["stem"])
        vtxt = "" if v is None else v["cause"] + (" (STALE)" if st and st["stale"] else "")
        if a["lopsided"] and v is None:
            vtxt = "none on file"
        lop = f"{LABEL[a['winner']]} {a['share']:.0%}" if a["lopsided"] else "no"
        L.append(f"| [{num}. {a['facts']['title']}](#scenario-{num}-{_anchor(a['facts']['title'])}) | {a['games']} | "
                 + " | ".join(cells) + f" | {lop} | {vtxt} |")
    L.append("")
    for num, a in analyses.items():
        stem = a["facts"]["stem"]
        L += _scenario_section(num, a, verdicts.get(stem), statuses.get(stem), meta["seed"])
    return "\n".join(L).rstrip() + "\n"


def _anchor(title: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "-" if ch in " -" else "" for ch in title)
    return out


# --------------------------------------------------------------------------- main


def regenerate_command(args, all_scenarios: bool) -> str:
    parts = [".venv/bin/python", "benchmarks/balance.py", "--games", str(args.games), "--seed", str(args.seed)]
    if not all_scenarios:
        parts += ["--scenarios", args.scenarios]
    if args.rules != DEFAULT_RULES:
        parts += ["--rules", args.rules]
    for o in args.option or ():
        parts += ["--option", o]
    out = Path(args.out).resolve()
    try:
        out_text = str(out.relative_to(ROOT))
    except ValueError:
        out_text = str(out)
    if out != DEFAULT_OUT.resolve():
        parts += ["--out", out_text]
    return " ".join(shlex.quote(p) for p in parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=40, help="games per scenario (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (each game's seed derives from it)")
    ap.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1, help="local worker processes")
    ap.add_argument("--scenarios", default=None,
                    help="comma-separated scenario numbers (default: all shipped); with --robust also the other "
                         "rule systems' scenarios by key (redflags_1, twentymm_1)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), help="the sheet (default docs/balance.md)")
    ap.add_argument("--replays", default=None, help="keep every game's replay under DIR/<scenario>/")
    ap.add_argument("--verdicts", default=str(DEFAULT_VERDICTS), help="hand-written verdicts (JSON)")
    ap.add_argument("--rules", choices=RULES, default=DEFAULT_RULES)
    ap.add_argument("--option", action="append", choices=("observation-penalty", "observation-special-roll"),
                    help="optional rule (advanced rules only; repeatable)")
    ap.add_argument("--robust", action="store_true", help="print the robust-balance table instead (no sheet)")
    ap.add_argument("--trials", type=positive_int, default=30, help="with --robust: tuning trials a side (default 30)")
    ap.add_argument("--tune-games", type=positive_int, default=20, help="with --robust: games a trial (default 20)")
    ap.add_argument("--storage", default=None, metavar="DIR",
                    help="with --robust: keep each side's tuning study and each pairing's check games in DIR "
                         "(resumed, or extended by more --games, when run again)")
    ap.add_argument("--settings-table", action="store_true",
                    help="print each side's best tuned settings per scenario from the studies in --storage DIR "
                         "(no games)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.option and args.rules != "advanced":
        ap.error("--option needs --rules advanced")
    from benchmarks.ai_strength import select_scenarios

    # the robust table (and the settings table of its studies) covers every rule system whose
    # heuristic takes settings (all three now); the balance sheet reads Iron Cross facts, so it plays
    # Iron Cross scenarios only
    paths = select_scenarios(ap, args.scenarios, other_systems=args.robust or args.settings_table)
    if args.settings_table:
        if not args.storage:
            ap.error("--settings-table needs --storage DIR (the studies of a robust run)")
        return print_settings_table(paths, args.storage)
    if args.robust:
        if args.trials < 2:
            ap.error("--trials: a robust run needs at least 2 tuning trials a side (the first trial is the defaults)")
        return robust_table(paths, args)
    all_scenarios = sorted(paths) == sorted(scenario_paths())
    try:
        verdicts = load_verdicts(args.verdicts)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    head = git_commit()
    options = tuple(args.option or ())
    t0 = time.perf_counter()
    analyses: dict[int, dict] = {}
    statuses: dict[str, dict] = {}
    for num, path in paths.items():
        t1 = time.perf_counter()
        facts = scenario_facts(path)
        rdir = str(Path(args.replays) / path.stem) if args.replays else None
        results = run_batch(str(path), args.games, args.seed, AI, rules=args.rules, options=options,
                            workers=args.workers, replay_dir=rdir)
        a = analyse(facts, results, rdir)
        a["reconstructed"] = reconstructed_values(facts, results)
        analyses[num] = a
        r = a["summary"]["rates"]
        print(f"Scenario {num} ({facts['title']}): " + ", ".join(
            f"{LABEL[k]} {r[k]['rate']:.0%} [{r[k]['ci95'][0]:.0%}-{r[k]['ci95'][1]:.0%}]" for k in OUTCOMES)
            + (f"; LOPSIDED ({LABEL[a['winner']]} {a['share']:.0%} of decisive)" if a["lopsided"] else "")
            + f"; {a['summary']['trust']['errors']} errors; {time.perf_counter() - t1:.0f} s", flush=True)
        v = verdicts.get(path.stem)
        if v is not None:
            st = verdict_status(v, a, head, args.rules)
            statuses[path.stem] = st
            for x in st["reasons"]:
                print(f"WARNING: verdict for {path.stem} is STALE: {x}", file=sys.stderr)
            for x in st["warnings"]:
                print(f"WARNING: verdict for {path.stem}: {x}", file=sys.stderr)
        elif a["lopsided"]:
            print(f"  no verdict on file for this lopsided scenario; a stub for {args.verdicts}:\n  "
                  + json.dumps({path.stem: verdict_stub(a, head, args.games, args.seed, args.rules)}))
    meta = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "commit": head["commit"],
            "dirty": head["dirty"], "games": args.games, "seed": args.seed, "rules": args.rules, "options": options,
            "command": regenerate_command(args, all_scenarios)}
    text = render_sheet(meta, analyses, verdicts, statuses)
    out = Path(args.out)
    # the what-if block (benchmarks/whatif.py) is kept as it stands
    old = out.read_text(encoding="utf-8") if out.exists() else ""
    if "<!-- whatif:begin -->" in old and "<!-- whatif:end -->" in old:
        block = "<!-- whatif:begin -->" + old.split("<!-- whatif:begin -->", 1)[1].split("<!-- whatif:end -->", 1)[0]
        text = text.rstrip("\n") + "\n\n" + block + "<!-- whatif:end -->\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    print(f"wrote {out} ({time.perf_counter() - t0:.0f} s)")
    return 0


def robust_table(paths: dict, args) -> int:
    """The robust-balance table of the scenarios ``paths`` (see the module's docstring)."""
    from benchmarks.yardstick import Yardstick

    from cli.tune_command import kept_files, robust_lines, study_files
    from core.robust_balance import robust_balance
    from core.rule_system import for_scenario

    ys = Yardstick.measure().seconds
    print(f"robust balance: {args.games} games a pairing, seed {args.seed}, {args.trials} trials x "
          f"{args.tune_games} games a side; yardstick {ys:.2f} s")
    rows = []
    stopped = False
    for num, path in paths.items():
        t1 = time.perf_counter()
        system = for_scenario(path)
        if system.settings_space is None:
            print(f"Scenario {num}: {system.title}'s players have no settings to tune: skipped")
            continue
        # a robust row takes an hour or more: say each stage and trial as it ends
        try:
            ans = robust_balance(str(path), system, games=args.games, seed=args.seed, trials=args.trials,
                                 tune_games=args.tune_games, workers=args.workers,
                                 storage=study_files(args.storage, str(path)) if args.storage else None,
                                 kept=kept_files(args.storage, str(path)) if args.storage else None,
                                 on_stage=lambda s, t=t1: print(f"  ... {s} ({time.perf_counter() - t:.0f} s in)",
                                                                flush=True),
                                 on_trial=lambda n, score, best: print(f"    trial {n}/{args.trials}: score "
                                                                       f"{score:.3f}, best {best:.3f}", flush=True))
        except (PlaytestError, ValueError) as e:  # ValueError: a kept study or games of other games or seeds
            print(f"error: Scenario {num}: {e}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:  # Ctrl-C in the default games: their games so far are kept (--storage)
            print(f"Scenario {num}: interrupted in the default games", flush=True)
            stopped = True
            break
        for line in robust_lines(f"Scenario {num}", ans):
            print(line, flush=True)
        dt = time.perf_counter() - t1
        print(f"  {dt:.0f} s = {dt / ys:.0f} yardsticks")
        rows.append((num, ans))
        if ans.verdict == "interrupted":  # Ctrl-C in a tuning or a tuned side's games: the run ends here
            print(f"Scenario {num}: {ans.text}", flush=True)
            stopped = True
            break
    print("\n| scenario | default vs default (G / R / draw) | German tuned gain | Russian tuned gain | verdict |")
    print("|---|---|---|---|---|")
    for num, ans in rows:
        d = ans.default
        gains = [ans.tuned[s].gain if s in ans.tuned else None for s in SIDES]
        cells = [f"{g[0]:+.0f} [{g[1]:+.0f}, {g[2]:+.0f}]" if g else "-" for g in gains]
        print(f"| {num} | {d['german']['share']:.0%} / {d['russian']['share']:.0%} / {d['draw']['share']:.0%} | "
              + " | ".join(cells) + f" | {ans.verdict} |")
    if stopped:
        print("interrupted: the table covers the scenarios done" + (
            f"; the trials and check games done are kept in {args.storage}: run again to resume" if args.storage
            else ""), file=sys.stderr)
        return 130
    return 0


def settings_table(studies: dict[tuple[str, int], object]) -> list[str]:
    """The Markdown table of tuned settings: ``studies`` maps (side, scenario number) to a
    :class:`core.tuning.StoredStudy`; one column a side and scenario (G1: Scenario 1's German, in
    side then scenario order), one row a searched setting with its default; "=" where the study's
    best trial is the defaults, "-" where the study did not search that setting."""
    # Iron Cross scenarios by number, then the other systems' by key ("redflags_1")
    cols = sorted(studies, key=lambda k: (SIDES.index(k[0]) if k[0] in SIDES else len(SIDES), k[0],
                                          isinstance(k[1], str), str(k[1]).zfill(4)))
    if not cols:
        return []
    defaults: dict[str, float] = {}
    names: set[str] = set()
    for k in cols:
        st = studies[k]
        names |= set(st.best)
        for name, v in (st.setup.get("defaults") or {}).items():
            defaults.setdefault(name, v)
    out = ["| setting (default) | " + " | ".join(f"{side[0].upper()}{num}" for side, num in cols) + " |",
           "|---|" + "---|" * len(cols)]
    for name in sorted(names):
        cells = []
        for k in cols:
            st = studies[k]
            cells.append("=" if st.best_is_default else (f"{st.best[name]:.2g}" if name in st.best else "-"))
        d = defaults.get(name)
        out.append(f"| `{name}` ({'?' if d is None else f'{float(d):g}'}) | " + " | ".join(cells) + " |")
    return out


def print_settings_table(paths: dict, storage: str) -> int:
    """Read the studies a robust run kept in ``storage`` for the scenarios ``paths`` and print their
    settings table (:func:`settings_table`) with each study's trials and scores; 1 when none is there."""
    from cli.tune_command import study_files
    from core.tuning import default_study_name, read_studies

    if not Path(storage).is_dir():
        print(f"error: {storage}: no such directory (the --storage DIR of a robust run)", file=sys.stderr)
        return 1
    studies = {}
    for num, path in paths.items():
        files = study_files(storage, str(path))
        for side in SIDES:
            f = files(side)
            if not Path(f).exists() and not Path(f).is_symlink():
                continue
            if not Path(f).is_file():
                print(f"warning: {f}: not a file: left out", file=sys.stderr)
                continue
            try:
                found = read_studies(f)
            except ValueError as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
            # the robust run's own study of this side (a file may hold others, copied in or added)
            name = default_study_name(str(path), side, "heuristic")
            mine = [st for st in found if st.name == name]
            for st in found:
                if st.name != name:
                    print(f"warning: {f}: the study {st.name!r} is not the robust run's {name!r}: left out",
                          file=sys.stderr)
            for st in mine:
                studies[(side, num)] = st
                dflt = "-" if st.default_score is None else f"{st.default_score:.3f}"
                print(f"Scenario {num}, {side}: {st.trials} trials of {st.setup.get('games', '?')} games, "
                      f"best {st.best_score:.3f} against the defaults' {dflt} on the tuning seeds")
    if not studies:
        print(f"error: {storage}: no study of these scenarios (a robust run with --storage keeps them there)",
              file=sys.stderr)
        return 1
    # one table a rule system: the systems' settings differ (and so may a name's default)
    from core.rule_system import for_scenario

    by_system: dict[str, dict] = {}
    for (side, num), st in studies.items():
        by_system.setdefault(for_scenario(str(paths[num])).title, {})[(side, num)] = st
    for title, group in by_system.items():
        print()
        if len(by_system) > 1:
            print(f"{title}:")
        for line in settings_table(group):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmark(main))
