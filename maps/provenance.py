"""Provenance of shipped values: from the rulebook, or reconstructed with a rationale.

The rulebook text lacks the printed map, the countersheet and most of the terrain chart, so the
toolkit ships reconstructions; each value says where it comes from (see ../shared/DESIGN.md,
"Reconstructed data: honest and editable").
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

__all__ = ["Provenance", "RULEBOOK", "reconstructed", "rulebook"]


class Provenance(BaseModel):
    """Where a value comes from.

    ``source == "rulebook"`` needs ``ref`` (the rule, chart or scenario it comes from);
    ``source == "reconstructed"`` needs ``rationale`` (one line on why this value);
    ``source == "designer"`` marks a value a designer entered (e.g. from the printed game).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    source: Literal["rulebook", "reconstructed", "designer"]
    ref: str | None = None
    rationale: str | None = None

    @model_validator(mode="after")
    def _needs_reason(self) -> "Provenance":
        if self.source == "rulebook" and not self.ref:
            raise ValueError("a 'rulebook' provenance needs 'ref' (rule, chart or scenario)")
        if self.source == "reconstructed" and not self.rationale:
            raise ValueError("a 'reconstructed' provenance needs a one-line 'rationale'")
        return self

    def short(self) -> str:
        """A short human label: ``rulebook 24.4`` or ``reconstructed: <rationale>``."""
        if self.source == "rulebook":
            return f"rulebook {self.ref}"
        if self.source == "reconstructed":
            return f"reconstructed: {self.rationale}"
        return "designer" + (f": {self.rationale}" if self.rationale else "")


def rulebook(ref: str) -> Provenance:
    """Provenance for a value stated by the rulebook at ``ref`` (e.g. ``"24.4 Scenario 1"``)."""
    return Provenance(source="rulebook", ref=ref)


def reconstructed(rationale: str) -> Provenance:
    """Provenance for a reconstructed value with its one-line ``rationale``."""
    return Provenance(source="reconstructed", rationale=rationale)


RULEBOOK = "rulebook"
