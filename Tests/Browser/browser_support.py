"""Steps the browser tests share: the popup window, the mock's account chooser and consent sheet."""

from __future__ import annotations

import json
import time

import jwt
from selenium.webdriver.common.by import By

from conftest import WAIT, wait_for, wait_for_window_count
from sample_app import ISSUER


def open_app(driver, site, path: str) -> None:
    driver.get(f"{site.app.origin}{path}")
    wait_for(driver, lambda d: d.execute_script("return !!(window.AppleID && AppleID.auth)"), "the JS API loaded")


def switch_to_popup(driver) -> str:
    """Waits for the sign-in popup and switches to it; returns the main window's handle."""
    main = driver.window_handles[0]
    wait_for_window_count(driver, 2)
    driver.switch_to.window([h for h in driver.window_handles if h != main][0])
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "main"), "the mock's sheet in the popup")
    return main


def press(driver, label: str) -> None:
    driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()


def choose_account(driver, user_id: str) -> None:
    """The account chooser: pick `user_id`, Continue; waits for the consent sheet."""
    driver.find_element(By.CSS_SELECTOR, f'input[name="account"][value="{user_id}"]').click()
    press(driver, "Continue")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'input[name="account"][type="hidden"]'),
             "the consent sheet")


def fill_sheet(driver, first_name: str | None = None, email_choice: str | None = None) -> None:
    if first_name is not None:
        field = driver.find_element(By.NAME, "first_name")
        field.clear()
        field.send_keys(first_name)
    if email_choice is not None:
        driver.find_element(By.CSS_SELECTOR, f'input[name="email_choice"][value="{email_choice}"]').click()


def is_short_sheet(driver) -> bool:
    return not driver.find_elements(By.NAME, "first_name") and not driver.find_elements(By.NAME, "email_choice")


def back_to(driver, main: str) -> None:
    """After the popup's last step: it closes itself; continue in the main window."""
    wait_for_window_count(driver, 1)
    driver.switch_to.window(main)


def promise_outcome(driver) -> dict:
    wait_for(driver, lambda d: d.execute_script("return window.siwaResult"), "the signIn() promise to settle")
    return driver.execute_script("return window.siwaResult")


def events(driver) -> list[dict]:
    return driver.execute_script("return window.siwaEvents")


def redeem_in_backend(driver, code: str) -> dict:
    """The page hands the code to the sample app's backend (fetch /redeem), as a site would."""
    return driver.execute_async_script(
        "var done = arguments[arguments.length - 1]; redeem(arguments[0]).then(done, function (e) { done({fetch_error: String(e)}); });",
        code)


def verify_id_token(site, id_token: str, nonce: str) -> dict:
    key = jwt.PyJWKClient(f"{site.mock_base}/auth/keys").get_signing_key_from_jwt(id_token)
    claims = jwt.decode(id_token, key.key, algorithms=["RS256"], audience=site.app.client_id, issuer=ISSUER)
    assert claims["nonce"] == nonce
    return claims


def console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def callback_result(driver) -> dict:
    wait_for(driver, lambda d: d.find_elements(By.ID, "callback"), "the sample app's callback page", WAIT)
    return json.loads(driver.find_element(By.ID, "callback").text)


def settle(seconds: float = 0.3) -> None:
    time.sleep(seconds)
