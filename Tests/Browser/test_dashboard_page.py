"""The dashboard's own page is quiet and readable (issue #22): Chromium logs no console error (its icon
comes from memory, no /favicon.ico 404), the page and its files stay out of the request journal, ids do
not wrap mid-word at 1440 px, "Sign out" shows only with an admin token, and empty panels say "none"."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from siwatest.process import MockProcess

from browser_support import console_errors
from conftest import wait_for
from test_dashboard import mock, sign_in  # noqa: F401 (the fixture of the signed-in case)

LONG_CLIENT = "com.example.a-rather-long-bundle-identifier.for-the-journal-column"
LONG_USER = "user-with-a-rather-long-identifier-0123456789abcdef"


@pytest.fixture
def open_mock(binary: Path, tmp_path: Path):
    """The mock as most people run it: loopback, no --admin-token."""
    process = MockProcess(binary, [], tmp_path / "siwa-mock.log")
    yield process
    assert process.stop() == 0, process.log_path.read_text(errors="replace")[-2000:]


def call(base: str, method: str, path: str, body: object | None = None) -> tuple[int, object]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def test_the_page_is_quiet_and_says_none(driver, open_mock) -> None:
    base = f"http://127.0.0.1:{open_mock.port}"
    driver.get("about:blank")
    driver.get_log("browser")
    driver.get(f"{base}/mock/ui")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#users tbody tr[data-user='alice']"), "users shown")
    time.sleep(2.5)  # a few polls
    assert console_errors(driver) == [], "Chromium logged console errors"
    # Nothing to sign out of without --admin-token.
    assert driver.find_elements(By.ID, "sign-out") == []
    assert "Sign out" not in driver.find_element(By.TAG_NAME, "header").text
    # Empty panels say so.
    for table in ("faults", "notifications", "mail", "journal"):
        wait_for(driver, lambda d: d.execute_script(
            "const rows = document.querySelectorAll(`#${arguments[0]} tbody tr`);"
            "return rows.length === 1 && rows[0].classList.contains('empty') && rows[0].innerText.trim() === 'none';",
            table), f"'none' in the {table} panel")
    # The page, its script, style sheet and icon are not journaled (docs/browser.md).
    status, journal = call(base, "GET", "/mock/requests")
    assert status == 200
    assert journal["requests"] == [], journal["requests"]
    # The icon is served from memory.
    with urllib.request.urlopen(f"{base}/mock/ui/icon.svg", timeout=10) as response:
        assert response.status == 200 and response.headers["Content-Type"] == "image/svg+xml"
    assert driver.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href") == f"{base}/mock/ui/icon.svg"


def test_ids_do_not_wrap_mid_word_at_1440_px(driver, open_mock) -> None:
    base = f"http://127.0.0.1:{open_mock.port}"
    status, _ = call(base, "POST", "/mock/users", {"id": LONG_USER, "email": f"{LONG_USER}@example.com"})
    assert status == 201
    for _ in range(3):
        query = urllib.parse.urlencode({"client_id": LONG_CLIENT, "redirect_uri": "https://example.com/cb",
                                        "response_type": "code", "login_hint": LONG_USER})
        assert call(base, "GET", f"/auth/authorize?{query}")[0] == 400
    driver.set_window_size(1440, 1000)
    try:
        driver.get(f"{base}/mock/ui")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#users tbody tr[data-user='{LONG_USER}']"),
                 "the long user shown")
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#journal tbody tr[data-sequence]")) >= 3,
                 "journal shown")
        # Every text line of the id columns (users: id, email; keys: kid; journal: request, client, user,
        # parameters) sits on one line box: no wrap inside a word.
        wrapped = driver.execute_script("""
            const cells = document.querySelectorAll('#users tbody td:nth-child(-n+2), #keys tbody td:nth-child(1),'
              + '#journal tbody td:nth-child(n+3):nth-child(-n+5), #journal tbody td:nth-child(9)');
            const bad = [];
            for (const td of cells) {
              const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (!node.textContent.trim()) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) bad.push(node.textContent);
              }
            }
            return bad;""")
        assert wrapped == [], f"wrapped mid-word at 1440 px: {wrapped}"
        # A cut value is still readable whole: the title holds it.
        titles = driver.execute_script(
            "return [...document.querySelectorAll('#journal tbody .clip')].map((d) => d.title);")
        assert any(LONG_CLIENT == title for title in titles), titles
        assert console_errors(driver) == []
    finally:
        driver.set_window_size(820, 900)


def test_sign_out_shows_with_an_admin_token(driver, mock) -> None:  # noqa: F811 (the imported fixture)
    sign_in(driver, mock)
    assert driver.find_element(By.CSS_SELECTOR, "#sign-out button").text == "Sign out"
