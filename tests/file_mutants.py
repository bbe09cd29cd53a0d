"""Seeded mutants of the shipped files, and the commands that read them, for the file fuzz.

:func:`make_case` turns ``(seed, index)`` into one :class:`Case`: a copy of a shipped file of one kind
(map, terrain chart, errata, counters, a scenario of each rule system, a placement, a replay, an AI
behaviour settings file) with one
mutation (a number made huge, negative, infinite, a string or a boolean; a key dropped; deep nesting;
bytes that are not UTF-8; a referenced file swapped for ``/dev/zero`` or a FIFO; ...), and the command
lines (``ironcross validate``, ``los``, ``render``, ``errata apply``, ``export tiled`` and ``import
tiled``, ``replay`` and ``replay --verify``, ``playtest``, ``export vassal``, ``balance``, ``tune``) that
read it. :func:`run_case` runs one command in-process with click's CliRunner and classifies it:
``refused`` (exit 1 with a one-line error naming the file), ``accepted`` (exit 0) or ``traceback``
(anything else: an exception, a refusal that does not name the file). ``tests/test_file_fuzz.py``
runs a few hundred; ``benchmarks/fuzz_files.py`` thousands, each in a subprocess with a timeout.
"""

from __future__ import annotations

import json
import os
import random
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "data" / "sample_village.json"
SHEET = ROOT / "maps" / "data" / "iron_cross_mapsheet.json"
CORRECTED = ROOT / "maps" / "data" / "iron_cross_mapsheet_corrected.json"

#: kind -> the shipped file it mutates
SOURCES: dict[str, Path] = {
    "map": MAP,
    "terrain_chart": ROOT / "maps" / "data" / "terrain_chart.json",
    "errata": ROOT / "maps" / "data" / "iron_cross_errata.json",
    "counters": ROOT / "scenarios" / "data" / "iron_cross_counters.json",
    "ironcross_scenario": ROOT / "scenarios" / "data" / "scenario_2_khristishche.json",
    "ironcross_scenario_6": ROOT / "scenarios" / "data" / "scenario_6_spartakovka.json",
    "redflags_scenario": ROOT / "scenarios" / "data" / "redflags_1_hill_j.json",
    "twentymm_scenario": ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json",
    "placement": None,  # written by placement_data()
    "replay": ROOT / "tests" / "data" / "fuzz_twentymm.replay.jsonl",
    "ai_settings": None,  # written by ai_settings_data()
}
KINDS = tuple(SOURCES)

#: keys whose string value names another file (resolved against the file's folder)
FILE_KEYS = ("file", "counters", "terrain_chart", "roster")

HUGE = [10**12, 10**18, 2**63, 2**31, 10**24, -1, -(2**63), 9999, 0]
ODD = ["1", "", True, False, None, 1.5, -1e308, 1e308, 1e12, [], {}, "9999", "x" * 300]


def placement_data() -> dict:
    """An empty placement file (valid on its own; ``playtest --setup`` plays scenario 2 from it)."""
    return {"format": "ironcross-placement", "version": 1, "units": {}, "hidden_hexes": {}, "mines": {},
            "ips": {}, "left_out": []}


def ai_settings_data() -> dict:
    """A behaviour settings file as ``ironcross tune`` writes it (``--ai german=heuristic:@FILE``)."""
    return {"player": "heuristic", "side": "german", "provenance": "tuned",
            "settings": {"aggression": 1.5, "self_preservation": 0.8, "move_threshold": 0.2}}


#: commands that play games when their input is valid (seconds to tens of seconds each), or build a
#: whole VASSAL module: the suite leaves them to benchmarks/fuzz_files.py
LONG = ("playtest", "balance", "tune", "export vassal")


def is_long(cmd: list[str]) -> bool:
    """Whether ``cmd`` is one of :data:`LONG` (it plays games or builds a module when its input is valid)."""
    return cmd[0] in LONG or " ".join(cmd[:2]) in LONG


@dataclass
class Case:
    """One mutant: ``files`` name -> bytes to write; ``commands`` argument lists with ``{dir}`` for the
    case's folder; ``what`` says the mutation."""

    kind: str
    what: str
    files: dict[str, bytes]
    commands: list[list[str]] = field(default_factory=list)
    fifo: str | None = None


def _absolute_refs(data, base: Path):
    """Make every referenced file name absolute (the mutant lives in another folder)."""
    if isinstance(data, dict):
        for k, v in list(data.items()):
            if k in FILE_KEYS and isinstance(v, str) and v.endswith(".json") and not os.path.isabs(v):
                data[k] = str((base / v).resolve())
            else:
                _absolute_refs(v, base)
    elif isinstance(data, list):
        for v in data:
            _absolute_refs(v, base)
    return data


