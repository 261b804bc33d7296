# Generates Sources/SIWAServer/Control/OpenAPIDocument.swift (the document at /mock/openapi.json).
# Run: python3 docs/openapi.py — then rebuild. Keep it in step with the routes in ControlEndpoints/AppleEndpoints.
# python3 docs/openapi.py --check: writes nothing; exits 1 if the checked-in Swift file is not what this
# script generates (CI runs it).
import json, sys
def ref(name): return {"$ref": f"#/components/schemas/{name}"}
def jresp(desc, schema): return {"description": desc, "content": {"application/json": {"schema": schema}}}
R = lambda n: {"$ref": f"#/components/responses/{n}"}
apple_err = jresp("Apple error (ErrorResponse)", ref("AppleError"))
ctl = {"400": R("BadRequest"), "401": R("Unauthorized"), "404": R("NotFound"), "405": R("MethodNotAllowed"), "409": R("Conflict"), "501": R("NotImplemented"), "503": R("Unavailable")}
def c(*codes): return {k: ctl[k] for k in codes}
form = lambda props, req=[]: {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": props, "required": req}}}}
S = {"type": "string"}
NE = {"type": "string", "minLength": 1}
sec = [{}, {"adminToken": []}, {"dashboardSession": []}]
def op(summary, responses, **extra):
    d = {"summary": summary, "responses": responses, "security": sec}
    d.update(extra); return d
def jbody(schema, required=True): return {"required": required, "content": {"application/json": {"schema": schema}}}
obj = lambda props, req=None, extra=False: dict({"type": "object", "properties": props, "additionalProperties": extra}, **({"required": req} if req else {}))
authorize_params = [{"name": n, "in": "query", "required": n in ("client_id", "redirect_uri", "response_type"), "schema": S} for n in
    ["client_id", "redirect_uri", "response_type", "scope", "response_mode", "state", "nonce", "login_hint", "cancel",
     "account", "consent", "first_name", "last_name", "email_choice"]]
authorize_resp = {
    "200": {"description": "Consent sheet (account chooser, sheet), or the form_post or web_message page delivering the result", "content": {"text/html": {"schema": S}}},
    "302": {"description": "Result delivered to redirect_uri (query or fragment)", "headers": {"Location": {"schema": S}}},
    "400": apple_err}
paths = {
 "/.well-known/openid-configuration": {"get": {"summary": "OpenID discovery document", "security": [], "responses": {"200": jresp("Discovery document", {"type": "object"})}}},
 "/auth/keys": {"get": {"summary": "JWKS of id_token signing keys", "security": [], "responses": {"200": jresp("JWKS", ref("JWKS"))}}},
 "/appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js": {"get": {"summary": "Sign in with Apple JS (docs/browser.md)", "security": [],
   "parameters": [{"name": "locale", "in": "path", "required": True, "schema": S}, {"name": "If-None-Match", "in": "header", "required": False, "schema": S}],
   "responses": {"200": {"description": "The script, with ETag and Cache-Control", "content": {"text/javascript": {"schema": S}}},
                 "304": {"description": "Not modified (If-None-Match matched the ETag)"},
                 "404": jresp("Not a locale (letters with an optional _REGION)", {"type": "object"})}}},
 "/auth/authorize": {
   "get": {"summary": "Authorization (web flow; headless with login_hint)", "security": [], "parameters": authorize_params, "responses": authorize_resp},
   "post": {"summary": "Authorization submitted as a form", "security": [], "requestBody": form({p["name"]: S for p in authorize_params}), "responses": authorize_resp}},
 "/auth/token": {"post": {"summary": "Token endpoint (authorization_code, refresh_token, client_credentials)", "security": [],
   "requestBody": form({n: S for n in ["grant_type", "client_id", "client_secret", "code", "redirect_uri", "refresh_token", "scope"]}),
   "responses": {"200": jresp("TokenResponse", ref("TokenResponse")), "400": apple_err}}},
 "/auth/revoke": {"post": {"summary": "Revoke a refresh or access token", "security": [],
   "requestBody": form({n: S for n in ["client_id", "client_secret", "token", "token_type_hint"]}),
   "responses": {"200": {"description": "Revoked (also for unknown tokens); empty body"}, "400": apple_err}}},
 "/auth/usermigrationinfo": {"post": {"summary": "User migration between teams (transfer_sub)", "security": [],
   "description": "Authorization: Bearer <client_credentials access token, scope user.migration>. Like Apple, a missing or bad token is a 400 invalid_request, not a 401.",
   "parameters": [{"name": "Authorization", "in": "header", "required": False, "schema": S}],
   "requestBody": form({n: S for n in ["client_id", "client_secret", "sub", "target", "transfer_sub"]}),
   "responses": {"200": jresp("transfer_sub (sender) or the recipient team's identity", ref("MigrationInfo")), "400": apple_err}}},
 "/mock/health": {"get": {"summary": "Readiness (open even with --admin-token)", "security": [], "responses": {"200": jresp("Ready", obj({"status": S}, ["status"])),
                  "503": jresp("Unhealthy: the shared state store (--store) is unreachable", obj({"status": S, "reason": S}, ["status", "reason"]))}},
                  "head": {"summary": "Readiness (no body)", "security": [], "responses": {"200": {"description": "Ready"}, "503": {"description": "Unhealthy (state store unreachable)"}}}},
 "/mock/openapi.json": {"get": op("This document", {"200": jresp("OpenAPI 3 document", {"type": "object"}), **c("401")})},
 "/mock/reset": {"post": op("Back to the scenario's initial state; the journal, notification history and relay mailbox (with its per-day counts) are cleared", {"200": jresp("Reset", obj({"status": S, "journal_cleared": {"type": "integer"}, "notifications_cleared": {"type": "integer"}}, ["status", "journal_cleared", "notifications_cleared"])), **c("401", "503")})},
 "/mock/scenario": {"get": op("The active scenario: where it came from, its text, the text's SHA-256 and when it was loaded",
    {"200": jresp("Active scenario", obj({"source": S, "name": S, "sha256": S, "loaded_at": {"type": "string", "format": "date-time"}, "text": S}, ["source", "name", "sha256", "loaded_at", "text"])), **c("401")}),
  "put": op("Replace the active scenario atomically",
    {"200": jresp("Replaced", obj({"status": S, "name": S}, ["status"])), "400": jresp("Scenario errors; old scenario kept", ref("ScenarioErrors")), **c("401", "501", "503")},
    requestBody={"required": True, "description": "Scenario text (YAML subset or JSON, docs/scenarios.md#syntax)", "content": {"text/plain": {"schema": S}, "application/yaml": {"schema": {}}, "application/json": {"schema": {"type": "object"}}}})},
 "/mock/credentials": {"post": op("What ASAuthorizationAppleIDCredential gives a native app; with `requests`, what an existing-account flow offers (Apple ID or saved password); with `account_upgrade`, what an account-upgrade extension gets",
    {"200": jresp("Native credential, or with `requests`/`account_upgrade` a typed credential", {"oneOf": [ref("NativeCredential"), ref("TypedAppleIDCredential"), ref("PasswordCredential")]}),
     "409": jresp("No credential to offer (`ASAuthorizationError` canceled 1001 / unknown 1000), or no password account to upgrade", ref("NoCredentials")), **c("400", "401", "404")},
    requestBody=jbody(obj({"client_id": NE, "user": NE, "scopes": {"type": "array", "items": {"type": "string", "enum": ["full_name", "fullName", "name", "email"]}}, "nonce": S, "state": S,
        "requests": {"type": "array", "minItems": 1, "items": {"type": "string", "enum": ["apple_id", "password"]}}, "prefer_immediately_available": {"type": "boolean"}, "account_upgrade": {"type": "boolean"}}, ["client_id", "user"])))},
 "/mock/credential-state": {"get": op("getCredentialState(forUserID:) as a device answers",
    {"200": jresp("State", obj({"state": {"type": "string", "enum": ["authorized", "revoked", "notFound", "transferred"]}, "raw_value": {"type": "integer", "minimum": 0, "maximum": 3}}, ["state", "raw_value"])), **c("400", "401", "404")},
    parameters=[{"name": "user", "in": "query", "required": True, "schema": NE}, {"name": "client_id", "in": "query", "required": True, "schema": NE}])},
 "/mock/users": {
    "get": op("List users", {"200": jresp("Users", obj({"users": {"type": "array", "items": ref("User")}}, ["users"])), **c("401")}),
    "post": op("Add a user", {"201": jresp("Added", ref("User")), **c("400", "401", "409")}, requestBody=jbody(ref("NewUser")))},
 "/mock/users/{id}": {
    "parameters": [{"name": "id", "in": "path", "required": True, "description": "Scenario id, sub (any team) or email", "schema": S}],
    "get": op("Read a user", {"200": jresp("User", ref("User")), **c("401", "404")}),
    "patch": op("Change a user (nothing applied on error)", {"200": jresp("User", ref("User")), **c("400", "401", "404", "503")}, requestBody=jbody(ref("UserChange"))),
    "delete": op("The user deletes their Apple Account", {"200": jresp("Deleted", obj({"deleted": S}, ["deleted"])), **c("401", "404", "503")})},
 "/mock/clock": {
    "get": op("Mock clock", {"200": jresp("Clock", ref("Clock")), **c("401")}),
    "post": op("Advance, set or freeze the clock (exactly one field)", {"200": jresp("Clock", ref("Clock")), **c("400", "401", "409")},
        requestBody=jbody({"oneOf": [obj({"advance": {"oneOf": [{"type": "string", "pattern": "^-?[0-9]{1,15}(d|h|m|s|ms)([0-9]{1,15}(h|m|s|ms))*$"}, {"type": "integer", "minimum": -12614400000, "maximum": 12614400000}]}}, ["advance"]),
                                     obj({"set": {"type": "string", "format": "date-time"}}, ["set"]),
                                     obj({"freeze": {"type": "boolean"}}, ["freeze"])]}))},
 "/mock/keys": {"get": op("Signing keys", {"200": jresp("Keys", ref("KeyList")), **c("401")})},
 "/mock/keys/rotate": {"post": op("Sign with a new pre-generated key; the old one stays published (503 while none is ready)", {"200": jresp("Keys", ref("KeyList")), **c("400", "401", "409", "503")},
    requestBody=jbody(obj({"kid": {"type": "string", "minLength": 1, "maxLength": 64}}), required=False))},
}
for action, summary, extra in [("publish", "List the key at /auth/keys", ()), ("retire", "Remove the key from /auth/keys", ("409",)), ("sign", "Make the key sign id_tokens", ())]:
    paths[f"/mock/keys/{{kid}}/{action}"] = {"parameters": [{"name": "kid", "in": "path", "required": True, "schema": S}],
        "post": op(summary, {"200": jresp("Keys", ref("KeyList")), **c("401", "404", *extra)})}
paths["/mock/requests"] = {
    "get": op("Journal of received requests (paged: limit, after; next_after when more follow); scope=fleet: every replica's, from the shared journal", {"200": jresp("Entries", obj({"requests": {"type": "array", "items": ref("JournalEntry")}, "next_after": {"type": "integer"}}, ["requests"])), **c("400", "401", "503")},
        parameters=[{"name": n, "in": "query", "required": False, "schema": S} for n in ["path", "client_id", "user"]]
        + [{"name": "include", "in": "query", "required": False, "schema": {"type": "string", "enum": ["mock"]}},
           {"name": "scope", "in": "query", "required": False, "schema": {"type": "string", "enum": ["replica", "fleet"], "default": "replica"}},
           {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 1000}},
           {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0}}]),
    "delete": op("Clear the journal (scope=fleet: the shared one)", {"200": jresp("Cleared", obj({"cleared": {"type": "integer"}}, ["cleared"])), **c("400", "401", "503")},
        parameters=[{"name": "scope", "in": "query", "required": False, "schema": {"type": "string", "enum": ["replica", "fleet"], "default": "replica"}}])}
