import EventLoop
import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import ScenarioModel

/// `siwa-mock signin`: the whole web flow against a running mock in one line — authorize (login_hint, so no
/// page), redeem the code with a client secret, verify the id_token — printing the token response and the
/// verified claims as JSON. Each step's failure names the step and the mock's own reason.
struct SigninCommand: Command {
    static let name = "signin"
    static let abstract = "Sign a user in headlessly against a running mock and print the verified tokens as JSON."
    static let discussion: String? = """
        Runs GET /auth/authorize with login_hint (form_post when --scope asks for name or email, as Apple
        requires; the code is read from the form), POST /auth/token with a client secret signed now, then
        checks the id_token's signature against /auth/keys and its iss, aud, exp, iat and nonce (by the mock's
        clock). Prints {"token_response": …, "claims": …} and, on a first authorization with scopes, "user"
        (what Apple posts once). Exit status 0 when the token verifies, 1 otherwise; nothing is printed on
        stdout unless it verifies (the problems go to stderr). The whole run takes at most 60 s and reads at
        most 1 MiB of each answer; a redirect is never followed.

        The client secret is signed with the built-in scenario's published test key (team ABCDE12345, key
        KEY1234567, scenarios/keys/AuthKey_KEY1234567.p8), which a scenario file keeps unless it defines
        its own teams; for other keys give --team-id, --key-id and --key.

        EXAMPLE:
          siwa-mock signin --user alice --client com.example.web --scope "name email" --nonce n-1
        """
    static let user = Option.optional(
        "user", "user", help: "Scenario user id, sub or email (the login_hint).", required: true, parser: .nonEmpty)
    static let client = Option(
        "client", "services-id", help: "The Services ID (web client) to sign in to.", default: "com.example.web",
        parser: .nonEmpty)
    static let scope = Option(
        "scope", "scopes", help: "Space-separated: name, email, or both.", default: "",
        shownDefault: "none", parser: .text)
    static let nonce = Option.optional("nonce", "nonce", help: "Nonce for the id_token (checked).", parser: .text)
    static let state = Option(
        "state", "state", help: "State sent to /auth/authorize (checked on the way back).", default: "siwa-mock-signin",
        parser: .text)
    static let redirectURI = Option(
        "redirect-uri", "url", help: "A Return URL registered for the client.",
        default: "https://app.example.com/auth/apple/callback", parser: .nonEmpty)
    static let teamID = Option(
        "team-id", "team-id", help: "The client secret's `iss`.", default: "ABCDE12345", parser: .nonEmpty)
    static let keyID = Option(
        "key-id", "key-id", help: "The client secret's `kid`.", default: "KEY1234567", parser: .nonEmpty)
    static let key = Option.optional(
        "key", "file", help: "P-256 private key (.p8) for the client secret.", shownDefault: "the published test key",
        parser: .nonEmpty)
    static let options: [OptionSpec] =
        [
            user.spec, client.spec, scope.spec, nonce.spec, state.spec, redirectURI.spec, teamID.spec, keyID.spec,
            key.spec,
        ] + ControlClient.options

    var control: ControlClient
    var user: String
    var client: String
    var scopes: [String]
    var nonce: String?
    var state: String
    var redirectURI: String
    var teamID: String
    var keyID: String
    var keyPath: String?
    /// When the whole run must be over (`MonotonicClock` nanoseconds): a server that drips its answers
    /// cannot hold the command past `totalMilliseconds`, however many requests it takes.
    var deadline: Int64

    /// The whole run's time, every request included.
    static let totalMilliseconds = 60_000
    /// The most bytes of one answer read: the largest the mock sends is the authorize page (~10 KiB).
    static let maximumResponseBytes = 1024 * 1024

    init(_ arguments: ParsedArguments) throws(UsageError) {
        deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(milliseconds: Self.totalMilliseconds)
        control = try ControlClient(arguments)
        user = try arguments.read(required: Self.user)
        client = try arguments.read(Self.client)
        scopes = try Self.parseScopes(try arguments.read(Self.scope))
        nonce = try arguments.read(Self.nonce)
        state = try arguments.read(Self.state)
        redirectURI = try arguments.read(Self.redirectURI)
        teamID = try arguments.read(Self.teamID)
        keyID = try arguments.read(Self.keyID)
        keyPath = try arguments.read(Self.key)
    }

    /// `"name email"` → `["name", "email"]`; anything else is refused with the two words Apple knows.
    static func parseScopes(_ text: String) throws(UsageError) -> [String] {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        for word in words where word != "name" && word != "email" {
            let hint = word == "full_name" || word == "fullName" ? " (the web's word for it is 'name')" : ""
            throw UsageError("--scope: '\(word)' is not a scope: use name, email or \"name email\"\(hint)")
        }
        var seen: Set<String> = []
        return words.filter { seen.insert($0).inserted }
    }

