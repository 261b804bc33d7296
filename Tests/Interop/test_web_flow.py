"""The interactive web flow driven like a browser: the account chooser, the consent sheet and Cancel."""

from __future__ import annotations

import json
import urllib.parse

import requests

from siwa import ALICE, BOB, REDIRECT_URI, authorize_params, describe, parse_forms


def picker(base: str, **overrides):
    params = authorize_params(login_hint=None, **overrides)
    url = f"{base}/auth/authorize?{urllib.parse.urlencode(params)}"
    page = requests.get(url, allow_redirects=False, timeout=10)
    assert page.status_code == 200, describe(page)
    assert page.headers.get("Content-Type", "").startswith("text/html"), describe(page)
    forms = parse_forms(page.text)
    assert len(forms) == 1 and forms[0].method == "get", describe(page)
    form = forms[0]
    assert urllib.parse.urljoin(url, form.action).split("?")[0] == f"{base}/auth/authorize", form.action
    return url, form


def submit(page_url: str, form, extra: dict[str, str]) -> requests.Response:
    """Submit a GET form the way a browser does: its fields plus the pressed button's name/value."""
    target = urllib.parse.urljoin(page_url, form.action).split("?")[0]
    query = urllib.parse.urlencode({**form.fields, **extra})
    return requests.get(f"{target}?{query}", allow_redirects=False, timeout=10)


def test_picker_lists_users_and_continue_signs_in(base: str) -> None:
    url, form = picker(base, state="pick-state")
    assert {ALICE.login, BOB.login} <= set(form.choices.get("account", [])), form.choices
    sheet = submit(url, form, {"account": BOB.login})
    assert sheet.status_code == 200, describe(sheet)
    [consent] = parse_forms(sheet.text)
    assert consent.method == "post" and consent.fields["account"] == BOB.login, consent
    target = urllib.parse.urljoin(url, consent.action)
    response = requests.post(target, data={**consent.fields, "consent": "continue"}, allow_redirects=False,
                             timeout=10)
    assert response.status_code == 200, describe(response)
    [post] = [f for f in parse_forms(response.text) if f.method == "post"]
    assert post.action == REDIRECT_URI
    assert post.fields["state"] == "pick-state"
    assert json.loads(post.fields["user"])["email"] == BOB.email


def test_picker_cancel_delivers_user_cancelled_authorize_form_post(base: str) -> None:
    url, form = picker(base, state="cancel-state")
    assert ("cancel", "1") in form.buttons, form.buttons
    response = submit(url, form, {"cancel": "1"})
    assert response.status_code == 200, describe(response)
    [post] = [f for f in parse_forms(response.text) if f.method == "post"]
    assert post.action == REDIRECT_URI
    assert post.fields == {"error": "user_cancelled_authorize", "state": "cancel-state"}, post.fields


def test_picker_cancel_delivers_error_in_query_mode(base: str) -> None:
    url, form = picker(base, response_type="code", response_mode="query", scope=None, nonce=None,
                       state="q-cancel")
    response = submit(url, form, {"cancel": "1"})
    assert response.status_code == 302, describe(response)
    location = response.headers["Location"]
    assert location.startswith(REDIRECT_URI + "?"), location
    assert dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query)) == {
        "error": "user_cancelled_authorize", "state": "q-cancel"}
