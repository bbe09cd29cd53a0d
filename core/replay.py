"""Replay files: a game's header, then its event log as JSON lines.

Line 1 is the header ``{"format": "ironcross-replay", "version": 1, "scenario": ..., "rule_system": ...,
"seed": ..., "rules": ..., "options": [...], "ai": {...}}`` (``rule_system`` absent, as in replays
written before rule systems had names, = Iron Cross); every further line is one event of the game's log,
in order: the players' decisions (``"kind": "action"``), every die roll (``"kind": "roll"`` with
its purpose, rule and dice) and every effect. :func:`verify_replay` re-runs the game from its
scenario, seed and decisions and reports the first event that differs.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Iterable

from maps.document_file import DocumentError, Problem, atomic_write_text

__all__ = ["REPLAY_FORMAT", "REPLAY_VERSION", "Replay", "write_replay", "read_replay", "replay_actions",
           "replay_decisions", "replay_system", "first_divergence"]

REPLAY_FORMAT = "ironcross-replay"
REPLAY_VERSION = 1


@dataclass
class Replay:
    """A parsed replay: ``header`` dict and ``events`` list (dicts)."""

    header: dict
    events: list[dict]
    #: the file's line number of each event (blank lines skipped); empty for a replay built in memory
    lines: list[int] = field(default_factory=list)

    @property
    def actions(self) -> list[dict]:
        return [e["action"] for e in self.events if e.get("kind") == "action"]


def write_replay(path: str | os.PathLike[str], header: dict, events: Iterable[dict]) -> None:
    """Write a replay atomically (JSON lines)."""
    head = {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, **header}
    lines = [json.dumps(head, sort_keys=True)] + [json.dumps(e, sort_keys=True) for e in events]
    atomic_write_text(path, "\n".join(lines) + "\n")


def read_replay(path: str | os.PathLike[str]) -> Replay:
    """Read a replay; raises :class:`DocumentError` naming the file, the line and the problem."""
    from maps.json_file import JsonFileProblem, limit_for, parse_json, read_text_file

    try:
        raw = read_text_file(path, limit=limit_for(REPLAY_FORMAT)).splitlines()
    except FileNotFoundError:
        raise DocumentError(path, [Problem("$", "file not found")]) from None
    except JsonFileProblem as e:
        raise DocumentError(path, [Problem(e.where, e.message)]) from None
    if not raw:
        raise DocumentError(path, [Problem("line 1", "empty file")])
    out = []
    nums = []
    for i, line in enumerate(raw, 1):
        if not line.strip():
            continue
        try:
            out.append(parse_json(line, where=f"line {i}"))
        except JsonFileProblem as e:
            raise DocumentError(path, [Problem(e.where, e.message)]) from None
        nums.append(i)
    if not out:
        raise DocumentError(path, [Problem("line 1", "empty file")])
    head = out[0]
    if not isinstance(head, dict) or head.get("format") != REPLAY_FORMAT:
        raise DocumentError(path, [Problem("line 1.format", f"not a replay (format {head.get('format')!r})"
                                           if isinstance(head, dict) else "not a replay header")])
    if not isinstance(head.get("version"), int) or head["version"] > REPLAY_VERSION:
        raise DocumentError(path, [Problem("line 1.version", f"unsupported version {head.get('version')!r}")])
    for key in ("scenario", "seed"):
        if key not in head:
            raise DocumentError(path, [Problem(f"line 1.{key}", "missing")])
    if not isinstance(head["scenario"], str) or not head["scenario"].strip():
        raise DocumentError(path, [Problem("line 1.scenario", "the scenario file's name, a non-empty string")])
    if not isinstance(head["seed"], int) or isinstance(head["seed"], bool) or not 0 <= head["seed"] < 2**64:
        raise DocumentError(path, [Problem("line 1.seed", "the game's seed, a whole number from 0 to 2^64 - 1")])
    for i, e in zip(nums[1:], out[1:]):
        if not isinstance(e, dict) or "kind" not in e:
            raise DocumentError(path, [Problem(f"line {i}", "an event needs a 'kind'")])
    return Replay(head, out[1:], nums[1:])


def replay_decisions(path: str | os.PathLike[str], replay: Replay, system, events_only: bool = False) -> list:
    """The decisions of ``replay`` as actions of ``system`` (a :class:`core.rule_system.RuleSystem`,
    see :func:`replay_system`), in order: the header's ``"actions"`` (every replay the playtest
    runner writes has them) or else the ``"action"`` of every action event (``events_only``: those
    even when the header lists the actions, as the editor's Watch replays what was logged). Decodes
    them all before any is played, so a hand-edited replay is refused before the game starts.
    Raises :class:`DocumentError` naming the file and, for every decision the system cannot read
    (its ``action_from_json`` raised :class:`core.rule_system.IllegalActionError`), its line, its
    index (0 = the first decision) and the system's reason."""
    from core.rule_system import IllegalActionError

    if replay.header.get("actions") and not events_only:
        raw = replay.header["actions"]
        if not isinstance(raw, list):
            raise DocumentError(path, [Problem("line 1.actions", f"a list of actions, not {type(raw).__name__}")])
        where = [f"line 1.actions[{i}]" for i in range(len(raw))]
    else:
        lines = replay.lines if len(replay.lines) == len(replay.events) else None
        picked = [k for k, e in enumerate(replay.events) if e.get("kind") == "action"]
        raw = [replay.events[k].get("action") for k in picked]
        where = [f"line {lines[k]}.action" if lines else f"$.events[{k}].action" for k in picked]
    out, problems = [], []
    for i, (a, loc) in enumerate(zip(raw, where)):
        try:
            out.append(system.action_from_json(a))
        except IllegalActionError as e:
            problems.append(Problem(loc, f"decision {i}: {e}"))
    if problems:
        raise DocumentError(path, problems)
    return out


def replay_system(path: str | os.PathLike[str], replay: Replay):
    """The :class:`core.rule_system.RuleSystem` that played ``replay`` (its header's
    ``"rule_system"``; absent = Iron Cross), which decodes its actions and re-runs it. Raises
    :class:`DocumentError` naming the file, ``line 1.rule_system`` and the known systems."""
    from core.rule_system import UnknownRuleSystem, get, system_name_of

    try:
        return get(system_name_of(replay.header))
    except (UnknownRuleSystem, TypeError) as e:
        raise DocumentError(path, [Problem("line 1.rule_system", str(e))]) from None


def replay_actions(replay: Replay) -> list[dict]:
    """The decisions of the game, in order (JSON dicts of actions)."""
    return replay.actions


def first_divergence(recorded: list[dict], rerun: list[dict]) -> tuple[int, dict | None, dict | None] | None:
    """Index and the two events where ``rerun`` first differs from ``recorded``; None if equal."""
    for i, (a, b) in enumerate(zip(recorded, rerun)):
        if a != b:
            return (i, a, b)
    if len(recorded) != len(rerun):
        i = min(len(recorded), len(rerun))
        return (i, recorded[i] if i < len(recorded) else None, rerun[i] if i < len(rerun) else None)
    return None
