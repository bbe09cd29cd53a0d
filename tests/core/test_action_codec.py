"""The one action codec (core/action_codec.py) of the three rule systems: every action type of each
system round-trips through JSON and writes the very bytes the system's own writer wrote before the
codec (the legacy writers below are the reference, so old replays still verify); a malformed action
is refused with the system's own error naming the kind and the problem; a hand-edited replay is
refused naming the file, the line and the decision."""

from __future__ import annotations

import json
import typing
from dataclasses import MISSING, asdict, fields, is_dataclass
from pathlib import Path
from types import UnionType

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.ironcross import actions as ic
from core.redflags import actions as rf
from core.replay import read_replay, replay_decisions, write_replay
from core.rule_system import IllegalActionError, get
from core.twentymm import actions as tw
from maps.document_file import DocumentError

ROOT = Path(__file__).resolve().parents[2]
S1 = ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json"


# ------------------------------------------------------------------ the writers before the codec (reference)
def legacy_ironcross(a) -> dict:
    out = {}
    for f in fields(a):
        v = getattr(a, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def legacy_redflags(a) -> dict:
    return asdict(a)


def legacy_twentymm(a) -> dict:
    d = asdict(a)
    for k, v in list(d.items()):
        if isinstance(v, tuple):
            d[k] = [list(p) if isinstance(p, tuple) else p for p in v]
    d["type"] = type(a).__name__
    return d


SYSTEMS = {"ironcross": (ic, legacy_ironcross), "redflags": (rf, legacy_redflags), "twentymm": (tw, legacy_twentymm)}


def _sample(tp, i: int = 0):
    """A value of annotation ``tp`` (not None where None is allowed; two items in a variable tuple)."""
    if tp is str:
        return f"v{i}"
    if tp is bool:
        return True
    if tp is int:
        return 3 + i
    if tp is float:
        return 1.5 + i
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, UnionType):
        return _sample(next(a for a in args if a is not type(None)), i)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(args[0], 1), _sample(args[0], 2))
        return tuple(_sample(a, j) for j, a in enumerate(args))
    raise AssertionError(f"no sample of {tp!r}")


def _instances(module, cls):
    """``cls`` with only its required fields, and with every field set (the tag left at its default)."""
    hints = typing.get_type_hints(cls)
    tag = module.CODEC.tag
    fs = [f for f in fields(cls) if f.name != tag]
    required = {f.name: _sample(hints[f.name], k) for k, f in enumerate(fs)
                if f.default is MISSING and f.default_factory is MISSING}
    every = {f.name: _sample(hints[f.name], k) for k, f in enumerate(fs)}
    return [cls(**required), cls(**every)]


def _cases():
    for name, (module, _) in SYSTEMS.items():
        for tag, cls in module.CODEC.types.items():
            for j, a in enumerate(_instances(module, cls)):
                yield pytest.param(name, a, id=f"{name}-{tag}-{'minimal' if j == 0 else 'full'}")


def test_every_action_class_of_each_system_is_in_its_codec():
    for name, (module, _) in SYSTEMS.items():
        own = {c for c in vars(module).values()
               if isinstance(c, type) and is_dataclass(c) and c.__module__ == module.__name__}
        assert own == set(module.CODEC.types.values()), name
    assert rf.CODEC.types is rf.ACTION_TYPES and len(ic.CODEC.types) == 30 and len(tw.CODEC.types) == 6


@pytest.mark.parametrize("system,action", list(_cases()))
def test_every_action_round_trips_and_writes_the_bytes_of_its_old_writer(system, action):
    module, legacy = SYSTEMS[system]
    d = module.action_to_json(action)
    assert json.dumps(d) == json.dumps(legacy(action))  # byte-identical, key order included
    assert get(system).action_to_json(action) == d
    back = module.action_from_json(json.loads(json.dumps(d)))
    assert back == action and type(back) is type(action)
    assert get(system).action_from_json(json.loads(json.dumps(d))) == action


def test_tuples_come_back_as_tuples_and_points_as_floats():
    a = ic.action_from_json({"kind": "fire", "firers": ["G1", "G2"], "target": "4307", "intensive": ["G2"]})
    assert a == ic.Fire(("G1", "G2"), "4307", intensive=("G2",)) and isinstance(a.firers, tuple)
    m = tw.action_from_json({"type": "Move", "uid": "G-1", "path": [[1, 2], [3.5, 4]], "facing": 90})
    assert m.path == ((1.0, 2.0), (3.5, 4.0)) and all(type(c) is float for p in m.path for c in p)
    assert m.facing == 90 and type(m.facing) is int  # a plain float field keeps the number read
    assert tw.action_to_json(m) == {"uid": "G-1", "path": [[1.0, 2.0], [3.5, 4.0]], "facing": 90, "turret": None,
                                    "type": "Move"}
    assert tw.action_from_json({"type": "Fire", "uid": "G", "weapon": "he", "point": None}).point is None