paths["/mock/notifications"] = {
    "get": op("Server-to-server notifications and their delivery attempts", {"200": jresp("Notifications", obj({"notifications": {"type": "array", "items": ref("Notification")}}, ["notifications"])), **c("401")}),
    "post": op("Send a server-to-server notification", {"202": jresp("Queued", obj({"queued": {"type": "array", "items": obj({"id": {"type": "integer"}, "type": S, "jti": S, "url": S, "aud": S})}}, ["queued"])), **c("400", "401", "404", "409")},
        requestBody=jbody(obj({"type": {"type": "string", "enum": ["email-disabled", "email-enabled", "consent-revoked", "account-delete", "account-deleted"]}, "user": NE, "client_id": NE, "deliveries": {"type": "integer", "minimum": 1, "maximum": 10}}, ["type", "user"])))}
paths["/mock/clients/{id}/redirect-uris"] = {"parameters": [{"name": "id", "in": "path", "required": True, "schema": S}],
    "post": op("Register one more redirect URI for a Services ID (no need to restate the scenario)", {"200": jresp("The client's redirect URIs", obj({"client_id": S, "redirect_uris": {"type": "array", "items": S}}, ["client_id", "redirect_uris"])), **c("400", "401", "404", "409")},
        requestBody=jbody(obj({"redirect_uri": NE}, ["redirect_uri"])))}
