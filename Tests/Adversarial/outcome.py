"""One attack's result, as the adversarial suite reports it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    name: str
    expected: str
    observed: str = ""
    ok: bool = False
    good_requests: int = 0
    good_worst: float = 0.0
    notes: list[str] = field(default_factory=list)