# ------------------------------------------------------------------ errors
def _refused(module, d) -> Exception:
    with pytest.raises(IllegalActionError) as e:
        module.action_from_json(d)
    return e.value


def test_unknown_kind_is_refused_with_the_known_ones_listed():
    e = _refused(ic, {"kind": "teleport", "unit": "G1"})
    assert isinstance(e, ic.IllegalAction) and isinstance(e, ValueError) and e.rule == "actions"
    assert str(e).startswith("illegal (actions): unknown action kind 'teleport'; known: crew_replacement, ")
    assert "detach" in str(e) and "take_casualty" in str(e)
    e = _refused(rf, {"kind": "teleport"})
    assert isinstance(e, rf.IllegalAction) and str(e) == (
        "illegal (actions): unknown action kind 'teleport'; known: air_step, bomb, contract, debus, embus, "
        "end_activation, extend, fire, limber, move, place, remove_wire, strafe, unlimber")
    assert str(_refused(tw, {"type": "Teleport"})) == (
        "20mm: unknown action type 'Teleport'; known: Assault, EndTurn, Fire, IndirectFire, Move, Special")
    assert str(_refused(tw, {"uid": "G-1"})).startswith("20mm: an action needs its 'type' (one of Assault, ")
    assert str(_refused(ic, ["place", "G1"])) == "illegal (actions): an action is a JSON object, not ['place', 'G1']"


def test_unknown_and_missing_fields_are_refused_naming_the_kind():
    assert str(_refused(ic, {"kind": "step", "hex": "4307", "speed": 9, "mp": 2})) == (
        "illegal (actions): a step action: unknown field(s) mp, speed (its fields: hex)")
    assert str(_refused(ic, {"kind": "step"})) == "illegal (actions): a step action: missing field(s) hex"
    assert str(_refused(rf, {"kind": "move", "unit": "G1", "to": "3717", "speed": 9})) == (
        "illegal (actions): a move action: unknown field(s) speed (its fields: unit, to, with_commander)")
    assert str(_refused(rf, {"kind": "fire", "unit": "G1"})) == (
        "illegal (actions): a fire action: missing field(s) hex, target")
    assert str(_refused(tw, {"type": "Assault", "uid": "G-1", "target": "R-1", "kind": "x"})) == (
        "20mm: an Assault action: unknown field(s) kind (its fields: uid, target)")
    assert str(_refused(tw, {"type": "EndTurn", "uid": "G-1"})) == (
        "20mm: an EndTurn action: unknown field(s) uid (its fields: none)")


def test_values_of_the_wrong_shape_are_refused_saying_what_they_must_be():
    assert str(_refused(ic, {"kind": "start_move", "units": "G-1"})) == (
        "illegal (actions): a start_move action: units must be a list, each a string, not 'G-1'")
    assert str(_refused(ic, {"kind": "face", "hexside": True})) == (
        "illegal (actions): a face action: hexside must be a whole number, not True")
    assert str(_refused(ic, {"kind": "place", "unit": "G1", "hex": 4307, "facing": "north"})) == (
        "illegal (actions): a place action: hex must be a string, not 4307; "
        "facing must be a whole number or null, not 'north'")
    assert str(_refused(tw, {"type": "Move", "uid": "G-1", "path": [[1, 2, 3]]})) == (
        "20mm: a Move action: path must be a list, each a point [x, y] of numbers, not [[1, 2, 3]]")
    assert str(_refused(tw, {"type": "IndirectFire", "uid": "G-A", "point": ["a", 1]})) == (
        "20mm: an IndirectFire action: point must be a point [x, y] of numbers, not ['a', 1]")
    assert str(_refused(rf, {"kind": "air_step", "unit": "J", "turn": "left"})) == (
        "illegal (actions): an air_step action: turn must be a whole number, not 'left'")


def test_writing_an_object_that_is_no_action_of_the_system_is_a_type_error():
    with pytest.raises(TypeError, match="Move is not an action of this rule system"):
        ic.action_to_json(tw.Move("G-1"))


# ------------------------------------------------------------------ hand-edited replays
def _replay(tmp_path, system: str, actions: list, in_header: bool = False) -> Path:
    p = tmp_path / f"{system}.jsonl"
    scenario = {"ironcross": S1, "redflags": ROOT / "scenarios" / "data" / "redflags_1_hill_j.json",
                "twentymm": ROOT / "scenarios" / "data" / "twentymm_1_village_counterattack.json"}[system]
    events = []
    for a in actions:
        events += [{"kind": "action", "side": "german", "action": a}, {"kind": "roll", "dice": [3], "rule": "x"}]
    write_replay(p, {"scenario": str(scenario), "rule_system": system, "seed": 1,
                     **({"actions": actions} if in_header else {})}, events)
    return p


