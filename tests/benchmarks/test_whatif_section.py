"""The section ``benchmarks/whatif.py`` writes into docs/balance.md says what the search found:
a proposal only for a change whose share lies in the band, otherwise that none does, with the
nearest share and the nearest of the best-measured candidates, and why the search ended."""

from __future__ import annotations

import random
from argparse import Namespace
from pathlib import Path

from benchmarks.yardstick import Yardstick
from core.whatif import Arm, Candidate, Change, WhatIfSearch, race
from tests.benchmarks.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


def _script():
    return load_script("whatif")


class _Loaded:
    title = "Scenario 1: Demyansk Pocket"
    path = str(ROOT / "scenarios" / "data" / "scenario_1_demyansk_pocket.json")
    data: dict = {}

    class system:
        name = "ironcross"
        title = "Iron Cross"
        rules = ("basic", "advanced")


def _search(probs: dict[str, float], budget: int) -> WhatIfSearch:
    arms = [Arm(Candidate())] + [Arm(Candidate((Change(t, "test", f"change {t}"),))) for t in probs]

    def play(cand, seeds):
        p = probs[cand.changes[0].text] if cand.changes else 0.05
        return ["german" if random.Random(s).random() < p else "russian" for s in seeds]

    res = race(arms, play, side="german", target=0.5, budget=budget, first=8)
    return WhatIfSearch(res, best=res.best())


def _text(res, budget) -> str:
    args = Namespace(budget=budget, first=8, seed=1, kinds=None, workers=2)
    return "\n".join(_script().section(1, _Loaded(), "german", res, args, 12.0, Yardstick(0.4, 1, (0.4,)), 3))


def test_a_change_in_the_band_is_proposed():
    text = _text(_search({"a": 0.5, "b": 0.1, "c": 0.2}, 400), 400)
    assert "Proposed: **a**" in text and "No change of these kinds" not in text


def test_no_change_in_the_band_is_said_with_the_nearest_and_why_the_search_ended():
    text = _text(_search({"a": 0.25, "b": 0.05, "c": 0.12}, 2000), 2000)
    assert "Proposed:" not in text
    assert "No change of these kinds, alone or two together, brings german into the band 45%-55%" in text
    assert "Nearest: **a**" in text and "the race ended before the budget" in text


def test_a_confirming_playtest_is_compared_with_the_search():
    res = _search({"a": 0.25, "b": 0.05, "c": 0.12}, 2000)
    mod = _script()
    (arm,) = mod.named_arms(res, "german")[:1]
    args = Namespace(budget=2000, first=8, seed=1, kinds=None, workers=2)
    text = "\n".join(mod.section(1, _Loaded(), "german", res, args, 12.0, Yardstick(0.4, 1, (0.4,)), 3,
                                 {arm.candidate.label: (0.10, 0.06, 0.15, 200, 64)}))
    assert (f"Confirming playtest of **{arm.candidate.label}**: 200 new games (seed 1, games 64 to 263, after "
            f"the search's 64)") in text
    assert "german 10.0% (6.0%-15.0%), which agrees with the search's" in text
    far = "\n".join(mod.section(1, _Loaded(), "german", res, args, 12.0, Yardstick(0.4, 1, (0.4,)), 3,
                                {arm.candidate.label: (0.80, 0.74, 0.85, 200, 64)}))
    assert "does NOT agree with" in far


def test_a_run_on_some_scenarios_keeps_the_other_sections(tmp_path):
    mod = _script()
    out = tmp_path / "balance.md"
    out.write_text("# sheet\n\n" + "\n".join([
        mod.BEGIN, "## What would balance it?", "", "### What-if search: the scheme", "", "scheme", "",
        "### What would balance Scenario 1: Demyansk Pocket?", "", "S1 text", "",
        "### What would balance Scenario 3: Closing the Ring?", "", "S3 text", "", mod.END]) + "\ntail\n")
    kept = mod.kept_sections(out, {"Scenario 3: Closing the Ring"})
    assert list(kept) == ["Scenario 1: Demyansk Pocket"]
    assert kept["Scenario 1: Demyansk Pocket"] == ["### What would balance Scenario 1: Demyansk Pocket?", "",
                                                   "S1 text", ""]
    assert mod.kept_sections(tmp_path / "none.md", set()) == {}


def test_a_red_flags_section_is_titled_with_its_system_and_its_rules():
    from core.rule_system import load_scenario

    mod = _script()
    loaded = load_scenario(ROOT / "scenarios" / "data" / "redflags_1_hill_j.json")
    assert mod.heading(loaded) == "Red Flags and Iron Crosses, Scenario 1: Hill J"
    assert mod.heading(load_scenario(_Loaded.path)) == "Scenario 1: Demyansk Pocket"
    res = _search({"a": 0.5, "b": 0.1}, 400)
    args = Namespace(budget=400, first=8, seed=1, kinds=None, workers=2)
    text = "\n".join(mod.section("RF1", loaded, "german", res, args, 12.0, Yardstick(0.4, 1, (0.4,)), 2))
    assert text.startswith("### What would balance Red Flags and Iron Crosses, Scenario 1: Hill J?")
    assert "heuristic AI both sides, standard rules" in text


def test_the_confirming_games_are_new_games_after_the_searchs(monkeypatch):
    """The confirmation plays the batch seed's games that come after the search's, so it shares no
    game with the search (a confirmation on the search's own first games would confirm nothing)."""
    import core.playtest as playtest
    from core.dice import derive_seed
    from core.playtest import GameResult

    asked = []

    def batch(path, games, seed, ai, **kw):
        asked.append(kw["seeds"])
        return [GameResult(i, s, "german" if i % 2 else "russian", 1) for i, s in enumerate(kw["seeds"])]

    monkeypatch.setattr(playtest, "run_batch", batch)
    arm = Arm(Candidate((Change("a", "test", "change a"),)), outcomes=["german"] * 40, path="x.json")
    out = _script().confirm([arm], "german", 10, Namespace(seed=3, workers=1, scheduler=None))
    assert asked == [[derive_seed(3, i) for i in range(40, 50)]]
    assert out["a"][3:] == (10, 40) and out["a"][0] == 0.5


def test_a_race_that_ends_with_candidates_left_says_so():
    res = _search({"a": 0.5, "b": 0.1, "c": 0.2}, 2000)
    assert any(a.dropped is None for a in res.singles.arms)
    text = _text(res, 2000)
    assert "at most three candidates were left, their intervals narrow enough" in text


def test_a_budget_spent_with_candidates_still_racing_is_not_called_a_race_every_candidate_left():
    res = _search({"a": 0.3, "b": 0.1, "c": 0.2}, 40)
    assert any(a.dropped is None for a in res.singles.arms) and not res.singles.reaches(res.best)
    text = _text(res, 40)
    assert "within the budget; candidates were still racing when it was spent" in text
    assert "every candidate left the race" not in text
