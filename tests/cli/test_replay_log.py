"""``ironcross replay FILE --log``: a replay's whole game log, headless, in the sentences the editor's
Watch shows (``core.game_log``), for every rule system; a hand-edited event is a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from core.game_log import decisions_of

DATA = Path(__file__).resolve().parents[2] / "scenarios" / "data"


def _replay(tmp_path, scenario: str, seed: int) -> Path:
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["playtest", str(DATA / scenario), "--games", "1", "--seed", str(seed),
                                   "--workers", "1", "--quiet", "--replays", str(tmp_path / "rp"), "--json", str(out)])
    assert res.exit_code == 0, res.output
    return Path(json.loads(out.read_text())["per_game"][0]["replay"])


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]


def test_decisions_of_cuts_a_game_at_its_decisions_and_keeps_every_event():
    events = [{"kind": "game_start"}, {"kind": "place"}, {"kind": "action", "i": 1}, {"kind": "roll"},
              {"kind": "fire"}, {"kind": "action", "i": 2}, {"kind": "game_over"}]
    groups = decisions_of(events)
    assert [[e["kind"] for e in g] for g in groups] == [["game_start", "place"], ["action", "roll", "fire"],
                                                          ["action", "game_over"]]
    assert [e for g in groups for e in g] == events
    assert decisions_of([]) == []


@pytest.mark.parametrize("scenario, seed, start", [
    ("scenario_1_demyansk_pocket.json", 3, "Game starts: Demyansk Pocket"),
    ("redflags_1_hill_j.json", 2, "Hill J: 9 turns; objectives"),
])
def test_the_log_of_a_replay_names_every_decision_from_the_start_to_the_end(tmp_path, scenario, seed, start):
    path = _replay(tmp_path, scenario, seed)
    events = _events(path)
    res = CliRunner().invoke(cli, ["replay", str(path), "--log"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith(f"{path}: scenario ")  # the summary line first, as without --log
    assert lines[1].startswith(start)
    # each decision is one line "Side: what it did", in the order played
    actions = [e for e in events if e.get("kind") == "action"]
    decided = [x for x in lines[2:] if x.startswith(("German: ", "Russian: "))]
    assert len(decided) == len(actions) > 20
    assert [x.split(":")[0].lower() for x in decided] == [e["side"] for e in actions]
    end = next(e for e in reversed(events) if e.get("kind") == "game_over")
    assert end["outcome"] in lines[-1].lower() or any(end["outcome"] in x.lower() for x in lines[-3:])


def test_a_hand_edited_event_the_log_cannot_word_is_named_with_the_file(tmp_path):
    path = _replay(tmp_path, "redflags_1_hill_j.json", 2)
    lines = path.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if i and json.loads(line).get("kind") == "move")
    event = json.loads(lines[k])
    del event["path"]  # a move that says nowhere it went
    lines[k] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = CliRunner().invoke(cli, ["replay", str(path), "--log"])
    assert res.exit_code != 0
    assert str(path) in res.output and "cannot be read" in res.output and "Traceback" not in res.output
