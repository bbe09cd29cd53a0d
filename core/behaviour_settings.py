"""Behaviour settings of an AI player, whatever its rule system: parsing, validation and text.

A rule system whose heuristic takes settings describes them as one frozen pydantic model (every
field a number with its range and meaning; Iron Cross: :class:`core.ironcross.ai.settings.BehaviorSettings`,
Red Flags: :class:`core.redflags.ai_settings.RedFlagsSettings`). The functions here turn the texts a
user gives (``aggression=0.7,fire_threshold=0.1``, ``@settings.json``, a file ``ironcross tune``
wrote, a scenario's stored block) into such a model, and a model back into the canonical text a
player spec carries (``heuristic:aggression=0.7``), with one error message style for every
system: the setting, its allowed range and the file are named (docs/ai.md, "Behaviour settings").
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

from pydantic import BaseModel, ValidationError

__all__ = ["SettingsError", "TUNED_FILE_KEYS", "settings_from_mapping", "load_settings_file", "parse_settings",
           "settings_text", "canonical_text", "split_spec", "canonical_spec", "spec_player", "block_spec",
           "stored_specs", "with_stored", "stored_problems"]

M = TypeVar("M", bound=BaseModel)


class SettingsError(ValueError):
    """A settings text or file names an unknown setting or a value out of its range; the message
    names the setting (and the file) and the allowed range."""


#: the keys of a file ``ironcross tune`` writes (its settings under "settings"), and of a scenario's
#: ``ai_settings`` block for one side
TUNED_FILE_KEYS = frozenset({"player", "side", "settings", "provenance", "by", "scenario", "against", "seed",
                             "trials", "games", "score", "default_score", "interrupted", "check"})


def _allowed(model: type[BaseModel], name: str) -> str:
    """`` (allowed LO to HI)`` of the setting ``name`` of ``model`` (empty when it has no range)."""
    f = model.model_fields.get(name)
    if f is None:
        return ""
    lo = next((m.ge for m in f.metadata if getattr(m, "ge", None) is not None), None)
    hi = next((m.le for m in f.metadata if getattr(m, "le", None) is not None), None)
    return f" (allowed {lo:g} to {hi:g})" if lo is not None and hi is not None else ""


def _field_error(model: type[BaseModel], e: ValidationError, where: str) -> SettingsError:
    """One line naming the first bad setting and its allowed range."""
    err = e.errors()[0]
    name = ".".join(str(x) for x in err.get("loc", ())) or "?"
    if err.get("type") == "extra_forbidden":
        known = ", ".join(model.model_fields)
        return SettingsError(f"{where}unknown setting {name!r}; known: {known}")
    # a value out of range is said in the range's words, not pydantic's ("Input should be ...")
    said = {"greater_than_equal": "below its range", "less_than_equal": "above its range"}.get(
        err.get("type"), err.get("msg"))
    return SettingsError(f"{where}setting {name!r} = {err.get('input')!r}: {said}{_allowed(model, name)}")


def settings_from_mapping(model: type[M], values: dict[str, Any], where: str = "") -> M:
    """Validate ``values`` ({name: value}) into a ``model``; raises :class:`SettingsError` naming the
    first unknown setting, value that is no number (``true``, ``"3"`` and ``"nan"`` are none, as on
    the command line), number that is not finite or out-of-range value, with the setting's range
    (``where`` prefixes the message, e.g. a file name)."""
    for k, v in values.items():
        if k not in model.model_fields:
            continue  # the model names it as unknown
        shown = str(v).lower() if isinstance(v, bool) else repr(v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise SettingsError(f"{where}setting {k!r} = {shown}: a number is expected{_allowed(model, k)}")
        if not math.isfinite(v):
            raise SettingsError(f"{where}setting {k!r} = {shown}: not a finite number{_allowed(model, k)}")
    try:
        return model(**values)
    except ValidationError as e:
        raise _field_error(model, e, where) from None
    except TypeError as e:  # a non-string key
        raise SettingsError(f"{where}{e}") from None


def _settings_json(path: str | Path) -> Any:
    """The JSON value of a settings file; raises :class:`SettingsError` naming the file when it cannot
    be read as JSON (a binary file, such as a tuning study's database, is said to be one)."""
    from maps.document_file import DocumentError, read_json

    p = Path(path)
    try:  # the safe reader: a regular file of bounded size, UTF-8, finite numbers, bounded nesting
        return read_json(p)
    except DocumentError as e:
        head = b""
        if p.is_file():  # a regular file only: a FIFO's open would wait for a writer for ever
            try:
                with open(p, "rb") as f:
                    head = f.read(512)
            except OSError:
                head = b""
        if b"\0" in head:  # SQLite files (an Optuna study) and other binary files
            raise SettingsError(f"{p}: a binary file, not a JSON settings file (ironcross tune writes its "
                                "settings to the -o FILE; the .optuna.db beside it is its study)") from None
        raise SettingsError(str(e).splitlines()[0]) from None


def load_settings_file(model: type[M], path: str | Path) -> M:
    """A ``model`` from a JSON file: either ``{name: value, ...}`` or a file written by ``ironcross
    tune`` (``{"settings": {...}, "provenance": ..., ...}``: the settings only under ``"settings"``,
    beside the keys of :data:`TUNED_FILE_KEYS`). Raises :class:`SettingsError` naming the file and
    the problem (cannot read, not JSON, a binary file, unknown setting or key, a setting beside
    ``"settings"``, a value that is no number or out of range)."""
    p = Path(path)
    data = _settings_json(p)
    if isinstance(data, dict) and "settings" in data:
        if not isinstance(data["settings"], dict):
            raise SettingsError(f"{p}: settings: expected a JSON object of settings (name: value), "
                                f"got {type(data['settings']).__name__}")
        beside = sorted(str(k) for k in data if k not in TUNED_FILE_KEYS)
        if beside:
            k = beside[0]
            if k in model.model_fields:
                raise SettingsError(f"{p}: setting {k!r} beside \"settings\": in a file with \"settings\" every "
                                    "setting goes inside it")
            raise SettingsError(f"{p}: unknown key {k!r} beside \"settings\"; a tuned settings file has "
                                f"{', '.join(sorted(TUNED_FILE_KEYS))}")
        data = data["settings"]
    if not isinstance(data, dict):
        raise SettingsError(f"{p}: expected a JSON object of settings")
    return settings_from_mapping(model, data, f"{p}: ")


def _number(text: str) -> Any:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t  # pydantic names it


def parse_settings(model: type[M], text: str, where: str = "") -> M:
    """``"aggression=0.7,fire_threshold=0.1"`` or ``"@FILE"`` (a settings JSON, :func:`load_settings_file`)
    or both (``"@FILE,aggression=0.7"``: the later win) -> a ``model``. Raises :class:`SettingsError`,
    also for a setting given twice as NAME=VALUE (a slip: which one was meant?)."""
    values: dict[str, Any] = {}
    given: dict[str, str] = {}
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        if part.startswith("@"):
            if not part[1:].strip():
                raise SettingsError(f"{where}'@' without a file name (@FILE reads the settings from FILE)")
            values.update(load_settings_file(model, part[1:]).model_dump(exclude_defaults=True))
            continue
        if "=" not in part:
            raise SettingsError(f"{where}expected NAME=VALUE, got {part!r}")
        k, v = part.split("=", 1)
        name, value = k.strip(), v.strip()
        if not name:
            raise SettingsError(f"{where}a value without a setting name: {part!r} (expected NAME=VALUE)")
        x = _number(v)
        if isinstance(x, float) and not math.isfinite(x):  # nan, inf: no setting takes them
            raise SettingsError(f"{where}setting {name!r} = {value!r}: not a finite number{_allowed(model, name)}")
        if name in given:
            raise SettingsError(f"{where}setting {name!r} given twice ({given[name]} and {value}): give it once")
        given[name] = value
        values[name] = x
    return settings_from_mapping(model, values, where)


def settings_text(s: BaseModel) -> str:
    """The ``k=v,...`` text of the settings that differ from the defaults (empty for defaults); in
    field order, floats with ``repr`` so the text parses back to the same settings."""
    d = s.model_dump(exclude_defaults=True)
    return ",".join(f"{k}={d[k]!r}" for k in type(s).model_fields if k in d)


def canonical_text(model: type[BaseModel], text: str) -> str:
    """The canonical ``k=v,...`` text (:func:`settings_text`) of a settings ``text`` for ``model``
    (a ``@FILE`` read now); raises :class:`SettingsError`. A system's players that take settings
    map to this with their model (``SETTINGS_PLAYERS``)."""
    return settings_text(parse_settings(model, text))


def split_spec(spec: str) -> tuple[str, str]:
    """``"heuristic:aggression=0.7"`` -> ("heuristic", "aggression=0.7"); ``"random"`` -> ("random", "")."""
    name, _, settings = spec.partition(":")
    return name.strip(), settings.strip()


def canonical_spec(spec: str, takers: Mapping[str, Callable[[str], str]]) -> str:
    """The player spec with its settings validated and written out (a ``@FILE`` read now, defaults
    left out): ``"heuristic:@s.json"`` -> ``"heuristic:aggression=0.7"``; ``"heuristic:"`` ->
    ``"heuristic"``. ``takers``: the players that take settings -> the canonical text of their
    settings text. Raises ValueError naming an unknown setting, a value out of range, an unreadable
    file, or a player that takes no settings."""
    name, settings = split_spec(spec)
    if not settings:
        return name
    canon = takers.get(name)
    if canon is None:
        names = sorted(takers)
        raise ValueError(f"the AI player {name!r} takes no settings (only {', '.join(names)} "
                         f"{'takes them' if len(names) == 1 else 'take them'})")
    text = canon(settings)
    return f"{name}:{text}" if text else name


def spec_player(spec: str, seed: int, players: Mapping[str, Callable], models: Mapping[str, type[BaseModel]],
                unknown: Callable[[str], Exception]):
    """The player of ``spec`` (``NAME[:k=v,...]``) seeded ``seed``. ``players``: name -> its class,
    called ``(seed)``, or ``(seed, settings)`` for a spec with settings; ``models``: the players
    that take settings -> their settings model; ``unknown(name)``: the exception (the system's own
    kind and words) for a name not in ``players``. Raises it, ValueError for settings given to a
    player that takes none, :class:`SettingsError` for a bad setting."""
    base, settings = split_spec(spec)
    cls = players.get(base)
    if cls is None:
        raise unknown(base)
    if not settings:
        return cls(seed)
    model = models.get(base)
    if model is None:
        raise ValueError(f"the AI player {base!r} takes no settings")
    return cls(seed, parse_settings(model, settings))


# ------------------------------------------------------------------ settings a scenario stores
def block_spec(player: str, settings: Mapping[str, Any]) -> str:
    """The player spec ``NAME:k=v,...`` of a stored block's ``player`` and ``settings`` (a scenario's
    ``ai_settings`` for one side); values written with ``repr`` so the spec parses back to the same
    numbers."""
    return player + ":" + ",".join(f"{k}={v!r}" for k, v in settings.items())


def stored_specs(blocks: Mapping[str, Any] | None) -> dict[str, str]:
    """side -> player spec ``NAME:k=v,...`` of the behaviour settings a scenario stores per side
    (its ``ai_settings``: side -> a block with ``player`` and ``settings``,
    :class:`scenarios.model.AISettingsBlock`, :func:`block_spec`); sides whose block changes no
    setting are left out."""
    return {side: block_spec(block.player, block.settings) for side, block in (blocks or {}).items() if block.settings}


def with_stored(ai: Mapping[str, str], stored: Mapping[str, str]) -> dict[str, str]:
    """``ai`` (side -> player spec) where a side names the bare player the scenario stores settings
    for (``stored``, :func:`stored_specs`) taking those settings; a spec with settings of its own
    (the command line's) wins over the stored ones, and another player ignores them."""
    return {side: stored[side] if side in stored and split_spec(stored[side])[0] == spec.strip() else spec
            for side, spec in ai.items()}


def stored_problems(blocks: Mapping[str, Any] | None, players: Mapping[str, Any],
                    canonical: Callable[[str], str]) -> list[tuple[str, str]]:
    """(JSON path, problem) for each stored block whose player the rule system does not know
    (``players``: its player names) or whose settings that player refuses (``canonical``: the
    system's spec checker, raising ValueError), checked as a game would use them: a stored player
    nobody knows would otherwise never apply, silently."""
    out = []
    for side, block in (blocks or {}).items():
        if block.player not in players:
            out.append((f"$.ai_settings.{side}.player",
                        f"unknown AI player {block.player!r}; known: {', '.join(sorted(players))}"))
    for side, spec in stored_specs(blocks).items():
        if split_spec(spec)[0] in players:
            try:
                canonical(spec)
            except ValueError as e:
                out.append((f"$.ai_settings.{side}.settings", str(e)))
    return out
