"""Python's smtplib against the relay's SMTP listener: plain and STARTTLS (the mock's CA), Apple's
relay rules (registered source, unauthorized sender, forwarding off, 100 a day), pipelining, large
messages, and the mailbox views of what was delivered."""

from __future__ import annotations

import base64
import json
import smtplib
import socket
import ssl
from email.message import EmailMessage

import pytest

from conftest import BOB_RELAY, DANA_RELAY


def message(sender: str, to: str = BOB_RELAY, subject: str = "Welcome", body: str = "Hello Bob",
            extra: dict[str, str] | None = None) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = f"Shop <{sender}>"
    mail["To"] = to
    mail["Subject"] = subject
    for name, value in (extra or {}).items():
        mail[name] = value
    mail.set_content(body)
    return mail


def test_registered_domain_is_delivered_with_from_rewritten_through_the_relay(relay) -> None:
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.ehlo()[0] == 250
        assert client.has_extn("pipelining") and client.has_extn("8bitmime") and client.has_extn("starttls")
        refused = client.send_message(message("hello@shop.example"))
    assert refused == {}
    [record] = relay.messages(status="delivered")
    assert record["delivered_to"] == "bob@example.com" and record["user"] == "bob"
    assert record["smtp_reply"].startswith("250 2.0.0 Ok: queued as ")
    assert record["rewritten_from"].startswith("hello_at_shop_example_")
    assert record["rewritten_from"].endswith("@privaterelay.appleid.com")
    status, detail = relay.api("GET", f"/mock/mail/{record['id']}")
    assert status == 200
    headers = {field["name"].lower(): field["value"] for field in detail["headers"]}
    assert headers["from"] == f"\"Shop\" <{record['rewritten_from']}>"
    assert headers["received"].startswith("from ") and "for <bob@example.com>" in headers["received"]
    assert headers["to"] == BOB_RELAY
    assert detail["text"].strip() == "Hello Bob"
    status, raw = relay.api("GET", f"/mock/mail/{record['id']}.eml")
    assert status == 200 and b"hello@shop.example" not in raw.split(b"\r\n\r\n")[0].split(b"Subject")[0]
    # Filters.
    assert relay.messages(real_address="bob@example.com") == [record]
    assert relay.messages(relay_address=BOB_RELAY, team="ABCDE12345", sender="hello@shop.example") == [record]
    assert relay.messages(since="2030-01-01T00:00:00Z") == []


def test_starttls_with_the_mocks_ca(relay) -> None:
    context = ssl.create_default_context(cadata=relay.ca_pem())
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.starttls(context=context)
        client.ehlo()
        assert not client.has_extn("starttls"), "STARTTLS is not offered again inside TLS"
        client.send_message(message("hello@shop.example"))
    [record] = relay.messages()
    status, detail = relay.api("GET", f"/mock/mail/{record['id']}")
    received = next(field["value"] for field in detail["headers"] if field["name"] == "Received")
    assert " with ESMTPS " in received


def test_unregistered_sender_is_rejected_with_apples_bounce_text(relay) -> None:
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        with pytest.raises(smtplib.SMTPDataError) as failure:
            client.send_message(message("spam@evil.example"))
    assert failure.value.smtp_code == 550
    assert failure.value.smtp_error == b"5.1.1 <spam@evil.example>: unauthorized sender"
    [record] = relay.messages(status="rejected")
    assert "not a registered email source" in record["reason"]
    status, journal = relay.api("GET", "/mock/requests?path=DATA")
    assert [entry["outcome"] for entry in journal["requests"]] == ["rejected"]


def test_dkim_alone_passes_for_a_registered_address_sent_with_a_providers_return_path(relay) -> None:
    signed = message("news@letters.example", extra={"DKIM-Signature": "v=1; a=rsa-sha256; d=letters.example; s=k1; b=x"})
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.send_message(signed, from_addr="bounces+123@esp.example") == {}
        with pytest.raises(smtplib.SMTPDataError):
            client.send_message(message("news@letters.example"), from_addr="bounces+124@esp.example")
    delivered, rejected = relay.messages(status="delivered"), relay.messages(status="rejected")
    assert "DKIM pass" in delivered[0]["reason"]
    assert rejected[0]["smtp_reply"] == "550 5.1.1 <bounces+124@esp.example>: unauthorized sender"


def test_forwarding_off_rejects_and_the_app_got_email_disabled(relay, receiver) -> None:
    assert relay.api("PATCH", "/mock/app-groups/com.example.app", {"notification_url": receiver.url})[0] == 200
    # bob signed in to the app (that is how it learned his relay address), then turns forwarding off.
    assert relay.api("POST", "/mock/credentials", {"client_id": "com.example.app", "user": "bob"})[0] in (200, 201)
    assert relay.api("PATCH", "/mock/users/bob", {"email_forwarding": False})[0] == 200
    [body] = receiver.wait_for(1)
    payload = json.loads(body)["payload"].split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    events = claims["events"] if isinstance(claims["events"], dict) else json.loads(claims["events"])
    assert events["type"] == "email-disabled" and events["email"] == BOB_RELAY
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as failure:
            client.send_message(message("hello@shop.example"))
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.send_message(message("hello@shop.example", to=DANA_RELAY), to_addrs=[DANA_RELAY])
    assert failure.value.recipients[BOB_RELAY] == (550, f"5.1.1 <{BOB_RELAY}>: user not found".encode())
    reasons = [record["reason"] for record in relay.messages(status="rejected")]
    assert reasons == ["user 'bob' turned off email forwarding for this address",
                       "user 'dana' turned off email forwarding for this address"]


