import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// Every integer a control call or a scenario takes, fed the extremes of `Int64` and their neighbours:
/// each must be answered (200 or a 4xx naming the field) or reported as a scenario error, never trap.
/// A trap ends the test process, so a regression fails this suite loudly (issue #11 item 1).
@Suite struct IntegerFieldPropertyTests {
    /// JSON numbers at and around the edges (integral doubles included: JSONBody accepts `5.0`).
    static let numbers: [JSONValue] = [
        .int(.min), .int(.min + 1), .int(-1), .int(0), .int(1), .int(.max - 1), .int(.max),
        .int(Int64(Int32.max) + 1), .int(1 << 53), .double(-9.2e18), .double(9.2e18), .double(1e300), .double(-0.0),
    ]

    /// Control fields that take integers, each as (method, path, field).
    static let controlFields: [(HTTPMethod, String, String)] = [
        ("POST", "/mock/clock", "advance"),
        ("PATCH", "/mock/notifications/settings", "max_attempts"),
        ("PATCH", "/mock/notifications/settings", "retry_delay_ms"),
        ("PATCH", "/mock/notifications/settings", "timeout_ms"),
        ("PATCH", "/mock/notifications/settings", "deliveries_per_event"),
        ("POST", "/mock/notifications", "deliveries"),
        ("PATCH", "/mock/users/alice", "real_user_status"),
        ("POST", "/mock/users", "real_user_status"),
    ]

