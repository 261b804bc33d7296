import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// Apple's endpoints (behind the one pipeline) over the built-in scenario plus helpers that walk Apple's flows through a client.
struct EndpointHarness {
    let endpoints: AppleEndpoints
    let clock: ManualClock
    let log: LogRecorder
    let client: any TestClient
    let secrets: ClientSecretMaker

    static func run(
        _ transport: Transport, scenario: Scenario = .builtIn, _ body: (EndpointHarness) throws -> Void
    ) throws {
        let (server, endpoints, clock, log) = try TestFixtures.endpoints(scenario: scenario)
        let secrets = try ClientSecretMaker()
        try transport.withClient(server) { client in
            try body(EndpointHarness(endpoints: endpoints, clock: clock, log: log, client: client, secrets: secrets))
        }
        #expect(log.serverErrors.isEmpty, "no 500s: \(log.serverErrors)")
    }

    func send(_ request: HTTPRequest) throws -> TestResponse { try client.send(request) }

    func secret(_ clientID: String = TestKeys.webClientID) throws -> String {
        try secrets.make(clientID: clientID, now: clock.nowSeconds)
    }

    /// Runs the headless authorize step and returns the delivered fields (form_post page parsed).
    func authorize(
        user: String = "alice", responseType: String = "code id_token", scope: String? = "name email",
        responseMode: String? = "form_post", state: String? = "st-123", nonce: String? = "n-456"
    ) throws -> [(name: String, value: String)] {
        let response = try send(
            RequestBuilder.authorize(
                responseType: responseType, scope: scope, responseMode: responseMode, state: state, nonce: nonce,
                extra: [("login_hint", user)]))
        switch response.status {
        case 200:
            let form = try #require(HTMLForm.parse(response.text))
            #expect(form.method == "post" && form.action == TestKeys.redirectURI)
            return form.inputs
        case 302:
            let location = try #require(response.headers["Location"])
            let separator: Character = location.contains("#") ? "#" : "?"
            let encoded = String(location.split(separator: separator, maxSplits: 1)[1])
            return try URLEncodedForm.decode(Array(encoded.utf8))
        default:
            Issue.record("authorize answered \(response.status): \(response.text)")
            return []
        }
    }

    func redeem(
        _ code: String, clientID: String = TestKeys.webClientID, redirectURI: String? = TestKeys.redirectURI
    ) throws -> TestResponse {
        var fields: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("client_id", clientID),
            ("client_secret", try secret(clientID)),
        ]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        return try send(RequestBuilder.form("/auth/token", fields))
    }

    func refresh(_ token: String, clientID: String = TestKeys.webClientID) throws -> TestResponse {
        try send(
            RequestBuilder.form(
                "/auth/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID),
                    ("client_secret", try secret(clientID)),
                ]))
    }

    func revoke(_ token: String, hint: String? = nil, clientID: String = TestKeys.webClientID) throws -> TestResponse {
        var fields: [(String, String)] = [
            ("client_id", clientID), ("client_secret", try secret(clientID)), ("token", token),
        ]
        if let hint { fields.append(("token_type_hint", hint)) }
        return try send(RequestBuilder.form("/auth/revoke", fields))
    }

    /// Verifies an id_token against the JWKS the server publishes and returns its claims.
    func verifiedClaims(_ idToken: String) throws -> JSONObject {
        let jwks = try #require(try send(RequestBuilder.get("/auth/keys")).json)
        let jws = try JWS(compact: idToken)
        let kid = try #require(jws.header["kid"]?.stringValue)
        let jwk = try #require(
            jwks["keys"]?.arrayValue?.compactMap(\.objectValue).first { $0["kid"]?.stringValue == kid })
        let key = try RSAPublicKey(
            modulus: try #require(Base64URL.decode(jwk["n"]?.stringValue ?? "")),
            exponent: try #require(Base64URL.decode(jwk["e"]?.stringValue ?? "")))
        #expect(key.verifyRS256(signature: jws.signature, message: jws.signingInput), "id_token signature verifies")
        return jws.payload
    }
}

extension Array where Element == (name: String, value: String) {
    subscript(field name: String) -> String? { first { $0.name == name }?.value }
}

func expectAppleError(
    _ response: TestResponse, _ code: String, _ description: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == 400, sourceLocation: sourceLocation)
    #expect(response.error == code, "body: \(response.text)", sourceLocation: sourceLocation)
    if let description { #expect(response.errorDescription == description, sourceLocation: sourceLocation) }
    #expect(response.headers["Content-Type"] == "application/json;charset=UTF-8", sourceLocation: sourceLocation)
    #expect(
        response.headers["Cache-Control"] == "no-store" && response.headers["Pragma"] == "no-cache",
        sourceLocation: sourceLocation)
}