def test_the_101st_message_of_the_day_is_deferred_until_the_next_day(relay) -> None:
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=30) as client:
        for index in range(100):
            assert client.send_message(message("hello@shop.example", subject=f"#{index}")) == {}
        with pytest.raises(smtplib.SMTPRecipientsRefused) as failure:
            client.send_message(message("hello@shop.example", subject="#100"))
        code, text = failure.value.recipients[BOB_RELAY]
        assert code == 450 and text.startswith(b"4.2.1 ")
        # A user's reply counts toward the same limit.
        first = relay.messages(status="delivered")[0]["id"]
        assert relay.api("POST", f"/mock/mail/{first}/reply", {"text": "thanks"})[0] == 409
        assert relay.api("POST", "/mock/clock", {"advance": "1d"})[0] == 200
        assert client.send_message(message("hello@shop.example", subject="next day")) == {}
    assert len(relay.messages(status="delivered")) == 101
    assert len(relay.messages(status="deferred")) == 1


def test_a_simulated_reply_goes_to_the_developers_own_address(relay) -> None:
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.send_message(message("hello@shop.example", extra={"Message-ID": "<welcome-1@shop.example>"}))
    [record] = relay.messages()
    status, reply = relay.api("POST", f"/mock/mail/{record['id']}/reply", {"text": "Thanks!"})
    assert status == 201, reply
    assert reply["direction"] == "to-developer"
    assert reply["delivered_to"] == "hello@shop.example" and reply["from"] == BOB_RELAY
    assert reply["subject"] == "Re: Welcome"
    status, detail = relay.api("GET", f"/mock/mail/{reply['id']}")
    headers = {field["name"]: field["value"] for field in detail["headers"]}
    assert headers["In-Reply-To"] == "<welcome-1@shop.example>" and detail["text"].strip() == "Thanks!"
    assert relay.api("POST", "/mock/mail/m999/reply", {"text": "x"})[0] == 404


def read_replies(sock: socket.socket, count: int) -> list[str]:
    """Reads until `count` final reply lines (`NNN ` ...) arrived."""
    data = b""
    while sum(1 for line in data.split(b"\r\n") if len(line) > 3 and line[3:4] == b" ") < count:
        chunk = sock.recv(65536)
        assert chunk, f"closed early: {data!r}"
        data += chunk
    return [line.decode() for line in data.split(b"\r\n") if len(line) > 3 and line[3:4] == b" "]


def test_pipelined_commands_in_one_write_get_every_reply_in_order(relay) -> None:
    with socket.create_connection((relay.host, relay.smtp_port), timeout=10) as sock:
        assert read_replies(sock, 1)[0].startswith("220 ")
        sock.sendall(b"EHLO pipe.example\r\nMAIL FROM:<hello@shop.example>\r\nRCPT TO:<nobody@privaterelay.appleid.com>\r\n"
                     b"RCPT TO:<" + BOB_RELAY.encode() + b">\r\nDATA\r\n")
        replies = read_replies(sock, 5)
        assert [reply[:3] for reply in replies] == ["250", "250", "550", "250", "354"]
        assert replies[2] == "550 5.1.1 <nobody@privaterelay.appleid.com>: user not found"
        sock.sendall(b"From: hello@shop.example\r\nSubject: piped\r\n\r\n..leading dot\r\n.\r\nQUIT\r\n")
        assert [reply[:3] for reply in read_replies(sock, 2)] == ["250", "221"]
    [record] = relay.messages(status="delivered")
    assert relay.api("GET", f"/mock/mail/{record['id']}")[1]["text"] == ".leading dot\r\n"


def test_large_messages_up_to_the_size_limit(relay) -> None:
    big = "x" * 998 + "\n"
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=30) as client:
        assert client.send_message(message("hello@shop.example", body=big * 5000)) == {}  # ~5 MB
        with pytest.raises(smtplib.SMTPSenderRefused) as failure:  # smtplib announces SIZE: refused at MAIL
            client.send_message(message("hello@shop.example", body=big * 11000))
        assert failure.value.smtp_code == 552
    [record] = relay.messages(status="delivered")
    assert record["size"] > 5_000_000
    # Without SIZE the limit is enforced at the end of DATA.
    with socket.create_connection((relay.host, relay.smtp_port), timeout=30) as sock:
        read_replies(sock, 1)
        sock.sendall(b"EHLO big.example\r\nMAIL FROM:<hello@shop.example>\r\nRCPT TO:<" + BOB_RELAY.encode() + b">\r\nDATA\r\n")
        read_replies(sock, 4)
        sock.sendall(b"From: hello@shop.example\r\n\r\n" + big.replace("\n", "\r\n").encode() * 11000
                     + b".\r\nNOOP\r\n")
        assert [reply[:3] for reply in read_replies(sock, 2)] == ["552", "250"]
