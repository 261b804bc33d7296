"""Fixtures: a fresh siwa-mock process per test, started with --port 0 and stopped with SIGTERM."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest
from siwatest.process import READY_PREFIX, STARTUP_TIMEOUT, read_ready_line
from siwatest.scenario import REPO_ROOT

SHUTDOWN_TIMEOUT = 5.0


pytest_plugins = ("siwatest.pytest_binary",)


class MockServer:
    """A running siwa-mock: `base` is its URL, `stderr_path` its request log."""

    def __init__(self, proc: subprocess.Popen, base: str, stderr_path: Path) -> None:
        self.proc = proc
        self.base = base
        self.stderr_path = stderr_path

    def log(self) -> str:
        return self.stderr_path.read_text(errors="replace")


@pytest.fixture
def mock(binary: Path, tmp_path: Path) -> MockServer:
    stderr_path = tmp_path / "siwa-mock.stderr"
    with open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr)
    try:
        line = read_ready_line(proc, time.monotonic() + STARTUP_TIMEOUT)
    except (TimeoutError, RuntimeError) as error:
        proc.kill()
        proc.wait()
        pytest.fail(f"siwa-mock did not start: {error}\nstderr:\n{stderr_path.read_text(errors='replace')[-3000:]}")
    assert line.startswith(READY_PREFIX), f"unexpected ready line {line!r}"
    hostport = line[len(READY_PREFIX):]
    host, _, port = hostport.rpartition(":")
    assert host == "127.0.0.1" and port.isdigit() and int(port) > 0, f"bad ready line {line!r}"
    server = MockServer(proc, f"http://{hostport}", stderr_path)
    yield server
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=SHUTDOWN_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"siwa-mock did not exit within {SHUTDOWN_TIMEOUT}s of SIGTERM")
    proc.stdout.close()
    assert rc == 0, f"siwa-mock exited with {rc} after SIGTERM; stderr tail:\n{server.log()[-2000:]}"


@pytest.fixture
def base(mock: MockServer) -> str:
    return mock.base


# --- conformance report ---------------------------------------------------------------------------
# Every test belongs to a (library, flow) row of Tests/Interop/CONFORMANCE.md, which a full run of the
# suite regenerates (and copies into docs/conformance.md between the conformance markers). A test missing from
# FLOWS still appears, under its module's library and its own name, so nothing is silently dropped.

LIBRARIES = {
    "test_authlib": ("Authlib", ["Authlib", "joserfc"]),
    "test_pyjwt": ("PyJWT", ["PyJWT", "cryptography"]),
    "test_social_auth": ("social-auth-core (AppleIdAuth)", ["social-auth-core"]),
    "test_discovery": ("requests + PyJWT (protocol level)", ["requests", "PyJWT"]),
    "test_web_flow": ("requests + html.parser (browser-like)", ["requests"]),
    "test_native_credentials": ("PyJWT (native app backend)", ["PyJWT"]),
    "test_notifications": ("PyJWT (server-to-server notifications)", ["PyJWT"]),
    "test_scenarios": ("urllib3 / PyJWT under scenario faults", ["urllib3", "PyJWT"]),
    "test_fidelity": ("requests + PyJWT (Apple's captured answers)", ["requests", "PyJWT"]),
}

FLOWS = {
    "test_authlib_openid_code_flow": "discovery → code (form_post) → id_token validation",
    "test_authlib_wrong_nonce_is_rejected": "nonce checked",
    "test_authlib_refresh_and_revoke": "refresh and revoke",
    "test_authlib_sends_client_secret_post": "client_secret_post; bad secret → invalid_client",
    "test_code_flow_id_tokens_verify_with_pyjwt": "code (form_post) → id_token verified via PyJWKClient",
    "test_relay_user_gets_private_email": "private relay email user",
    "test_login_hint_accepts_email": "headless sign-in (login_hint)",
    "test_user_json_only_on_first_authorization": "`user` JSON on first authorization only",
    "test_refresh_revoke_then_refresh_fails": "refresh and revoke",
    "test_revoke_resets_consent": "refresh and revoke",
    "test_code_reuse_is_invalid_grant": "code reuse / redirect_uri / client mismatch → invalid_grant",
    "test_redirect_uri_mismatch_is_invalid_grant": "code reuse / redirect_uri / client mismatch → invalid_grant",
    "test_web_code_redeemed_by_native_client_is_invalid_grant":
        "code reuse / redirect_uri / client mismatch → invalid_grant",
    "test_state_round_trips_byte_for_byte": "state round trip (form_post, query)",
    "test_bad_client_secret_is_invalid_client": "malformed or wrong client secrets → invalid_client",
    "test_json_body_is_invalid_client": "token request formats (charset, JSON body, unknown grant)",
    "test_grant_is_checked_before_the_client": "grant before client: bogus code/token with a fake client",
    "test_real_code_with_bad_secret_is_invalid_client_and_stays_redeemable":
        "grant before client: bogus code/token with a fake client",
    "test_basic_only_credentials_are_invalid_client": "HTTP Basic only → invalid_client",
    "test_scope_without_form_post_has_apples_text": "authorization request errors (no redirect)",
    "test_id_token_claims_in_captured_order_and_refresh_without_auth_time":
        "captured claim order; refresh id_token without auth_time",
    "test_form_content_type_with_charset_is_accepted": "token request formats (charset, JSON body, unknown grant)",
    "test_unknown_grant_type": "token request formats (charset, JSON body, unknown grant)",
    "test_social_auth_first_sign_in_creates_user": "sign-in pipeline: new and returning user",
    "test_social_auth_second_sign_in_finds_same_user": "sign-in pipeline: new and returning user",
    "test_social_auth_relay_user": "private relay email user",
    "test_social_auth_rejects_forged_state": "forged state rejected",
    "test_discovery_document_matches_apple_with_mock_endpoints": "discovery document",
    "test_jwks_shape_and_keys_match_scenario_pems": "JWKS",
    "test_query_mode_redirect": "response modes query and fragment",
    "test_fragment_mode_redirect": "response modes query and fragment",
    "test_query_mode_with_id_token_is_rejected_without_redirect": "authorization request errors (no redirect)",
    "test_unregistered_redirect_uri_is_rejected_without_redirect": "authorization request errors (no redirect)",
    "test_picker_lists_users_and_continue_signs_in": "user picker: continue and cancel",
    "test_picker_cancel_delivers_user_cancelled_authorize_form_post": "user picker: continue and cancel",
    "test_picker_cancel_delivers_error_in_query_mode": "user picker: continue and cancel",
    "test_backend_verifies_identity_token_and_redeems_code": "identity token verified, native code redeemed",
    "test_native_code_with_redirect_uri_or_services_id_is_refused": "native code misuse refused",
    "test_second_authorization_has_no_name_email_or_real_user_status": "second authorization: no name, email, real_user_status",
    "test_credential_state_follows_revocation": "credential state follows revocation",
    "test_unknown_user_and_bad_fields_are_precise": "unknown user and bad fields: precise errors",
    "test_consent_revoked_verifies_with_pyjwt_and_events_is_a_string": "consent-revoked event verified",
    "test_email_disabled_carries_the_relay_address": "email-disabled event carries the relay address",
    "test_failing_receiver_is_retried_and_every_attempt_is_journaled": "failing receiver retried and journaled",
    "test_user_changes_notify_by_default": "user changes notify by default (event_time in ms, account-deleted)",
    "test_duplicate_delivery_sends_the_same_event_again": "duplicate delivery: same jti, same body",
    "test_urllib3_retries_through_503_and_429_with_retry_after": "retries through 503 / 429 with Retry-After",
    "test_pyjwt_sees_the_private_relay_address": "private relay address from a scenario",
    "test_pyjwkclient_refetches_after_the_timeline_rotates_keys": "PyJWKClient refetches after a key rotation",
    "test_pyjwkclient_follows_a_rotation_right_after_start":
        "key rotation right after start (200, no retry); PyJWKClient refetches",
}

CONFORMANCE_PATH = Path(__file__).resolve().parent / "CONFORMANCE.md"
README_PATH = REPO_ROOT / "docs" / "conformance.md"  # the table users read (was README.md)
README_BEGIN = "<!-- conformance:begin (generated by Tests/Interop/conftest.py) -->"
README_END = "<!-- conformance:end -->"


def _row_of(item: pytest.Item) -> tuple[str, str]:
    module = item.module.__name__.rpartition(".")[2] if item.module else ""
    library = LIBRARIES.get(module, (module, []))[0]
    return library, FLOWS.get(item.originalname, item.originalname)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    config._conformance_rows = {item.nodeid: _row_of(item) for item in items}  # type: ignore[attr-defined]
    config._conformance_outcomes = {}  # type: ignore[attr-defined]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    outcomes = getattr(_CONFIG[0], "_conformance_outcomes", None) if _CONFIG else None
    if outcomes is None:
        return
    previous = outcomes.get(report.nodeid, "passed")
    if report.failed:
        outcomes[report.nodeid] = "failed"
    elif report.skipped and previous != "failed":
        outcomes[report.nodeid] = "skipped"
    else:
        outcomes.setdefault(report.nodeid, "passed")


_CONFIG: list[pytest.Config] = []


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG.append(config)


def _versions(distributions: list[str]) -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = []
    for name in distributions:
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            parts.append(f"{name} (not installed)")
    return ", ".join(parts)


def _conformance_table(config: pytest.Config) -> tuple[str, int, int]:
    rows: dict[tuple[str, str], list[str]] = {}
    for nodeid, key in config._conformance_rows.items():  # type: ignore[attr-defined]
        rows.setdefault(key, []).append(config._conformance_outcomes.get(nodeid, "not run"))  # type: ignore[attr-defined]
    versions = {name: _versions(dists) for name, dists in LIBRARIES.values()}
    lines = ["| client library | versions | flow | result | tests |", "|---|---|---|---|---|"]
    passed_rows = 0
    for (library, flow), outcomes in rows.items():
        passed = outcomes.count("passed")
        ok = passed == len(outcomes)
        passed_rows += ok
        result = "pass" if ok else f"**FAIL** ({len(outcomes) - passed} of {len(outcomes)})"
        lines.append(f"| {library} | {versions.get(library, '')} | {flow} | {result} | {passed}/{len(outcomes)} |")
    return "\n".join(lines) + "\n", passed_rows, len(rows)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    rows = getattr(config, "_conformance_rows", None)
    # Only a full run (no -k/-m, every module collected) may rewrite the committed report.
    if not rows or config.option.keyword or config.option.markexpr:
        return
    modules = {nodeid.split("::")[0].rpartition("/")[2].removesuffix(".py") for nodeid in rows}
    if not set(LIBRARIES) <= modules:
        return
    table, passed_rows, total_rows = _conformance_table(config)
    summary = f"{passed_rows} of {total_rows} library × flow rows pass ({len(rows)} tests)."
    CONFORMANCE_PATH.write_text(
        "# Conformance: client libraries × flows\n\n"
        "Generated by the interop suite (`Tests/Interop/run.sh`, every full run) against the built-in\n"
        "scenario; each row is one flow as that library drives it, passing only if all its tests pass.\n"
        "Pinned versions are in `requirements.txt`.\n\n" + table + "\n" + summary + "\n")
    if README_PATH.exists():
        readme = README_PATH.read_text()
        begin, end = readme.find(README_BEGIN), readme.find(README_END)
        if 0 <= begin < end:
            block = f"{README_BEGIN}\n{table}\n{summary}\n"
            README_PATH.write_text(readme[:begin] + block + readme[end:])