def _slots(data, path=()):
    """Every (path, value) in the JSON tree, parents before children."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _slots(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _slots(v, path + (i,))


def _set(data, path, value):
    if not path:
        return value
    cur = data
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return data


def _delete(data, path):
    cur = data
    for p in path[:-1]:
        cur = cur[p]
    del cur[path[-1]]
    return data


def _mutate_tree(rng: random.Random, data):
    """One structural mutation of parsed JSON; returns (data, words)."""
    slots = list(_slots(data))
    numbers = [(p, v) for p, v in slots if isinstance(v, (int, float)) and not isinstance(v, bool) and p]
    refs = [(p, v) for p, v in slots if p and p[-1] in FILE_KEYS and isinstance(v, str)]
    r = rng.random()
    if numbers and r < 0.45:
        p, v = rng.choice(numbers)
        new = rng.choice(HUGE + ODD)
        return _set(data, p, new), f"{p}: {v!r} -> {str(new)[:30]}"
    p, v = rng.choice(slots[1:] or slots)
    if r < 0.55 and refs:
        p, v = rng.choice(refs)
        new = rng.choice(["/dev/zero", "{fifo}", "/nonexistent/x.json", "", "{dir}"])
        return _set(data, p, new), f"{p}: file -> {new}"
    if r < 0.65 and p:
        return _delete(data, p), f"{p}: dropped"
    if r < 0.75 and isinstance(v, list) and v:
        v.extend(v[:1] * rng.choice([1, 50]))
        return data, f"{p}: items repeated"
    if r < 0.82 and p:
        n = rng.choice([70, 900, 3000])
        return _set(data, p, f"__DEEP_{n}__"), f"{p}: nested {n} deep"
    new = rng.choice(ODD + HUGE + ["4307", "Map 9", "russian", "P", "T+1"])
    return _set(data, p, new), f"{p}: {str(v)[:20]} -> {str(new)[:30]}"


def _dumps(data) -> str:
    """JSON text, with each ``"__DEEP_N__"`` marker written as N nested arrays."""
    import re

    text = json.dumps(data, indent=1)
    return re.sub(r'"__DEEP_(\d+)__"', lambda m: "[" * int(m.group(1)) + "0" + "]" * int(m.group(1)), text)


def _mutate_text(rng: random.Random, text: str) -> tuple[bytes, str]:
    """One byte-level mutation of a file's text."""
    r = rng.random()
    raw = text.encode("utf-8")
    if r < 0.15:
        at = rng.randrange(len(raw))
        return raw[:at] + b"\xff\xfe" + raw[at:], "bytes that are not UTF-8"
    if r < 0.3:
        return raw[: rng.randrange(len(raw))], "truncated"
    if r < 0.45:
        k = text.find(": ", rng.randrange(len(text)))
        lit = rng.choice(["9" * 5000, "Infinity", "-Infinity", "NaN", "1e400", "-1e999"])
        if k < 0:
            return raw + lit.encode(), f"{lit[:10]} appended"
        j = k + 2
        while j < len(text) and text[j] not in ",}]\n":
            j += 1
        return (text[:k + 2] + lit + text[j:]).encode(), f"value -> {lit[:12]}"
    if r < 0.55:
        return b"\xef\xbb\xbf" + raw, "UTF-8 byte-order mark"
    if r < 0.7:
        return ("[" * 5000 + "]" * 5000).encode(), "nested 5000 deep"
    if r < 0.85:
        return raw.replace(b":", b"", 1), "a colon dropped"
    return json.dumps(rng.choice([[], 1, "x", None, {"format": "ironcross-map"}])).encode(), "not an object"


def _commands(kind: str, name: str) -> list[list[str]]:
    f = "{dir}/" + name
    s2 = str(SOURCES["ironcross_scenario"])
    if kind == "ai_settings":  # not a document ``validate`` knows: read by the commands that take players
        return [["playtest", s2, "--ai", f"german=heuristic:@{f}", "--games", "1", "--workers", "1", "--quiet"]]
    out = [["validate", f]]
    if kind == "map":
        out += [["los", f, "1003", "1207"], ["render", f, "-o", "{dir}/out.svg"],
                ["errata", "apply", f, str(SOURCES["errata"]), "-o", "{dir}/fixed.json"],
                ["export", "tiled", f, "-o", "{dir}/out.tmx"],
                ["import", "tiled", "{dir}/out.tmx", "-o", "{dir}/back.json"]]
    elif kind == "terrain_chart":
        out += [["los", "{dir}/map_with_chart.json", "1003", "1207"]]
    elif kind == "errata":
        out += [["errata", "apply", str(SHEET), f, "-o", "{dir}/fixed.json"]]
    elif kind == "counters":
        out += [["validate", "{dir}/scenario_with_counters.json"]]
    elif kind.endswith("_scenario") or kind == "ironcross_scenario_6":
        out += [["playtest", f, "--games", "1", "--workers", "1", "--quiet"],
                ["export", "vassal", f, "-o", "{dir}/out.vmod"],
                ["balance", f, "--target", "german=50", "--budget", "2", "--first", "1", "--try", "turns=8",
                 "--no-combine", "--workers", "1", "--quiet"],
                ["tune", f, "--side", "german", "--trials", "1", "--games", "1", "--check-games", "0",
                 "--workers", "1", "-o", "{dir}/tuned.json", "--quiet"]]
    elif kind == "placement":
        out += [["playtest", s2, "--setup", f, "--games", "1", "--workers", "1", "--quiet"]]
    elif kind == "replay":
        out += [["replay", f], ["replay", f, "--log"], ["replay", f, "--verify"]]
    return out


