"""Behaviour settings of the Iron Cross heuristic player: its weights and thresholds in one object.

In the spirit of MegaMek Princess's BehaviorSettings: every number the heuristic used to carry inline
that says *how* it plays (not what the rules are) is a named, documented, range-checked field here,
so a side's behaviour can be chosen on the command line (``--ai german=heuristic:aggression=0.7``,
``--ai german=heuristic:@settings.json``), stored per side in a scenario (``ai_settings``, with its
provenance) or tuned against the opponent (``ironcross tune``). The defaults are the heuristic's
long-standing values: a player with default settings plays exactly the games it always played
(multiplying by 1.0 and comparing against the same constants change no float).

Each field's meaning and range is in ``docs/ai.md`` ("Behaviour settings"); the fields' ``description``
texts below are the same, for ``ironcross tune`` and error messages. A scenario stores settings
per side as :class:`scenarios.model.AISettingsBlock` (values, provenance), checked here when a game
starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core import behaviour_settings as _settings
from core.behaviour_settings import TUNED_FILE_KEYS, SettingsError, settings_text

__all__ = ["BehaviorSettings", "SettingsError", "parse_settings", "settings_text", "load_settings_file",
           "settings_from_mapping", "SEARCH_SPACE", "TUNED_FILE_KEYS"]


class BehaviorSettings(BaseModel):
    """How the heuristic plays (every field: its default is the heuristic's original value).

    Multipliers ("x1 = default") scale a weight; thresholds are in the heuristic's score units
    (expected eliminations, a unit worth about 1)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_assignment=True)

    # -- movement -------------------------------------------------------------------------------
    aggression: float = Field(1.0, ge=0.0, le=4.0, description=(
        "progress toward the goal hexes: multiplier of the weight of each turn of MPs gained toward the "
        "unit's goal cluster (0 = ignore goals, 4 = rush them)"))
    defend_aggression: float = Field(1.0, ge=0.0, le=4.0, description=(
        "when defending (the posture of a side the victory conditions name the winner now): multiplier of "
        "aggression (1 = the same pull toward the goal hexes in both postures)"))
    self_preservation: float = Field(1.0, ge=0.0, le=4.0, description=(
        "multiplier of the weight of expected losses (enemy opportunity and next fire, mines) when "
        "choosing where to move (0 = ignore danger, 4 = very cautious)"))
    unhurried_caution: float = Field(1.0, ge=0.25, le=4.0, description=(
        "when attacking: multiplier of the weight of expected fire losses in a move for a group with time "
        "to spare, in full at no time pressure (its goal reached in no time) and fading to none at half "
        "the Movement Phases left needed for its march (mines keep self_preservation alone; "
        "1 = no change)"))
    open_stack_caution: float = Field(0.0, ge=0.0, le=4.0, description=(
        "unit values a move's end counts as lost, per own infantry/CW unit of the stack, where 3+ of "
        "them would stand UP in a hex without cover (no trees, building or IP) in the LOS and normal "
        "range of a visible, working enemy MG while a hex with more AP dice within 2 held no enemy "
        "(the blunder kind halted_in_open_under_mg; 0 = off)"))
    hold_objective: float = Field(1.0, ge=0.0, le=4.0, description=(
        "multiplier of the bonus for ending a move on a goal hex of the unit's cluster when attacking (a "
        "defender uses defend_hold_objective)"))
    defend_hold_objective: float = Field(3.0, ge=0.0, le=4.0, description=(
        "multiplier of the bonus for ending a move on a goal hex of the unit's cluster when defending "
        "(3 by paired games: docs/ai.md)"))
    secured_hold_objective: float = Field(1.0, ge=0.0, le=4.0, description=(
        "when attacking with no goal hex held by a known enemy unit (nothing left to take from the enemy: "
        "a \"clear\" region to keep, free goal hexes to reach): multiplier of the hold bonus, on top of "
        "hold_objective"))
    move_threshold: float = Field(0.1, ge=0.0, le=2.0, description=(
        "least gain per unit for a group to move in its own Movement Phase when attacking (a defender "
        "uses defend_move_threshold)"))
    defend_move_threshold: float = Field(0.12, ge=0.0, le=2.0, description=(
        "least gain per unit for a group to move in its own Movement Phase when defending"))
    reaction_move_threshold: float = Field(0.25, ge=0.0, le=5.0, description=(
        "least gain per unit for a group to move in the Reaction Movement Phase (8.0) when attacking"))
    defend_reaction_move_threshold: float = Field(0.4, ge=0.0, le=5.0, description=(
        "least gain per unit for a group to move in the Reaction Movement Phase when defending"))
    assault_margin: float = Field(0.0, ge=0.0, le=3.0, description=(
        "time pressure: Game Turns a group sent against an enemy-held goal cluster counts beyond "
        "its march (to fire and assault there, 17.0) when it weighs the turns it needs against the "
        "turns left (0 = the march alone)"))
    stand_up_to_move: int = Field(1, ge=0, le=1, description=(
        "1 = an attacking group that stands DOWN weighs standing UP first in its Movement Phase "
        "(3.13: 2 MP) and moving on at the UP costs and the road rate (8.5, 8.52) against crawling; "
        "0 = it plans with its DOWN costs only"))
    entry_per_unit: int = Field(0, ge=0, le=1, description=(
        "1 = once movement needs PCs (8.22: after the first shot), an off-map group's entry (24.1) "
        "is worth its entry bonus per unit, so a leader-led group (8.3 A: one PC at the leader's "
        "PR moves it all) is priced unit for unit against its units entering one at a time, and "
        "goes in when the leader's chance is the better, and a leader entering alone while men he "
        "leads wait there pays for leaving them; 0 = one entry bonus a group, whatever its size "
        "(the units enter one by one)"))
    attack_in_time: int = Field(0, ge=0, le=1, description=(
        "1 = a unit is sent against an enemy-held goal cluster only when it can get there in the "
        "Movement Phases left (its MPs to the cluster over its allowance, 8.1, with half a phase to "
        "spare, as for a cluster to hold); the cluster's need is met by units that can, the others go "
        "where they still count; 0 = the nearest units whatever the time left"))
    attack_remote_first: int = Field(0, ge=0, le=1, description=(
        "1 = the enemy-held goal clusters take their units in order of remoteness, as the clusters "
        "to hold do: the cluster whose nearest units stand farthest first, each its nearest units up "
        "to its need (a victory that needs every cluster is lost by the one left to leftovers); "
        "0 = the nearest (unit, cluster) pairs first"))
    guard_full_reach: int = Field(0, ge=0, le=1, description=(
        "1 = before the enemy's last Movement Phase the hexes of a region to keep clear that he can "
        "still enter count his Reaction Movement still to come (8.11-8.14) and an infantry assault "
        "from the last hex he reaches into an adjacent one (17.0); 0 = his Movement Phase only"))
    hidden_discipline: float = Field(0.0, ge=0.0, le=10.0, description=(
        "extra gain per unit a group standing in one of its own hidden hexes (24.2) needs before it "
        "moves (and so reveals itself, 24.22) while no visible enemy unit has LOS to it; "
        "0 = no extra reluctance"))
    # -- fire -------------------------------------------------------------------------------------
    fire_threshold: float = Field(0.06, ge=0.0, le=2.0, description=(
        "fire discipline: least net value (expected effect less the cost of firing now) of an AP "
        "attack, grenade or flamethrower attack the player makes; below it the phase ends"))
    intensive_fire_cost: float = Field(1.0, ge=0.0, le=1000.0, description=(
        "multiplier of the expected cost of MG Intensive Fire (11.15: jam, out two Player Turns, "
        "broken for the game); 0 = free, 1000 = in effect never"))
    intensive_fire_from_turn: int = Field(1, ge=1, le=30, description=(
        "no MG Intensive Fire (11.15) before this Game Turn (1 = allowed from the start)"))
    poor_target_ratio: float = Field(0.0, ge=0.0, le=1.0, description=(
        "target priority: an AP fire action whose expected effect is below this share of the best "
        "AP fire action the same firers have is not taken (0 = no such filter)"))
    objective_target_factor: float = Field(1.6, ge=0.5, le=10.0, description=(
        "target priority: how much more a hit on the enemy in a goal hex the side must take counts"))
    objective_target_factor_last_turn: float = Field(3.0, ge=0.5, le=20.0, description=(
        "target priority on the last Game Turn (end-game push) for the enemy in a goal hex to take"))
    near_objective_target_factor: float = Field(1.3, ge=0.5, le=10.0, description=(
        "target priority for the enemy on or next to any goal hex"))
    near_objective_target_factor_last_turn: float = Field(1.3, ge=0.5, le=20.0, description=(
        "target priority on the last Game Turn for the enemy on or next to any goal hex: one step "
        "(a last move, 8.0, or a Reaction Movement Phase move) puts it on the hex that decides the game"))
    opportunity_fire_threshold: float = Field(0.18, ge=0.0, le=2.0, description=(
        "fire discipline in opportunity fire (13.0): least net value of firing now at a moving "
        "enemy rather than keeping the units for later fire"))
    assault_ratio: float = Field(1.3, ge=0.1, le=5.0, description=(
        "least assault strength ratio (17.0: ratings, PCs, leaders, numbers) to assault a hex that is "
        "no goal"))
    assault_ratio_last_turn: float = Field(0.0, ge=0.0, le=5.0, description=(
        "least assault strength ratio against an enemy-held goal hex in the side's last Player Turn "
        "(end-game push: losing it decides the game); 0 = any assault, however weak (after the last "
        "assaults the units lost count for nothing unless the victory conditions count them)"))
    assault_spread: int = Field(2, ge=0, le=3, description=(
        "1 = in the side's last Player Turn, while it attacks (not when it wins as things stand), an "
        "Assault marker on an enemy-held goal hex (17.0) is priced by what the stack adds to the odds "
        "of the stacks already marked against that hex (at most 3), so the stacks spread over the hexes "
        "that decide the game instead of piling onto one while another is left to its holders; 2 = as "
        "1, less what another such hex that nobody is marked against loses when this stack is the only "
        "one left that could assault it (the stack with no other choice is not crowded out); 3 = as 2, "
        "priced by the chance the hex is cleared (odds / (1 + odds)) times its objective factor, every "
        "such hex the same whoever holds it (24.8: one enemy unit left on any decides the game); 0 = by "
        "the odds of all the stacks marked against the hex (2 by paired games: docs/ai.md)"))
    guard_last_move: int = Field(0, ge=0, le=2, description=(
        "1 = in the side's Player Turn before the enemy's last Movement Phase, no Assault marker "
        "(17.0 a: the assaulters move into the hex they clear) takes the last own unit out of a hex "
        "of a region to keep clear that an enemy unit can still enter (one enemy unit there at the "
        "end decides the game), not even for an enemy-held goal hex; 2 = as 1 while units standing "
        "outside such hexes can be (or are) marked against the same hex (the only stack that can "
        "assault it still goes); 0 = such a hex may be left for an enemy-held goal hex"))
    counter_assault: int = Field(2, ge=0, le=2, description=(
        "1 = answer the enemy's Assault markers (17.0: they are on the map) on goal hexes and hexes "
        "to keep clear: in the Reaction Movement Phase such a hex wants more than twice the men "
        "marked against it (each man short that a group brings counts as the goal's urgency), and an "
        "empty one is marked for an assault by adjacent units too, at the ratio a goal hex needs (the "
        "phasing player's assaults come first, so ours then meets the enemy there); in the last "
        "Player Turn units may leave a held hex for it (no enemy moves after the assaults); 2 = as 1, "
        "but a hex is reinforced only while the enemy's assault odds against its defenders with the "
        "group stay below 1 (the defence favoured: men fed into a hex that falls anyway are lost "
        "with it); 0 = only hexes the enemy holds are assaulted"))
    mine_caution: int = Field(0, ge=0, le=2, description=(
        "known minefields (19.2) when an attacker accepts more risk (time pressure, a group that stood "
        "still): 0 = mine losses discounted like enemy fire; 1 = the mine attacks on the own units "
        "already in the hex that an entering unit sets off (19.24: every unit there is attacked "
        "again) keep the full risk weight; 2 = as 1, and the entering units' own mine losses (AP, "
        "19.24; AT, 19.25) keep it too (a certain loss: no stalemate is broken by it)"))
    overrun_uncovered: int = Field(0, ge=0, le=1, description=(
        "1 = in its last Movement Phase an attacker's AFV counts an overrun (9.0) on an enemy-held "
        "goal hex that own NORMAL infantry next to it can assault in this Player Turn at the odds "
        "the hex needs (17.0) as on a hex that is no goal, and passes up such an overrun on its way "
        "while its plan ends next to an enemy-held goal hex the infantry cannot assault: the overrun "
        "goes where no assault can; 0 = every enemy-held goal hex at the objective factor, and any "
        "favourable overrun on the way is made"))
    approach_spread: float = Field(0.0, ge=0.0, le=1.0, description=(
        "in an attacker's last Movement Phase, while an enemy-held goal hex next to a hex the group can "
        "end in lacks assaulters (the own NORMAL infantry next to it would assault at odds below "
        "assault_ratio, 17.0): the share of the bonus for ending next to an enemy-held goal hex that a "
        "hex next to only such hexes that have them loses, so the stacks spread over the hexes that "
        "decide the game (0 = off: every hex next to one counts in full)"))
    grenade_reserve: float = Field(0.2, ge=0.0, le=5.0, description=(
        "reserve: cost of throwing a grenade (15.9, counted) while fewer are left than two a turn"))
    # -- strategy ---------------------------------------------------------------------------------
    concentration_base: float = Field(4.0, ge=0.0, le=16.0, description=(
        "concentration: units sent against an enemy-held goal cluster, before counting its defenders"))
    concentration_per_enemy: float = Field(2.0, ge=0.0, le=8.0, description=(
        "concentration: units more per enemy unit in an enemy-held goal cluster"))
    end_game_concentration_base: float = Field(6.0, ge=0.0, le=16.0, description=(
        "end-game push: units sent against an enemy-held goal cluster on the last Game Turn"))
    end_game_concentration_per_enemy: float = Field(3.0, ge=0.0, le=8.0, description=(
        "end-game push: units more per enemy unit there on the last Game Turn"))
    end_game_push: float = Field(1.5, ge=0.0, le=10.0, description=(
        "end-game push: cost for an attacker's unit not yet on its goal hex of firing in the last "
        "Support Fire Phase instead of moving on (8.21)"))


