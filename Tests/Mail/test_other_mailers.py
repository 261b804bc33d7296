"""Mailers of other ecosystems: Django's send_mail over its SMTP backend, swaks (Debian package
swaks) and Ruby's mail gem (Debian package ruby-mail, over STARTTLS with the mock's CA), each
delivered and refused by the relay."""

from __future__ import annotations

import smtplib
import subprocess

import pytest

from conftest import BOB_RELAY


def django_send(relay, sender: str) -> int:
    from django.conf import settings
    from django.core.mail import get_connection, send_mail

    if not settings.configured:
        settings.configure(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend")
    connection = get_connection(host=relay.host, port=relay.smtp_port, use_tls=False, timeout=10)
    return send_mail("Your order", "Order #1 shipped.", sender, [BOB_RELAY], connection=connection)


def test_django_send_mail_is_delivered_from_a_registered_domain(relay) -> None:
    assert django_send(relay, "orders@shop.example") == 1
    [record] = relay.messages(status="delivered")
    assert record["subject"] == "Your order" and record["delivered_to"] == "bob@example.com"
    assert relay.api("GET", f"/mock/mail/{record['id']}")[1]["text"].strip() == "Order #1 shipped."


def test_django_send_mail_from_an_unregistered_domain_raises_the_bounce(relay) -> None:
    with pytest.raises(smtplib.SMTPDataError) as failure:
        django_send(relay, "orders@not-registered.example")
    assert failure.value.smtp_code == 550
    assert b"unauthorized sender" in failure.value.smtp_error


def swaks(relay, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["swaks", "--server", f"{relay.host}:{relay.smtp_port}", "--to", BOB_RELAY, *args],
                          capture_output=True, text=True, timeout=60)


def test_swaks_delivers_and_is_refused(relay) -> None:
    done = swaks(relay, "--from", "hello@shop.example", "--header", "Subject: from swaks")
    assert done.returncode == 0, done.stdout + done.stderr
    refused = swaks(relay, "--from", "someone@elsewhere.example")
    assert refused.returncode != 0
    assert "<** 550 5.1.1 <someone@elsewhere.example>: unauthorized sender" in refused.stdout
    assert [record["status"] for record in relay.messages()] == ["delivered", "rejected"]


def test_swaks_pipelining_and_starttls(relay) -> None:
    ca = relay.tls_dir / "ca-for-swaks.pem"
    ca.write_text(relay.ca_pem())
    done = swaks(relay, "--from", "hello@shop.example", "--pipeline", "--tls", "--tls-verify", "--tls-ca-path", str(ca))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "TLS started" in done.stdout
    [record] = relay.messages(status="delivered")
    received = next(field["value"] for field in relay.api("GET", f"/mock/mail/{record['id']}")[1]["headers"]
                    if field["name"] == "Received")
    assert " with ESMTPS " in received


RUBY = """
require "mail"
# STARTTLS (net-smtp starts it when offered), verified against the mock's CA.
Mail.defaults do
  delivery_method :smtp, address: ARGV[0], port: ARGV[1].to_i, enable_starttls_auto: true,
                         openssl_verify_mode: "peer", ca_file: ARGV[4]
end
begin
  Mail.deliver do
    from ARGV[2]
    to ARGV[3]
    subject "Ruby says hi"
    text_part { body "plain from ruby" }
    html_part { content_type "text/html; charset=UTF-8"; body "<p>html from ruby</p>" }
  end
  puts "sent"
rescue Net::SMTPFatalError => error
  puts "fatal: #{error.message}"
end
"""


def ruby_send(relay, sender: str) -> str:
    ca = relay.tls_dir / "ca-for-ruby.pem"
    ca.write_text(relay.ca_pem())
    done = subprocess.run(["ruby", "-e", RUBY, relay.host, str(relay.smtp_port), sender, BOB_RELAY, str(ca)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_ruby_mail_gem_multipart_is_delivered_and_parsed(relay) -> None:
    assert ruby_send(relay, "hello@shop.example") == "sent"
    [record] = relay.messages(status="delivered")
    detail = relay.api("GET", f"/mock/mail/{record['id']}")[1]
    assert detail["text"].strip() == "plain from ruby"
    assert detail["html"].strip() == "<p>html from ruby</p>"


def test_ruby_mail_gem_gets_the_bounce(relay) -> None:
    assert ruby_send(relay, "x@spam.example") == "fatal: 550 5.1.1 <x@spam.example>: unauthorized sender"
