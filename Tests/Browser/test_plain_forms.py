"""The mock's pages without Apple's JS API: a site links to /auth/authorize (form_post) and the user
continues through the pages with plain forms; the sample app's backend redeems the code."""

from __future__ import annotations

import json
import urllib.parse

from selenium.webdriver.common.by import By

from conftest import wait_for


def authorize_url(site, **overrides) -> str:
    params = {"client_id": site.app.client_id, "redirect_uri": site.app.redirect_uri,
              "response_type": "code id_token", "response_mode": "form_post", "scope": "name email",
              "state": "plain-state", "nonce": "plain-nonce"}
    params.update(overrides)
    return f"{site.mock_base}/auth/authorize?{urllib.parse.urlencode(params)}"


def continue_until_callback(driver, site) -> dict:
    """Presses Continue on each of the mock's pages until the sample app's callback shows its result."""
    for _ in range(4):
        if driver.current_url.startswith(site.app.origin):
            break
        driver.find_element(By.XPATH, "//button[normalize-space()='Continue']").click()
        wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete", "page load")
    wait_for(driver, lambda d: d.find_elements(By.ID, "callback"), "the callback page")
    return json.loads(driver.find_element(By.ID, "callback").text)


def test_form_post_through_the_pages_redeems_and_verifies(driver, site) -> None:
    driver.get(authorize_url(site))
    result = continue_until_callback(driver, site)
    assert result["fields"]["state"] == "plain-state"
    claims = result["redeemed"]["claims"]
    assert claims["aud"] == site.app.client_id and claims["nonce"] == "plain-nonce"
    assert claims["email"] == json.loads(result["fields"]["user"])["email"]
