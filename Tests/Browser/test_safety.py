"""Reflected values cannot run script: XSS payloads in every parameter the mock's pages reflect (state,
nonce, the JS SDK's frame_id, any extra parameter's name and value, the sheet's name fields) open no
dialog, run no script and trip no CSP report, in the popup (web_message) and with form_post; the pages
carry a CSP and cannot be framed; the JS file is cached with an ETag."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import (back_to, callback_result, choose_account, console_errors, events, fill_sheet, open_app,
                             press, promise_outcome, switch_to_popup)
from conftest import no_alert, wait_for

PAYLOADS = [
    '"><img src=x onerror="window.__xss=1;alert(1)">',
    "</script><script>window.__xss=2;alert(2)</script>",
    "'-alert(3)-'\u2028<svg onload=alert(4)>",
]


def assert_nothing_ran(driver) -> None:
    assert no_alert(driver), "a dialog opened"
    assert driver.execute_script("return window.__xss === undefined"), "an injected script ran"


def test_payloads_in_the_popup_flow_are_data_only(driver, site) -> None:
    payload = " ".join(PAYLOADS)
    query = urllib.parse.urlencode({"state": payload, "nonce": payload})
    open_app(driver, site, f"/popup?{query}")
    driver.find_element(By.ID, "promise-signin").click()
    main = switch_to_popup(driver)
    assert_nothing_ran(driver)
    choose_account(driver, "alice")
    assert_nothing_ran(driver)
    fill_sheet(driver, first_name=PAYLOADS[0], email_choice="share")
    csp_errors = [m for m in console_errors(driver) if "Content Security Policy" in m]
    press(driver, "Continue")
    back_to(driver, main)
    response = promise_outcome(driver)["resolved"]
    assert response["authorization"]["state"] == payload, "state comes back exactly as sent"
    assert response["user"]["name"]["firstName"] == PAYLOADS[0]
    assert_nothing_ran(driver)
    assert events(driver)[0]["detail"] == response
    assert csp_errors == [], csp_errors


def test_payloads_in_every_reflected_parameter_with_form_post(driver, site) -> None:
    payload = " ".join(PAYLOADS)
    params = [("client_id", site.app.client_id), ("redirect_uri", site.app.redirect_uri),
              ("response_type", "code id_token"), ("response_mode", "form_post"), ("scope", "name email"),
              ("state", payload), ("nonce", payload), ("frame_id", payload), (PAYLOADS[1], PAYLOADS[0])]
    driver.get(f"{site.mock_base}/auth/authorize?{urllib.parse.urlencode(params)}")
    assert_nothing_ran(driver)
    hidden = {e.get_attribute("name"): e.get_attribute("value")
              for e in driver.find_elements(By.CSS_SELECTOR, 'input[type="hidden"]')}
    assert hidden["state"] == payload and hidden["frame_id"] == payload and hidden[PAYLOADS[1]] == PAYLOADS[0]
    choose_account(driver, "carol")
    assert_nothing_ran(driver)
    fill_sheet(driver, first_name=PAYLOADS[1])
    driver.find_element(By.NAME, "last_name").send_keys(PAYLOADS[2])
    csp_errors = [m for m in console_errors(driver) if "Content Security Policy" in m]
    press(driver, "Continue")
    result = callback_result(driver)
    assert result["fields"]["state"] == payload
    assert json.loads(result["fields"]["user"])["name"]["firstName"] == PAYLOADS[1]
    assert_nothing_ran(driver)
    assert csp_errors == [], csp_errors


def test_the_sheet_cannot_be_framed(driver, site) -> None:
    params = urllib.parse.urlencode({"client_id": site.app.client_id, "redirect_uri": site.app.redirect_uri,
                                     "response_type": "code", "response_mode": "form_post", "state": "framed"})
    url = f"{site.mock_base}/auth/authorize?{params}"
    with urllib.request.urlopen(url, timeout=10) as response:
        headers = response.headers
    assert headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    driver.get(f"{site.app.origin}/popup")
    driver.execute_script("var f = document.createElement('iframe'); f.id = 'frame'; f.src = arguments[0];"
                          "document.body.appendChild(f);", url)
    frame = driver.find_element(By.ID, "frame")
    wait_for(driver, lambda d: any("frame-ancestors" in m or "Refused to display" in m for m in console_errors(d)),
             "Chromium refusing to frame the sheet")
    driver.switch_to.frame(frame)
    assert not driver.find_elements(By.CSS_SELECTOR, "main"), "the sheet rendered inside a frame"
    driver.switch_to.default_content()


def test_web_message_without_an_opener_delivers_nothing(driver, site) -> None:
    params = urllib.parse.urlencode({"client_id": site.app.client_id, "redirect_uri": site.app.redirect_uri,
                                     "response_type": "code id_token", "response_mode": "web_message",
                                     "state": "no-opener", "login_hint": "alice"})
    driver.get(f"{site.mock_base}/auth/authorize?{params}")
    wait_for(driver, lambda d: d.find_element(By.ID, "no-opener").is_displayed(), "the no-opener notice")


def test_the_js_file_is_cached_with_an_etag(site) -> None:
    url = f"{site.mock_base}/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js"
    with urllib.request.urlopen(url, timeout=10) as response:
        body, etag, cache = response.read(), response.headers["ETag"], response.headers["Cache-Control"]
        assert response.headers["Content-Type"].startswith("text/javascript")
    assert len(body) <= 15 * 1024 and etag and "max-age" in cache
    request = urllib.request.Request(url, headers={"If-None-Match": etag})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("expected 304")
    except urllib.error.HTTPError as error:
        assert error.code == 304 and error.headers["ETag"] == etag
