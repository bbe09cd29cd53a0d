"""The counter roster's values as the designer reads and types them: the value fields of crew
weapons and AFVs, the provenance colours, a typed value parsed, a refused change worded."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from editor.scenario.document import validation_message

__all__ = ["parse_value", "refusal"]


SIDES = ("german", "russian")
KEY_ROLE = Qt.ItemDataRole.UserRole
#: value provenance colours (as the map editor's chart panel)
PROV_COLOURS = {"rulebook": QColor(255, 255, 255), "reconstructed": QColor(255, 226, 160),
                "designer": QColor(190, 215, 255)}
ADDED_COLOUR = QColor(200, 238, 196)
CW_VALUES = ("crew", "ap_factor", "initial_range", "at_factor", "assault_rating", "pr", "movement", "mg_modes")
AFV_VALUES = ("ap_factor", "ap_range", "frontal_modifier", "flank_modifier", "at_factor", "overrun_factor", "pr",
              "movement", "turreted")
LEGEND = ("+ green: added by this scenario.  * bold blue: a value this scenario overrides.  "
          "White: rulebook, amber: reconstructed. Saved in the scenario; the counters file is never written.")


def refusal(err: Exception) -> str:
    """A refused roster edit in words: one line per problem, without the file name."""
    if isinstance(err, ValidationError):
        return validation_message(err)
    problems = getattr(err, "problems", None)
    if problems:
        return "\n".join(str(p) for p in problems)
    return str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)


def parse_value(field: str, text: str) -> Any:
    """A counter value typed as text: ``"8"``, ``"LMG"`` (weapon), ``"DF FL"`` (MG modes), ``"yes"``
    (turreted), ``"none"`` (no AT factor: None). Raises ValueError with what is expected."""
    t = str(text).strip()
    if field == "weapon":
        return t.upper()
    if field == "mg_modes":
        return [m.upper() for m in re.split(r"[\s,;]+", t) if m and m.lower() not in ("none", "-")]
    if field == "turreted":
        if t.lower() in ("yes", "true", "1", "y"):
            return True
        if t.lower() in ("no", "false", "0", "n"):
            return False
        raise ValueError(f"turreted is yes or no, not {t!r}")
    if field == "at_factor" and t.lower() in ("", "none", "-"):
        return None
    try:
        return int(t)
    except ValueError:
        raise ValueError(f"{field.replace('_', ' ')} is a whole number, not {t!r}") from None


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return " ".join(v) or "none"
    return "none" if v is None else str(v)
