import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// A `MockServer` over a file from `scenarios/`, reached over a live loopback socket (real HTTP), with
/// a manual clock starting where the scenario says (or at `TestFixtures.epoch`).
struct ScenarioHarness {
    let server: MockServer
    let scenario: Scenario
    let clock: ManualClock
    let log: LogRecorder
    let client: any TestClient
    let secrets: ClientSecretMaker

    static func run(_ file: String, transport: Transport = .live, _ body: (ScenarioHarness) throws -> Void) throws {
        let scenario = try ScenarioFiles.load(file)
        let clock = ManualClock(milliseconds: scenario.clock.startMilliseconds ?? TestFixtures.epoch * 1000)
        let log = LogRecorder()
        let server = try MockServer(
            configuration: .init(
                publicURL: "http://127.0.0.1:8080", scenario: scenario, clock: clock, log: { log.record($0) }))
        let secrets = try ClientSecretMaker()
        try transport.withClient(server) { client in
            try body(
                ScenarioHarness(
                    server: server, scenario: scenario, clock: clock, log: log, client: client, secrets: secrets))
        }
        #expect(log.serverErrors.isEmpty, "no 500s: \(log.serverErrors)")
    }

    func send(_ request: HTTPRequest) throws -> TestResponse { try client.send(request) }

    func secret() throws -> String { try secrets.make(clientID: TestKeys.webClientID, now: clock.nowSeconds) }

    /// Headless `code id_token` form_post sign-in; returns the delivered fields.
    func signIn(_ user: String, scope: String = "name email") throws -> [(name: String, value: String)] {
        let response = try send(RequestBuilder.authorize(scope: scope, extra: [("login_hint", user)]))
        #expect(response.status == 200, "authorize: \(response.text)")
        return try #require(HTMLForm.parse(response.text)).inputs
    }

    func redeem(_ code: String) throws -> TestResponse {
        try send(
            RequestBuilder.form(
                "/auth/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("client_id", TestKeys.webClientID),
                    ("client_secret", try secret()), ("redirect_uri", TestKeys.redirectURI),
                ]))
    }

    func refresh(_ token: String) throws -> TestResponse {
        try send(
            RequestBuilder.form(
                "/auth/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", TestKeys.webClientID),
                    ("client_secret", try secret()),
                ]))
    }

    /// The kids listed at `/auth/keys`.
    func publishedKIDs() throws -> [String] {
        let jwks = try #require(try send(RequestBuilder.get("/auth/keys")).json)
        return (jwks["keys"]?.arrayValue ?? []).compactMap { $0.objectValue?["kid"]?.stringValue }
    }

    /// Verifies an id_token against the published JWKS; returns its header kid and claims.
    func verified(_ idToken: String) throws -> (kid: String, claims: JSONObject) {
        let jwks = try #require(try send(RequestBuilder.get("/auth/keys")).json)
        let jws = try JWS(compact: idToken)
        let kid = try #require(jws.header["kid"]?.stringValue)
        let jwk = try #require(
            jwks["keys"]?.arrayValue?.compactMap(\.objectValue).first { $0["kid"]?.stringValue == kid },
            "kid \(kid) published")
        let key = try RSAPublicKey(
            modulus: try #require(Base64URL.decode(jwk["n"]?.stringValue ?? "")),
            exponent: try #require(Base64URL.decode(jwk["e"]?.stringValue ?? "")))
        #expect(key.verifyRS256(signature: jws.signature, message: jws.signingInput), "id_token signature verifies")
        return (kid, jws.payload)
    }
}

extension Array where Element == (name: String, value: String) {
    subscript(scenarioField name: String) -> String? { first { $0.name == name }?.value }
}
