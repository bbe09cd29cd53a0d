"""Tuning one side's AI against the fixed other side: Optuna searches the behaviour settings
(``docs/ai.md``) that maximise the side's score over a batch of games.

* **Common random numbers**: every trial plays the same game seeds (game ``i`` of a batch seeded
  ``S`` uses ``derive_seed(S, i)``, :func:`core.playtest.run_batch`), so two settings are compared
  on the same dice and pre-game draws, not on luck.
* **Score with a tie-breaker**: a game is worth 1 won, 0.5 drawn, 0 lost, plus
  ``0.1 * (inflicted - suffered) / (inflicted + suffered + 1)`` (units eliminated; within +-0.1,
  so never more than half a draw): in a lopsided scenario where one side always loses, the
  settings that sell its men more dearly still score higher. The trial's score is the mean.
* **Storage**: an Optuna SQLite file; running again with the same file and study name resumes or
  extends the study (``trials`` is the total wanted; the trials already complete count).
* **Defaults first**: the first trial of a new study is the default settings, so the best is never
  worse than the defaults on the tuning seeds.
* **Check on fresh seeds**: the best settings and the defaults play ``check_games`` more games on
  other seeds (paired: the same seeds for both); their shares of wins with 95 % Wilson intervals
  say whether the gain survives outside the seeds it was found on.
* **Ctrl-C** (KeyboardInterrupt) stops the search: what was found so far is kept (``interrupted``).

Trials' games run through the same batch runner as ``ironcross playtest`` (local pool or Dask).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from core.dice import derive_seed
from core.playtest import BatchInterrupted, GameResult, run_batch, shared_pool, wilson_interval

__all__ = ["TuneResult", "StoredStudy", "game_score", "batch_score", "tune", "read_studies", "spec_of",
           "CHECK_SEED_SALT"]

#: the fresh seeds of the final check: derive_seed(seed, CHECK_SEED_SALT)
CHECK_SEED_SALT = 1_000_003


def _eliminated(r: GameResult, side: str) -> int:
    return sum((r.casualties.get(side) or {}).values())


def game_score(r: GameResult, side: str) -> float:
    """One game's score for ``side``: 1 won, 0.5 drawn, 0 lost, plus the tie-breaker
    ``0.1 * (inflicted - suffered) / (inflicted + suffered + 1)`` over units eliminated."""
    other = next(s for s in ("german", "russian") if s != side)
    base = 1.0 if r.outcome == side else 0.5 if r.outcome == "draw" else 0.0
    inflicted, suffered = _eliminated(r, other), _eliminated(r, side)
    return base + 0.1 * (inflicted - suffered) / (inflicted + suffered + 1)


def batch_score(results: list[GameResult], side: str) -> float:
    """Mean :func:`game_score` over the games played to the end (errors left out; 0 without any)."""
    played = [r for r in results if r.outcome != "error"]
    return sum(game_score(r, side) for r in played) / len(played) if played else 0.0


def spec_of(player: str, values: Mapping[str, float]) -> str:
    """``"heuristic"`` + {"aggression": 0.7} -> ``"heuristic:aggression=0.7"`` (floats as ``repr``)."""
    body = ",".join(f"{k}={v!r}" for k, v in sorted(values.items()))
    return f"{player}:{body}" if body else player


def _share(results: list[GameResult], side: str) -> dict:
    played = [r for r in results if r.outcome != "error"]
    wins = sum(1 for r in played if r.outcome == side)
    draws = sum(1 for r in played if r.outcome == "draw")
    lo, hi = wilson_interval(wins, len(played))
    return {"games": len(played), "wins": wins, "draws": draws, "share": wins / len(played) if played else 0.0,
            "ci95": [lo, hi], "score": batch_score(results, side)}


@dataclass
class TuneResult:
    """What a tuning run found: ``best`` the settings (name -> value, only the searched ones),
    ``best_spec`` the player spec, ``best_score``/``default_score`` on the tuning seeds,
    ``trials`` complete in the study, ``interrupted`` (Ctrl-C), ``check``: {"default": share,
    "tuned": share} on fresh seeds (each share: games, wins, draws, share, ci95, score) or None."""

    side: str
    best: dict[str, float]
    best_spec: str
    best_score: float
    default_score: float | None
    trials: int
    interrupted: bool = False
    check: dict | None = None
    history: list[float] = field(default_factory=list)


@dataclass
class StoredStudy:
    """A tuning study read back from its SQLite file, no game played: ``name`` (Optuna's study
    name, ``<scenario stem>-<side>-<player>`` as :func:`tune` names it), ``setup`` as :func:`tune`
    stored it (games, seed, opponent, rules, space, defaults), ``trials`` complete, ``best`` the
    best trial's settings (name -> value) and ``best_score`` on the tuning seeds,
    ``default_score`` the score of the trial that played the stored defaults (None when none did),
    ``best_is_default`` True when no trial beat the defaults."""

    name: str
    setup: dict
    trials: int
    best: dict[str, float]
    best_score: float
    default_score: float | None
    best_is_default: bool


def _complete_trials(study) -> list:
    """The study's trials that finished with a score, in the order they ran."""
    import optuna

    return [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]