paths["/mock/app-groups"] = {"get": op("App groups and their notification endpoints", {"200": jresp("Groups", ref("AppGroupList")), **c("401")})}
paths["/mock/app-groups/{id}"] = {"parameters": [{"name": "id", "in": "path", "required": True, "schema": S}],
    "patch": op("Set or remove the group's notification endpoint", {"200": jresp("Groups", ref("AppGroupList")), **c("400", "401", "404")},
        requestBody=jbody(obj({"notification_url": {"type": ["string", "null"]}}, ["notification_url"])))}
settings_schema = obj({"events_as_string": {"type": "boolean"}, "event_time_ms": {"type": "boolean"}, "account_deletion_type": {"type": "string", "enum": ["account-delete", "account-deleted"]},
    "send_on_user_changes": {"type": "boolean"}, "max_attempts": {"type": "integer", "minimum": 1, "maximum": 20}, "retry_delay_ms": {"type": "integer", "minimum": 0, "maximum": 600000},
    "timeout_ms": {"type": "integer", "minimum": 1, "maximum": 120000}, "deliveries_per_event": {"type": "integer", "minimum": 1, "maximum": 10}})
settings_full = dict(settings_schema, required=list(settings_schema["properties"].keys()))
paths["/mock/notifications/settings"] = {
    "get": op("Notification switches", {"200": jresp("Settings", settings_full), **c("401")}),
    "patch": op("Change notification switches", {"200": jresp("Settings", settings_full), **c("400", "401")}, requestBody=jbody(settings_schema))}
