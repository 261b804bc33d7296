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


def guarded(attack, name: str) -> Outcome:
    """Runs one attack; an exception (a hang timing out, a dead server) is that attack's failure."""
    try:
        return attack()
    except Exception as error:  # noqa: BLE001 - every failure is reported
        return Outcome(name, "(see the attack)", observed=f"raised {error!r}")
