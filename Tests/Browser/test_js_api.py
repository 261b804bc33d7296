"""Apple's JS API served by the mock, driven in real Chromium through a sample web app: popup mode
(web_message) with init(), meta tags, the consent sheet's choices, Cancel, a closed popup, a returning
user, redirect mode (form_post), and the backend's redemption with the id_token verified by PyJWT."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import (back_to, callback_result, choose_account, events, fill_sheet, is_short_sheet, open_app,
                             press, promise_outcome, redeem_in_backend, switch_to_popup, verify_id_token)
from conftest import wait_for, wait_for_window_count
from siwatest.scenario import ALICE_SUB

ALICE_NAME = {"firstName": "Alice", "lastName": "Appleseed"}


def sign_in_with_popup(driver, site, account: str, screenshot=None, **sheet) -> dict:
    driver.find_element(By.ID, "promise-signin").click()
    main = switch_to_popup(driver)
    if screenshot:
        screenshot(driver, "account-chooser")
    choose_account(driver, account)
    fill_sheet(driver, **sheet)
    if screenshot:
        screenshot(driver, "consent-sheet")
    press(driver, "Continue")
    back_to(driver, main)
    return promise_outcome(driver)


def test_popup_hide_my_email_and_edited_name_resolve_the_promise(driver, site, screenshot) -> None:
    open_app(driver, site, "/popup")
    outcome = sign_in_with_popup(driver, site, "alice", screenshot, first_name="Ally", email_choice="hide")
    response = outcome["resolved"]
    authorization = response["authorization"]
    assert authorization["state"] == "st-123" and authorization["code"] and authorization["id_token"]
    relay = response["user"]["email"]
    assert relay.endswith("@privaterelay.appleid.com"), response
    assert response["user"]["name"] == {"firstName": "Ally", "lastName": "Appleseed"}
    assert events(driver) == [{"type": "success", "detail": response}]

    claims = verify_id_token(site, authorization["id_token"], "n-456")
    assert claims["sub"] == ALICE_SUB and claims["email"] == relay and claims["is_private_email"] is True
    redeemed = redeem_in_backend(driver, authorization["code"])
    assert redeemed["claims"]["email"] == relay and redeemed["claims"]["is_private_email"] is True
    assert redeemed["claims"]["sub"] == ALICE_SUB and redeemed["claims"]["nonce"] == "n-456"


def test_returning_user_gets_the_short_sheet_and_no_user(driver, site, screenshot) -> None:
    open_app(driver, site, "/popup")
    first = sign_in_with_popup(driver, site, "alice", email_choice="hide")["resolved"]
    # Again through Apple's rendered button: the outcome arrives as an AppleIDSignInOnSuccess event.
    driver.find_element(By.CSS_SELECTOR, "#appleid-signin button").click()
    main = switch_to_popup(driver)
    choose_account(driver, "alice")
    assert is_short_sheet(driver)
    assert "continue using Sample App" in driver.find_element(By.TAG_NAME, "h1").text
    screenshot(driver, "consent-sheet-returning")
    press(driver, "Continue")
    back_to(driver, main)
    wait_for(driver, lambda d: len(events(d)) == 2, "the second AppleIDSignInOnSuccess")
    second = events(driver)[1]
    assert second["type"] == "success" and "user" not in second["detail"], second
    claims = verify_id_token(site, second["detail"]["authorization"]["id_token"], "n-456")
    assert claims["email"] == first["user"]["email"], "the Hide My Email choice is kept for the app"


def test_cancel_rejects_with_user_cancelled_authorize(driver, site) -> None:
    open_app(driver, site, "/popup")
    driver.find_element(By.ID, "promise-signin").click()
    main = switch_to_popup(driver)
    choose_account(driver, "bob")
    press(driver, "Cancel")
    back_to(driver, main)
    assert promise_outcome(driver) == {"rejected": {"error": "user_cancelled_authorize"}}
    assert events(driver) == [{"type": "failure", "detail": {"error": "user_cancelled_authorize"}}]


def test_closing_the_popup_rejects_with_popup_closed_by_user(driver, site) -> None:
    open_app(driver, site, "/popup")
    driver.find_element(By.ID, "promise-signin").click()
    main = switch_to_popup(driver)
    driver.close()
    driver.switch_to.window(main)
    assert promise_outcome(driver) == {"rejected": {"error": "popup_closed_by_user"}}
    assert events(driver) == [{"type": "failure", "detail": {"error": "popup_closed_by_user"}}]


def test_a_second_sign_in_ends_the_first_with_user_trigger_new_signin_flow(driver, site) -> None:
    open_app(driver, site, "/popup")
    driver.execute_script("window.first = null; AppleID.auth.signIn().catch(function (e) { window.first = e; });")
    wait_for_window_count(driver, 2)
    driver.find_element(By.ID, "promise-signin").click()
    wait_for(driver, lambda d: d.execute_script("return window.first"), "the first flow to end")
    assert driver.execute_script("return window.first") == {"error": "user_trigger_new_signin_flow"}


def test_meta_tags_configure_popup_mode(driver, site) -> None:
    open_app(driver, site, "/meta-popup")
    button = driver.find_element(By.CSS_SELECTOR, "#appleid-signin button")
    assert button.text == "Sign in with Apple"
    button.click()
    main = switch_to_popup(driver)
    choose_account(driver, "carol")
    press(driver, "Continue")
    back_to(driver, main)
    wait_for(driver, lambda d: events(d), "AppleIDSignInOnSuccess")
    [event] = events(driver)
    assert event["type"] == "success" and event["detail"]["user"]["email"] == "carol@example.net"
    assert event["detail"]["authorization"]["state"] == "st-123"


def test_meta_tags_redirect_mode_posts_to_the_backend_using_only_the_keyboard(driver, site, screenshot) -> None:
    open_app(driver, site, "/redirect")
    driver.find_element(By.CSS_SELECTOR, "#appleid-signin button").click()
    wait_for(driver, lambda d: d.current_url.startswith(site.mock_base + "/auth/authorize"), "the mock's sheet")
    assert "response_mode=form_post" in driver.current_url
    # Keyboard only: arrow keys move the account choice, Enter continues.
    radio = driver.find_element(By.CSS_SELECTOR, 'input[name="account"]:checked')
    radio.send_keys(Keys.ARROW_DOWN)
    assert driver.find_element(By.CSS_SELECTOR, 'input[name="account"]:checked').get_attribute("value") == "bob"
    radio = driver.switch_to.active_element
    radio.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.NAME, "first_name"), "the consent sheet")
    hide = driver.find_element(By.CSS_SELECTOR, 'input[name="email_choice"]:checked')
    assert hide.get_attribute("value") == "hide", "bob's scenario default is Hide My Email"
    hide.send_keys(Keys.ARROW_UP)  # → Share My Email
    field = driver.find_element(By.NAME, "last_name")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Builder", Keys.ENTER)
    result = callback_result(driver)
    user = json.loads(result["fields"]["user"])
    assert user == {"name": {"firstName": "Bob", "lastName": "Builder"}, "email": "bob@example.com"}
    claims = result["redeemed"]["claims"]
    assert claims["email"] == "bob@example.com" and "is_private_email" not in claims
    assert result["fields"]["state"] == "st-123" and claims["nonce"] == "n-456"


def test_init_redirect_mode_with_defaults(driver, site) -> None:
    open_app(driver, site, "/init-redirect?scope=name%20email&state=init-state")
    driver.find_element(By.CSS_SELECTOR, "#appleid-signin button").click()
    wait_for(driver, lambda d: d.current_url.startswith(site.mock_base), "the mock's sheet")
    choose_account(driver, "alice")
    press(driver, "Continue")
    result = callback_result(driver)
    assert result["fields"]["state"] == "init-state"
    assert json.loads(result["fields"]["user"]) == {"name": ALICE_NAME, "email": "alice@example.com"}
    assert result["redeemed"]["claims"]["sub"] == ALICE_SUB


def test_a_blocked_popup_rejects_with_popup_blocked_by_browser(driver, site) -> None:
    open_app(driver, site, "/popup")
    driver.execute_script("window.open = function () { return null; };")  # what a popup blocker returns
    driver.find_element(By.ID, "promise-signin").click()
    assert promise_outcome(driver) == {"rejected": {"error": "popup_blocked_by_browser"}}
    assert events(driver) == [{"type": "failure", "detail": {"error": "popup_blocked_by_browser"}}]


def test_render_button_follows_the_data_attributes(driver, site) -> None:
    open_app(driver, site, "/popup")
    rendered = driver.execute_script("""
        var host = document.getElementById("appleid-signin");
        host.dataset.color = "white"; host.dataset.type = "continue"; host.dataset.mode = "left-align";
        host.dataset.borderRadius = "50";
        AppleID.auth.renderButton();
        var button = host.querySelector("button"), style = getComputedStyle(button);
        var result = {text: button.textContent, background: style.backgroundColor, color: style.color,
                      align: style.textAlign, radius: button.style.borderRadius, count: host.children.length};
        host.dataset.mode = "logo-only"; host.dataset.type = "sign up";
        AppleID.auth.renderButton();
        result.logoLabel = host.querySelector("button").getAttribute("aria-label");
        return result;""")
    assert rendered == {"text": "Continue with Apple", "background": "rgb(255, 255, 255)", "color": "rgb(0, 0, 0)",
                        "align": "left", "radius": "50%", "count": 1, "logoLabel": "Sign up with Apple"}