fault = obj({"id": S, "match": S, "enabled": {"type": "boolean"}, "after": {"type": "integer"}, "times": {"type": ["integer", "null"]},
    "probability": {"type": "number"}, "action": S, "matched": {"type": "integer"}, "fired": {"type": "integer"}},
    ["id", "match", "enabled", "after", "times", "probability", "action", "matched", "fired"])
fault_list = jresp("Rules with counters", obj({"faults": {"type": "array", "items": fault}}, ["faults"]))
loose_error = lambda d: jresp(d, {"type": "object", "properties": {"error": S}, "required": ["error"]})
fault_id = [{"name": "id", "in": "path", "required": True, "schema": S}]
paths["/mock/faults"] = {
    "get": op("Fault rules with counters", {"200": fault_list, **c("401")}),
    "post": op("Add a fault rule (the scenario's fault syntax as JSON)", {"201": jresp("Added", fault), "400": loose_error("Invalid rule; `problems` lists every error"), "409": loose_error("A rule with this id exists"), **c("401")},
        requestBody={"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}),
    "delete": op("Remove every fault rule", {"204": {"description": "Removed"}, **c("401")})}
paths["/mock/faults/reset"] = {"post": op("Reset every rule's counters", {"200": fault_list, **c("401")})}
paths["/mock/faults/{id}"] = {"parameters": fault_id,
    "get": op("One fault rule", {"200": jresp("Rule", fault), "404": loose_error("Unknown rule"), **c("401")}),
    "delete": op("Remove a fault rule", {"204": {"description": "Removed"}, "404": loose_error("Unknown rule"), **c("401")})}
paths["/mock/faults/{id}"]["patch"] = op("Switch a fault rule on or off (counters kept)", {"200": jresp("Rule", fault), **c("400", "401", "404")},
    requestBody=jbody(obj({"enabled": {"type": "boolean"}}, ["enabled"])))
html = lambda d: {"description": d, "content": {"text/html": {"schema": S}}}
static_file = lambda d, media: {"get": {"summary": d, "security": [], "responses": {"200": {"description": d, "headers": {"ETag": {"schema": S}}, "content": {media: {"schema": S}}}, "304": {"description": "Not modified (If-None-Match)"}}}}
see_other = {"description": "To the dashboard", "headers": {"Location": {"schema": S}, "Set-Cookie": {"schema": S}}}
paths["/mock/ui"] = {"get": {"summary": "The dashboard (docs/browser.md); with --admin-token and no session, the sign-in form", "security": [],
    "responses": {"200": {"description": "Dashboard or sign-in page", "headers": {"ETag": {"schema": S}, "Content-Security-Policy": {"schema": S}}, "content": {"text/html": {"schema": S}}}, "304": {"description": "Not modified (If-None-Match)"}}}}
paths["/mock/ui/dashboard.js"] = static_file("The dashboard's script", "text/javascript")
paths["/mock/ui/dashboard.css"] = static_file("The dashboard's style sheet", "text/css")
paths["/mock/ui/icon.svg"] = static_file("The dashboard's icon", "image/svg+xml")
paths["/mock/ui/login"] = {"post": {"summary": "Dashboard sign-in: the admin token in a form body (never the URL) sets the session cookie", "security": [],
    "requestBody": form({"admin_token": S}, ["admin_token"]),
    "responses": {"303": see_other, "400": html("No admin_token in the form body, or it was in the URL"), "401": html("Wrong admin token; the form again")}}}
paths["/mock/ui/logout"] = {"post": {"summary": "Dashboard sign-out: removes the session cookie", "security": [], "responses": {"303": see_other}}}
paths["/mock/faults/{id}/reset"] = {"parameters": fault_id,
    "post": op("Reset one rule's counters", {"200": fault_list, "404": loose_error("Unknown rule"), **c("401")})}
nullable = lambda t: {"type": [t, "null"]}
# The private email relay's mailbox (docs/relay-mail.md).
mail_props = {"id": S, "time": {"type": "string", "format": "date-time"}, "direction": {"type": "string", "enum": ["to-user", "to-developer"]},
    "status": {"type": "string", "enum": ["delivered", "rejected", "deferred"]}, "smtp_reply": S, "reason": S, "team": nullable("string"),
    "user": nullable("string"), "relay_address": S, "delivered_to": nullable("string"), "envelope_from": S, "from": nullable("string"),
    "rewritten_from": nullable("string"), "subject": nullable("string"), "size": {"type": "integer", "minimum": 0},
    "from_name": nullable("string"), "attachments": {"type": "integer", "minimum": 0},
    "parts_note": {"type": ["string", "null"], "description": "Why not every MIME part was read (more than 1000 parts, or nesting deeper than 8); null when all were"}}
mail_summary = obj(mail_props, list(mail_props))
mail_detail_props = dict(mail_props, headers={"type": "array", "items": obj({"name": S, "value": S, "decoded": S}, ["name", "value"])},
    text=nullable("string"), html=nullable("string"), other_parts={"type": "array", "items": S},
    truncated={"type": "array", "items": {"type": "string", "enum": ["headers", "text", "html"]},
        "description": "Fields cut to keep this view within 2 MiB of message text (docs/limits.md); the .eml has every byte"},
    attachments={"type": "array", "items": obj({"part": S, "content_type": S, "filename": S, "content_id": nullable("string"), "inline": {"type": "boolean"},
        "size": {"type": "integer"}, "url": S}, ["part", "content_type", "filename", "content_id", "inline", "size", "url"])})
mail_id = [{"name": "id", "in": "path", "required": True, "schema": S}]
mail_filters = [{"name": n, "in": "query", "required": False, "schema": S} for n in ["relay_address", "real_address", "team", "sender", "since"]] + [
    {"name": "status", "in": "query", "required": False, "schema": {"type": "string", "enum": ["delivered", "rejected", "deferred"]}},
    {"name": "query", "in": "query", "required": False, "schema": S, "description": "A search in Mailpit's syntax over from, to, subject and body (the one /api/v1/search runs)"}]
mail_wait = [{"name": "wait", "in": "query", "required": False, "schema": {"type": "string", "examples": ["5s", "1500ms"]},
    "description": "A duration (500ms, 30s, 1m; at most 1h): answer as soon as a matching message is stored (delivered or refused), else after the wait with what matches then (an empty list, and no_mail saying why). Already-stored matches answer at once."}]
paths["/mock/mail"] = {
    "get": op("Mail the relay delivered and refused, oldest first; with wait, a long poll", {"200": jresp("Messages", obj({"messages": {"type": "array", "items": mail_summary},
        "stored": {"type": "integer"}, "stored_bytes": {"type": "integer"}, "dropped": {"type": "integer"}, "waiting": {"type": "integer", "description": "Requests parked by wait now"},
        "no_mail": {"type": "string", "description": "Only when a wait ended with nothing: the filters, the wait and the newest records the mailbox holds, the text the test helpers fail with"}},
        ["messages", "stored", "stored_bytes", "dropped", "waiting"])), **c("400", "401", "503")},
        parameters=mail_filters + mail_wait),
    "delete": op("Empty the mailbox and the per-address daily counts", {"200": jresp("Cleared", obj({"cleared": {"type": "integer"}}, ["cleared"])), **c("401")})}
paths["/mock/mail/{id}.eml"] = {"parameters": mail_id,
    "get": op("One message as delivered (raw, headers rewritten)", {"200": {"description": "RFC 5322 message", "content": {"message/rfc822": {"schema": S}}}, **c("401", "404")})}
paths["/mock/mail/{id}"] = {"parameters": mail_id,
    "get": op("One message: summary, header fields, text and HTML parts", {"200": jresp("Message", obj(mail_detail_props, list(mail_detail_props))), **c("401", "404")})}
paths["/mock/mail/{id}"]["delete"] = op("Delete one message (the daily counts stay)", {"200": jresp("Deleted", obj({"cleared": {"type": "integer"}}, ["cleared"])), **c("401", "404")})
paths["/mock/mail/{id}/html"] = {"parameters": mail_id,
    "get": op("The HTML part for the viewer's sandboxed frame; its Content-Security-Policy fetches and runs nothing", {"200": {"description": "The HTML part as sent, UTF-8",
        "headers": {"Content-Security-Policy": {"schema": S}}, "content": {"text/html": {"schema": S}}}, **c("401", "404")})}
part_id = [{"name": "part", "in": "path", "required": True, "schema": S, "description": "The part's IMAP section number (1, 2.1)"}]
part_download = {"description": "The part's decoded bytes with its content type, as an attachment", "headers": {"Content-Disposition": {"schema": S}},
    "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}
paths["/mock/mail/{id}/parts/{part}"] = {"parameters": mail_id + part_id,
    "get": op("Download one attachment or other non-body part", {"200": part_download, **c("401", "404")})}
paths["/mock/mail/{id}/reply"] = {"parameters": mail_id,
    "post": op("Simulate the user's reply: relayed to the developer's own address", {"201": jresp("The reply as delivered", mail_summary), **c("400", "401", "404", "409")},
        requestBody=jbody(obj({"text": S, "subject": S}), required=False))}
# A Mailpit-compatible subset of the mailbox at Mailpit's API v1 paths (docs/relay-mail.md); Mailpit's own names.
mp_addr = obj({"Name": S, "Address": S}, ["Name", "Address"])
mp_addrs = {"type": "array", "items": mp_addr}
mp_summary_props = {"ID": S, "MessageID": S, "Read": {"type": "boolean"}, "From": {"anyOf": [mp_addr, {"type": "null"}]}, "To": mp_addrs, "Cc": mp_addrs, "Bcc": mp_addrs,
    "ReplyTo": mp_addrs, "Subject": S, "Created": {"type": "string", "format": "date-time"}, "Username": S, "Tags": {"type": "array", "items": S},
    "Size": {"type": "integer"}, "Attachments": {"type": "integer"}, "Snippet": S}
mp_summary = obj(mp_summary_props, list(mp_summary_props))
mp_list = jresp("Mailpit's MessagesSummary, newest first", obj({"total": {"type": "integer"}, "unread": {"type": "integer"}, "count": {"type": "integer"},
    "messages_count": {"type": "integer"}, "messages_unread": {"type": "integer"}, "start": {"type": "integer"}, "tags": {"type": "array", "items": S},
    "messages": {"type": "array", "items": mp_summary}}, ["total", "unread", "count", "messages_count", "messages_unread", "start", "tags", "messages"]))
mp_message_props = {"ID": S, "MessageID": S, "From": {"anyOf": [mp_addr, {"type": "null"}]}, "To": mp_addrs, "Cc": mp_addrs, "Bcc": mp_addrs, "ReplyTo": mp_addrs,
    "ReturnPath": S, "Subject": S, "ListUnsubscribe": obj({"Header": S, "Links": {"type": "array", "items": S}, "Errors": S, "HeaderPost": S}),
    "Date": {"type": "string", "format": "date-time"}, "Tags": {"type": "array", "items": S}, "Username": S, "Text": S, "HTML": S, "Size": {"type": "integer"},
    "Inline": {"type": "array", "items": ref("MailpitAttachment")}, "Attachments": {"type": "array", "items": ref("MailpitAttachment")}}
mp_paging = [{"name": "start", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0, "default": 0}},
    {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50}}]
mp_id = [{"name": "id", "in": "path", "required": True, "schema": S, "description": "A message id, or latest"}]
mp_ok = {"description": "ok", "content": {"text/plain": {"schema": S}}}
paths["/api/v1/messages"] = {
    "get": op("Mailpit-compatible: delivered messages, newest first", {"200": mp_list, **c("400", "401")}, parameters=mp_paging),
    "delete": op("Mailpit-compatible: delete the messages with these IDs, or every delivered message", {"200": mp_ok, **c("400", "401")},
        requestBody=jbody(obj({"IDs": {"type": "array", "items": S}}), required=False)),
    "put": op("Mailpit's read-status call, outside the subset: always 404", c("401", "404"))}
paths["/api/v1/search"] = {"get": op("Mailpit-compatible search (a subset of Mailpit's search filters)", {"200": mp_list, **c("400", "401")},
    parameters=[{"name": "query", "in": "query", "required": True, "schema": S}] + mp_paging),
    "delete": op("Mailpit's delete-by-search, outside the subset: always 404", c("401", "404"))}
paths["/api/v1/message/{id}"] = {"parameters": mp_id,
    "get": op("Mailpit-compatible message summary", {"200": jresp("Mailpit's Message", obj(mp_message_props, list(mp_message_props))), **c("401", "404")})}
paths["/api/v1/message/{id}/part/{part}"] = {"parameters": mp_id + part_id,
    "get": op("Mailpit-compatible attachment download (by PartID)", {"200": part_download, **c("401", "404")})}
paths["/api/v1/message/{id}/raw"] = {"parameters": mp_id,
    "get": op("Mailpit-compatible message source", {"200": {"description": "The message as delivered", "content": {"text/plain": {"schema": S}}}, **c("401", "404")})}
schemas = {
 "MailpitAttachment": obj({"PartID": S, "FileName": S, "ContentType": S, "ContentID": S, "Size": {"type": "integer"}}, ["PartID", "FileName", "ContentType", "ContentID", "Size"]),
 "AppleError": obj({"error": {"type": "string", "enum": ["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]}, "error_description": S}, ["error"]),
 "AppGroupList": obj({"app_groups": {"type": "array", "items": obj({"id": S, "primary_app_id": S, "client_ids": {"type": "array", "items": S}, "notification_url": {"type": ["string", "null"]}}, ["id", "primary_app_id", "client_ids", "notification_url"])}}, ["app_groups"]),
 "ControlError": obj({"error": S, "field": S, "message": S}, ["error", "message"]),
 "ScenarioErrors": obj({"error": S, "message": S, "errors": {"type": "array", "items": S}}, ["error", "errors"]),
 "JWKS": obj({"keys": {"type": "array", "items": obj({"kty": S, "kid": S, "use": S, "alg": S, "n": S, "e": S}, ["kty", "kid", "use", "alg", "n", "e"])}}, ["keys"]),
 "TokenResponse": obj({"access_token": S, "token_type": S, "expires_in": {"type": "integer"}, "refresh_token": S, "id_token": S}, ["access_token", "token_type", "expires_in"]),
 "MigrationInfo": obj({"transfer_sub": S, "sub": S, "email": S, "is_private_email": {"type": "boolean"}}),
 "NativeCredential": obj({"user": S, "identityToken": S, "authorizationCode": S,
    "fullName": {"oneOf": [obj({"givenName": S, "familyName": S}, ["givenName", "familyName"]), {"type": "null"}]},
    "email": nullable("string"), "realUserStatus": {"type": "integer", "minimum": 0, "maximum": 2},
    "authorizedScopes": {"type": "array", "items": S}, "state": nullable("string")},
    ["user", "identityToken", "authorizationCode", "fullName", "email", "realUserStatus", "authorizedScopes", "state"]),
 "TypedAppleIDCredential": obj({"type": {"type": "string", "enum": ["apple_id"]}, "isAccountUpgrade": {"type": "boolean"}, "user": S, "identityToken": S, "authorizationCode": S,
    "fullName": {"oneOf": [obj({"givenName": S, "familyName": S}, ["givenName", "familyName"]), {"type": "null"}]},
    "email": nullable("string"), "realUserStatus": {"type": "integer", "minimum": 0, "maximum": 2},
    "authorizedScopes": {"type": "array", "items": S}, "state": nullable("string")},
    ["type", "user", "identityToken", "authorizationCode", "fullName", "email", "realUserStatus", "authorizedScopes", "state"]),
 "PasswordCredential": obj({"type": {"type": "string", "enum": ["password"]}, "user": S, "password": S, "domain": S}, ["type", "user", "password", "domain"]),
 "NoCredentials": obj({"error": S, "field": S, "message": S, "authorization_error": {"type": "string", "enum": ["canceled", "unknown"]}, "code": {"type": "integer"}}, ["error", "message"]),
 "User": obj({"id": S, "sub": S, "email": S, "email_verified": {"type": "boolean"}, "private_email": {"type": "boolean"}, "relay_email": nullable("string"),
    "email_forwarding": {"type": "boolean"}, "first_name": S, "last_name": S,
    "real_user_status": {"type": "string", "enum": ["unsupported", "unknown", "likely_real"]},
    "credential_state": {"type": "string", "enum": ["authorized", "revoked", "not_found", "transferred"]},
    "authorized_app_groups": {"type": "array", "items": S},
    "credential_states": {"type": "object", "description": "getCredentialState per client id of the scenario", "additionalProperties": {"type": "string", "enum": ["authorized", "revoked", "not_found", "transferred"]}}},
    ["id", "sub", "email", "email_verified", "private_email", "relay_email", "email_forwarding", "first_name", "last_name", "real_user_status", "credential_state", "authorized_app_groups", "credential_states"]),
 "RealUserStatusInput": {"oneOf": [{"type": "string", "enum": ["unsupported", "unknown", "likely_real", "likelyReal"]}, {"type": "integer", "minimum": 0, "maximum": 2}]},
 "UserChange": obj({"credential_state": {"type": "string", "enum": ["authorized", "revoked", "not_found", "notFound", "transferred"]},
    "email_forwarding": {"type": "boolean"}, "real_user_status": ref("RealUserStatusInput"), "email": {"type": "string", "minLength": 1},
    "email_verified": {"type": "boolean"}, "private_email": {"type": "boolean"}, "relay_email": S, "first_name": S, "last_name": S}),
 "NewUser": obj({"id": {"type": "string", "minLength": 1}, "sub": S, "email": {"type": "string", "minLength": 1}, "email_verified": {"type": "boolean"},
    "private_email": {"type": "boolean"}, "relay_email": S, "first_name": S, "last_name": S, "real_user_status": ref("RealUserStatusInput"), "email_forwarding": {"type": "boolean"}}, ["id", "email"]),
 "Clock": obj({"now": {"type": "string", "format": "date-time"}, "epoch_seconds": {"type": "integer"}, "epoch_milliseconds": {"type": "integer"}, "frozen": {"type": "boolean"}, "controllable": {"type": "boolean"}},
    ["now", "epoch_seconds", "epoch_milliseconds", "frozen", "controllable"]),
 "KeyList": obj({"signing_kid": S, "keys": {"type": "array", "items": obj({"kid": S, "published": {"type": "boolean"}, "signs": {"type": "boolean"}}, ["kid", "published", "signs"])}}, ["signing_kid", "keys"]),
 "JournalEntry": obj({"sequence": {"type": "integer"}, "kind": {"type": "string", "enum": ["request", "notification", "mail"]}, "time": {"type": "string", "format": "date-time"}, "method": S, "path": S,
    "parameters": {"type": "object", "additionalProperties": S}, "client_id": nullable("string"), "user": nullable("string"), "status": {"type": "integer"}, "outcome": S, "reason": S,
    "replica": S, "replica_sequence": {"type": "integer"}},
    ["sequence", "kind", "time", "method", "path", "parameters", "client_id", "user", "status", "outcome"]),
 "Notification": obj({"id": {"type": "integer"}, "type": S, "user": S, "app_group": S, "aud": S, "jti": S, "url": S, "status": {"type": "string", "enum": ["pending", "delivered", "failed"]}, "payload": S,
    "attempts": {"type": "array", "items": obj({"number": {"type": "integer"}, "time": {"type": "string", "format": "date-time"}, "status": nullable("integer"), "outcome": S}, ["number", "time", "status", "outcome"])}},
    ["id", "type", "user", "app_group", "aud", "jti", "url", "status", "payload", "attempts"]),
}
responses = {n: jresp(d, ref("ControlError")) for n, d in [("BadRequest", "Invalid field (named in `field`); nothing applied"), ("Unauthorized", "Admin token missing or wrong (only with --admin-token)"),
    ("NotFound", "Unknown user, client, key or path (named in `field`)"), ("MethodNotAllowed", "Wrong method"), ("Conflict", "Contradicts the current state"), ("NotImplemented", "No scenario loader in this build"), ("Unavailable", "A real outage: the shared store is down, or no background thread could be started")]}
doc = {"openapi": "3.1.0", "info": {"title": "siwa-mock", "version": "1.0.0", "description": "Apple's Sign in with Apple server endpoints (appleid.apple.com) and the mock's control API under /mock/. Without --admin-token on a loopback address, /mock/ answers 403 forbidden_host for a Host that is not a loopback name and 403 cross_origin for an Origin other than the server's own (docs/security.md)."},
  "paths": paths, "components": {"schemas": schemas, "responses": responses,
    "securitySchemes": {"adminToken": {"type": "http", "scheme": "bearer", "description": "Only when serving with --admin-token"},
                        "dashboardSession": {"type": "apiKey", "in": "cookie", "name": "siwa_mock_session", "description": "Set by POST /mock/ui/login. A request it authenticates that is not GET or HEAD must also send the header X-SIWA-Mock-Dashboard and, if it has an Origin, this server's: else 403 cross_origin"},
                        "migrationToken": {"type": "http", "scheme": "bearer", "description": "client_credentials access token (scope user.migration)"}}}}
# The HTTP server answers 411 to bodies sent with Transfer-Encoding (it wants Content-Length).
for item in paths.values():
    for method, operation in item.items():
        if isinstance(operation, dict) and "requestBody" in operation:
            operation["responses"]["411"] = {"$ref": "#/components/responses/LengthRequired"}
responses["LengthRequired"] = {"description": "Body sent without Content-Length (chunked bodies are refused)", "content": {"text/plain": {"schema": S}}}
text = json.dumps(doc, separators=(",", ":"), sort_keys=False)
assert '"""' not in text and '\\' not in text
def compact(value): return json.dumps(value, separators=(",", ":"))
def members(obj, indent):
    # One compact line per member: the file stays short and a change to one path shows as a one-line diff.
    return (",\n").join(f"{indent}{compact(k)}:{compact(v)}" for k, v in obj.items())
top = {k: v for k, v in doc.items() if k not in ("paths", "components")}
lines = ["{"] + [f" {compact(k)}:{compact(v)}," for k, v in top.items()]
lines += [' "paths":{', members(doc["paths"], "  "), " },", ' "components":{']
lines += [",\n".join(f'  {compact(name)}:{{\n{members(section, "   ")}\n  }}' for name, section in doc["components"].items())]
lines += [" }", "}"]
body = "\n".join(lines)
assert json.loads(body) == doc
body = "\n".join("        " + line for line in body.split("\n"))  # the closing delimiter's indentation
target = __import__("pathlib").Path(__file__).resolve().parents[1] / "Sources/SIWAServer/Control/OpenAPIDocument.swift"
generated = (
 "// swift-format-ignore-file\n// Generated data (long JSON lines), not code: formatting and line length do not apply.\n\n"
 "/// The OpenAPI 3.1 document served at `/mock/openapi.json`: the control API and Apple's endpoints,\n"
 "/// with every status each operation answers. Generated by `docs/openapi.py` (one line per path and\n"
 "/// component); keep it in step with the routes (`ControlAPITests.openAPIDocumentIsServed` checks that\n"
 "/// every routed path is documented).\n"
 "enum OpenAPIDocument {\n    static let bytes: [UInt8] = Array(text.utf8)\n\n    static let text = #\"\"\"\n" + body + "\n        \"\"\"#\n}\n")
if "--check" in sys.argv[1:]:
    if not target.exists() or target.read_text() != generated:
        sys.exit(f"stale: {target.relative_to(target.parents[3])} differs from what docs/openapi.py generates;"
                 " run python3 docs/openapi.py and commit the result")
    print(f"{target.name} is up to date")
    sys.exit(0)
target.write_text(generated)
print(len(text))
