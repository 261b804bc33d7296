import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// A `MockServer` (Apple + control endpoints) over a scenario, with helpers for control calls.
struct ControlHarness {
    let server: MockServer
    let clock: ManualClock
    let log: LogRecorder
    let client: any TestClient
    let secrets: ClientSecretMaker

    var provider: AppleIdentityProvider { server.control.provider }

    /// - Parameter options: control options (e.g. a `BackgroundScheduler` on a manual clock for
    ///   notification tests); `adminToken` overrides theirs.
    static func run(
        _ transport: Transport, scenario: Scenario = .builtIn, adminToken: String? = nil,
        options: MockServer.ControlOptions = MockServer.ControlOptions(),
        storeFactory: GrantStoreFactory? = TestStore.factory(), _ body: (ControlHarness) throws -> Void
    ) throws {
        var options = options
        if let adminToken { options.adminToken = adminToken }
        let clock = TestFixtures.clock()
        let log = LogRecorder()
        let server = try MockServer(
            configuration: AppleEndpoints.Configuration(
                publicURL: "http://127.0.0.1:8080", scenario: scenario, clock: clock, random: TestFixtures.random(),
                log: { log.record($0) }, storeFactory: storeFactory),
            options: options)
        let secrets = try ClientSecretMaker()
        try transport.withClient(server) { client in
            try body(ControlHarness(server: server, clock: clock, log: log, client: client, secrets: secrets))
        }
        #expect(log.serverErrors.isEmpty, "no 500s: \(log.serverErrors)")
    }

    func send(_ request: HTTPRequest) throws -> TestResponse { try client.send(request) }

    /// A control call with a JSON body (or none).
    func call(_ method: HTTPMethod, _ target: String, _ body: JSONValue? = nil, token: String? = nil) throws
        -> TestResponse
    {
        var headers = HTTPHeaders([("Host", "127.0.0.1")])
        if body != nil { headers.add("Content-Type", "application/json") }
        if let token { headers.add("Authorization", "Bearer \(token)") }
        return try send(HTTPRequest(method: method, target: target, headers: headers, body: body?.serialized() ?? []))
    }

    /// A client secret issued by the client's own team.
    func secret(_ clientID: String) throws -> String {
        var maker = secrets
        maker.teamID = provider.scenario.client(id: clientID)?.teamID ?? TestKeys.teamID
        return try maker.make(clientID: clientID, now: clock.nowSeconds)
    }

    /// `client_credentials` access token for the migration endpoint.
    func migrationToken(_ clientID: String) throws -> String {
        let response = try send(
            RequestBuilder.form(
                "/auth/token",
                [
                    ("grant_type", "client_credentials"), ("scope", "user.migration"), ("client_id", clientID),
                    ("client_secret", try secret(clientID)),
                ]))
        return try #require(response.json?["access_token"]?.stringValue, "token: \(response.text)")
    }

    func migrate(_ fields: [(String, String)], clientID: String, token: String?) throws -> TestResponse {
        var request = RequestBuilder.form(
            "/auth/usermigrationinfo", fields + [("client_id", clientID), ("client_secret", try secret(clientID))])
        if let token { request.headers.add("Authorization", "Bearer \(token)") }
        return try send(request)
    }

    /// Verifies a JWS against the served `/auth/keys` and returns its claims.
    func verifiedClaims(_ compact: String) throws -> JSONObject {
        let jwks = try JWKS(json: JSONValue.parse(try send(RequestBuilder.get("/auth/keys")).body))
        let jws = try JWS(compact: compact)
        let kid = try #require(jws.keyID)
        let jwk = try #require(jwks.key(withID: kid))
        let key = try RSAPublicKey(
            modulus: try #require(Base64URL.decode(jwk.n)), exponent: try #require(Base64URL.decode(jwk.e)))
        #expect(jws.isSigned(by: key), "signature verifies against /auth/keys")
        return jws.payload
    }
}

func expectControlError(
    _ response: TestResponse, _ status: Int, field: String?, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "body: \(response.text)", sourceLocation: sourceLocation)
    #expect(response.json?["error"]?.stringValue != nil, sourceLocation: sourceLocation)
    if let field {
        #expect(response.json?["field"] == .string(field), "body: \(response.text)", sourceLocation: sourceLocation)
    }
}
