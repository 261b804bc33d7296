"""The mail viewer of /mock/ui in real Chromium (docs/relay-mail.md, "The viewer"): mail sent with
smtplib (text, hostile HTML, an attachment) is listed with its decoded subject and sender; the HTML tab
renders it in a sandboxed frame that makes no network request (a beacon server the test runs sees no
hit) and runs no script; the text, headers and source tabs; the attachment downloads with its bytes;
search narrows the list; delete removes one, then all. Takes docs/images/mail-viewer.png (with
--screenshots)."""

from __future__ import annotations

import http.server
import os
import smtplib
import threading
import time
from email.message import EmailMessage
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import wait_for
from test_dashboard import TOKEN, cell_texts, click, relay_mock  # noqa: F401 (the imported fixture)

RELAY = "k7x2m9q4ab@privaterelay.appleid.com"
SUBJECT = "Reçu n°42 — merci"


class Beacon(http.server.BaseHTTPRequestHandler):
    """Records every request: the frame must make none."""

    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's spelling)
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args) -> None:
        pass


def hostile_html(beacon: str) -> str:
    """Every way a message could fetch something or run a script, each aimed at the beacon."""
    return f"""<!DOCTYPE html><html><head><title>Receipt</title>
<meta http-equiv="refresh" content="0;url={beacon}/refresh">
<link rel="stylesheet" href="{beacon}/style.css"><link rel="prefetch" href="{beacon}/prefetch">
<style>h1 {{ color: #1e8449; }} body {{ background-image: url({beacon}/css-background); font-family: sans-serif; }}</style>
<script>document.title = "pwned"; new Image().src = "{beacon}/script"; fetch("{beacon}/fetch");</script>
</head><body><h1>Your receipt</h1><p>Order 42: one espresso, one croissant.</p>
<img src="{beacon}/beacon.png" alt="tracking pixel"><iframe src="{beacon}/iframe"></iframe>
<form id="auto" action="{beacon}/form" method="post"><input name="q" autofocus></form>
<img src="x" onerror="document.title = 'pwned'; fetch('{beacon}/onerror')">
<object data="{beacon}/object"></object><video src="{beacon}/video" autoplay></video>
</body></html>"""


