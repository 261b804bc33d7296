"""The shared cases (clients/spec/cases/*.json, described in its README) against this helper."""

import json
import re
import smtplib
from email.message import EmailMessage
from pathlib import Path

import pytest

from siwa_mock_pytest import SiwaMock, SiwaMockError

REPO = Path(__file__).resolve().parents[3]
CASES = sorted((REPO / "clients" / "spec" / "cases").glob("*.json"))


def call(mock, verb, args):
    if verb in ("requests", "mail"):
        return getattr(mock, verb)(**args.get("filters", {}))
    if verb == "request":
        return mock.request(args["method"], args["path"], args.get("body"))
    if verb == "wait_for_mail":
        return mock.wait_for_mail(timeout=args.get("timeout", "5s"), **args.get("filters", {}))
    return getattr(mock, verb)(**args)


def resolve(value, saved):
    if isinstance(value, str) and value.startswith("$repo/"):
        return str(REPO / value[len("$repo/"):])
    if isinstance(value, str) and value.startswith("$"):
        name, _, path = value[1:].partition(".")
        return at(saved[name], path)
    if isinstance(value, dict):
        return {key: resolve(item, saved) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, saved) for item in value]
    return value


def at(value, path):
    for part in path.split(".") if path else []:
        if part == "#":
            value = len(value)
        elif isinstance(value, list):
            value = value[int(part)] if -len(value) <= int(part) < len(value) else None
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def send_mail(mock, mail):
    """One SMTP transaction to the mock's relay; smtplib raises unless it is accepted."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = mail["from"], mail["to"], mail["subject"]
    message.set_content("Hello")
    with smtplib.SMTP(mock.smtp_host, mock.smtp_port, timeout=10) as smtp:
        smtp.send_message(message, from_addr=mail["from"], to_addrs=[mail["to"]])


@pytest.mark.parametrize("case", CASES, ids=[path.stem for path in CASES])
def test_shared_case(siwa_mock, case):
    spec = json.loads(case.read_text())
    if "mock" in spec:  # a mock of its own (cases/README.md)
        own = spec["mock"]
        with SiwaMock.start(scenario=resolve(own["scenario"], {}), smtp=own.get("smtp", False)) as mock:
            run_steps(mock, case.name, spec["steps"])
    else:
        run_steps(siwa_mock, case.name, spec["steps"])


def run_steps(siwa_mock, name, steps):
    saved = {}
    for number, step in enumerate(steps, 1):
        if "send_mail" in step:
            send_mail(siwa_mock, step["send_mail"])
            continue
        where = f"{name} step {number} ({step['verb']})"
        args = resolve(step.get("args", {}), saved)
        if "error" in step:
            with pytest.raises(SiwaMockError) as raised:
                call(siwa_mock, step["verb"], args)
            assert step["error"] in str(raised.value), where
            continue
        result = call(siwa_mock, step["verb"], args)
        for path, expected in step.get("expect", {}).items():
            assert at(result, path) == resolve(expected, saved), f"{where}: {path} of {result!r}"
        if "matches" in step:
            assert isinstance(result, str) and re.search(step["matches"], result), f"{where}: {result!r}"
        if "as" in step:
            saved[step["as"]] = result
