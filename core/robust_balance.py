"""A balance answer that says when it depends on the AI: default against default, then each side
tuned against the other's defaults (:mod:`core.tuning`), on the same game seeds (paired games).

A side's **gain** from tuning is its share of wins with the tuned settings less its share with the
defaults, over the same seeds; its 95 % interval is the paired one (per-game differences, each -1,
0 or 1: mean +- 1.96 standard errors). The verdict:

* **robust** -- for both sides the whole interval of the gain lies within 10 points of 0: tuning
  either side does not move the shares by more than 10 points;
* **AI-dependent** -- for a side the whole interval lies above 10 points: the answer depends on the
  AI; the verdict names the side, its gain and the settings that moved;
* **undecided** -- neither (the intervals straddle 10 points): more games are needed to say. The
  text then says which way the point estimates lean (AI-dependent when a side's gain is above 10
  points, else robust) and about how many paired games would decide it: the interval's half-width
  shrinks as 1/sqrt(games), so with the same spread of the per-game differences it clears 10 points
  after ``games x (half-width / distance of the gain from 10)^2`` games (see :func:`games_to_decide`).

Deciding a row can take thousands of check games, hours of play. With a storage directory a run
keeps each pairing's check games in a file (:func:`kept_batch`) as it plays them, in slices: a run
stopped part-way (Ctrl-C, a closed terminal) resumes where it stopped, and a run with more
``games`` plays only the games it adds. The file remembers what the games depend on (the scenario
file, the seed, both sides' players and settings, and the code that plays them) and is used only
while all of it stays the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from core.dice import derive_seed
from core.playtest import BatchInterrupted, GameResult, run_batch, shared_pool, wilson_interval
from core.rule_system import load_scenario
from core.tuning import TuneResult, default_study_name, read_studies, stored_setup_problem, study_setup, tune

__all__ = ["ROBUST_POINTS", "MIN_LEAN_GAMES", "paired_gain", "games_to_decide", "SideTuning", "RobustAnswer", "robust_balance",
           "verdict", "kept_batch", "CheckGamesInterrupted", "play_code_fingerprint", "scenario_documents", "scenario_version", "CHECK_SLICE",
           "robust_stages"]

#: the largest move of a share (in points) a robust answer allows
ROBUST_POINTS = 10.0
#: Below this many paired check games a side there is no verdict (undecided, "too few"), and no lean
#: or count of games that would decide: the spread of the per-game differences the intervals and
#: those figures rest on is itself unknown (two games give the whole range, a handful a spread that
#: may be anything, zero when they happen to agree).
MIN_LEAN_GAMES = 30


def paired_gain(before: list[GameResult], after: list[GameResult], side: str) -> tuple[float, float, float]:
    """(gain, low, high) in points of ``side``'s share of wins from ``before`` to ``after``, games
    paired by index (same seeds); errored games left out of both. 95 % normal interval of the mean
    of per-game differences, within the possible -100 to +100 points; one pair gives no spread, so
    its interval is the whole range (no pair at all: (0, 0, 0))."""
    a = {r.index: r for r in before if r.outcome != "error"}
    b = {r.index: r for r in after if r.outcome != "error"}
    d = [(b[i].outcome == side) - (a[i].outcome == side) for i in sorted(a.keys() & b.keys())]
    if not d:
        return (0.0, 0.0, 0.0)
    n = len(d)
    m = sum(d) / n
    if n < 2:
        return (100 * m, -100.0, 100.0)
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
    half = 1.959964 * sd / math.sqrt(n)
    return (100 * m, max(-100.0, 100 * (m - half)), min(100.0, 100 * (m + half)))


def _shares(results: list[GameResult]) -> dict:
    played = [r for r in results if r.outcome != "error"]
    n = len(played)
    out = {}
    for k in ("german", "russian", "draw"):
        c = sum(1 for r in played if r.outcome == k)
        out[k] = {"count": c, "share": c / n if n else 0.0, "ci95": list(wilson_interval(c, n))}
    return out


#: the games a pairing plays between two saves of its kept file (:func:`kept_batch`)
CHECK_SLICE = 100


class CheckGamesInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a stop asked for) during a pairing's check games: a ``KeyboardInterrupt`` whose
    :attr:`results` are the games of the pairing done by then, kept ones included, by game index
    (a robust run reports a tuned side's row over them, :func:`robust_balance`)."""

    def __init__(self, results: list[GameResult]):
        super().__init__(f"stopped after {len(results)} check games")
        self.results = results


