"""Slow and stalled SMTP clients against the relay's listener (`serve --smtp-port`, docs/relay-mail.md):
each gets `421 4.4.2 … timeout exceeded` and is closed at --smtp-timeout, while a well-behaved mailer
finishes a transaction on the same event loops within the good client's bound."""

from __future__ import annotations

import smtplib
import socket
import time

from outcome import Outcome

STALLED = 200
BOB_RELAY = "k7x2m9q4ab@privaterelay.appleid.com"


def good_transaction(host: str, port: int) -> float:
    """A complete transaction with smtplib (the built-in scenario registers no source, so the
    relay's answer is the bounce); returns how long it took."""
    started = time.monotonic()
    with smtplib.SMTP(host, port, timeout=5) as client:
        try:
            client.sendmail("hello@shop.example", [BOB_RELAY], b"From: hello@shop.example\r\nSubject: x\r\n\r\nhi\r\n")
        except smtplib.SMTPDataError as error:
            assert error.smtp_code == 550, error
    return time.monotonic() - started


def stalled_and_slow(host: str, port: int, timeout_ms: int, good_bound: float, read_until_close) -> Outcome:
    """`read_until_close(sock, limit) -> (bytes, closed, seconds)` is run.py's."""
    outcome = Outcome("SMTP: 200 silent clients and one dribbling DATA",
                      f"each gets 421 4.4.2 and is closed by {timeout_ms / 1000 + 1.5:.1f} s; a mailer is answered in < {good_bound} s")
    silent = [socket.create_connection((host, port), timeout=5) for _ in range(STALLED)]
    dribbler = socket.create_connection((host, port), timeout=5)
    dribbler.sendall(f"EHLO slow\r\nMAIL FROM:<a@b.example>\r\nRCPT TO:<{BOB_RELAY}>\r\nDATA\r\n".encode())
    started = time.monotonic()
    worst_good = 0.0
    sent = 0
    while time.monotonic() - started < timeout_ms / 1000 - 0.5:
        worst_good = max(worst_good, good_transaction(host, port))
        try:
            dribbler.sendall(b"x")
            sent += 1
        except OSError:
            break
        time.sleep(0.1)
    closed_by = timeout_ms / 1000 + 1.5
    words, dribbler_closed, _ = read_until_close(dribbler, closed_by)
    results = [read_until_close(sock, closed_by) for sock in silent[:5]]
    elapsed = time.monotonic() - started
    for sock in silent + [dribbler]:
        sock.close()
    timed_out = (all(b"421 4.4.2 " in data and closed for data, closed, _ in results)
                 and b"421 4.4.2 " in words and dribbler_closed)
    outcome.observed = (f"dribbler sent {sent} bytes then got {words.splitlines()[-1:]!r}; silent clients "
                        f"{'all' if timed_out else 'not all'} got 421 within {elapsed:.1f} s; worst mailer {worst_good:.2f} s")
    outcome.ok = timed_out and elapsed < closed_by + 1 and worst_good < good_bound
    return outcome