def _best_trial(complete: list):
    """The best of the ``complete`` trials: the highest score, the earliest of equal ones."""
    return max(complete, key=lambda t: (t.value, -t.number))


def _not_a_study(storage: str, e: Exception) -> ValueError:
    """The error for a storage file Optuna cannot open, naming the file and SQLite's reason."""
    reason = getattr(e, "orig", None) or e  # the SQLite error, e.g. "file is not a database"
    return ValueError(f"{storage}: not a study file Optuna can open (SQLite): {reason}")


@contextlib.contextmanager
def _study_file(path: str | Path):
    """An Optuna storage on the SQLite file ``path``, its connections closed when the block ends (a
    study file is otherwise held open until the interpreter exits: the editor runs many). Raises
    ValueError naming a file that is not empty and no SQLite database (without opening it), else
    what SQLAlchemy raises for a file Optuna cannot read."""
    import optuna

    p = Path(path)
    try:
        if p.is_file() and p.stat().st_size:
            with open(p, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    raise ValueError(f"{path}: not a study file Optuna can open (SQLite): file is not a database")
    except OSError as e:
        raise ValueError(f"{path}: cannot read the study file: {e.strerror or e}") from None
    st = optuna.storages.RDBStorage(f"sqlite:///{p.resolve()}")
    try:
        yield st
    finally:
        st.remove_session()
        st.engine.dispose()


def _default_trial(complete: list, defaults: Mapping[str, float], space) -> object | None:
    """The first of the ``complete`` trials whose values are the ``defaults`` (every searched one)."""
    return next((t for t in complete if all(math.isclose(t.params.get(k, defaults.get(k, 0.0)), float(defaults[k]))
                                            for k in space if k in defaults)), None)


def default_study_name(scenario_path: str, side: str, player: str) -> str:
    """The name :func:`tune` gives a study when none is named: ``<scenario stem>-<side>-<player>``."""
    return f"{Path(scenario_path).stem}-{side}-{player}"


def study_setup(games: int, seed: int, opponent: str, rules: str | None,
                space: Mapping[str, tuple[float, float, bool]], defaults: Mapping[str, float] | None,
                version: str | None = None) -> dict:
    """What a study's trials were scored with, as :func:`tune` stores it in the study (JSON values:
    lists for tuples): games a trial, their batch seed, the opponent's spec, the rules, the search
    space (setting -> [low, high, log]), the player's default settings and, when given, the
    ``version`` of what the games depend on besides them (:func:`core.robust_balance.scenario_version`:
    the scenario file, the documents it names, the code)."""
    setup = {"games": games, "seed": seed, "opponent": opponent, "rules": rules or "",
             "space": dict(sorted(space.items())), "defaults": dict(sorted((defaults or {}).items()))}
    if version is not None:
        setup["version"] = version
    return json.loads(json.dumps(setup))


def setup_difference(stored: Mapping, setup: Mapping) -> str | None:
    """How the ``setup`` of a run (:func:`study_setup`) differs from the one ``stored`` in a study,
    in words naming each differing item (for the defaults, each differing setting), or None when
    the run may extend it. A setting the player has gained since the study was made (in the
    defaults here, not there) is no difference: it plays its default, and a new setting's default
    keeps the games of before (docs/ai.md, "Behaviour settings")."""
    parts = []
    for k, v in setup.items():
        was = stored.get(k)
        if k == "version":
            if was != v:
                parts.append(f"version {was} there, {v} here: the scenario, a document it names or the code "
                             "has changed since, so its trials were scored on other games" if was is not None else
                             f"no version there (made before studies recorded one), {v} here: its trials may "
                             "have been scored on another version of the scenario or the code")
            continue
        if k == "defaults" and isinstance(was, Mapping) and isinstance(v, Mapping):
            diff = [f"{n} {was[n]!r} there, {v.get(n, 'none')!r} here" for n in sorted(was) if was[n] != v.get(n)]
            if diff:
                parts.append("defaults: " + ", ".join(diff))
            continue
        if was != v:
            parts.append(f"{k} {was!r} there, {v!r} here")
    parts += [f"{k} {stored[k]!r} there, none here" for k in sorted(stored) if k not in setup]
    return "; ".join(parts) or None


def _writable_study(p: Path) -> None:
    """Raise ValueError naming ``p`` or its folder when the study cannot be written there: Optuna
    writes to the file as it opens a study (and as each trial ends), and SQLite writes a journal
    beside it, so a read-only file or folder would fail inside them with a page of traceback."""
    if p.is_file() and not os.access(p, os.W_OK):
        raise ValueError(f"{p}: the study file is read-only; a tuning writes to it as it opens the study and as "
                         "each trial ends (make it writable, or give another --storage)")
    folder = p.resolve().parent
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{folder}: the folder of the study {p.name} is not writable (SQLite writes its journal "
                         "beside the study)")


def stored_setup_problem(storage: str, study_name: str, setup: Mapping, hint: str = "") -> str | None:
    """Why a run with ``setup`` (:func:`study_setup`) cannot extend the study ``study_name`` kept
    in the Optuna SQLite file ``storage`` (the error :func:`tune` would raise, in words), or None
    when it can (also when the file or the study does not exist yet): a long run checks this before
    it plays any game. ``hint`` follows the words for a study of other settings (not those for a
    file that is no study). Raises ImportError without Optuna."""
    import optuna
    from sqlalchemy.exc import SQLAlchemyError

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    p = Path(storage)
    if not p.exists():
        return None
    if not p.is_file():
        return f"{storage}: not a file"
    try:
        with _study_file(p) as db:
            names = {x.study_name for x in optuna.study.get_all_study_summaries(storage=db)}
            if study_name not in names:
                return None
            stored = optuna.load_study(study_name=study_name, storage=db).user_attrs.get("setup")
    except SQLAlchemyError as e:
        return str(_not_a_study(storage, e))
    except ValueError as e:  # no SQLite file (_study_file)
        return str(e)
    differ = setup_difference(stored, setup) if stored is not None else None
    return None if differ is None else _other_settings(storage, study_name, differ) + hint


def _other_settings(storage: str, study_name: str, differ: str) -> str:
    """The words for a study in ``storage`` that a run cannot extend, ``differ`` saying how
    (:func:`setup_difference`)."""
    return (f"{storage}: the study {study_name!r} was run with other tuning options ({differ}); "
            "extend it with the same options, or give another storage file (or delete this one) to start a study afresh")


def read_studies(storage: str) -> list[StoredStudy]:
    """Every study with a complete trial in the Optuna SQLite file ``storage`` (e.g. a robust run's
    ``--storage DIR/<scenario stem>-<side>.optuna.db``), read back without playing a game, in
    the order of their names. Raises ImportError without Optuna, ValueError naming the file when it
    does not exist or is no study file."""
    import optuna
    from sqlalchemy.exc import SQLAlchemyError

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    p = Path(storage)
    if not p.is_file():
        raise ValueError(f"{storage}: no such study file")
    out = []
    try:
        with _study_file(p) as db:
            names = sorted(s.study_name for s in optuna.study.get_all_study_summaries(storage=db))
            for name in names:
                study = optuna.load_study(study_name=name, storage=db)
                complete = _complete_trials(study)
                if not complete:
                    continue
                best = _best_trial(complete)
                setup = dict(study.user_attrs.get("setup") or {})
                defaults = setup.get("defaults") or {}
                space = setup.get("space") or best.params
                first = _default_trial(complete, defaults, space) if defaults else None
                out.append(StoredStudy(name, setup, len(complete), dict(sorted(best.params.items())), best.value,
                                       first.value if first is not None else None,
                                       first is not None and first.number == best.number))
    except SQLAlchemyError as e:
        raise _not_a_study(storage, e) from None
    return out


def tune(scenario_path: str, side: str, space: Mapping[str, tuple[float, float, bool]], *, player: str = "heuristic",
         opponent: str = "heuristic", trials: int = 30, games: int = 20, seed: int = 1, workers: int | None = None,
         scheduler: str | None = None, storage: str | None = None, study_name: str | None = None,
         check_games: int = 0, defaults: Mapping[str, float] | None = None, rules: str | None = None,
         canonical: Callable[[str], str] | None = None,
         on_trial: Callable[[int, float, float], None] | None = None,
         on_check: Callable[[int], None] | None = None,
         on_check_start: Callable[[int, bool], None] | None = None,
         should_stop: Callable[[], bool] | None = None) -> TuneResult:
    """Search ``space`` (setting -> (low, high, log scale)) for the ``player`` settings of ``side``
    that maximise its :func:`batch_score` over ``games`` games seeded ``seed`` (the same for every
    trial) against ``opponent`` (a player spec) on the other side. ``storage``: an SQLite file (the
    study is resumed/extended by a run with the same games, seed, opponent, rules, space, defaults
    and version of the scenario, its documents and the code (:func:`study_setup`) -- a setting added
    since, at its default, counts as the same (:func:`setup_difference`) -- else ValueError; None =
    in memory); the sampler (TPE) is seeded from ``seed`` (a resumed study's
    from ``seed`` and its trials kept: no settings drawn twice), so a run is reproducible. ``defaults``: the first trial's values (the player's defaults). ``canonical``
    validates a spec (the rule system's ``player_settings``). ``on_trial(done, score, best)`` after
    each trial; ``on_check_start(games, same)`` once before the check on fresh seeds, with the games it
    will play and whether the best settings are the defaults (then one batch of ``check_games`` serves
    both: the same games), and ``on_check(n)`` per game of it played; ``should_stop()``, asked after each trial:
    True ends the run there as Ctrl-C does (``interrupted``; the editor's Cancel, from another
    thread, where no KeyboardInterrupt reaches). Raises ImportError without Optuna,
    ValueError for a bad space, :class:`core.playtest.PlaytestError` when the games cannot run."""
    import optuna
    from sqlalchemy.exc import SQLAlchemyError

    from core.robust_balance import scenario_version

    # errors only: Optuna would log a trial stopped by Ctrl-C as a failed one, with a traceback
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    if not space:
        raise ValueError("nothing to tune: the search space is empty")
    other = next(s for s in ("german", "russian") if s != side)
    check = canonical or (lambda s: s)

    def play(spec: str, n: int, batch_seed: int, progress=None) -> list[GameResult]:
        ai = {side: check(spec), other: opponent}
        try:
            return run_batch(scenario_path, n, batch_seed, ai, rules=rules, workers=workers, scheduler=scheduler,
                             on_progress=progress)
        except BatchInterrupted:
            # Ctrl-C (or SIGTERM) in a trial's games: a trial is scored on all its games or not at
            # all, so the run stops as at Ctrl-C between trials (Optuna re-raises a
            # KeyboardInterrupt, where it would record any other exception as a failed trial)
            raise KeyboardInterrupt from None

    name = study_name or default_study_name(scenario_path, side, player)
    with contextlib.ExitStack() as held:
        try:
            if storage:  # a study in a folder not made yet: made, as for --json
                try:
                    Path(storage).resolve().parent.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise ValueError(f"{storage}: cannot make its folder: {e.strerror or e}") from None
                _writable_study(Path(storage))
            db = held.enter_context(_study_file(storage)) if storage else None
            study = optuna.create_study(direction="maximize", storage=db, study_name=name, load_if_exists=True,
                                        # Optuna takes seeds of 0 to 2**32 - 1; the batch seeds take any
                                        # integer (negative, huge): the same sampler for the same seed
                                        sampler=optuna.samplers.TPESampler(seed=seed % 2 ** 32))
        except SQLAlchemyError as e:
            raise _not_a_study(storage, e) from None
        # a stored study is extended only by runs that score its trials the same way: other games,
        # seeds, opponent, rules, space or player defaults (the opponent plays them too when named
        # without settings), or another version of the scenario or the code, would mix scores that
        # cannot be compared
        setup = study_setup(games, seed, opponent, rules, space, defaults, scenario_version(scenario_path))
        stored = study.user_attrs.get("setup")
        differ = setup_difference(stored, setup) if stored is not None else None
        if differ is not None:
            raise ValueError(_other_settings(storage, name, differ))
        if stored is None:
            study.set_user_attr("setup", setup)
        done = _complete_trials(study)
        if done:
            # a resumed study: its sampler seeded afresh from the seed would draw its first random
            # trials again (the same settings, played twice); seeded from the seed and the trials
            # kept it goes on with new ones, and a run in one go samples as it always did
            study.sampler = optuna.samplers.TPESampler(seed=derive_seed(seed, len(done)) % 2 ** 32)
        elif defaults is not None and not study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.WAITING,)):
            # the defaults' trial first, once: a run stopped before it was played left it queued
            study.enqueue_trial({k: float(defaults[k]) for k in space if k in defaults})
        history: list[float] = [t.value for t in done]

        def objective(trial) -> float:
            values = {k: trial.suggest_float(k, lo, hi, log=log) for k, (lo, hi, log) in space.items()}
            score = batch_score(play(spec_of(player, values), games, seed), side)
            history.append(score)
            if on_trial is not None:
                on_trial(len(history), score, max(history))
            if should_stop is not None and should_stop():
                stopped.append(True)
                trial.study.stop()  # after this trial, which is kept
            return score

        stopped: list[bool] = []

        interrupted = False
        left = max(0, trials - len(done))
        # one local pool for every trial and the check: its workers keep the scenario and what the
        # players computed on its map from one trial to the next (the results are the same)
        pool = shared_pool(workers) if scheduler is None else contextlib.nullcontext()
        with pool:
            try:
                if left:
                    study.optimize(objective, n_trials=left, catch=())
            except KeyboardInterrupt:
                interrupted = True
            interrupted = interrupted or bool(stopped)
            res = _finish(study, side, player, check, defaults, space, interrupted, history, check_games, seed, play,
                          on_check, on_check_start)
    return res


