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
import smtplib
import time
import urllib.parse

from siwatest.client import Client
from siwatest.scenario import NATIVE_CLIENT, REDIRECT_URI, WEB_CLIENT

INITIAL_USERS = ["alice", "bob", "carol"]
# The users of the built-in scenario with a private relay address (docs/relay-mail.md).
PRIVATE_USERS = ["bob"]
# The built-in scenario's signing keys (`sign` makes one of them sign: a key change without generating a
# key, which a rotation does, seconds on a loaded machine).
SCENARIO_KIDS = ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"]
# Operations the reference and the fleet both run; the rest (FAULT_OPS) are the fleet's alone. The proxy
# faults damage Redis' replies between the replicas and Redis (Tests/ScaleOut/redisproxy.py).
PROXY_OPS = {"proxy_delay", "proxy_split", "proxy_truncate", "proxy_duplicate"}
FAULT_OPS = {"redis_pause", "redis_kill", "replica_kill"} | PROXY_OPS
# `timeline` operations are no requests: they are the entries of the scenario's `timeline:` that every
# system of the sequence loads (docs/scenarios.md, "timeline"); the model predicts when each fires.
TIMELINE_MATCH = "POST /auth/token with grant_type=refresh_token"
# A time trigger `at: 60m+30s` fires at the first clock advance reaching 60(m+1) s: the clock is frozen
# within seconds of the load (a run's start), and advances are whole minutes.
TIMELINE_MINUTES = [1, 2, 5, 60]
# The built-in scenario's access-token lifetime (`expires_in`), and the clock advances the generator makes.
ACCESS_TOKEN_SECONDS = 3600
ADVANCE_SECONDS = {"1m": 60, "2m": 120, "6m": 360, "1h": 3600}


def generate(rng: random.Random, count: int, faults: bool, start: int = 0, skip: tuple[str, ...] = (),
             ensure: tuple[str, ...] = ()) -> list[dict]:
    """`count` operations; handles from `start`. Users, codes and tokens are drawn from those made
    earlier in the sequence (sometimes a deleted or unknown one, to exercise Apple's refusals).
    `ensure`: fault operations to place at least once, at random positions (a short run still has each)."""
    users, added, codes, tokens, ops = list(INITIAL_USERS), 0, [], [], []
    private = list(PRIVATE_USERS)
    rule = None
    weights = {"authorize": 20, "native": 8, "token_code": 22, "token_refresh": 14, "revoke": 6,
               "user_add": 3, "user_patch": 4, "user_delete": 2, "clock": 3, "rotate": 0.1, "sign": 0.5,
               "fault_add": 2,
               "fault_remove": 1, "relay": 3}
    if faults:
        weights.update({"redis_pause": 0.15, "redis_kill": 0.15, "replica_kill": 0.3})
        weights.update({kind: 0.15 for kind in sorted(PROXY_OPS)})
    for name in skip:
        weights.pop(name, None)
    names, cumulative = list(weights), list(weights.values())
    if "timeline" not in skip:
        # Up to four entries, any two of which may change one user: then the order they fired in decides
        # the user's state, at every replica and at one that joins the run later
        # (sequences/timeline-entries-replayed-in-index-order.json).
        for user in [rng.choice(INITIAL_USERS) for _ in range(rng.choice([0, 1, 2, 2, 3, 4]))]:
            ops.append(timeline_entry(rng, start + len(ops), user))
    start += len(ops)
    for index in range(count - len(ops)):
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
            op["private"] = rng.random() < 0.5
            users.append(op["user"])
            if op["private"]:
                private.append(op["user"])
        elif kind == "relay":
            # Mail to a user's relay address, mostly one still there, sometimes a deleted user's.
            alive = [user for user in private if user in users]
            op["user"] = rng.choice(alive) if alive and rng.random() < 0.9 else rng.choice(private)
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
        elif kind == "sign":
            op["kid"] = rng.choice(SCENARIO_KIDS)
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
    first = len([op for op in ops if op["op"] == "timeline"])
    for offset, kind in enumerate(k for k in ensure if k not in {op["op"] for op in ops}):
        ops.insert(rng.randint(first, len(ops)), {"op": kind, "at": rng.randrange(3), "h": start + count + offset})
    return ops


def timeline_entry(rng: random.Random, h: int, user: str) -> dict:
    """One entry of the scenario's timeline: a trigger (the fleet's Nth refresh request, or a moment of
    the mock clock) and one change of `user` whose effect the model predicts."""
    action = rng.choice([{"update_user": {"user": user, "credential_state": "revoked"}},
                         {"update_user": {"user": user, "credential_state": "authorized"}},
                         {"update_user": {"user": user, "email_forwarding": False}},
                         {"update_user": {"user": user, "email_forwarding": True}},
                         {"delete_account": user}])
    trigger = {"after": rng.randint(1, 12)} if rng.random() < 0.6 else {"minutes": rng.choice(TIMELINE_MINUTES)}
    return {"op": "timeline", "at": 0, "h": h, "trigger": trigger, "action": action}