    func run() throws -> Int32 {
        let base = control.baseURL
        try checkMock(at: base)
        let fields = try authorize(base)
        let code = fields.first { $0.name == "code" }?.value ?? ""
        // The mock judges the secret's iat and exp by its own clock (docs/control-api.md, "Clock"): sign it at
        // that time, so a sign-in after `clock advance 2h` is not refused as expired.
        let secretClock = JudgingClock.read(from: base, adminToken: control.adminToken, send: send)
        let secret = try clientSecret(issuedAt: secretClock.now)
        let tokenResponse = try redeem(base, code: code, secret: secret)
        guard let idToken = tokenResponse["id_token"]?.stringValue, let jws = try? JWS(compact: idToken) else {
            throw RuntimeError("POST \(base)/auth/token: the answer has no id_token that is a JWS")
        }
        let problems = try verify(base, jws)
        let console = Console()
        // A refused token prints nothing on stdout: `signin … | jq .claims.sub` without pipefail must not
        // read a forged identity as a signed-in one.
        guard problems.isEmpty else {
            for problem in problems { console.err("invalid id_token: \(problem)") }
            return 1
        }
        var output = JSONObject()
        output["token_response"] = .object(tokenResponse)
        output["claims"] = .object(jws.payload)
        if let userField = fields.first(where: { $0.name == "user" })?.value {
            output["user"] = (try? JSONValue.parse(Array(userField.utf8))) ?? .string(userField)
        }
        console.out(JSONValue.object(output).serializedString())
        return 0
    }

    /// One request of the run: within `timeoutMilliseconds` and what is left of the run's deadline, its
    /// answer read up to `maximumResponseBytes` (a longer one is an error, not a cut JSON), no redirect
    /// followed (`HTTPClient` never follows one).
    func send(_ request: HTTPClientRequest, to url: String, timeoutMilliseconds: Int) throws(ClientError)
        -> HTTPClientResponse
    {
        let left = Int((deadline - MonotonicClock.now()) / 1_000_000)
        guard left > 0 else {
            throw ClientError(.timeout, "the sign-in took longer than \(Self.totalMilliseconds / 1000) s in all")
        }
        let response = try HTTPClient.send(
            request, to: url, timeoutMilliseconds: min(timeoutMilliseconds, left),
            maximumBodyBytes: Self.maximumResponseBytes)
        guard !response.isTruncated else {
            throw ClientError(.malformedResponse, "the answer is larger than \(Self.maximumResponseBytes) bytes")
        }
        return response
    }

    /// Nothing listening, something else listening, or a mock that is not ready: each said as such.
    func checkMock(at base: String) throws {
        let response: HTTPClientResponse
        do {
            response = try send(
                HTTPClientRequest(target: ControlClient.healthPath), to: base + ControlClient.healthPath,
                timeoutMilliseconds: 5000)
        } catch {
            if error.kind == .connectFailed {
                throw RuntimeError(
                    "nothing is listening at \(base) (\(error.message)): start the mock with `siwa-mock serve` "
                        + "or give its address with --url")
            }
            throw RuntimeError("cannot reach the mock at \(base): \(error.message)")
        }
        if response.status == 503, (try? JSONValue.parse(response.body))?["status"]?.stringValue == "unhealthy" {
            throw RuntimeError("the mock at \(base) is unhealthy: \(response.bodyText)")
        }
        if let problem = ControlClient.notAMock(response) { throw RuntimeError("\(base): \(problem)") }
    }

    /// The fields the browser would deliver to the redirect URI (from the form_post page or the redirect).
    func authorize(_ base: String) throws -> [(name: String, value: String)] {
        var query: [(String, String)] = [
            ("client_id", client), ("redirect_uri", redirectURI), ("response_type", "code"), ("state", state),
            ("login_hint", user),
        ]
        if !scopes.isEmpty { query += [("scope", scopes.joined(separator: " ")), ("response_mode", "form_post")] }
        if let nonce { query.append(("nonce", nonce)) }
        let target = "/auth/authorize?" + URLEncodedForm.encode(query)
        let response: HTTPClientResponse
        do {
            response = try send(HTTPClientRequest(target: target), to: base, timeoutMilliseconds: 15_000)
        } catch {
            throw RuntimeError("GET \(base)/auth/authorize: \(error.message)")
        }
        var fields: [(name: String, value: String)]?
        if response.status == 200, let form = HTMLForm.parse(response.bodyText), form.action == redirectURI {
            fields = form.inputs
        } else if response.status == 302 || response.status == 303, let location = response.headers.location,
            let separator = location.firstIndex(where: { $0 == "?" || $0 == "#" })
        {
            fields = try? URLEncodedForm.decode(Array(location[location.index(after: separator)...].utf8))
        }
        guard let fields else {
            throw RuntimeError("GET \(base)/auth/authorize refused the sign-in: \(authorizeReason(base, response))")
        }
        if let error = fields.first(where: { $0.name == "error" })?.value {
            throw RuntimeError("GET \(base)/auth/authorize sent back error=\(error) to the redirect URI")
        }
        guard fields.contains(where: { $0.name == "code" && !$0.value.isEmpty }) else {
            throw RuntimeError("GET \(base)/auth/authorize sent back no code")
        }
        if fields.first(where: { $0.name == "state" })?.value != state {
            throw RuntimeError("GET \(base)/auth/authorize sent back another state than '\(state)'")
        }
        return fields
    }

