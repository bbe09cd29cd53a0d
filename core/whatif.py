"""What would balance it? A racing search over small changes of a scenario (``ironcross balance``,
the editor's Balance panel; ``docs/balance.md``).

A **change** is data: the designer's words in the change grammar of the scenario's rule system
(``"turns=8"``, ``"russian.oob-=LMG"``), its kind and a description. The rule system's what-if
module (:attr:`core.rule_system.RuleSystem.whatif_changes`, Iron Cross's
:mod:`core.ironcross.whatif_changes`) turns a change into an edit of the scenario's JSON, lists
the changes that apply to a scenario by default and validates a changed scenario file. A
**candidate** is one change or two (a combination), or none (the scenario as it is, the
reference row).

The **race** (:func:`race`) knows nothing of games: it calls ``play(candidate, seeds) ->
outcomes`` ("german" / "russian" / "draw" / "error", one per seed). Every candidate plays game
``i`` on the seed ``derive_seed(seed, i)`` -- the seeds ``ironcross playtest --seed S`` uses --
so candidates are compared on the same dice and pre-game draws (common random numbers), and a
candidate's first ``n`` games are those of a playtest of its changed scenario. The scheme is
**successive halving with interval elimination**:

1. round 0: every candidate plays ``first`` games;
2. after each round, a candidate whose 95 % Wilson interval of the target side's share lies
   wholly outside the target band is dropped ("excluded"); of the others, only the better half
   by distance of the share to the target goes on (at least ``keep``), the rest are dropped
   ("halved");
3. the survivors' game count doubles in the next round; the race ends when at most ``keep``
   survive and all of them have intervals no wider than +-``precision``, when none survives, or
   when the budget is spent (the last round is cut to fit it).

Ctrl-C (KeyboardInterrupt) inside ``play`` ends the race with what was played so far
(``interrupted``). Ties are broken by the candidate's order, so a race is a pure function of
its candidates, ``play`` and its arguments.

When no single change reaches the band, a second race (:func:`search`) runs with the budget left:
the two-change combinations of the top three, and the **second chances** -- the single changes
halved out (not excluded) that edit the same field as one of the top three (a step of the game
length between one that overshoots and the scenario as it is), with the games they played.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from core.dice import derive_seed
from core.playtest import shared_pool, wilson_interval

__all__ = ["Change", "Candidate", "Arm", "RaceResult", "race", "parse_target", "candidate_file",
           "WhatIfSearch", "search", "combinations", "OUTCOMES", "CHANGE_TEXT", "split_change", "whole_number",
           "turns_change", "makeable", "check_with", "second_chances"]

OUTCOMES = ("german", "russian", "draw")

#: a change text of every system's grammar: ``TARGET[INDEX] OP VALUE`` (``russian.entry[2]+=1``)
CHANGE_TEXT = re.compile(r"^\s*(?P<target>[A-Za-z_]+(?:\.[A-Za-z_]+)*)(?:\[(?P<index>\d+)\])?\s*"
                         r"(?P<op>\+=|-=|=)\s*(?P<value>\S+)\s*$")


def split_change(text: str, example: str) -> tuple[list[str], str | None, str, str]:
    """``text`` as (target's dotted parts, index or None, op, value); raises ValueError naming the
    text and showing ``example`` (the system's) when it is not ``TARGET OP VALUE``."""
    m = CHANGE_TEXT.match(text or "")
    if not m:
        raise ValueError(f"{text!r}: write TARGET OP VALUE, e.g. {example}")
    return m["target"].split("."), m["index"], m["op"], m["value"]


def whole_number(value: str, text: str) -> int:
    """``value`` of the change ``text`` as an int; ValueError naming both when it is none."""
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{text!r}: {value!r} is no whole number") from None


def makeable(texts: Iterable[str], apply: Callable[[dict, str, str | None], dict], data: dict,
             path: str | None) -> list[str]:
    """The change ``texts`` (in order) that ``apply`` (a system's ``apply_change``) can make on the
    scenario ``data``: the default changes of a system are the ones that apply to the scenario."""
    out = []
    for t in texts:
        try:
            apply(data, t, path)
        except (ValueError, KeyError):
            continue
        out.append(t)
    return out


def check_with(path: str, known: frozenset[str] | None, warnings_of: Callable[[str], list],
               key: Callable[[Any], str], say: Callable[[Any], str]) -> frozenset[str] | str:
    """A system's ``check_file``: the keys of the design warnings ``warnings_of(path)`` gives, or a
    one-line problem: the first error (the file does not load) or the first warning whose ``key``
    is not in ``known`` (the scenario before the change: a change must not bring a new design
    problem), in the words ``say`` gives it."""
    from maps.document_file import DocumentError

    try:
        warnings = warnings_of(path)
    except DocumentError as e:
        p = e.problems[0] if getattr(e, "problems", None) else e
        return f"invalid: {p}"
    except (KeyError, ValueError) as e:
        return f"invalid: {e}"
    if known is not None:
        for w in warnings:
            if key(w) not in known:
                return say(w)
    return frozenset(key(w) for w in warnings)


def turns_change(text: str, op: str, value: str, unit: str) -> Change:
    """The game-length change ``turns OP VALUE`` (``unit``: the system's word, "Game Turns")."""
    n = whole_number(value, text)
    desc = f"game length {n} {unit}" if op == "=" else f"game length {'+' if op == '+=' else '-'}{n} {unit}"
    return Change(text.strip(), "turns", "turns", desc)


@dataclass(frozen=True)
class Change:
    """One change of a scenario: ``text`` in its system's change grammar (``"turns+=1"``),
    ``kind`` (the grammar's kind word: "turns", "oob", ...), ``field`` what it edits (two changes
    of the same field are never combined) and ``description`` in words."""

    text: str
    kind: str
    field: str
    description: str = ""


@dataclass(frozen=True)
class Candidate:
    """What one arm of the race plays: ``changes`` (empty: the scenario as it is)."""

    changes: tuple[Change, ...] = ()

    @property
    def label(self) -> str:
        """``"turns+=1 & russian.oob-=LMG"``; ``"(as is)"`` for no change."""
        return " & ".join(c.text for c in self.changes) or "(as is)"


@dataclass
class Arm:
    """A candidate in the race: its ``outcomes`` so far (game ``i`` on ``derive_seed(seed, i)``),
    ``dropped`` (None while racing, else the reason and the round), ``invalid`` (the reason it
    was never played) and ``path`` (its scenario file, when it has one)."""

    candidate: Candidate
    outcomes: list[str] = field(default_factory=list)
    dropped: str | None = None
    invalid: str | None = None
    path: str | None = None

    @property
    def played(self) -> list[str]:
        return [o for o in self.outcomes if o != "error"]

    def share(self, side: str) -> tuple[float, float, float]:
        """(share, low, high) of ``side``'s wins over the games played to the end (95 % Wilson)."""
        p = self.played
        k = sum(1 for o in p if o == side)
        lo, hi = wilson_interval(k, len(p))
        return (k / len(p) if p else 0.0, lo, hi)

    def shares(self) -> dict[str, dict]:
        """outcome -> {"count", "share", "ci95"} over the games played to the end."""
        p = self.played
        out = {}
        for k in OUTCOMES:
            c = sum(1 for o in p if o == k)
            out[k] = {"count": c, "share": c / len(p) if p else 0.0, "ci95": list(wilson_interval(c, len(p)))}
        return out

    def distance(self, side: str, target: float) -> float:
        """|share - target| (1.0 for an arm with no game played)."""
        return abs(self.share(side)[0] - target) if self.played else 1.0


@dataclass
class RaceResult:
    """What a race found: ``arms`` ranked (valid ones by distance to the target, then games
    played; invalid ones last), ``spent`` games, ``rounds``, ``interrupted``."""

    arms: list[Arm]
    side: str
    target: float
    band: float
    spent: int = 0
    rounds: int = 0
    interrupted: bool = False

    @property
    def in_band(self) -> tuple[float, float]:
        return (max(0.0, self.target - self.band), min(1.0, self.target + self.band))

    def best(self) -> Arm | None:
        """The best arm that changes something: the closest survivor, else the closest played."""
        played = [a for a in self.arms if a.invalid is None and a.played and a.candidate.changes]
        alive = [a for a in played if a.dropped is None]
        pool = alive or played
        return min(pool, key=lambda a: (a.distance(self.side, self.target), -len(a.played))) if pool else None

    def reaches(self, arm: Arm | None) -> bool:
        """Whether ``arm``'s share lies in the target band."""
        if arm is None or not arm.played:
            return False
        lo, hi = self.in_band
        return lo <= arm.share(self.side)[0] <= hi


def _rank_key(side: str, target: float):
    def key(ia):
        i, a = ia
        if a.invalid is not None:
            return (2, 0.0, 0, i)
        return (0 if a.dropped is None else 1, a.distance(side, target), -len(a.played), i)
    return key


def race(arms: Sequence[Arm], play: Callable[[Candidate, list[int]], list[str]], *, side: str, target: float,
         band: float = 0.05, budget: int = 2000, seed: int = 1, first: int = 8, keep: int = 3,
         precision: float = 0.10, on_progress: Callable[[int, int, list[Arm]], None] | None = None,
         start_spent: int = 0) -> RaceResult:
    """Race ``arms`` (invalid ones are listed, never played) toward ``side`` winning ``target``
    (a fraction, 0.5) of the games, within +-``band``; see the module docstring for the scheme.
    ``play(candidate, seeds)`` returns one outcome per seed. ``budget``: games in all (with
    ``start_spent`` already spent). ``on_progress(spent, budget, arms)`` after each candidate's
    games. Returns a :class:`RaceResult` (arms ranked). Raises ValueError for a target or band
    outside 0-1 or ``first`` < 1."""
    if not 0.0 <= target <= 1.0 or not 0.0 <= band <= 1.0:
        raise ValueError(f"target {target} and band {band} must lie between 0 and 1")
    if first < 1:
        raise ValueError("every candidate needs at least one game in the first round")
    arms = list(arms)
    res = RaceResult(arms, side, target, band, spent=start_spent)
    lo_band, hi_band = res.in_band
    alive = [a for a in arms if a.invalid is None and a.dropped is None]
    n = first
    try:
        while alive and res.spent < budget:
            res.rounds += 1
            for a in alive:
                need = min(n - len(a.outcomes), budget - res.spent)
                if need <= 0:
                    continue
                start = len(a.outcomes)
                got = list(play(a.candidate, [derive_seed(seed, i) for i in range(start, start + need)]))
                if len(got) != need:
                    raise ValueError(f"play returned {len(got)} outcomes for {need} seeds")
                a.outcomes += got
                res.spent += need
                if on_progress is not None:
                    on_progress(res.spent, budget, arms)
            full = [a for a in alive if len(a.outcomes) >= n]
            for a in full:
                p, lo, hi = a.share(side)
                if a.played and (hi < lo_band or lo > hi_band):
                    a.dropped = f"excluded in round {res.rounds}: 95 % interval {lo:.0%}-{hi:.0%} outside the band"
            alive = [a for a in alive if a.dropped is None]
            if len(alive) > keep and all(len(a.outcomes) >= n for a in alive):
                ranked = sorted(enumerate(alive), key=_rank_key(side, target))
                cut = max(keep, math.ceil(len(alive) / 2))
                for _i, a in ranked[cut:]:
                    a.dropped = f"halved in round {res.rounds}: share farther from the target"
                alive = [a for _i, a in ranked[:cut]]
                alive.sort(key=lambda a: arms.index(a))
            if len(alive) <= keep and all(len(a.outcomes) >= n for a in alive) and all(
                    (a.share(side)[2] - a.share(side)[1]) / 2 <= precision for a in alive):
                break
            n *= 2
    except KeyboardInterrupt:
        res.interrupted = True
    res.arms = [a for _i, a in sorted(enumerate(arms), key=_rank_key(side, target))]
    return res


def parse_target(text: str, sides: Sequence[str] = ("german", "russian")) -> tuple[str, float]:
    """``"german=50"`` -> ("german", 0.5). Raises ValueError naming the problem."""
    name, eq, value = text.partition("=")
    name = name.strip().lower()
    if not eq or name not in sides:
        raise ValueError(f"--target {text!r}: write SIDE=PERCENT with SIDE one of {', '.join(sides)} (german=50)")
    try:
        v = float(value)
    except ValueError:
        raise ValueError(f"--target {text!r}: {value!r} is no percentage") from None
    if not 0 <= v <= 100:
        raise ValueError(f"--target {text!r}: the share must lie between 0 and 100")
    return name, v / 100.0


def combinations(singles: Sequence[Arm], top: int = 3) -> list[Candidate]:
    """Two-change candidates from the first ``top`` of ``singles`` (ranked, valid, one change
    each), in rank order, leaving out pairs that edit the same field."""
    pool = [a.candidate.changes[0] for a in singles if a.invalid is None and len(a.candidate.changes) == 1][:top]
    out = []
    for i, a in enumerate(pool):
        for b in pool[i + 1:]:
            if a.field != b.field:
                out.append(Candidate((a, b)))
    return out


def second_chances(singles: Sequence[Arm], top: int = 3) -> list[Arm]:
    """Single changes halved out of the race (not excluded by their interval) that edit the same
    field as one of the first ``top`` of ``singles`` (ranked, valid, one change each): a fresh
    arm each, with the games played so far, to race again with the combinations. After a few
    games a share is noise: in Scenario 3, ``turns-=1`` lost its first 8 games' toss and was
    halved while ``turns-=2`` overshot the target and the scenario as it is fell short of it; the
    step between them is the likely answer and must be measured."""
    ranked = [a for a in singles if a.invalid is None and len(a.candidate.changes) == 1]
    fields = {a.candidate.changes[0].field for a in ranked[:top]}
    return [Arm(a.candidate, list(a.outcomes), path=a.path) for a in ranked[top:]
            if a.dropped is not None and a.dropped.startswith("halved") and a.candidate.changes[0].field in fields]


def _absolute_refs(data: dict, base: Path) -> dict:
    """``data`` with its map file and counters (or roster) file made absolute (from ``base``, the
    folder of the scenario it came from), so a copy written elsewhere names the same files."""
    out = dict(data)
    m = out.get("map")
    if isinstance(m, Mapping) and isinstance(m.get("file"), str) and not os.path.isabs(m["file"]):
        out["map"] = {**m, "file": str((base / m["file"]).resolve())}
    for key in ("counters", "roster"):   # Iron Cross's counters file, a Red Flags roster
        c = out.get(key)
        if isinstance(c, str) and not os.path.isabs(c):
            out[key] = str((base / c).resolve())
    return out


def candidate_file(data: dict, base: Path, folder: str | os.PathLike[str], name: str) -> Path:
    """Write the scenario JSON ``data`` (a changed copy of the scenario whose folder is ``base``)
    atomically to ``folder/name`` with its file references made absolute; return the path."""
    from maps.document_file import atomic_write_text

    path = Path(folder) / name
    atomic_write_text(path, json.dumps(_absolute_refs(data, base), indent=1) + "\n")
    return path


@dataclass
class WhatIfSearch:
    """A whole search (:func:`search`): ``singles`` the race of one-change candidates (with the
    scenario as it is), ``pairs`` the second race: two-change combinations and the second chances
    of single changes (:func:`second_chances`) (None when a single
    change reached the band, or no budget was left), ``best`` the best arm of either,
    ``robust`` the robust verdict of the best change (None: not checked)."""

    singles: RaceResult
    pairs: RaceResult | None = None
    best: Arm | None = None
    robust: Any = None
    folder: str = ""

    @property
    def interrupted(self) -> bool:
        return self.singles.interrupted or bool(self.pairs and self.pairs.interrupted)

    def rows(self) -> list[Arm]:
        """Every arm, pairs first when they were raced (ranked within each race)."""
        return (self.pairs.arms if self.pairs else []) + self.singles.arms

    def as_is_on_target(self) -> Arm | None:
        """The arm of the scenario as it is when it needs no change: played, its share in the band
        and no farther from the target than the best change (a designer should not be sent to
        change a scenario that already meets the target); else None. A search stopped part-way
        concludes nothing: None (its table so far may rest on a few games)."""
        if self.interrupted:
            return None
        r = self.singles
        arm = next((a for a in r.arms if not a.candidate.changes and a.invalid is None and a.played), None)
        if arm is None or not r.reaches(arm):
            return None
        if self.best is not None and self.best.distance(r.side, r.target) < arm.distance(r.side, r.target):
            return None
        return arm


def search(loaded, *, side: str, target: float, changes: Sequence[str] | None = None, band: float = 0.05,
           budget: int = 2000, seed: int = 1, first: int = 8, keep: int = 3, precision: float = 0.10,
           combine: bool = True, ai: Mapping[str, str] | None = None, rules: str | None = None,
           workers: int | None = None, scheduler: str | None = None, folder: str | os.PathLike[str] | None = None,
           on_progress: Callable[[int, int, list[Arm]], None] | None = None,
           play: Callable[[Arm, list[int]], list[str]] | None = None) -> WhatIfSearch:
    """Search what would bring ``side``'s share of wins in the scenario ``loaded``
    (:class:`core.rule_system.LoadedScenario`) to ``target``: build the candidates (``changes``
    in the system's grammar, None: its defaults for this scenario), write and validate each
    candidate's scenario file in ``folder`` (default: a new temporary folder, kept, named in the
    result), race the valid ones (:func:`race`; games through :func:`core.playtest.run_batch`
    with ``ai``, ``rules``, ``workers`` or ``scheduler``), then, when no single change reaches the
    band and budget is left (and ``combine``), race two-change combinations of the top three
    together with the halved single changes of the same fields (:func:`second_chances`).
    ``play(arm, seeds)`` replaces the games (tests). Raises ValueError for a system without
    what-if changes or a change the grammar refuses (naming it)."""
    from core.playtest import DEFAULT_AI, BatchInterrupted, run_batch

    system = loaded.system
    if system.whatif_changes is None:
        raise ValueError(f"{system.title} names no what-if changes")
    kinds = system.whatif_changes()
    data = loaded.data
    base = Path(loaded.path).resolve().parent
    texts = list(changes) if changes else kinds.default_changes(data, str(loaded.path))
    parsed = [kinds.parse_change(t, data, str(loaded.path)) for t in texts]
    folder = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="whatif-"))
    folder.mkdir(parents=True, exist_ok=True)
    ai = dict(ai or DEFAULT_AI)
    baseline_path = candidate_file(data, base, folder, "as_is.json")
    known = kinds.check_file(str(baseline_path), None)
    if known is None or isinstance(known, str):
        raise ValueError(f"{loaded.path}: the scenario itself does not validate: {known}")
    counter = [0]

    def make(cand: Candidate) -> Arm:
        if not cand.changes:
            return Arm(cand, path=str(baseline_path))
        counter[0] += 1
        try:
            new = data
            for ch in cand.changes:
                new = kinds.apply_change(new, ch, str(loaded.path))
        except ValueError as e:
            return Arm(cand, invalid=str(e))
        path = candidate_file(new, base, folder, f"candidate_{counter[0]:03d}.json")
        problem = kinds.check_file(str(path), known)
        if isinstance(problem, str):
            return Arm(cand, invalid=problem, path=str(path))
        return Arm(cand, path=str(path))

    def run(arm_or_cand, seeds: list[int]) -> list[str]:
        arm = lookup[arm_or_cand] if isinstance(arm_or_cand, Candidate) else arm_or_cand
        if play is not None:
            return play(arm, seeds)
        try:
            rs = run_batch(arm.path, 0, seed, dict(ai), rules=rules, workers=workers, scheduler=scheduler,
                           seeds=seeds)
        except BatchInterrupted:
            raise KeyboardInterrupt from None
        return [r.outcome for r in rs]

    arms = [make(Candidate())] + [make(Candidate((c,))) for c in parsed]
    lookup = {a.candidate: a for a in arms}
    # one local pool for the whole search: its workers keep what they computed on the map (LOS,
    # the players' map fields) from one candidate's games to the next (the results are the same)
    pool = shared_pool(workers) if scheduler is None and play is None else contextlib.nullcontext()
    with pool:
        singles = race(arms, run, side=side, target=target, band=band, budget=budget, seed=seed, first=first,
                       keep=keep, precision=precision, on_progress=on_progress)
        out = WhatIfSearch(singles, folder=str(folder))
        best = singles.best()
        if combine and not singles.interrupted and not singles.reaches(best) and singles.spent < budget:
            ranked = [a for a in singles.arms if a.candidate.changes and a.played]
            pair_arms = [make(c) for c in combinations(ranked)]
            again = second_chances(ranked)   # their candidates' files are the singles' (``lookup``)
            if pair_arms or again:
                lookup.update({a.candidate: a for a in pair_arms})
                out.pairs = race(again + pair_arms, run, side=side, target=target, band=band, budget=budget, seed=seed,
                                 first=first, keep=keep, precision=precision, on_progress=on_progress,
                                 start_spent=singles.spent)
                pb = out.pairs.best()
                if pb is not None and (best is None or pb.distance(side, target) < best.distance(side, target)):
                    best = pb
        out.best = best
        return out


def arm_rows(arms: Iterable[Arm], side: str, target: float) -> list[dict]:
    """JSON-ready rows of ``arms`` in their order: change, its changes' texts and description,
    games played and errors, status ("kept", "dropped", "invalid") with the reason, and for a
    played arm the shares with 95 % intervals and the distance to the target (points)."""
    rows = []
    for a in arms:
        d = {"change": a.candidate.label, "changes": [c.text for c in a.candidate.changes],
             "description": "; ".join(c.description for c in a.candidate.changes) or "the scenario as it is",
             "games": len(a.played), "errors": len(a.outcomes) - len(a.played)}
        if a.invalid is not None:
            d.update(status="invalid", reason=a.invalid)
        else:
            d.update(shares=a.shares(), distance=round(100 * a.distance(side, target), 1) if a.played else None,
                     status="kept" if a.dropped is None else "dropped", reason=a.dropped or "")
        rows.append(d)
    return rows


def table_rows(result: WhatIfSearch, side: str, target: float) -> list[dict]:
    """The ranked table of a search as :func:`arm_rows` (pairs first when they were raced)."""
    return arm_rows(result.rows(), side, target)


__all__ += ["table_rows", "arm_rows"]