    @Test func controlIntegerFieldsNeverTrap() throws {
        try ControlHarness.run(.inProcess) { h in
            for (method, path, field) in Self.controlFields {
                for (index, number) in Self.numbers.enumerated() {
                    var body = JSONObject([(field, number)])
                    if path == "/mock/users" { body["id"] = .string("u\(index)-\(field)") }
                    if path == "/mock/notifications" {
                        body["type"] = "consent-revoked"
                        body["user"] = "alice"
                    }
                    let response = try h.call(method, path, .object(body))
                    #expect(
                        [200, 202, 400, 409].contains(response.status),
                        "\(method) \(path) \(field)=\(number.serialized()): \(response.status) \(response.text)")
                }
            }
            // The reported crash: abs(Int64.min) in the clock endpoint.
            let response = try h.call("POST", "/mock/clock", ["advance": .int(.min)])
            expectControlError(response, 400, field: "advance")
            // Durations as text too, at and past Int64's edge.
            for text in ["-9223372036854775808s", "9223372036854775807ms", "-999999999999d", "999999999999d"] {
                expectControlError(try h.call("POST", "/mock/clock", ["advance": .string(text)]), 400, field: "advance")
            }
        }
    }

    /// Fault rules sent over the control API use the scenario syntax, as JSON.
    @Test func faultIntegerFieldsNeverTrap() throws {
        try ControlHarness.run(.inProcess) { h in
            let texts = ["-9223372036854775808", "9223372036854775807", "9223372036854775808", "0", "-1"]
            for field in ["after", "times", "status"] {
                for text in texts {
                    let body = "{\"match\": \"GET /never\", \"status\": 503, \"\(field)\": \(text)}"
                    let response = try h.send(
                        HTTPRequest(
                            method: "POST", target: "/mock/faults",
                            headers: HTTPHeaders([("Content-Type", "application/json")]), body: Array(body.utf8)))
                    #expect([201, 200, 400].contains(response.status), "\(field)=\(text): \(response.text)")
                }
            }
        }
    }

    /// Every integer, duration and timestamp field of a scenario, one at a time at the extremes.
    static let scenarioHoles: [String: String] = [
        "seed": "1", "lifetime": "1d", "code_lifetime": "5m", "access_token_lifetime": "1h",
        "client_secret_max_lifetime": "180d", "client_secret_clock_skew": "1m", "start": "2026-01-01T00:00:00Z",
        "max_attempts": "3", "retry_delay": "1s", "timeout": "5s", "accepted_at": "2026-01-01T00:00:00Z",
        "after": "0", "times": "1", "status": "503", "delay": "1ms", "from": "0ms", "until": "1h", "chunk": "16",
        "interval": "100ms", "at": "1h", "after_count": "2", "key_count": "1",
    ]

    static let integerExtremes = [
        "-9223372036854775808", "-9223372036854775809", "9223372036854775807", "9223372036854775808", "-1", "0",
    ]
    static let durationExtremes = [
        "9223372036854775807ms", "106751991167d", "3660000d", "3660001d", "153722867280912m", "0ms", "99999999999999d",
    ]
    static let timestampExtremes = ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z"]

    static func scenarioText(_ values: [String: String]) -> String {
        """
        name: extremes
        seed: \(values["seed"]!)
        issuer: https://appleid.apple.com
        lifetime: \(values["lifetime"]!)
        code_lifetime: \(values["code_lifetime"]!)
        access_token_lifetime: \(values["access_token_lifetime"]!)
        client_secret_max_lifetime: \(values["client_secret_max_lifetime"]!)
        client_secret_clock_skew: \(values["client_secret_clock_skew"]!)
        clock:
          start: \(values["start"]!)
        notifications:
          max_attempts: \(values["max_attempts"]!)
          retry_delay: \(values["retry_delay"]!)
          timeout: \(values["timeout"]!)
        teams:
          - id: ABCDE12345
            keys:
              - id: KEY1234567
                pem_file: keys/AuthKey_KEY1234567.pub.pem
          - id: FGHIJ67890
            keys:
              - id: KEY1234567
                pem_file: keys/AuthKey_KEY1234567.pub.pem
        clients:
          - id: com.example.web
            team: FGHIJ67890
            redirect_uris: [https://app.example.com/auth/apple/callback]
          - id: com.example.app
            kind: native
            team: FGHIJ67890
        transfers:
          - from: ABCDE12345
            to: FGHIJ67890
            accepted_at: \(values["accepted_at"]!)
            clients: [com.example.web, com.example.app]
        signing_keys:
          - kid: Aj3F8kLq2X
            pem_file: keys/signing-Aj3F8kLq2X.pem
            signs: true
        users:
          - id: alice
            email: alice@example.com
        faults:
          - match: GET /never
            after: \(values["after"]!)
            times: \(values["times"]!)
            status: \(values["status"]!)
            delay: \(values["delay"]!)
            window: {from: \(values["from"]!), until: \(values["until"]!)}
          - match: GET /never/slow
            connection: slow_body
            slow_body: {chunk_size: \(values["chunk"]!), interval: \(values["interval"]!)}
        timeline:
          - at: \(values["at"]!)
            do:
              - revoke_consent: alice
          - after: {count: \(values["after_count"]!), match: GET /never}
            do:
              - revoke_consent: alice
        """
    }

    @Test func scenarioIntegerFieldsNeverTrap() throws {
        let loader = ScenarioLoader(files: { ScenarioLoader.defaultScenarioFiles[$0] }, generateMissingKeys: false)
        // The base scenario loads, so each variant below differs from a valid one in one field only.
        let base = try loader.load(Self.scenarioText(Self.scenarioHoles), file: "extremes.yaml")
        try exercise(base)
        let durations: Set = [
            "lifetime", "code_lifetime", "access_token_lifetime", "client_secret_max_lifetime",
            "client_secret_clock_skew", "retry_delay", "timeout", "delay", "from", "until", "interval", "at",
        ]
        let timestamps: Set = ["start", "accepted_at"]
        var loaded = 0
        for hole in Self.scenarioHoles.keys.sorted() where hole != "key_count" {
            let extremes =
                durations.contains(hole)
                ? Self.durationExtremes : timestamps.contains(hole) ? Self.timestampExtremes : Self.integerExtremes
            for value in extremes {
                var values = Self.scenarioHoles
                values[hole] = value
                guard let scenario = try? loader.load(Self.scenarioText(values), file: "extremes.yaml") else {
                    continue
                }
                loaded += 1
                try exercise(scenario)
            }
        }
        #expect(loaded > 10, "some extremes are valid scenarios and were exercised (\(loaded))")
    }

    /// A sign-in, redemption, refresh, revocation and clock moves to both ends of time, with the
    /// timeline and fault rules evaluated on every request.
    func exercise(_ scenario: Scenario) throws {
        try ControlHarness.run(.inProcess, scenario: scenario) { h in
            let credential = try h.call(
                "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice", "nonce": "n"])
            if let code = credential.json?["authorizationCode"]?.stringValue {
                let redeemed = try h.send(
                    RequestBuilder.form(
                        "/auth/token",
                        [
                            ("grant_type", "authorization_code"), ("code", code), ("client_id", "com.example.app"),
                            ("client_secret", (try? h.secret("com.example.app")) ?? "x"),
                        ]))
                #expect(redeemed.status < 500)
            }
            for target in ["9999-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z"] {
                #expect(try h.call("POST", "/mock/clock", ["set": .string(target)]).status < 500)
                #expect(try h.send(RequestBuilder.get("/auth/keys")).status < 500)
                #expect(try h.send(RequestBuilder.get("/never")).status < 600)
                h.provider.collectExpired()
            }
        }
    }
}
