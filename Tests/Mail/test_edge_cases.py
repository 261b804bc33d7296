"""The relay's answers match what it does, seen from real clients: a message one team would refuse is
refused whole (never "queued" and then half dropped), a second From is checked, an accented sender
name keeps its encoded word, refusals count toward the error limit, a repeated recipient gets one
copy, reply lines fit 512 octets, HELP offers STARTTLS only when it is offered, and half-sent
messages share one memory bound (docs/relay-mail.md, docs/limits.md)."""

from __future__ import annotations

import hashlib
import smtplib
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest
from siwatest.process import MockProcess

from conftest import BOB_RELAY, Relay
from test_other_mailers import django_send, swaks
from test_smtplib import message, read_replies

TEAM_TWO = "FGHIJ67890"
USERS = 100


def relay_address(local: str) -> str:
    return f"{local}@privaterelay.appleid.com"


def team_two_address(primary: str) -> str:
    """Scenario.relayEmail(of:inTeam:): SHA-256 of `relay:TEAM|address`, 10 characters of a-z0-9."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    digest = hashlib.sha256(f"relay:{TEAM_TWO}|{primary}".encode()).digest()
    return relay_address("".join(alphabet[byte % 36] for byte in digest[:10]))


def user_address(index: int) -> str:
    return relay_address(f"u{index:07d}ab")


SCENARIO = f"""seed: 15
clock:
  start: 2026-01-01T09:00:00Z
  frozen: true
teams:
  - id: ABCDE12345
    email_sources:
      - domain: shop.example
  - id: {TEAM_TWO}
    email_sources:
      - domain: other.example
clients:
  - id: com.example.app
    team: ABCDE12345
  - id: com.other.app
    team: {TEAM_TWO}
users:
  - id: bob
    email: bob@example.com
    private_email: true
    relay_email: {BOB_RELAY}
""" + "".join(f"""  - id: u{index}
    email: u{index}@example.com
    private_email: true
    relay_email: {user_address(index)}
