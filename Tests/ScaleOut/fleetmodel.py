"""The differential model test's operations: a generator of random sequences and a runner that plays one
sequence against a system (one replica, or several replicas on one Redis) and reports each operation's
outcome in terms that do not depend on identifiers (issue #21; Tests/ScaleOut/differential.py drives it).

An operation is a JSON object with `op`, `at` (which replica takes it, modulo the system's size) and `h`,
a handle fixed at generation: codes and tokens are named by the handle of the operation that made them,
and each system maps handles to its own values, so identifiers are compared through that mapping, never
by value. An outcome is (status, Apple's error code or the user a token names).
"""

from __future__ import annotations

import base64
import json
import random
import time
import urllib.parse

from siwatest.client import Client
from siwatest.scenario import NATIVE_CLIENT, REDIRECT_URI, WEB_CLIENT

INITIAL_USERS = ["alice", "bob", "carol"]
# Operations the reference and the fleet both run; the rest (FAULT_OPS) are the fleet's alone.
FAULT_OPS = {"redis_pause", "redis_kill", "replica_kill"}
# The built-in scenario's access-token lifetime (`expires_in`), and the clock advances the generator makes.
ACCESS_TOKEN_SECONDS = 3600
ADVANCE_SECONDS = {"1m": 60, "2m": 120, "6m": 360, "1h": 3600}


def generate(rng: random.Random, count: int, faults: bool, start: int = 0, skip: tuple[str, ...] = ()) -> list[dict]:
    """`count` operations; handles from `start`. Users, codes and tokens are drawn from those made
    earlier in the sequence (sometimes a deleted or unknown one, to exercise Apple's refusals)."""
    users, added, codes, tokens, ops = list(INITIAL_USERS), 0, [], [], []
    rule = None
    weights = {"authorize": 20, "native": 8, "token_code": 22, "token_refresh": 14, "revoke": 6,
               "user_add": 3, "user_patch": 4, "user_delete": 2, "clock": 3, "rotate": 0.4, "fault_add": 2,
               "fault_remove": 1}
    if faults:
        weights.update({"redis_pause": 0.15, "redis_kill": 0.15, "replica_kill": 0.3})
    for name in skip:
        weights.pop(name, None)
    names, cumulative = list(weights), list(weights.values())
    for index in range(count):
        h = start + index
        kind = rng.choices(names, cumulative)[0]
        op: dict = {"op": kind, "at": rng.randrange(3), "h": h}
        some_user = rng.choice(users + ["nobody"]) if rng.random() < 0.1 else rng.choice(users)
        if kind in ("authorize", "native"):
            op["user"] = some_user
            if kind == "authorize":
                op["mode"] = rng.choice(["web", "web", "hybrid"])
            codes.append(h)
        elif kind == "token_code":
            if not codes:
                continue
            # Mostly recent codes, sometimes an old one again (already used, or expired by the clock).
            op["code"] = codes[-1] if rng.random() < 0.5 else rng.choice(codes)
            op["wrong_client"] = rng.random() < 0.05
            tokens.append(h)
        elif kind in ("token_refresh", "revoke"):
            if not tokens:
                continue
            op["token"] = tokens[-1] if rng.random() < 0.4 else rng.choice(tokens)
            if kind == "revoke":
                op["kind"] = rng.choice(["refresh_token", "access_token"])
        elif kind == "user_add":
            added += 1
            op["user"] = f"u{h}"
            users.append(op["user"])
        elif kind == "user_patch":
            op["user"] = some_user
            op["change"] = rng.choice([{"credential_state": "revoked"}, {"credential_state": "authorized"},
                                       {"email_forwarding": False}, {"email_forwarding": True},
                                       {"first_name": f"N{h}"}])
        elif kind == "user_delete":
            if len(users) <= 1:
                continue
            op["user"] = rng.choice(users)
            users.remove(op["user"])
        elif kind == "clock":
            op["advance"] = rng.choice(["1m", "2m", "6m", "1h"])
        elif kind == "fault_add":
            if rule is not None:
                continue
            rule = f"r{h}"
            op.update({"rule": rule, "times": rng.randint(1, 4), "after": rng.choice([0, 0, 1, 2])})
        elif kind == "fault_remove":
            if rule is None:
                continue
            op["rule"], rule = rule, None
        ops.append(op)
    return ops


def id_token_sub(token: str) -> str | None:
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))).get("sub")
    except (IndexError, ValueError):
        return None