def test_hand_edited_replay_names_the_file_the_line_and_the_decision(tmp_path):
    good = ic.action_to_json(ic.EndSetup())
    p = _replay(tmp_path, "ironcross", [good, {"kind": "teleport"}, good, {"kind": "step", "hex": "4307", "x": 1}])
    with pytest.raises(DocumentError) as e:
        replay_decisions(p, read_replay(p), get("ironcross"))
    assert str(e.value).splitlines() == [
        f"{p}: line 4.action: decision 1: illegal (actions): unknown action kind 'teleport'; known: "
        + ", ".join(sorted(ic.CODEC.types)),
        f"{p}: line 8.action: decision 3: illegal (actions): a step action: unknown field(s) x (its fields: hex)"]
    # the header's decisions (a game that raised) are named by their index in it
    p = _replay(tmp_path, "ironcross", [good, {"kind": "end_setup", "units": ["G1"]}], in_header=True)
    with pytest.raises(DocumentError, match=r"line 1\.actions\[1\]: decision 1: illegal \(actions\): an end_setup "
                                            r"action: unknown field\(s\) units \(its fields: none\)"):
        replay_decisions(p, read_replay(p), get("ironcross"))


@pytest.mark.parametrize("system,good,bad,says", [
    ("redflags", rf.EndActivation(), {"kind": "move", "unit": "G1"},
     "illegal (actions): a move action: missing field(s) to"),
    ("twentymm", tw.EndTurn(), {"type": "Move", "uid": "G-1", "path": [[0, 0], "x"]},
     "20mm: a Move action: path must be a list, each a point [x, y] of numbers, not [[0, 0], 'x']"),
])
def test_hand_edited_replay_of_the_other_systems_is_refused_the_same_way(tmp_path, system, good, bad, says):
    p = _replay(tmp_path, system, [SYSTEMS[system][0].action_to_json(good), bad])
    with pytest.raises(DocumentError) as e:
        replay_decisions(p, read_replay(p), get(system))
    assert str(e.value) == f"{p}: line 4.action: decision 1: {says}"


def test_replay_verify_of_a_hand_edited_replay_says_file_line_and_decision_without_a_traceback(tmp_path):
    good = ic.action_to_json(ic.EndSetup())
    p = _replay(tmp_path, "ironcross", [good, {"kind": "place", "unit": "G1", "hex": "4307", "facing": "north"}])
    res = CliRunner().invoke(cli, ["replay", str(p), "--verify"])
    assert res.exit_code == 1, res.output
    assert f"{p}: line 4.action: decision 1: illegal (actions): a place action: facing must be a whole number or " \
           "null, not 'north'" in res.output
    assert "Traceback" not in res.output and isinstance(res.exception, SystemExit), res.output


def test_replay_decisions_of_a_good_replay_are_the_actions(tmp_path):
    acts = [tw.Move("G-1", ((1.5, 2.0),), facing=90.0), tw.Fire("G-1", "he", point=(3.0, 4.0)), tw.EndTurn()]
    p = _replay(tmp_path, "twentymm", [tw.action_to_json(a) for a in acts])
    assert replay_decisions(p, read_replay(p), get("twentymm")) == acts


def test_ironcross_place_is_slotted_and_a_kept_placement_is_the_value_of_a_new_one():
    """Place is slotted (a process keeps every placement a scenario offers): a kept placement
    (core.ironcross.deployment) equals Place(...) in everything a caller sees: equality, hash,
    repr, fields, its JSON and back, and it stays frozen."""
    from core.ironcross.deployment import _marker_place

    assert not hasattr(ic.Place("G-A-1", "1504"), "__dict__")
    for args in (("G-A-1", "1504", True, 3, True), ("AP-mines:2", "0912", False, None, False), ("IP1", "1001")):
        kept = _marker_place(*args) if len(args) == 2 else ic.Place(*args)
        made = ic.Place(*args)
        assert kept == made and hash(kept) == hash(made) and repr(kept) == repr(made)
        assert asdict(kept) == asdict(made)
        assert ic.action_to_json(kept) == ic.action_to_json(made)
        assert ic.action_from_json(ic.action_to_json(kept)) == made
        with pytest.raises(AttributeError):
            kept.hex = "0101"  # FrozenInstanceError is an AttributeError
    assert _marker_place("IP1", "1001") is _marker_place("IP1", "1001")  # made once


@pytest.mark.parametrize("header,says", [
    ({"rules": "ultra"}, "its header: unknown rules 'ultra'"),
    ({"options": ["nope"]}, "its header: unknown optional rule"),
    ({"options": "nope"}, "its header's 'options' should be a list of optional rule names, not 'nope'"),
])
def test_replay_verify_of_a_header_with_unknown_rules_names_the_file(tmp_path, header, says):
    from core.replay import write_replay as write

    good = ic.action_to_json(ic.EndSetup())
    p = tmp_path / "h.jsonl"
    write(p, {"scenario": str(S1), "rule_system": "ironcross", "seed": 1, **header},
          [{"kind": "action", "side": "german", "action": good}])
    res = CliRunner().invoke(cli, ["replay", str(p), "--verify"])
    assert res.exit_code == 1 and f"{p}: {says}" in res.output, res.output
    assert "Traceback" not in res.output and isinstance(res.exception, SystemExit)