#: what a kept file of check games says it is (its ``format``)
CHECK_FORMAT = "ironcross robust check games 1"

#: the package's folders whose files decide how a game plays (the rules, the AI, the maps and the
#: shipped scenarios' code)
_PLAY_DIRS = ("core", "maps", "scenarios")
#: the kinds of data file there that do (an editor's ``.autosave`` beside a scenario does not)
_PLAY_SUFFIXES = (".json", ".txt")


def _plays(p: Path) -> bool:
    """Whether the file ``p`` of the package can decide how a game plays: its Python modules, and
    the data files (``.json``, ``.txt``) directly in a ``data`` or ``mapsheet_source`` folder (the
    maps, charts, rosters and shipped scenarios). Not what runs write there: a robust run's kept
    games (``*-checks-*.json``, a ``*.robust`` folder beside a scenario the editor checked)."""
    if not p.is_file() or "__pycache__" in p.parts or any(x.endswith(".robust") for x in p.parts):
        return False
    if p.suffix == ".py":
        return True
    return p.suffix in _PLAY_SUFFIXES and p.parent.name in ("data", "mapsheet_source") and "-checks-" not in p.name


def play_code_fingerprint(module: str | None = None) -> str:
    """SHA-256 hex digest of the code and data that decide how a game plays: the files under the
    package's ``core/``, ``maps/`` and ``scenarios/`` that can (:func:`_plays`: the modules and the
    data files; relative path and bytes, in path order), and the file of the rule system's
    ``module`` (a system added at run time) when it lies outside them. Two runs with the same
    digest play the same games from the same seeds."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    files = sorted(p for d in _PLAY_DIRS for p in (root / d).rglob("*") if _plays(p))
    extra = getattr(sys.modules.get(module or ""), "__file__", None)
    if extra:
        ep = Path(extra).resolve()
        if not any(ep.is_relative_to(root / d) for d in _PLAY_DIRS):
            files.append(ep)
    for p in files:
        h.update(str(p.relative_to(root) if p.is_relative_to(root) else p).encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def scenario_documents(scenario_path: str, data) -> dict[str, str]:
    """The documents a scenario file names (a map, a roster: every string value of its JSON
    ``data`` that names an existing ``.json`` file, absolute or relative to the scenario's folder)
    -> SHA-256 hex digest of each, by the name as written: a game reads them as it reads the
    scenario, so kept games hold only while they stay the same too."""
    base = Path(scenario_path).resolve().parent
    out: dict[str, str] = {}

    def walk(x) -> None:
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str) and x.endswith(".json") and x not in out:
            p = Path(x) if Path(x).is_absolute() else base / x
            if p.is_file():
                out[x] = hashlib.sha256(p.read_bytes()).hexdigest()

    walk(data)
    return dict(sorted(out.items()))


def _kept_header(scenario_path: str, seed: int, ai: dict[str, str]) -> dict:
    loaded = load_scenario(scenario_path)
    ref = loaded.ref
    return {"format": CHECK_FORMAT, "scenario": Path(scenario_path).name, "scenario_sha256": ref.sha256,
            "documents": scenario_documents(scenario_path, loaded.data), "system": ref.system,
            "code": play_code_fingerprint(ref.module), "seed": seed, "ai": {k: ai[k] for k in sorted(ai)}}


def scenario_version(scenario_path: str) -> str:
    """12 hex digits naming what a robust run's games depend on apart from the seed and the
    players: the scenario file, the documents it names and the code (:func:`play_code_fingerprint`).
    The editor keeps each version's studies and games in a folder of this name, so an edited
    scenario starts afresh and going back to a version resumes it."""
    h = _kept_header(scenario_path, 0, {})
    doc = {k: h[k] for k in ("scenario_sha256", "documents", "system", "code")}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:12]


_KEPT_WHAT = {"scenario_sha256": "another version of the scenario file",
              "documents": "other versions of the documents the scenario names (its map, its roster)",
              "system": "another rule system",
              "code": "other code (a file under core/, maps/ or scenarios/ changed since)",
              "seed": "another batch seed"}


def _read_kept(path: Path, header: dict) -> tuple[dict[int, GameResult], str | None]:
    """(index -> game, None) of the kept file ``path`` for a batch of ``header``; ({}, why) when it
    holds games of other players or settings (they are played again). Raises ValueError naming the
    file for a file that is not a kept batch, or holds games of another scenario file, rule system,
    seed or code."""
    from maps.document_file import DocumentError, read_json
    from maps.json_file import limit_for

    try:  # the safe reader: a regular file (no pipe, no /dev/zero) of bounded size and nesting, UTF-8
        doc = read_json(path, limit=limit_for(CHECK_FORMAT))
    except DocumentError as e:
        raise ValueError(f"{str(e).splitlines()[0]}: delete the file to play its games again") from None
    if not isinstance(doc, dict) or doc.get("format") != CHECK_FORMAT:
        raise ValueError(f"{path}: not a file of kept check games (its 'format' is not {CHECK_FORMAT!r})")
    for k, what in _KEPT_WHAT.items():
        if doc.get(k) != header[k]:
            raise ValueError(f"{path}: its games were played with {what}: delete the file to play them again")
    ai = doc.get("ai")
    if not (isinstance(ai, dict) and ai and all(isinstance(k, str) and isinstance(v, str) for k, v in ai.items())):
        # every kept file names its players: without them the file is damaged, not of other players
        raise ValueError(f"{path}: 'ai' is not the players of its games (side: player): delete the file to play "
                         "its games again")
    if ai != header["ai"]:
        return {}, "its games were played with other players or settings"
    games = doc.get("games")
    if not isinstance(games, list):
        raise ValueError(f"{path}: 'games' is not a list")
    out: dict[int, GameResult] = {}
    from core.rule_system import get as system_named

    outcomes = (*system_named(header["system"]).sides, "draw", "error")
    for n, g in enumerate(games):
        ok = (isinstance(g, list) and len(g) == 5 and type(g[0]) is int and 0 <= g[0] and type(g[1]) is int
              and type(g[2]) is str and type(g[3]) is int and 0 <= g[3] and (g[4] is None or type(g[4]) is str))
        if not ok:
            raise ValueError(f"{path}: games[{n}]: not [index, seed, outcome, turns, error]")
        if g[2] not in outcomes or (g[2] == "error") != (g[4] is not None):
            raise ValueError(f"{path}: games[{n}]: outcome {g[2]!r} with error {g[4]!r}: an outcome is one of "
                             f"{', '.join(outcomes)}, and only an 'error' has its error text; delete the file to "
                             "play its games again")
        if g[1] != derive_seed(header["seed"], g[0]):
            raise ValueError(f"{path}: games[{n}]: seed {g[1]} is not game {g[0]}'s of batch seed {header['seed']}")
        if g[0] in out:  # a game kept twice (a pasted line): which one counts cannot be told
            raise ValueError(f"{path}: games[{n}]: game {g[0]} is kept twice; delete the file to play its games "
                             "again")
        out[g[0]] = GameResult(g[0], g[1], g[2], g[3], error=g[4])
    return out, None


def _write_kept(path: Path, header: dict, games: dict[int, GameResult]) -> None:
    from maps.document_file import atomic_write_text

    doc = dict(header, games=[[r.index, r.seed, r.outcome, r.turns, r.error] for _i, r in sorted(games.items())])
    try:
        atomic_write_text(path, json.dumps(doc, separators=(",", ":")) + "\n")
    except OSError as e:
        raise ValueError(f"{path}: cannot write the kept check games: {e}") from None


def kept_batch(path: str | Path, scenario_path: str, games: int, seed: int, ai: dict[str, str], *,
               workers: int | None = None, scheduler: str | None = None,
               say: Callable[[str], None] | None = None,
               on_progress: Callable[[int], None] | None = None,
               on_kept: Callable[[int], None] | None = None) -> list[GameResult]:
    """:func:`core.playtest.run_batch`'s results of ``games`` games seeded ``seed`` with the
    players ``ai``, keeping them in the JSON file ``path``: the games an earlier run kept there
    (the same scenario file and the documents it names, :func:`scenario_documents`, the same rule
    system, seed and code, :func:`play_code_fingerprint`) are taken from it and only the missing
    ones are played, :data:`CHECK_SLICE` at a time, the file written again (atomically) after each
    slice and on Ctrl-C. A run stopped part-way resumes; a run with more ``games`` plays only the
    added ones. The file keeps each game's index, seed, outcome, turns and error (what a robust
    verdict reads); the results carry no more. A kept file of other players or settings (a tuned
    side whose best trial changed) is played again and replaced; ``say`` is told that, and how
    many games were kept and are to play. ``on_kept(n)``: the n kept games taken, before any is
    played (for a progress bar). ``on_progress(n)``: n more games played
    (:func:`run_batch`'s; it may raise KeyboardInterrupt to stop, as Ctrl-C). Raises ValueError
    naming the file (not a kept batch, games of another scenario file, rule system, seed or code,
    cannot be written), :class:`CheckGamesInterrupted` (a ``KeyboardInterrupt``) after saving the
    games done, and what :func:`run_batch` raises."""
    path = Path(path)
    header = _kept_header(scenario_path, seed, ai)
    kept: dict[int, GameResult] = {}
    if path.exists():
        kept, why = _read_kept(path, header)
        if why is not None and say is not None:
            say(f"{path.name}: {why}: played again")
    missing = [i for i in range(games) if i not in kept]
    if missing and not os.access(path.resolve().parent, os.W_OK):
        # the games would be played and then lost at the first write: said before the first one
        raise ValueError(f"{path.resolve().parent}: the folder is not writable: the check games of {path.name} "
                         "could not be kept")
    if kept and say is not None:
        say(f"{path.name}: {games - len(missing)} of {games} games kept, {len(missing)} to play")
    if on_kept is not None:
        on_kept(games - len(missing))
    for k in range(0, len(missing), CHECK_SLICE):
        part = missing[k:k + CHECK_SLICE]
        try:
            played = run_batch(scenario_path, len(part), seed, ai, workers=workers, scheduler=scheduler,
                               seeds=[derive_seed(seed, i) for i in part], on_progress=on_progress)
        except BatchInterrupted as e:
            for r in e.results:
                r.index = part[r.index]
                kept[r.index] = r
            _write_kept(path, header, kept)
            raise CheckGamesInterrupted([kept[i] for i in sorted(kept) if i < games]) from None
        for r in played:
            r.index = part[r.index]
            kept[r.index] = r
        _write_kept(path, header, kept)
    return [kept[i] for i in range(games)]


@dataclass
class SideTuning:
    """One side tuned against the other's defaults: the tuning run, the paired batch and the gain.
    ``played``: the check games the shares and the gain are over when the run was stopped in them
    (paired with the default games of the same seeds), None when all were played; ``default_shares``
    then the default games' shares over those seeds (what the gain compares with)."""

    side: str
    tuning: TuneResult
    moved: dict[str, tuple[float, float]]
    shares: dict
    gain: tuple[float, float, float]
    played: int | None = None
    default_shares: dict | None = None


@dataclass
class RobustAnswer:
    """``default``: shares of default vs default; ``tuned``: side -> :class:`SideTuning`;
    ``verdict`` / ``text``: see :func:`verdict`."""

    games: int
    seed: int
    default: dict
    tuned: dict[str, SideTuning] = field(default_factory=dict)
    verdict: str = ""
    text: str = ""
    #: the side whose check games the run was stopped in, or None: its row (in ``tuned``) is over
    #: the games played by then (:attr:`SideTuning.played`); no row when it was stopped before the
    #: first of them ended
    stopped_in: str | None = None


def games_to_decide(gain: tuple[float, float, float], games: int) -> tuple[str, int | None]:
    """Which way one side's ``gain`` (points, low, high; paired over ``games`` games) leans, and about
    how many paired games would put its whole interval on that side of the 10-point bounds.

    Returns ``("AI-dependent", n)`` when the gain is above :data:`ROBUST_POINTS` (n games for the
    low end to clear it), else ``("robust", n)`` (n games for the interval to fit within +-10).
    ``n`` is ``games`` when the interval already decides, None when the gain sits on a bound (no
    number of games decides) or ``games`` < 1. Assumes the per-game differences keep their spread:
    an estimate, rounded up to the next ten games."""
    m, lo, hi = gain
    half = (hi - lo) / 2
    lean = "AI-dependent" if m > ROBUST_POINTS else "robust"
    room = m - ROBUST_POINTS if lean == "AI-dependent" else ROBUST_POINTS - abs(m)
    if games < 1 or room <= 0:
        return (lean, None)
    if half <= room:
        return (lean, games)
    return (lean, int(math.ceil(games * (half / room) ** 2 / 10.0)) * 10)


def _games(t: SideTuning) -> int:
    return sum(v["count"] for v in t.shares.values()) if t.shares else 0


def verdict(tuned: dict[str, SideTuning]) -> tuple[str, str]:
    """("robust" | "AI-dependent" | "undecided", one line saying why). Below :data:`MIN_LEAN_GAMES`
    paired check games a side the verdict is undecided whatever the intervals say (they are too
    few). An undecided line also says which way the gains lean and about how many paired games
    would decide (:func:`games_to_decide`)."""
    gains = "; ".join(f"{t.side} {t.gain[0]:+.1f} [{t.gain[1]:+.1f}, {t.gain[2]:+.1f}]" for t in tuned.values())
    few = min((_games(t) for t in tuned.values()), default=0)
    if few < MIN_LEAN_GAMES:
        # a paired interval from a handful of games (zero-width when they happen to agree) decides
        # nothing, whichever way it lies
        return ("undecided", f"{few} paired check game{'s' if few != 1 else ''} a side "
                             f"{'are' if few != 1 else 'is'} too few for a verdict ({gains}); play at least "
                             f"{MIN_LEAN_GAMES} check games a pairing")
    dep = [t for t in tuned.values() if t.gain[1] > ROBUST_POINTS]
    if dep:
        t = max(dep, key=lambda x: x.gain[0])
        moved = ", ".join(f"{k} {a:g} -> {b:.3g}" for k, (a, b) in t.moved.items()) or "none"
        return ("AI-dependent", f"{t.side} gains {t.gain[0]:+.1f} points [{t.gain[1]:+.1f}, {t.gain[2]:+.1f}] "
                                f"from tuning (settings moved: {moved})")
    if all(-ROBUST_POINTS <= t.gain[1] and t.gain[2] <= ROBUST_POINTS for t in tuned.values()):
        return ("robust", f"tuning moves no side's share by more than {ROBUST_POINTS:g} points ({gains})")
    head = (f"not every gain's interval lies within {ROBUST_POINTS:g} points, and none lies wholly above "
            f"+{ROBUST_POINTS:g} ({gains})")
    leans = {t.side: games_to_decide(t.gain, _games(t)) for t in tuned.values()}
    up = {s: n for s, (lean, n) in leans.items() if lean == "AI-dependent"}
    if up:
        # one side's gain clearing 10 points decides: the side that needs the fewest games
        known = [n for n in up.values() if n is not None]
        lean, need = "AI-dependent", (min(known) if known else None)
        lean += f" ({', '.join(f'{s} {tuned[s].gain[0]:+.1f}' for s in up)})"
    else:
        # every side's interval must fit within 10 points: the side that needs the most games
        ns = [n for _lean, n in leans.values()]
        lean, need = "robust", (None if None in ns else max(ns, default=None))
    worse = [t for t in tuned.values() if t.gain[0] < -ROBUST_POINTS]
    if need is not None:
        more = f"about {need:,} paired games would decide it"
    elif worse:
        # a tuning that found settings worse than the defaults by more than 10 points says nothing
        # of a better AI: no number of check games decides that, a better tuning may
        more = ("the tuned settings of " + ", ".join(f"{t.side} ({t.gain[0]:+.1f})" for t in worse)
                + f" do worse than the defaults by more than {ROBUST_POINTS:g} points: tune with more trials or "
                  "more games a trial")
    else:
        more = f"a gain of exactly {ROBUST_POINTS:g} points: no number of games decides it"
    return ("undecided", f"{head}: leans {lean}; {more}")


def _trials_kept(storage: str, study_name: str) -> int:
    """The complete trials of the study ``study_name`` in the SQLite file ``storage`` (0: no such
    file or study), for saying that a tuning resumes."""
    if not Path(storage).is_file():
        return 0
    return next((st.trials for st in read_studies(storage) if st.name == study_name), 0)


def robust_stages(system) -> int:
    """How many stages a robust run of ``system`` has: the default games, then for each of its
    sides the tuning and the tuned side's games."""
    return 1 + 2 * len(system.sides)


def robust_balance(scenario_path: str, system, *, games: int = 40, seed: int = 1, trials: int = 30,
                   tune_games: int = 20, workers: int | None = None, scheduler: str | None = None,
                   storage: Callable[[str], str | None] | None = None, player: str = "heuristic",
                   kept: Callable[[str], str | None] | None = None,
                   on_stage: Callable[[str], None] | None = None,
                   on_trial: Callable[[int, float, float], None] | None = None,
                   on_games: Callable[[int], None] | None = None,
                   should_stop: Callable[[], bool] | None = None,
                   on_step: Callable[[int, int], None] | None = None,
                   on_kept: Callable[[int], None] | None = None) -> RobustAnswer:
    """Default vs default over ``games`` games seeded ``seed``; then for each side: tune it
    (``trials`` x ``tune_games`` games, seed ``seed + 1``: the tuning seeds are not the verdict's)
    against the other's defaults and play the tuned settings on the verdict's seeds. ``system``:
    the scenario's rule system (its ``settings_space`` and ``player_settings``); ``storage(side)``:
    an SQLite file per side for the study (None: in memory); ``kept(pairing)``: the file that keeps
    the check games of ``"default"`` and of each side tuned (:func:`kept_batch`; None: played and
    not kept). A side whose best trial is its defaults, every setting exactly, plays the default
    games (the same players, the same seeds): they are not played twice. The batches run on one
    local pool (:func:`core.playtest.shared_pool`). ``on_stage(text)`` as each stage starts,
    ``on_trial(done, score, best)`` after each tuning trial, ``on_games(n)`` as n more check games
    end, ``on_step(i, n)`` as stage ``i`` of the ``n`` (:func:`robust_stages`: the default games,
    then for each side its tuning and its games) starts, for a progress bar, with ``on_kept(n)``
    as a stage takes what an earlier run kept instead of playing it: a check stage n games (or a
    side at its defaults all the default games), a tuning stage n trials of its study (``on_stage``
    also tells what the kept files hold). ``should_stop()``, asked after each trial and each part of a check batch: True stops
    the run as Ctrl-C does (for a caller in another thread, the editor): in a tuning, the answer
    so far comes back with the verdict "interrupted"; in a tuned side's check batch too, with that
    side's row over the check games played by then (:attr:`SideTuning.played`; no row when none
    had ended; :attr:`RobustAnswer.stopped_in` names the side either way); in the default
    batch, :class:`CheckGamesInterrupted` (a ``KeyboardInterrupt``) is raised. Kept games are saved
    first. Raises like :func:`core.tuning.tune` and :func:`kept_batch`."""
    space, defaults = system.settings_space(player)
    ai = {s: player for s in system.sides}
    say = on_stage or (lambda _s: None)
    tune_seed = seed + 1  # the tuning seeds are not the verdict's
    # a kept study the tuning could not extend is refused now, not after the default batch
    for side in system.sides:
        f = storage(side) if storage else None
        if f:
            problem = stored_setup_problem(
                f, default_study_name(scenario_path, side, player),
                study_setup(tune_games, tune_seed, player, None, space, defaults, scenario_version(scenario_path)),
                hint=f" (a robust run tunes each side on the batch seed after its own: {tune_seed} for seed "
                     f"{seed}; another seed, another number of games a trial or another version of the scenario "
                     "or the code needs another --storage folder)")
            if problem is not None:
                raise ValueError(problem)
    # and kept check games of another scenario file, seed or code: refused before the first game too
    for pairing in ("default", *system.sides):
        f = kept(pairing) if kept else None
        if f and Path(f).exists():
            _read_kept(Path(f), _kept_header(scenario_path, seed, ai))

    def progress(n: int) -> None:
        if on_games is not None:
            on_games(n)
        if should_stop is not None and should_stop():
            raise KeyboardInterrupt

    def check_batch(pairing: str, players: dict[str, str]) -> list[GameResult]:
        f = kept(pairing) if kept else None
        if f is None:
            try:
                return run_batch(scenario_path, games, seed, players, workers=workers, scheduler=scheduler,
                                 on_progress=progress)
            except BatchInterrupted as e:
                raise CheckGamesInterrupted(e.results) from None
        return kept_batch(f, scenario_path, games, seed, players, workers=workers, scheduler=scheduler, say=say,
                          on_progress=progress, on_kept=on_kept)

    n_steps = robust_stages(system)

    def step(i: int) -> None:
        if on_step is not None:
            on_step(i, n_steps)

    with shared_pool(workers) if scheduler is None else contextlib.nullcontext():
        step(0)
        say("default vs default")
        base = check_batch("default", ai)
        ans = RobustAnswer(games, seed, _shares(base))
        for k, side in enumerate(system.sides):
            f = storage(side) if storage else None
            done = _trials_kept(f, default_study_name(scenario_path, side, player)) if f else 0
            step(1 + 2 * k)
            say(f"tuning {side}" + (f": {min(done, trials)} of {trials} trials kept" if done else ""))
            if done and on_kept is not None:
                on_kept(min(done, trials))
            t = tune(scenario_path, side, space, player=player, opponent=player, trials=trials, games=tune_games,
                     seed=tune_seed, workers=workers, scheduler=scheduler, storage=storage(side) if storage else None,
                     defaults=defaults, canonical=system.player_settings, on_trial=on_trial,
                     should_stop=should_stop)
            at_defaults = all(n in defaults and v == float(defaults[n]) for n, v in t.best.items())
            if t.interrupted and (not at_defaults or (should_stop is not None and should_stop())):
                # stopped in the tuning (Ctrl-C, SIGTERM, the caller): the run ends with the trials
                # kept, and no check games are started (a half-searched best's could not be
                # stopped: a second SIGTERM is ignored while the answer is written); a Ctrl-C that
                # left the defaults the best still gives the side its row, the default games
                break
            step(2 + 2 * k)
            moved = {k: (float(defaults[k]), v) for k, v in t.best.items()
                     if k in defaults and not math.isclose(v, float(defaults[k]))}
            part = None
            if at_defaults:
                say(f"{side} tuned vs default: its best trial is the defaults, the default games")
                played = base
                if on_kept is not None:
                    on_kept(len(base))
            else:
                say(f"{side} tuned vs default")
                try:
                    played = check_batch(side, {**ai, side: t.best_spec})
                except CheckGamesInterrupted as e:
                    # stopped in the side's check games: its row over the games played so far,
                    # each paired with the default game of its seed, and no verdict; the rows done
                    # before stay when none of its games had ended
                    ans.stopped_in = side
                    if not e.results:
                        break
                    played, part = e.results, len(e.results)
            same = None
            if part is not None:
                seeds = {r.index for r in played}
                same = _shares([r for r in base if r.index in seeds])
            ans.tuned[side] = SideTuning(side, t, moved, _shares(played), paired_gain(base, played, side), part, same)
            if t.interrupted or part is not None:
                break
    stopped = ans.stopped_in
    if len(ans.tuned) == len(system.sides) and stopped is None:
        ans.verdict, ans.text = verdict(ans.tuned)
        return ans
    ans.verdict = "interrupted"
    if stopped is None:
        ans.text = f"stopped in the {side} tuning: no verdict"
    elif stopped not in ans.tuned:
        ans.text = f"stopped in the {stopped} tuned games before the first of {games} ended: no verdict"
    else:
        ans.text = f"stopped in the {stopped} tuned games after {ans.tuned[stopped].played} of {games}: no verdict"
    return ans