class System:
    """One system under test: clients for its replicas, its handle → identifier maps and the history the
    invariants are checked over. `replicas()` answers the current ports (a replica restarted by a fault
    listens on a new one)."""

    def __init__(self, name: str, ports, secrets: dict[str, str]) -> None:
        self.name, self.ports, self.secrets = name, ports, secrets
        self.clients: dict[int, Client] = {}
        self.codes: dict[int, tuple[str, str, str]] = {}      # handle → (code, client, user)
        self.tokens: dict[int, dict] = {}                      # handle → refresh/access/client/user/grant
        self.subs: dict[str, str] = {}                         # sub → user id
        self.redeemed: dict[str, int] = {}                     # code → successful redemptions
        self.revoked_grants: set[int] = set()                  # code handles whose grant was revoked
        self.clock_seconds = 0                                 # mock seconds advanced since the start
        self.rule_fired: dict[str, int] = {}
        self.rule_times: dict[str, int] = {}
        self.active_rule = "none"
        self.rule_body: dict | None = None
        self.violations: list[str] = []

    def client(self, at: int) -> Client:
        port = self.ports()[at % len(self.ports())]
        client = self.clients.get(port)
        if client is None:
            client = self.clients[port] = Client("127.0.0.1", port, self.secrets[WEB_CLIENT], timeout=10)
        return client

    def close(self) -> None:
        for client in self.clients.values():
            client.close()

    def control(self, at: int, method: str, path: str, body: object | None = None) -> tuple[int, dict]:
        status, _, data = self.client(at).request(method, path, json_body=body if body is not None else None)
        try:
            return status, json.loads(data) if data else {}
        except ValueError:
            return status, {"raw": data[:200].decode(errors="replace")}

    def learn_subs(self, at: int = 0) -> None:
        status, body = self.control(at, "GET", "/mock/users")
        for user in body.get("users", []) if status == 200 else []:
            self.subs[user["sub"]] = user["id"]

    def user_of(self, sub: str | None) -> str:
        if sub is None:
            return "?no-sub"
        if sub not in self.subs:
            self.learn_subs()
        return self.subs.get(sub, "?unknown-sub")

    def token_request(self, at: int, client: str, form: dict[str, str]) -> tuple[int, dict]:
        body = {"client_id": client, "client_secret": self.secrets[client], **form}
        status, headers, data = self.client(at).request("POST", "/auth/token", body)
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {}
        if status == 429:  # Apple's /auth/token never answers 429: the fault rule fired
            self.rule_fired[self.active_rule] = self.rule_fired.get(self.active_rule, 0) + 1
        return status, parsed

    def run(self, op: dict) -> tuple:
        """Plays one operation; its outcome, comparable across systems."""
        kind, at, h = op["op"], op["at"], op["h"]
        if kind == "authorize":
            return self.authorize(op, at, h)
        if kind == "native":
            status, body = self.control(at, "POST", "/mock/credentials", {"client_id": NATIVE_CLIENT,
                                                                         "user": op["user"]})
            if status == 200 and body.get("authorizationCode"):
                self.codes[h] = (body["authorizationCode"], NATIVE_CLIENT, op["user"])
                return (status, self.user_of(body.get("user")))
            return (status, body.get("error"))
        if kind == "token_code":
            return self.token_code(op, at, h)
        if kind == "token_refresh":
            return self.token_refresh(op, at, h)
        if kind == "revoke":
            token = self.tokens.get(op["token"])
            if token is None:
                return ("no-token",)
            value = token["refresh"] if op["kind"] == "refresh_token" else token["access"]
            form = {"client_id": token["client"], "client_secret": self.secrets[token["client"]],
                    "token": value, "token_type_hint": op["kind"]}
            status = self.client(at).request("POST", "/auth/revoke", form)[0]
            # An access token past its expires_in is a token the mock no longer knows: 200 and nothing
            # revoked (docs/fidelity.md, "Revoking an expired access token"). Found by this test's
            # oracle, which used to count it as revoking the grant.
            expired = (op["kind"] == "access_token"
                       and self.clock_seconds - token["issued"] >= ACCESS_TOKEN_SECONDS)
            if status == 200 and not expired:
                self.revoked_grants.add(token["grant"])
            return (status,)
        if kind == "user_add":
            status, body = self.control(at, "POST", "/mock/users", {"id": op["user"],
                                                                    "email": f"{op['user']}@example.com"})
            if status == 201:
                self.subs[body.get("sub", "")] = op["user"]
            return (status, body.get("error"))
        if kind == "user_patch":
            status, body = self.control(at, "PATCH", f"/mock/users/{op['user']}", op["change"])
            if status == 200 and op["change"].get("credential_state") == "revoked":
                self.end_grants_of(op["user"])
            return (status, body.get("error"))
        if kind == "user_delete":
            status, body = self.control(at, "DELETE", f"/mock/users/{op['user']}")
            if status == 200:
                self.end_grants_of(op["user"])
            return (status, body.get("error"))
        if kind == "clock":
            status = self.control(at, "POST", "/mock/clock", {"advance": op["advance"]})[0]
            if status == 200:
                self.clock_seconds += ADVANCE_SECONDS[op["advance"]]
            return (status,)
        if kind == "rotate":
            return (self.rotate(at),)
        if kind == "fault_add":
            return self.fault_add(op)
        if kind == "fault_remove":
            statuses = {self.control(i, "DELETE", f"/mock/faults/{op['rule']}")[0] for i in range(len(self.ports()))}
            self.active_rule = "none"
            return tuple(sorted(statuses))
        raise ValueError(f"unknown operation {kind}")

    def authorize(self, op: dict, at: int, h: int) -> tuple:
        hybrid = op["mode"] == "hybrid"
        query = {"client_id": WEB_CLIENT, "redirect_uri": REDIRECT_URI,
                 "response_type": "code id_token" if hybrid else "code",
                 "response_mode": "fragment" if hybrid else "query", "state": f"s{h}", "login_hint": op["user"]}
        if hybrid:
            query["nonce"] = f"n{h}"
        status, headers, body = self.client(at).request("GET", "/auth/authorize?" + urllib.parse.urlencode(query))
        if status != 302:
            try:
                return (status, json.loads(body).get("error"))
            except ValueError:
                return (status, "?")
        location = urllib.parse.urlsplit(headers["location"])
        values = dict(urllib.parse.parse_qsl(location.fragment if hybrid else location.query))
        if "code" not in values:
            return (302, values.get("error", "?no-code"))
        self.codes[h] = (values["code"], WEB_CLIENT, op["user"])
        named = self.user_of(id_token_sub(values["id_token"])) if hybrid else op["user"]
        if hybrid and named != op["user"]:
            self.violations.append(f"op {h}: hybrid id_token names {named}, {op['user']} authorized")
        return (302, "code")

    def token_code(self, op: dict, at: int, h: int) -> tuple:
        entry = self.codes.get(op["code"])
        if entry is None:
            return ("no-code",)
        code, client, user = entry
        if op.get("wrong_client"):
            client = NATIVE_CLIENT if client == WEB_CLIENT else WEB_CLIENT
        form = {"grant_type": "authorization_code", "code": code}
        if client == WEB_CLIENT:
            form["redirect_uri"] = REDIRECT_URI
        status, body = self.token_request(at, client, form)
        if status != 200:
            return (status, body.get("error"))
        self.redeemed[code] = self.redeemed.get(code, 0) + 1
        if self.redeemed[code] > 1:
            self.violations.append(f"op {h}: code of op {op['code']} redeemed {self.redeemed[code]} times")
        named = self.user_of(id_token_sub(body.get("id_token", "")))
        if named != user:
            self.violations.append(f"op {h}: the code {user} authorized (op {op['code']}) names {named}")
        self.tokens[h] = {"refresh": body.get("refresh_token"), "access": body.get("access_token"),
                          "client": client, "user": user, "grant": op["code"], "issued": self.clock_seconds}
        return (200, named)

    def token_refresh(self, op: dict, at: int, h: int) -> tuple:
        token = self.tokens.get(op["token"])
        if token is None:
            return ("no-token",)
        status, body = self.token_request(at, token["client"], {"grant_type": "refresh_token",
                                                                 "refresh_token": token["refresh"]})
        if status != 200:
            return (status, body.get("error"))
        if token["grant"] in self.revoked_grants:
            self.violations.append(f"op {h}: a refresh token of revoked grant (op {token['grant']}) worked")
        named = self.user_of(id_token_sub(body.get("id_token", "")))
        if named != token["user"]:
            self.violations.append(f"op {h}: {token['user']}'s refresh token names {named}")
        return (200, named)

    def end_grants_of(self, user: str) -> None:
        self.revoked_grants.update(h for h, (_, _, owner) in self.codes.items() if owner == user)

    def rotate(self, at: int) -> int | str:
        # The key supply makes RSA keys in the background: 503 until one is ready (seconds on a loaded
        # machine; each replica has its own supply).
        deadline = time.monotonic() + 60
        while True:
            status, body = self.control(at, "POST", "/mock/keys/rotate")
            if status != 503 or time.monotonic() > deadline:
                return status if status != 503 else f"503 {body}"
            time.sleep(0.1)

    def fault_add(self, op: dict) -> tuple:
        rule = {"id": op["rule"], "match": "POST /auth/token", "status": 429, "times": op["times"]}
        if op["after"]:
            rule["after"] = op["after"]
        self.rule_times[op["rule"]], self.active_rule, self.rule_body = op["times"], op["rule"], rule
        # The docs: a rule is added to every replica (same id) for its counters to be shared.
        statuses = {self.control(i, "POST", "/mock/faults", rule)[0] for i in range(len(self.ports()))}
        return tuple(sorted(statuses))

    def check_rules(self) -> None:
        """`times: N` fires at most N times over the whole system (exactly N is compared with the reference)."""
        for rule, fired in self.rule_fired.items():
            if fired > self.rule_times.get(rule, 0):
                self.violations.append(f"rule {rule} (times: {self.rule_times.get(rule)}) fired {fired} times")