def timeline_yaml(ops: list[dict]) -> str:
    """The `timeline:` section of the sequence's `timeline` operations, in their order ('' if none)."""
    entries = [op for op in ops if op["op"] == "timeline"]
    if not entries:
        return ""
    lines = ["timeline:"]
    for entry in entries:
        trigger = entry["trigger"]
        if "after" in trigger:
            lines.append(f"  - after: {trigger['after']} {TIMELINE_MATCH}")
        else:
            lines.append(f"  - at: {trigger['minutes']}m30s")
        ((action, argument),) = entry["action"].items()
        if isinstance(argument, dict):
            argument = "{" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in argument.items()) + "}"
        lines += ["    do:", f"      - {action}: {argument}"]
    return "\n".join(lines) + "\n"


def id_token_sub(token: str) -> str | None:
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))).get("sub")
    except (IndexError, ValueError):
        return None


class System:
    """One system under test: clients for its replicas, its handle → identifier maps and the history the
    invariants are checked over. `processes()` answers the current replicas (a replica restarted by a
    fault listens on new ports and logs to a new file). `timeline` holds the sequence's `timeline`
    operations, which the system's scenario has."""

    def __init__(self, name: str, processes, secrets: dict[str, str], timeline: list[dict]) -> None:
        self.name, self.processes, self.secrets = name, processes, secrets
        self.ports = lambda: [process.port for process in processes()]
        self.clients: dict[int, Client] = {}
        # The model of the users: id → email_forwarding, for those that exist; relay addresses as read.
        self.users: dict[str, bool] = {user: True for user in INITIAL_USERS}
        self.relay_addresses: dict[str, str] = {}
        self.timeline = [{"entry": op, "fired": False} for op in timeline]
        self.refreshes = 0          # POST /auth/token with grant_type=refresh_token sent (the triggers' match)
        self.timeline_fired = 0     # entries the model says have fired
        self.rule_matched: dict[str, int] = {}
        self.rule_after: dict[str, int] = {}
        self.rule_uncertain: set[str] = set()
        self.rules_consumed = 0     # rules whose `times` were all used up, checked exactly
        self.signing_kid: str | None = None  # as the last acknowledged rotation left it
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
        if form.get("grant_type") == "refresh_token":
            self.refreshes += 1
        self.check_rule_request(status)
        return status, parsed

    def check_rule_request(self, status: int) -> None:
        """`times: N` fires exactly N times over the whole system: every POST /auth/token matches the active
        rule, so request k is answered 429 exactly when after < k <= after + times. When the rule's N-th
        firing was due, it must have fired N times. Exception (docs/scale-out.md, "Failure modes"): a
        request answered 503 while Redis is stopped may have been counted when Redis resumed; the rule's
        exact count is then unknown and only "at most N" is checked."""
        rule = self.active_rule
        if rule == "none":
            return
        matched = self.rule_matched[rule] = self.rule_matched.get(rule, 0) + 1
        if status == 503:
            self.rule_uncertain.add(rule)
        if rule in self.rule_uncertain:
            return
        after, times = self.rule_after[rule], self.rule_times[rule]
        expected = after < matched <= after + times
        if (status == 429) != expected:
            self.violations.append(f"rule {rule} (times: {times}, after: {after}): matching request {matched} "
                                   f"answered {status}, {'429' if expected else 'not 429'} expected")
        if matched == after + times:
            fired = self.rule_fired.get(rule, 0)
            self.rules_consumed += 1
            if fired != times:
                self.violations.append(f"rule {rule}: all {times} firings due after {matched} requests, "
                                       f"fired {fired} times")

    def run(self, op: dict) -> tuple:
        """Plays one operation; its outcome, comparable across systems. A request trigger fires right after
        the request that reached its count was answered (docs/scenarios.md), so after the operation."""
        outcome = self.play(op)
        self.fire_timeline(lambda trigger: "after" in trigger and trigger["after"] <= self.refreshes)
        return outcome

    def play(self, op: dict) -> tuple:
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
            # A revocation ends the whole authorization of the (user, app group) — every grant of the user,
            # as the built-in scenario's two clients share one group — when the token was live (found by the
            # check that nothing acknowledged is lost: the model ended only the token's own grant).
            if status == 200 and not expired and token["grant"] not in self.revoked_grants:
                self.end_grants_of(token["user"])
            return (status,)
        if kind == "user_add":
            status, body = self.control(at, "POST", "/mock/users", {"id": op["user"], "email": f"{op['user']}@example.com",
                                                                    "private_email": op.get("private", False)})
            if status == 201:
                self.subs[body.get("sub", "")] = op["user"]
                self.users[op["user"]] = True
            return (status, body.get("error"))
        if kind == "user_patch":
            status, body = self.control(at, "PATCH", f"/mock/users/{op['user']}", op["change"])
            if status == 200:
                self.change_user(op["user"], op["change"])
            return (status, body.get("error"))
        if kind == "user_delete":
            status, body = self.control(at, "DELETE", f"/mock/users/{op['user']}")
            if status == 200:
                self.end_grants_of(op["user"])
                self.users.pop(op["user"], None)
            return (status, body.get("error"))
        if kind == "relay":
            return self.relay(op, at)
        if kind == "clock":
            status = self.control(at, "POST", "/mock/clock", {"advance": op["advance"]})[0]
            if status == 200:
                self.clock_seconds += ADVANCE_SECONDS[op["advance"]]
            return (status,)
        if kind == "rotate":
            return (self.rotate(at),)
        if kind == "sign":
            status, body = self.control(at, "POST", f"/mock/keys/{op['kid']}/sign")
            if status == 200:
                self.signing_kid = op["kid"]
            return (status, body.get("error"))
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

    def change_user(self, user: str, change: dict) -> None:
        """A change the system acknowledged (control API) or the timeline applied, in the model."""
        if user not in self.users:
            return
        if change.get("credential_state") == "revoked":
            self.end_grants_of(user)
        if "email_forwarding" in change:
            self.users[user] = change["email_forwarding"]

    def relay(self, op: dict, at: int) -> tuple:
        """RCPT TO the user's relay address at the replica's SMTP listener (docs/relay-mail.md): 250 while the
        user exists with forwarding on, else 550 (user not found); the model predicts which."""
        user = op["user"]
        if user not in self.relay_addresses:
            status, body = self.control(at, "GET", f"/mock/users/{user}")
            if status != 200 or not body.get("relay_email"):
                return ("no-relay-address", status)
            self.relay_addresses[user] = body["relay_email"]
        process = self.processes()[at % len(self.ports())]
        with smtplib.SMTP("127.0.0.1", process.smtp_port, timeout=10) as smtp:
            smtp.ehlo("sender.example")
            smtp.mail("news@shop.example")
            code, _ = smtp.rcpt(self.relay_addresses[user])
        expected = 250 if self.users.get(user) else 550
        if code != expected:
            self.violations.append(f"op {op['h']}: mail to {user}'s relay address answered {code}, the model "
                                   f"expected {expected} (forwarding {self.users.get(user, 'gone')})")
        return (code,)

    def fire_timeline(self, due) -> int:
        """Fires, in the model, the entries not fired yet whose trigger `due(trigger)` holds; how many."""
        count = 0
        for item in self.timeline:
            if item["fired"] or not due(item["entry"]["trigger"]):
                continue
            item["fired"], count = True, count + 1
            self.timeline_fired += 1
            ((action, argument),) = item["entry"]["action"].items()
            if action == "delete_account":
                if argument in self.users:
                    self.end_grants_of(argument)
                    self.users.pop(argument)
            else:
                self.change_user(argument["user"], {k: v for k, v in argument.items() if k != "user"})
        return count

    def due_time_entries(self) -> bool:
        """Whether a time-triggered entry is due on the mock clock and has not fired (it fires before the
        next request to an Apple endpoint)."""
        return any(not item["fired"] and "minutes" in item["entry"]["trigger"]
                   and self.clock_seconds >= 60 * (item["entry"]["trigger"]["minutes"] + 1) for item in self.timeline)

    def fire_due_time_entries(self) -> int:
        return self.fire_timeline(lambda trigger: "minutes" in trigger
                                  and self.clock_seconds >= 60 * (trigger["minutes"] + 1))

    def timeline_lines(self) -> list[int]:
        """Per replica, how many timeline actions its log says it applied (or failed): each replica applies
        every fired entry, the one that fired it and the others following (docs/scale-out.md)."""
        return [sum(1 for line in process.log_path.read_text(errors="replace").splitlines()
                    if any(kind in line for kind in ("timeline: applied ", "timeline: failed ", "timeline: followed ")))
                for process in self.processes()]

    def end_grants_of(self, user: str) -> None:
        self.revoked_grants.update(h for h, (_, _, owner) in self.codes.items() if owner == user)

    def rotate(self, at: int) -> int | str:
        # The key supply makes RSA keys in the background: 503 until one is ready (seconds on a loaded
        # machine; each replica has its own supply).
        deadline = time.monotonic() + 60
        while True:
            status, body = self.control(at, "POST", "/mock/keys/rotate")
            if status == 200:
                self.signing_kid = body.get("signing_kid")
            if status != 503 or time.monotonic() > deadline:
                return status if status != 503 else f"503 {body}"
            time.sleep(0.1)

    def fault_add(self, op: dict) -> tuple:
        rule = {"id": op["rule"], "match": "POST /auth/token", "status": 429, "times": op["times"]}
        if op["after"]:
            rule["after"] = op["after"]
        self.rule_times[op["rule"]], self.active_rule, self.rule_body = op["times"], op["rule"], rule
        self.rule_after[op["rule"]] = op["after"]
        # The docs: a rule is added to every replica (same id) for its counters to be shared.
        statuses = {self.control(i, "POST", "/mock/faults", rule)[0] for i in range(len(self.ports()))}
        return tuple(sorted(statuses))

    def check_rules(self) -> None:
        """`times: N` fires at most N times over the whole system (exactly N is compared with the reference)."""
        for rule, fired in self.rule_fired.items():
            if fired > self.rule_times.get(rule, 0):
                self.violations.append(f"rule {rule} (times: {self.rule_times.get(rule)}) fired {fired} times")
