"""`SiwaMock`: one running siwa-mock — started from the binary, or a running one by URL — and its verbs."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
from http.client import HTTPConnection, HTTPException, HTTPSConnection
from typing import Any, Iterable, Optional

READY_PREFIX = "siwa-mock listening on "
SMTP_READY_PREFIX = "siwa-mock smtp listening on "
MAX_ANSWER_BYTES = 16 << 20  # a control answer larger than this is refused (docs/test-helpers.md)
RUN_TIMEOUT = 60  # seconds for one run of the binary (sign_in, client_secret, verify)
HINT = ("install it with `pip install siwa-mock` (x86_64 Linux), or build it with `swift build -c release --product siwa-mock` "
        "and set SIWA_MOCK_BINARY=.build/release/siwa-mock, put siwa-mock on PATH, or set SIWA_MOCK_URL to a running mock")


class SiwaMockError(RuntimeError):
    """The mock did not start, a control call was refused, or a sign-in did not verify (the message says which)."""


def find_binary(binary: Optional[str] = None) -> str:
    """The explicit path, else $SIWA_MOCK_BINARY, else the `siwa-mock` wheel's binary, else `siwa-mock` on PATH.

    A clear error with the hint when none is found. The wheel's binary is checked (there, executable, the
    SHA-256 the wheel recorded) and a broken one fails rather than falling through to PATH.
    """
    if not binary and not os.environ.get("SIWA_MOCK_BINARY"):
        packaged = _packaged_binary()
        if packaged:
            return packaged
    candidate = binary or os.environ.get("SIWA_MOCK_BINARY") or "siwa-mock"
    where = "given" if binary else ("from SIWA_MOCK_BINARY" if os.environ.get("SIWA_MOCK_BINARY") else "on PATH")
    found = shutil.which(candidate)
    if found is None:
        raise SiwaMockError(f"siwa-mock binary not found: '{candidate}' ({where}) is not an executable file; {HINT}")
    return found


def _packaged_binary() -> Optional[str]:
    """The binary of the `siwa-mock` wheel (pip install siwa-mock; scripts/package-python.sh) when installed."""
    try:
        import siwa_mock
    except ImportError:
        return None
    try:
        return siwa_mock.find_binary()
    except siwa_mock.BinaryError as error:
        raise SiwaMockError(str(error)) from None


class SiwaMock:
    """A running mock: `url`, `sign_in`, `client_secret`, and the control API's clock, fault, user and journal verbs."""

    def __init__(self, url: str, binary: Optional[str] = None, process: Optional[subprocess.Popen] = None,
                 log_path: Optional[str] = None, admin_token: Optional[str] = None) -> None:
        self.url = url.rstrip("/")
        self._binary = binary
        self.process = process
        self.log_path = log_path  # the mock's stderr (request logs) when this object started it; stop() deletes it
        self.admin_token = admin_token if admin_token is not None else os.environ.get("SIWA_MOCK_ADMIN_TOKEN")
        self.smtp_host: Optional[str] = None  # the relay's SMTP listener (start(smtp=True), or $SIWA_MOCK_SMTP)
        self.smtp_port: Optional[int] = None

    # -- starting and stopping --------------------------------------------------------------------------

    @classmethod
    def start(cls, binary: Optional[str] = None, scenario: Optional[str] = None, args: Iterable[str] = (),
              timeout: float = 30.0, smtp: bool = False) -> "SiwaMock":
        """Starts `siwa-mock serve --port 0` and returns once its ready line names the port it chose.

        `smtp=True` adds the private email relay's SMTP listener (`--smtp-port 0`, docs/relay-mail.md) and
        also waits for its ready line, `siwa-mock smtp listening on HOST:PORT`: `smtp_host`, `smtp_port`.
        """
        path = find_binary(binary)
        command = [path, "serve", "--host", "127.0.0.1", "--port", "0"]
        if scenario:
            command += ["--scenario", str(scenario)]
        if smtp:
            command += ["--smtp-port", "0"]
        command += list(args)
        log = tempfile.NamedTemporaryFile(prefix="siwa-mock-", suffix=".log", delete=False)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + timeout
        buffer = b""

        def ready() -> bool:  # the HTTP line first; the SMTP line comes after the HTTP one(s)
            lines = buffer.decode(errors="replace").split("\n")[:-1]
            return bool(lines) and (not smtp or any(line.startswith(SMTP_READY_PREFIX) for line in lines))

        while not ready():
            remaining = deadline - time.monotonic()
            readable = select.select([process.stdout], [], [], max(remaining, 0))[0] if remaining > 0 else []
            chunk = os.read(process.stdout.fileno(), 4096) if readable else b""
            if not chunk:  # exited (EOF) or timed out
                reason = "exited with status %s" % process.poll() if readable else f"printed no ready line in {timeout:g}s"
                cls._kill(process)
                with open(log.name, errors="replace") as stderr:
                    output = stderr.read().strip()
                os.unlink(log.name)
                raise SiwaMockError(f"siwa-mock did not start ({' '.join(command)}): {reason}; its stderr:\n{output}")
            buffer += chunk
        lines = [line.strip() for line in buffer.decode(errors="replace").split("\n")]
        if not lines[0].startswith(READY_PREFIX):
            cls._kill(process)
            with open(log.name, errors="replace") as stderr:
                output = stderr.read().strip()
            os.unlink(log.name)
            raise SiwaMockError(f"siwa-mock printed {lines[0]!r} instead of its ready line; its stderr:\n{output}")
        mock = cls(lines[0][len(READY_PREFIX):], binary=path, process=process, log_path=log.name)
        if smtp:
            address = next(line for line in lines if line.startswith(SMTP_READY_PREFIX))[len(SMTP_READY_PREFIX):]
            mock.smtp_host, port = address.rsplit(":", 1)
            mock.smtp_port = int(port)
        return mock

    @classmethod
    def connect(cls, url: str, binary: Optional[str] = None, smtp: bool = False) -> "SiwaMock":
        """A mock someone else runs (e.g. SIWA_MOCK_URL from docker compose); `stop()` leaves it running.

        Its SMTP listener cannot be learned from its URL: `smtp_host`/`smtp_port` come from
        `$SIWA_MOCK_SMTP` (`HOST:PORT`, what its `siwa-mock smtp listening on` line printed); `smtp=True`
        without it is an error rather than a guess.
        """
        mock = cls(url, binary=binary)
        address = os.environ.get("SIWA_MOCK_SMTP", "")
        if address:
            host, _, port = address.rpartition(":")
            if not host or not port.isdigit():
                raise SiwaMockError(f"SIWA_MOCK_SMTP={address!r} is not HOST:PORT")
            mock.smtp_host, mock.smtp_port = host, int(port)
        elif smtp:
            raise SiwaMockError(f"the SMTP listener of the mock at {url} (SIWA_MOCK_URL) is unknown: set SIWA_MOCK_SMTP to "
                                "the HOST:PORT its `siwa-mock smtp listening on` line printed (serve --smtp-port)")
        mock.health()
        return mock

    def stop(self) -> None:
        """SIGTERM to the mock this object started (in-flight requests finish), SIGKILL after 10 s; then
        its stderr log is deleted, so a run leaves no files behind."""
        if self.process is not None:
            self._kill(self.process)
            self.process = None
        if self.log_path is not None:
            try:
                os.unlink(self.log_path)
            except FileNotFoundError:
                pass
            self.log_path = None

    @staticmethod
    def _kill(process: subprocess.Popen) -> None:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout:
            process.stdout.close()

    def __enter__(self) -> "SiwaMock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the binary's own verbs ---------------------------------------------------------------------------

    def _run(self, *args: str) -> str:
        binary = self._binary = self._binary or find_binary()
        env = dict(os.environ)
        if self.admin_token:
            env["SIWA_MOCK_ADMIN_TOKEN"] = self.admin_token
        try:
            result = subprocess.run([binary, *args], capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env,
                                    stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as expired:
            stderr = expired.stderr.decode(errors="replace") if isinstance(expired.stderr, bytes) else expired.stderr or ""
            raise SiwaMockError(f"siwa-mock {args[0]} did not finish within {RUN_TIMEOUT:g}s: {stderr.strip()}") from None
        if result.returncode != 0:
            raise SiwaMockError(f"siwa-mock {args[0]} failed (exit {result.returncode}): {result.stderr.strip()}")
        return result.stdout

    def sign_in(self, user: str = "alice", client: str = "com.example.web", scopes: Iterable[str] = (),
                nonce: Optional[str] = None, team_id: Optional[str] = None, key_id: Optional[str] = None,
                key: Optional[str] = None) -> dict:
        """The web flow via `siwa-mock signin`: {"token_response", "claims" (verified), "user" (first sign-in)}.

        `team_id`, `key_id` and `key` (a .p8 file) sign the client secret with your team's own key, for a
        scenario with its own `teams:`; without them, the built-in scenario's published test key.
        """
        args = ["signin", "--url", self.url, "--user", user, "--client", client]
        scopes = [scopes] if isinstance(scopes, str) else list(scopes)
        if scopes:
            args += ["--scope", " ".join(scopes)]
        if nonce is not None:
            args += ["--nonce", nonce]
        return json.loads(self._run(*args, *_key_flags(team_id, key_id, key)))

    def client_secret(self, client: str = "com.example.web", team_id: Optional[str] = None,
                      key_id: Optional[str] = None, key: Optional[str] = None) -> str:
        """An ES256 client secret from `siwa-mock client-secret` (default: the built-in scenario's test key)."""
        return self._run("client-secret", "--client-id", client, *_key_flags(team_id, key_id, key)).strip()

    def verify(self, id_token: str, audience: Optional[str] = None, nonce: Optional[str] = None) -> dict:
        """Claims of an id_token that `siwa-mock verify` accepts (signature, iss, aud, exp, iat, nonce)."""
        args = ["verify", "--url", self.url, id_token]
        if audience is not None:
            args[1:1] = ["--audience", audience]
        if nonce is not None:
            args[1:1] = ["--nonce", nonce]
        for line in self._run(*args).splitlines():  # header: …, claims: {…}, clock: …, valid: …
            if line.startswith("claims: "):
                return json.loads(line[len("claims: "):])
        raise SiwaMockError("siwa-mock verify printed no claims line")

    # -- the control API (docs/control-api.md) ----------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None, timeout: float = 15) -> Any:
        """A control call; the decoded JSON answer. `timeout` bounds the whole call (connect, headers and
        body), not each read; an answer over 16 MiB is refused, and a redirect is never followed (it would
        carry the admin token to wherever it points): each is a `SiwaMockError` saying so."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if self.admin_token:
            headers["Authorization"] = f"Bearer {self.admin_token}"
        status, text, location = _call(self.url, method, path, data, headers, timeout)
        if 300 <= status < 400:
            raise SiwaMockError(f"{method} {path} answered {status} (a redirect to {location or 'nowhere'}): "
                                "not followed, so the admin token stays with the mock")
        if status // 100 != 2:
            raise SiwaMockError(f"{method} {path} answered {status}: {text}")
        return json.loads(text) if text else None

    def health(self) -> dict:
        return self.request("GET", "/mock/health")

    def reset(self) -> dict:
        return self.request("POST", "/mock/reset")

    def clock(self) -> dict:
        return self.request("GET", "/mock/clock")

    def advance_clock(self, by: "str | int") -> dict:
        return self.request("POST", "/mock/clock", {"advance": by})

    def set_clock(self, to: str) -> dict:
        return self.request("POST", "/mock/clock", {"set": to})

    def freeze_clock(self, frozen: bool = True) -> dict:
        return self.request("POST", "/mock/clock", {"freeze": frozen})

    def add_fault(self, rule: dict) -> dict:
        return self.request("POST", "/mock/faults", rule)

    def remove_fault(self, fault_id: str) -> Any:
        return self.request("DELETE", f"/mock/faults/{urllib.parse.quote(fault_id, safe='')}")

    def faults(self) -> list:
        return self.request("GET", "/mock/faults")["faults"]

    def users(self) -> list:
        return self.request("GET", "/mock/users")["users"]

    def user(self, user: str) -> dict:
        return self.request("GET", f"/mock/users/{urllib.parse.quote(user, safe='')}")

    def add_user(self, user: dict) -> dict:
        return self.request("POST", "/mock/users", user)

    def update_user(self, user: str, changes: dict) -> dict:
        return self.request("PATCH", f"/mock/users/{urllib.parse.quote(user, safe='')}", changes)

    def revoke_user(self, user: str) -> dict:
        return self.update_user(user, {"credential_state": "revoked"})

    def delete_user(self, user: str) -> Any:
        return self.request("DELETE", f"/mock/users/{urllib.parse.quote(user, safe='')}")

    def requests(self, **filters: str) -> list:
        """The journal of what your backend sent (filters: path, client_id, user)."""
        query = urllib.parse.urlencode(filters)
        answer = self.request("GET", "/mock/requests" + (f"?{query}" if query else ""))
        return answer["requests"] if isinstance(answer, dict) and "requests" in answer else answer

    def clear_requests(self) -> Any:
        return self.request("DELETE", "/mock/requests")

    # -- the relay's mailbox (docs/relay-mail.md#the-mailbox-mockmail) --------------------------------

    def mail(self, **filters: str) -> list:
        """The stored records, oldest first (filters: relay_address, real_address, team, sender, status, since)."""
        query = urllib.parse.urlencode(filters)
        return self.request("GET", "/mock/mail" + (f"?{query}" if query else ""))["messages"]

    def wait_for_mail(self, timeout: "str | float" = "5s", **filters: str) -> list:
        """The records matching `filters` (as `mail`) as soon as one is stored: one long poll,
        `GET /mock/mail?…&wait=`, which answers at once when one already is. `timeout` is a duration
        (`"500ms"`, `"5s"`, `"1m"`; at most `"1h"`) or seconds. When nothing matching came, raises
        `SiwaMockError` with the mock's own `no_mail` text: the filters, the time waited and what the
        mailbox holds (docs/relay-mail.md).
        """
        wait = timeout if isinstance(timeout, str) else f"{round(timeout * 1000)}ms"  # the mock reads it
        query = urllib.parse.urlencode({**filters, "wait": wait})
        answer = self.request("GET", f"/mock/mail?{query}", timeout=_milliseconds(wait) / 1000 + 15)
        if answer["messages"]:
            return answer["messages"]
        raise SiwaMockError(answer.get("no_mail") or f"GET /mock/mail?{query}: no mail (this mock does not say why: "
                            "older than the helper?)")

    def clear_mail(self) -> Any:
        """Empties the mailbox and the relay's daily counts (`DELETE /mock/mail`)."""
        return self.request("DELETE", "/mock/mail")


def _key_flags(team_id: Optional[str], key_id: Optional[str], key: Optional[str]) -> list:
    """`--team-id`, `--key-id`, `--key` for those given (`signin` and `client-secret` take the same three)."""
    flags = []
    for flag, value in (("--team-id", team_id), ("--key-id", key_id), ("--key", key)):
        if value is not None:
            flags += [flag, str(value)]
    return flags


def _call(base: str, method: str, path: str, data: Optional[bytes], headers: dict, timeout: float) -> tuple:
    """(status, body text, Location) of one HTTP exchange, bounded in total time and size.

    http.client follows no redirect; the deadline closes the socket from a timer, which ends any read
    in progress (a server dripping a byte per read never resets a per-read timeout that way).
    """
    url = urllib.parse.urlsplit(base)
    connection_type = HTTPSConnection if url.scheme == "https" else HTTPConnection
    connection = connection_type(url.hostname, url.port, timeout=timeout)
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        if connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    try:
        connection.request(method, url.path.rstrip("/") + path, body=data, headers=headers)
        response = connection.getresponse()
        chunks, size = [], 0
        while True:
            chunk = response.read1(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise SiwaMockError(f"{method} {path}: the answer is larger than {MAX_ANSWER_BYTES >> 20} MiB; refused")
            chunks.append(chunk)
        if expired.is_set():
            raise OSError("deadline")
        return response.status, b"".join(chunks).decode(errors="replace"), response.getheader("Location")
    except (OSError, HTTPException) as error:
        if expired.is_set():
            raise SiwaMockError(f"{method} {base}{path}: no complete answer within {timeout:g}s") from None
        raise SiwaMockError(f"{method} {base}{path}: {error}; is the mock running? {HINT}") from None
    finally:
        timer.cancel()
        connection.close()


def _milliseconds(duration: str) -> int:
    """How long a `wait=` in the mock's duration grammar (`1m30s`, `500ms`; docs/scenarios.md) lasts, to bound
    the call; 0 for text the mock will refuse at once with its own reason."""
    match = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?", duration)
    if not duration or match is None:
        return 0
    return sum(int(part or 0) * unit for part, unit in zip(match.groups(), (86_400_000, 3_600_000, 60_000, 1000, 1)))
