"""The mock's pages without Apple's JS API: a site links to /auth/authorize (form_post) and the user
continues through the pages with plain forms; the sample app's backend redeems the code."""

from __future__ import annotations

import json
import urllib.parse

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.expected_conditions import staleness_of

from conftest import wait_for


def authorize_url(site, **overrides) -> str:
    params = {"client_id": site.app.client_id, "redirect_uri": site.app.redirect_uri,
              "response_type": "code id_token", "response_mode": "form_post", "scope": "name email",
              "state": "plain-state", "nonce": "plain-nonce"}
    params.update(overrides)
    return f"{site.mock_base}/auth/authorize?{urllib.parse.urlencode(params)}"


CONTINUE = "//button[normalize-space()='Continue']"


def at_callback(driver, site) -> bool:
    return driver.current_url.startswith(site.app.origin)


def continue_until_callback(driver, site) -> dict:
    """Presses Continue on each of the mock's pages until the sample app's callback shows its result.

    Each click starts a navigation that completes later: wait for the clicked button to go stale (its
    page replaced), then for the next page's Continue or the callback, never for `readyState`, which
    the old page still reports as complete."""
    for _ in range(6):
        wait_for(driver, lambda d: at_callback(d, site) or d.find_elements(By.XPATH, CONTINUE),
                 "a Continue button or the callback page")
        if at_callback(driver, site):
            break
        try:
            button = driver.find_element(By.XPATH, CONTINUE)
            button.click()
        except (NoSuchElementException, StaleElementReferenceException):
            continue  # the page went on by itself (form_post's self-submitting page) before the click
        except WebDriverException as error:
            # Chromium's wording when the node's document was replaced between find and click.
            if "does not belong to the document" not in str(error):
                raise
            continue
        wait_for(driver, staleness_of(button), "the page after Continue")
    wait_for(driver, lambda d: d.find_elements(By.ID, "callback"), "the callback page")
    return json.loads(driver.find_element(By.ID, "callback").text)


def test_form_post_through_the_pages_redeems_and_verifies(driver, site) -> None:
    driver.get(authorize_url(site))
    result = continue_until_callback(driver, site)
    assert result["fields"]["state"] == "plain-state"
    claims = result["redeemed"]["claims"]
    assert claims["aud"] == site.app.client_id and claims["nonce"] == "plain-nonce"
    assert claims["email"] == json.loads(result["fields"]["user"])["email"]