    /// Why `/auth/authorize` showed an error page instead of returning: the journal's reason when the mock
    /// gives it, else the status and the start of the page.
    func authorizeReason(_ base: String, _ response: HTTPClientResponse) -> String {
        var headers = HTTPHeaders()
        if let token = control.adminToken { headers.add("Authorization", "Bearer \(token)") }
        let target = "/mock/requests?path=/auth/authorize"
        if let journal = try? send(
            HTTPClientRequest(target: target, headers: headers), to: base, timeoutMilliseconds: 5000),
            journal.status == 200, let json = try? JSONValue.parse(journal.body),
            let reason = (json["requests"]?.arrayValue ?? json.arrayValue)?.last?["reason"]?.stringValue
        {
            return reason
        }
        let text = response.bodyText.replacing(/<[^>]*>/, with: " ").split(whereSeparator: \.isWhitespace)
        return "status \(response.status): " + text.prefix(40).joined(separator: " ")
    }

    /// The ES256 client secret, signed with --key or the built-in scenario's published test key.
    func clientSecret(issuedAt: Int64) throws -> String {
        let pem: String
        let source: String
        if let keyPath {
            pem = try FileSystem.readText(keyPath, limit: 64 * 1024, regularOnly: false)
            source = keyPath
        } else {
            pem = Scenario.BuiltInKeys.clientSecretPrivateKeyKEY1234567
            source = "the published test key"
        }
        do {
            let key = try P256PrivateKey(pem: pem)
            return try ClientSecretSigner.sign(
                teamID: teamID, clientID: client, keyID: keyID, key: key, issuedAt: issuedAt, lifetime: 3600)
        } catch {
            throw RuntimeError("\(source): \(error.message)")
        }
    }

    /// `POST /auth/token`; Apple's error as the mock gave it otherwise, with the way out for a secret.
    func redeem(_ base: String, code: String, secret: String) throws -> JSONObject {
        let form = URLEncodedForm.encode([
            ("grant_type", "authorization_code"), ("client_id", client), ("client_secret", secret), ("code", code),
            ("redirect_uri", redirectURI),
        ])
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        let response: HTTPClientResponse
        do {
            response = try send(
                HTTPClientRequest(method: "POST", target: "/auth/token", headers: headers, body: Array(form.utf8)),
                to: base, timeoutMilliseconds: 15_000)
        } catch {
            throw RuntimeError("POST \(base)/auth/token: \(error.message)")
        }
        guard response.status == 200, case .object(let object)? = try? JSONValue.parse(response.body) else {
            var message = "POST \(base)/auth/token answered \(response.status): \(response.bodyText)"
            if response.bodyText.contains("invalid_client") {
                message +=
                    "\n  the client secret was signed for team \(teamID) with key \(keyID) ("
                    + (keyPath ?? "the built-in scenario's published test key")
                    + "); for a scenario with its own team or key give --team-id, --key-id and --key"
            }
            throw RuntimeError(message)
        }
        return object
    }

    /// The id_token's problems, judged as `siwa-mock verify` judges them (the mock's keys and clock).
    func verify(_ base: String, _ jws: JWS) throws -> [String] {
        let response: HTTPClientResponse
        do {
            response = try send(HTTPClientRequest(), to: base + "/auth/keys", timeoutMilliseconds: 5000)
        } catch {
            throw RuntimeError("cannot fetch \(base)/auth/keys: \(error.message)")
        }
        guard response.status == 200, let json = try? JSONValue.parse(response.body), let jwks = try? JWKS(json: json)
        else { throw RuntimeError("\(base)/auth/keys did not return a JWKS (status \(response.status))") }
        let clock = JudgingClock.read(from: base, adminToken: control.adminToken, send: send)
        return IDTokenVerification.problems(
            of: jws, keys: jwks, issuer: "https://appleid.apple.com", audience: client, nonce: nonce, now: clock.now)
    }
}