def _finish(study, side: str, player: str, check, defaults, space, interrupted: bool, history: list[float],
            check_games: int, seed: int, play, on_check, on_check_start=None) -> TuneResult:
    """The :class:`TuneResult` of a study: the best trial, the defaults' score, the check."""
    complete = _complete_trials(study)
    if not complete:
        raise KeyboardInterrupt if interrupted else RuntimeError("no trial completed")
    best_trial = _best_trial(complete)
    best = {k: v for k, v in sorted(best_trial.params.items())}
    default_score = None
    if defaults is not None:
        first = _default_trial(complete, defaults, space)
        default_score = first.value if first is not None else None
    res = TuneResult(side, best, check(spec_of(player, best)), best_trial.value, default_score, len(complete),
                     interrupted, None, history)
    if check_games and not interrupted:
        fresh = derive_seed(seed, CHECK_SEED_SALT)
        same = res.best_spec == check(player)  # the best trial is the defaults: the same games
        if on_check_start is not None:
            on_check_start(check_games if same else 2 * check_games, same)
        try:
            base = play(player, check_games, fresh, on_check)
            if same:
                tuned = base
            else:
                tuned = play(spec_of(player, best), check_games, fresh, on_check)
            res.check = {"seed": fresh, "default": _share(base, side), "tuned": _share(tuned, side)}
        except KeyboardInterrupt:
            res.interrupted = True
    return res