""" for index in range(USERS))


@pytest.fixture
def teams(binary: Path, tmp_path: Path):
    """Two teams (only the first registered shop.example) and 100 more users; small message limits so
    the memory bound is reached with little traffic."""
    scenario = tmp_path / "two-teams.yaml"
    scenario.write_text(SCENARIO)
    log_path = tmp_path / "siwa-mock.stderr"
    process = MockProcess(binary, ["--scenario", str(scenario), "--smtp-port", "0", "--smtp-max-message-bytes",
                                   str(2 * 1024 * 1024), "--smtp-max-pending-bytes", str(4 * 1024 * 1024)], log_path)
    yield Relay(process, tmp_path)
    assert process.stop() == 0, log_path.read_text()[-2000:]


def test_a_message_one_team_would_refuse_is_refused_whole(teams) -> None:
    with smtplib.SMTP(teams.host, teams.smtp_port, timeout=10) as client:
        with pytest.raises(smtplib.SMTPDataError) as failure:
            client.sendmail("hello@shop.example", [BOB_RELAY, team_two_address(BOB_RELAY)],
                            message("hello@shop.example").as_bytes())
    assert failure.value.smtp_code == 550
    assert failure.value.smtp_error == b"5.1.1 <hello@shop.example>: unauthorized sender"
    records = teams.messages()
    assert [record["status"] for record in records] == ["rejected", "rejected"]
    assert {record["smtp_reply"] for record in records} == {"550 5.1.1 <hello@shop.example>: unauthorized sender"}


def test_a_hundred_copies_are_named_in_one_reply_line_within_512_octets(teams) -> None:
    texts = []
    with smtplib.SMTP(teams.host, teams.smtp_port, timeout=10) as client:
        client.ehlo()
        for _ in range(2):
            assert client.mail("hello@shop.example")[0] == 250
            for index in range(USERS):
                assert client.rcpt(user_address(index))[0] == 250
            code, text = client.data(message("hello@shop.example").as_bytes())
            assert code == 250 and len(b"250 " + text) + 2 <= 512
            texts.append(text)
    assert texts[0] == b"2.0.0 Ok: queued as " + ",".join(f"m{n}" for n in range(1, 101)).encode()
    # m101,...,m200 would make a 525-octet line: the range is named instead.
    assert texts[1] == b"2.0.0 Ok: queued as m101..m200 (100 messages)"
    assert len(teams.messages(status="delivered")) == 2 * USERS


def open_data(teams) -> tuple[socket.socket, str]:
    """A connection that has said DATA for bob; its reply to DATA (354, or 452 with no room)."""
    sock = socket.create_connection((teams.host, teams.smtp_port), timeout=10)
    read_replies(sock, 1)
    sock.sendall(b"EHLO bound.example\r\nMAIL FROM:<hello@shop.example>\r\nRCPT TO:<" + BOB_RELAY.encode()
                 + b">\r\nDATA\r\n")
    return sock, read_replies(sock, 4)[-1]


def test_half_sent_messages_share_one_memory_bound(teams) -> None:
    # Two messages of 1.5 MB without their final dot: each holds a 2 MiB reservation, which fills
    # the 4 MiB bound. sendall returns before the relay has read the bytes, so a fresh connection's
    # DATA (answered at once: 452 when less than 64 KiB is left) says when both are held.
    held = []
    try:
        for _ in range(2):
            sock, reply = open_data(teams)
            held.append(sock)
            assert reply.startswith("354"), reply
            sock.sendall(b"From: hello@shop.example\r\n\r\n" + (b"x" * 998 + b"\r\n") * 1500)
        deadline = time.monotonic() + 30
        while True:
            probe, reply = open_data(teams)
            probe.close()
            if reply.startswith("452"):
                break
            assert reply.startswith("354"), reply
            assert time.monotonic() < deadline, "the two half-sent messages never filled the 4 MiB bound"
            time.sleep(0.05)
        # While they are held, every other message is refused at DATA, whichever connection says it.
        for _ in range(4):
            sock, reply = open_data(teams)
            sock.close()
            assert reply == "452 4.3.1 Error: insufficient system storage, try again later", reply
        finals = []
        for sock in held:
            sock.sendall(b".\r\n")
            finals.append(read_replies(sock, 1)[-1])
    finally:
        for sock in held:
            sock.close()
    assert all(reply.startswith("250 ") for reply in finals), finals
    assert len(teams.messages(status="delivered")) == 2
    # The reservations were given back: a new message has room again.
    sock, reply = open_data(teams)
    sock.close()
    assert reply.startswith("354"), reply


def test_swaks_second_from_header_is_refused(relay) -> None:
    refused = swaks(relay, "--from", "hello@shop.example", "--add-header", "From: Evil <ceo@evil.example>")
    assert refused.returncode != 0
    assert "<** 550 5.1.1 <hello@shop.example>: unauthorized sender" in refused.stdout
    assert relay.messages(status="delivered") == []


def test_django_accented_sender_name_keeps_its_encoded_word(relay) -> None:
    from django.core.mail import get_connection, send_mail

    django_send(relay, "hello@shop.example")  # configures Django's settings once
    connection = get_connection(host=relay.host, port=relay.smtp_port, use_tls=False, timeout=10)
    assert send_mail("Café order", "Ready.", "Café <hello@shop.example>", [BOB_RELAY], connection=connection) == 1
    record = relay.messages(status="delivered")[-1]
    assert record["subject"] == "Café order"
    raw = relay.api("GET", f"/mock/mail/{record['id']}.eml")[1].decode()
    assert "\r\nFrom: =?utf-8?b?Q2Fmw6k=?= <hello_at_shop_example_" in raw  # Django's encoded word, intact
    assert '"=?' not in raw


def test_refused_recipients_count_toward_the_error_limit(relay) -> None:
    replies = []
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.ehlo()
        client.mail("hello@shop.example")
        try:
            for index in range(40):
                replies.append(client.rcpt(f"r{index}@elsewhere.example")[0])
        except smtplib.SMTPServerDisconnected:
            pass
    assert replies[:21] == [550] * 20 + [421]
    assert len(relay.messages()) == 20


def test_a_repeated_recipient_gets_one_copy(relay) -> None:
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.sendmail("hello@shop.example", [BOB_RELAY, BOB_RELAY, BOB_RELAY.upper()],
                               message("hello@shop.example").as_bytes()) == {}
    assert len(relay.messages()) == 1


def test_help_names_starttls_only_while_it_is_offered(relay) -> None:
    context = ssl.create_default_context(cadata=relay.ca_pem())
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.ehlo()
        assert b"STARTTLS" in client.help()
        client.starttls(context=context)
        client.ehlo()
        assert b"STARTTLS" not in client.help()
