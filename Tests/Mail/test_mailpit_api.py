"""The Mailpit-compatible subset at Mailpit's API v1 paths, driven the way Mailpit's documented API
(its swagger routes: GET /api/v1/messages, GET /api/v1/search?query=, GET /api/v1/message/{ID} with
`latest`, GET /api/v1/message/{ID}/raw, GET /api/v1/message/{ID}/part/{PartID}, DELETE /api/v1/messages
with {"IDs": [...]}) is used by test helpers: plain HTTP with urllib and JSON with Mailpit's field names,
after real mail from smtplib."""

from __future__ import annotations

import email
import json
import smtplib
import urllib.error
import urllib.parse
import urllib.request
from email.message import EmailMessage
from email.utils import make_msgid

from conftest import BOB_RELAY


class MailpitClient:
    """The few calls a Mailpit test helper makes, written against Mailpit's docs, pointed at the mock."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def _request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str, bytes]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), error.read()

    def messages(self, start: int = 0, limit: int = 50) -> dict:
        status, _, body = self._request("GET", f"/api/v1/messages?start={start}&limit={limit}")
        assert status == 200, body
        return json.loads(body)

    def search(self, query: str) -> dict:
        status, _, body = self._request("GET", "/api/v1/search?" + urllib.parse.urlencode({"query": query}))
        assert status == 200, body
        return json.loads(body)

    def message(self, message_id: str) -> dict:
        status, _, body = self._request("GET", f"/api/v1/message/{message_id}")
        assert status == 200, body
        return json.loads(body)

    def raw(self, message_id: str) -> bytes:
        status, kind, body = self._request("GET", f"/api/v1/message/{message_id}/raw")
        assert status == 200 and kind.startswith("text/plain"), (status, kind)
        return body

    def delete(self, ids: list[str] | None = None) -> None:
        status, _, body = self._request("DELETE", "/api/v1/messages", {"IDs": ids} if ids else None)
        assert status == 200 and body == b"ok", (status, body)


def send(relay, subject: str, body: str, html: str | None = None) -> str:
    mail = EmailMessage()
    mail["From"] = "Café Shop <hello@shop.example>"
    mail["To"] = f"Bob <{BOB_RELAY}>"
    mail["Subject"] = subject
    message_id = make_msgid(domain="shop.example")
    mail["Message-ID"] = message_id
    mail.set_content(body)
    if html:
        mail.add_alternative(html, subtype="html")
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.send_message(mail) == {}
    return message_id.strip("<>")


def test_a_mailpit_helper_reads_the_relay_unchanged(relay) -> None:
    mailpit = MailpitClient(f"http://{relay.host}:{relay.process.port}")
    welcome_id = send(relay, "Welcome to the shop", "Hello Bob")
    code_id = send(relay, "Your login code", "Your code is 734912", html="<p>Your code is <b>734912</b></p>")

    listing = mailpit.messages()
    assert listing["total"] == 2 and listing["messages_count"] == 2 and listing["start"] == 0
    assert [m["Subject"] for m in listing["messages"]] == ["Your login code", "Welcome to the shop"]  # newest first
    newest = listing["messages"][0]
    assert set(newest) >= {"ID", "MessageID", "Read", "From", "To", "Cc", "Bcc", "ReplyTo", "Subject", "Created",
                           "Tags", "Size", "Attachments", "Snippet"}
    assert newest["MessageID"] == code_id
    assert newest["From"]["Name"] == "Café Shop"  # decoded, as Mailpit shows it
    assert newest["From"]["Address"].endswith("@privaterelay.appleid.com")  # Apple's From rewrite
    assert newest["To"] == [{"Name": "Bob", "Address": BOB_RELAY}]
    assert newest["Snippet"] == "Your code is 734912"

    # The usual helper: the latest message to an address, then its text.
    found = mailpit.search(f"to:{BOB_RELAY} subject:\"login code\"")
    assert found["messages_count"] == 1 and found["total"] == 2
    latest = mailpit.message("latest")
    assert latest["ID"] == found["messages"][0]["ID"]
    assert "734912" in latest["Text"] and "<b>734912</b>" in latest["HTML"]
    parsed = email.message_from_bytes(mailpit.raw(latest["ID"]))
    assert parsed["Subject"] == "Your login code" and parsed["Message-ID"].strip("<>") == code_id

    assert mailpit.search("shop -subject:login")["messages"][0]["MessageID"] == welcome_id
    assert mailpit.messages(start=1, limit=1)["messages"][0]["MessageID"] == welcome_id

    mailpit.delete([latest["ID"]])
    assert [m["MessageID"] for m in mailpit.messages()["messages"]] == [welcome_id]
    mailpit.delete()
    assert mailpit.messages()["total"] == 0


def test_a_mailpit_helper_downloads_an_attachment_by_its_part_id(relay) -> None:
    """Mailpit's `Attachments` lists each file with its `PartID`; `/part/{PartID}` answers its bytes."""
    mailpit = MailpitClient(f"http://{relay.host}:{relay.process.port}")
    invoice = bytes(range(256)) * 8
    mail = EmailMessage()
    mail["From"] = "hello@shop.example"
    mail["To"] = BOB_RELAY
    mail["Subject"] = "Your invoice"
    mail.set_content("Attached.")
    mail.add_alternative("<p>Attached.</p>", subtype="html")
    mail.add_attachment(invoice, maintype="application", subtype="pdf", filename="facture-été.pdf")
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.send_message(mail) == {}

    assert mailpit.messages()["messages"][0]["Attachments"] == 1
    assert mailpit.search("has:attachment")["messages_count"] == 1
    latest = mailpit.message("latest")
    assert latest["Inline"] == []
    assert latest["Attachments"] == [{"PartID": "2", "FileName": "facture-été.pdf", "ContentType": "application/pdf",
                                      "ContentID": "", "Size": len(invoice)}]
    status, kind, body = mailpit._request("GET", f"/api/v1/message/{latest['ID']}/part/2")
    # Served as bytes whatever the declared type (docs/security.md); Attachments keeps the type.
    assert status == 200 and kind == "application/octet-stream" and body == invoice
    status, _, _ = mailpit._request("GET", f"/api/v1/message/{latest['ID']}/part/3")
    assert status == 404