def send_mail(port: int, beacon: str, attachment: bytes) -> None:
    receipt = EmailMessage()
    receipt["From"] = "Café Shop <hello@shop.example>"
    receipt["To"] = RELAY
    receipt["Subject"] = SUBJECT
    receipt.set_content("Your receipt for order 42.\n")
    receipt.add_alternative(hostile_html(beacon), subtype="html")
    receipt.add_attachment(attachment, maintype="application", subtype="octet-stream", filename="receipt.bin")
    welcome = EmailMessage()
    welcome["From"] = "hello@shop.example"
    welcome["To"] = RELAY
    welcome["Subject"] = "Welcome aboard"
    welcome.set_content("Hello Bob.\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        assert client.send_message(receipt) == {}
        assert client.send_message(welcome) == {}


def mail_ids(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#mail tbody tr[data-mail]')].map((r) => r.dataset.mail);")


def test_the_viewer_shows_a_message_and_its_html_fetches_nothing(driver, relay_mock, screenshot,  # noqa: F811
                                                                 tmp_path: Path) -> None:
    mock = relay_mock
    Beacon.hits = []
    beacon = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Beacon)
    threading.Thread(target=beacon.serve_forever, daemon=True).start()
    beacon_url = f"http://127.0.0.1:{beacon.server_address[1]}"
    attachment = os.urandom(3000)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    try:
        send_mail(mock.process.smtp_port, beacon_url, attachment)
        driver.get(f"{mock.base}/mock/ui")
        driver.find_element(By.ID, "admin-token").send_keys(TOKEN)
        driver.find_element(By.CSS_SELECTOR, "#sign-in button[type=submit]").click()
        wait_for(driver, lambda d: mail_ids(d) == ["m2", "m1"], "both messages listed, newest first")
        cells = cell_texts(driver, "mail", "mail", "m1")
        assert cells[3].startswith("Café Shop <hello@shop.example>") and cells[6] == SUBJECT, cells
        assert cells[7] == "1 file" and cells[8].endswith("KB"), cells
        assert cell_texts(driver, "mail", "mail", "m2")[7] == "", "no attachment marker without one"

        # Open it: the HTML tab, in a frame sandboxed with no allowance.
        click(driver, "#mail tr[data-mail='m1']")
        wait_for(driver, lambda d: d.find_element(By.ID, "mail-viewer").is_displayed(), "the viewer")
        assert driver.find_element(By.ID, "mail-subject").text == SUBJECT
        frame = driver.find_element(By.ID, "mail-frame")
        assert frame.get_dom_attribute("sandbox") == "" and frame.is_displayed()
        assert frame.get_attribute("src") == f"{mock.base}/mock/mail/m1/html"
        driver.switch_to.frame(frame)
        wait_for(driver, lambda d: "Your receipt" in d.find_element(By.TAG_NAME, "body").text, "the HTML rendered")
        time.sleep(1.5)  # time for a refresh, a script, the loads to happen if anything let them
        assert driver.find_element(By.TAG_NAME, "h1").text == "Your receipt", "the frame was not navigated away"
        assert driver.find_element(By.TAG_NAME, "title").get_attribute("textContent") == "Receipt", "no script ran"
        driver.switch_to.default_content()
        assert driver.title == "siwa-mock dashboard"
        assert Beacon.hits == [], f"the frame made network requests: {Beacon.hits}"

        screenshot_wide(driver, screenshot)

        # Text, headers (decoded), source.
        driver.find_element(By.CSS_SELECTOR, "#mail-tabs [data-tab='text']").click()
        assert "Your receipt for order 42." in driver.find_element(By.ID, "mail-tab-text").text
        assert not driver.find_element(By.ID, "mail-tab-html").is_displayed()
        driver.find_element(By.CSS_SELECTOR, "#mail-tabs [data-tab='headers']").click()
        headers = driver.execute_script(
            "return [...document.querySelectorAll('#mail-tab-headers tbody tr')]"
            ".map((r) => [r.cells[0].innerText, r.cells[1].innerText, r.cells[1].title]);")
        subject = next(h for h in headers if h[0] == "Subject")
        assert subject[1] == SUBJECT and subject[2].startswith("=?utf-8?"), subject
        assert any(h[0] == "Received" for h in headers) and any(h[0] == "Content-Type" for h in headers)
        driver.find_element(By.CSS_SELECTOR, "#mail-tabs [data-tab='source']").click()
        source = driver.find_element(By.ID, "mail-tab-source").text
        assert "Content-Type: multipart/mixed" in source and "Subject: =?utf-8?" in source

        # The attachment downloads with its bytes.
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        link = driver.find_element(By.CSS_SELECTOR, "#mail-attachments a")
        assert link.text == "receipt.bin" and link.get_attribute("href").endswith("/mock/mail/m1/parts/2")
        link.click()
        target = downloads / "receipt.bin"
        wait_for(driver, lambda d: target.exists() and target.stat().st_size == len(attachment), "the download")
        assert target.read_bytes() == attachment

        # Search narrows the list (the body, the decoded subject), and back.
        query = driver.find_element(By.CSS_SELECTOR, "#mail-search input[name=query]")
        query.send_keys("welcome")
        driver.find_element(By.CSS_SELECTOR, "#mail-search button").click()
        wait_for(driver, lambda d: mail_ids(d) == ["m2"], "only the welcome message")
        query.clear()
        query.send_keys("subject:merci espresso")
        driver.find_element(By.CSS_SELECTOR, "#mail-search button").click()
        wait_for(driver, lambda d: mail_ids(d) == ["m1"], "the receipt by its subject and HTML body")
        query.clear()
        driver.find_element(By.CSS_SELECTOR, "#mail-search button").click()
        wait_for(driver, lambda d: mail_ids(d) == ["m2", "m1"], "both again")

        # Delete one, then all.
        click(driver, "#mail tr[data-mail='m2']")
        wait_for(driver, lambda d: d.find_element(By.ID, "mail-subject").text == "Welcome aboard", "m2 open")
        driver.find_element(By.ID, "mail-delete").click()
        wait_for(driver, lambda d: mail_ids(d) == ["m1"], "m2 gone from the list")
        assert [m["id"] for m in mock.ok("GET", "/mock/mail")["messages"]] == ["m1"]
        assert not driver.find_element(By.ID, "mail-viewer").is_displayed()
        driver.find_element(By.ID, "mail-clear").click()
        wait_for(driver, lambda d: mail_ids(d) == [], "the list empty")
        assert mock.ok("GET", "/mock/mail")["messages"] == []
        assert Beacon.hits == [], f"network requests to the beacon: {Beacon.hits}"
    finally:
        beacon.shutdown()
        beacon.server_close()


def screenshot_wide(driver, screenshot) -> None:
    """docs/images/mail-viewer.png: the mail panel with the receipt open, at a desktop width."""
    size = driver.get_window_size()
    driver.set_window_size(1440, 1000)
    try:
        driver.execute_script("const list = document.getElementById('mail-list'); list.scrollLeft = 0;"
                              "list.scrollTop = 0; document.getElementById('mail-section').scrollIntoView();")
        screenshot(driver, "mail-viewer", keep_size=True)
    finally:
        driver.set_window_size(size["width"], size["height"])