#: Settings ``ironcross tune`` searches (name -> (low, high, log scale)); the others keep their value.
SEARCH_SPACE: dict[str, tuple[float, float, bool]] = {
    "aggression": (0.25, 4.0, True),
    "self_preservation": (0.25, 4.0, True),
    "hold_objective": (0.25, 4.0, True),
    "defend_hold_objective": (0.25, 4.0, True),
    "secured_hold_objective": (0.25, 4.0, True),
    "reaction_move_threshold": (0.05, 2.0, True),
    "defend_reaction_move_threshold": (0.05, 2.0, True),
    "hidden_discipline": (0.0, 2.0, False),
    "fire_threshold": (0.01, 0.5, True),
    "intensive_fire_cost": (0.1, 100.0, True),
    "poor_target_ratio": (0.0, 0.8, False),
    "concentration_per_enemy": (0.5, 6.0, False),
    "end_game_concentration_per_enemy": (0.5, 6.0, False),
}


def settings_from_mapping(values: dict[str, Any], where: str = "") -> BehaviorSettings:
    """Validate ``values`` ({name: value}) into settings (:func:`core.behaviour_settings.settings_from_mapping`);
    raises :class:`SettingsError` naming the first unknown setting, value that is no number or
    out-of-range value (``where`` prefixes the message, e.g. a file name)."""
    return _settings.settings_from_mapping(BehaviorSettings, values, where)


def load_settings_file(path: str | Path) -> BehaviorSettings:
    """Settings from a JSON file: ``{name: value, ...}`` or a file written by ``ironcross tune``
    (:func:`core.behaviour_settings.load_settings_file`). Raises :class:`SettingsError` naming the
    file and the problem."""
    return _settings.load_settings_file(BehaviorSettings, path)


def parse_settings(text: str, where: str = "") -> BehaviorSettings:
    """``"aggression=0.7,fire_threshold=0.1"`` or ``"@FILE"`` or both (the later win) -> settings
    (:func:`core.behaviour_settings.parse_settings`). Raises :class:`SettingsError`."""
    return _settings.parse_settings(BehaviorSettings, text, where)