def test_what_the_subset_does_not_cover_is_refused_by_name(relay) -> None:
    mailpit = MailpitClient(f"http://{relay.host}:{relay.process.port}")
    status, _, body = mailpit._request("GET", "/api/v1/search?query=tag%3Abackups")
    assert status == 400
    assert json.loads(body) == {"error": "invalid_request", "field": "query",
                                "message": "'tag:backups' is not in siwa-mock's Mailpit subset"}
    status, _, _ = mailpit._request("GET", "/api/v1/message/latest")
    assert status == 404
    status, _, body = mailpit._request("GET", "/api/v1/messages?limit=abc")
    assert status == 400 and json.loads(body)["field"] == "limit"


def test_mailpit_semantics_message_id_sizes_delete_ids_routes_and_file_names(relay) -> None:
    """Issue #37: what a Mailpit helper relies on beyond the shapes. `message-id:` with make_msgid()'s
    brackets, `larger:`/`smaller:` in Mailpit's units (internal/storage/search.go `sizeToBytes`), `ids`
    matched as Go's encoding/json matches `IDs`, 404 for Mailpit routes outside the subset, attachment file
    names in the search text, RFC 2231 continued names decoded."""
    mailpit = MailpitClient(f"http://{relay.host}:{relay.process.port}")
    small_id = send(relay, "Small note", "Hello Bob")
    status, _, body = mailpit._request(
        "GET", "/api/v1/search?" + urllib.parse.urlencode({"query": f"message-id:<{small_id}>"}))
    assert status == 200 and json.loads(body)["messages_count"] == 1, body

    big = EmailMessage()
    big["From"] = "hello@shop.example"
    big["To"] = BOB_RELAY
    big["Subject"] = "Your statement"
    big.set_content("See the attached statement.")
    big.add_attachment(b"x" * 20_000, maintype="application", subtype="pdf", filename="kontoauszug-2026.pdf")
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.send_message(big) == {}
    sizes = {m["Subject"]: m["Size"] for m in mailpit.messages()["messages"]}
    assert sizes["Small note"] < 10 * 1024 < sizes["Your statement"], sizes
    assert [m["Subject"] for m in mailpit.search("larger:10K")["messages"]] == ["Your statement"]
    assert [m["Subject"] for m in mailpit.search("smaller:10kb")["messages"]] == ["Small note"]
    assert [m["Subject"] for m in mailpit.search("-larger:0.01m")["messages"]] == ["Small note"]
    status, _, body = mailpit._request("GET", "/api/v1/search?query=larger%3Ahuge")
    assert status == 400 and json.loads(body)["field"] == "query", body
    assert [m["Subject"] for m in mailpit.search("kontoauszug")["messages"]] == ["Your statement"]

    raw = ("From: hello@shop.example\r\nTo: " + BOB_RELAY + "\r\nSubject: Continued\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=b1\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nSee file.\r\n"
           "--b1\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment;\r\n"
           " filename*0*=UTF-8''r%C3%A9sum%C3%A9-tr%C3%A8s-;\r\n filename*1=\"long-name.pdf\"\r\n"
           "Content-Transfer-Encoding: base64\r\n\r\nJVBERg==\r\n--b1--\r\n")
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.sendmail("hello@shop.example", [BOB_RELAY], raw.encode()) == {}
    assert [a["FileName"] for a in mailpit.message("latest")["Attachments"]] == ["résumé-très-long-name.pdf"]

    for method, path in (("PUT", "/api/v1/messages"), ("DELETE", "/api/v1/search"), ("GET", "/api/v1/info")):
        status, _, body = mailpit._request(method, path, {"IDs": []} if method == "PUT" else None)
        assert status == 404, (method, path, status, body)

    status, _, body = mailpit._request("DELETE", "/api/v1/messages", {"ids": [mailpit.message("latest")["ID"]]})
    assert status == 200 and body == b"ok", body
    assert mailpit.messages()["total"] == 2