def make_case(seed: int, index: int, kind: str | None = None) -> Case:
    """The ``index``-th mutant of the fuzz seeded ``seed`` (of ``kind``, or a kind picked by the seed)."""
    rng = random.Random(f"{seed}:{index}")
    kind = kind or KINDS[index % len(KINDS)]
    name = f"{kind}.json" if kind != "replay" else "game.jsonl"
    src = SOURCES[kind]
    if kind == "replay":
        lines = src.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0])  # its scenario, named from the repository, found from the copy's folder
        header["scenario"] = str((ROOT / header["scenario"]).resolve())
        lines[0] = json.dumps(header, sort_keys=True)
        k = rng.randrange(min(len(lines), 8))
        line_data = json.loads(lines[k])
        if rng.random() < 0.7:
            line_data, what = _mutate_tree(rng, line_data)
            lines[k] = _dumps(line_data).replace("\n", "")
            raw = ("\n".join(lines) + "\n").encode()
            what = f"line {k + 1} {what}"
        else:
            raw, what = _mutate_text(rng, "\n".join(lines) + "\n")
    else:
        data = (ai_settings_data() if kind == "ai_settings" else placement_data()) if src is None \
            else _absolute_refs(json.loads(src.read_text(encoding="utf-8")), src.parent)
        if rng.random() < 0.75:
            data, what = _mutate_tree(rng, data)
            raw = _dumps(data).encode()
        else:
            raw, what = _mutate_text(rng, json.dumps(data, indent=1))
    files = {name: raw}
    if kind == "terrain_chart":
        m = _absolute_refs(json.loads(MAP.read_text(encoding="utf-8")), MAP.parent)
        m["terrain_chart"] = "{dir}/" + name
        files["map_with_chart.json"] = json.dumps(m).encode()
    if kind == "counters":
        s = _absolute_refs(json.loads(SOURCES["ironcross_scenario"].read_text(encoding="utf-8")),
                           SOURCES["ironcross_scenario"].parent)
        s["counters"] = "{dir}/" + name
        files["scenario_with_counters.json"] = json.dumps(s).encode()
    return Case(kind, what, files, _commands(kind, name), fifo="fifo" if b"{fifo}" in raw else None)


def write_case(case: Case, folder: Path) -> list[list[str]]:
    """Write the case's files into ``folder`` (and its FIFO); its commands with ``{dir}`` filled in."""
    folder.mkdir(parents=True, exist_ok=True)
    d = str(folder)
    for name, raw in case.files.items():
        (folder / name).write_bytes(raw.replace(b"{dir}", d.encode()).replace(b"{fifo}", f"{d}/fifo".encode()))
    if case.fifo and not (folder / "fifo").exists():
        os.mkfifo(folder / "fifo")
    return [[a.replace("{dir}", d) for a in cmd] for cmd in case.commands]


def classify(args: list[str], exit_code: int, output: str, exc: BaseException | None, folder: str | None = None) -> str:
    """``accepted``, ``refused`` or ``traceback`` for one command's outcome (see the module doc); a
    refusal must name one of the files of the command line (or the case's ``folder``)."""
    if exc is not None and not isinstance(exc, SystemExit):
        return "traceback"
    if "Traceback (most recent call last)" in output:
        return "traceback"
    if exit_code == 0:
        return "accepted"
    if exit_code == 1 and any(a in output for a in args + ([folder] if folder else []) if os.sep in a):
        return "refused"
    return "traceback"


def run_command(args: list[str], folder: str | None = None) -> tuple[str, str]:
    """Run one ``ironcross`` command line in-process; (classification, output)."""
    from click.testing import CliRunner

    from cli.main import cli

    res = CliRunner().invoke(cli, args)
    exc = res.exception
    out = res.output
    if exc is not None and not isinstance(exc, SystemExit):
        out += "".join(traceback.format_exception(exc))
    return classify(args, res.exit_code, out, exc, folder), out
