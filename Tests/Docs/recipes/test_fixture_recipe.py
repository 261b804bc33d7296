"""Proves the conftest.py recipe: each test starts from the scenario's state, whatever the last one did."""

import json
import urllib.request


def call(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def test_a_test_changes_the_mock(siwa_mock):
    call("PATCH", f"{siwa_mock}/mock/users/alice", {"credential_state": "revoked"})
    call("POST", f"{siwa_mock}/mock/clock", {"advance": "2d"})
    assert call("GET", f"{siwa_mock}/mock/users/alice")["credential_state"] == "revoked"


def test_the_next_test_starts_clean(siwa_mock):
    assert call("GET", f"{siwa_mock}/mock/users/alice")["credential_state"] == "authorized"
    clock = call("GET", f"{siwa_mock}/mock/clock")
    assert not clock["frozen"]


def test_a_backend_signs_in(siwa_mock):
    credential = call("POST", f"{siwa_mock}/mock/credentials", {"client_id": "com.example.app", "user": "alice"})
    assert credential["identityToken"].count(".") == 2
    assert credential["user"] == "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"


def test_a_mock_that_does_not_start_shows_why(tmp_path, monkeypatch):
    from conftest import start_siwa_mock

    scenario = tmp_path / "typo.yaml"
    scenario.write_text("usres:\n  - id: dave\n")
    monkeypatch.setenv("SIWA_MOCK_SCENARIO", str(scenario))
    try:
        start_siwa_mock()
    except RuntimeError as error:
        message = str(error)
    else:
        raise AssertionError("a scenario with a typo started")
    assert "siwa-mock did not start (exit 1)" in message
    assert "typo.yaml:1:1" in message and "users" in message, message  # the mock's own positioned error


def test_a_missing_binary_names_siwa_mock_binary(monkeypatch):
    from conftest import find_siwa_mock

    monkeypatch.setenv("SIWA_MOCK_BINARY", "/nonexistent/siwa-mock")
    try:
        find_siwa_mock()
    except RuntimeError as error:
        assert "set SIWA_MOCK_BINARY" in str(error) and "/nonexistent/siwa-mock" in str(error)
    else:
        raise AssertionError("a missing binary was accepted")
