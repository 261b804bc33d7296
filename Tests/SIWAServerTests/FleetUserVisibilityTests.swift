import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// A user added or changed at one replica is seen by a request at another before it decides, without
/// waiting for the 250 ms poll (docs/scale-out.md, "Changes visible before they are used"; issue #21).
/// Neither replica polls in these tests: only the requests themselves may take the change.
@Suite struct FleetUserVisibilityTests {
    /// Two replicas sharing one grant store and one fleet state, as on one Redis.
    static func fleet(_ body: (ControlHarness, ControlHarness) throws -> Void) throws {
        let options = MockServer.ControlOptions(fleetState: TestStore.fleetState())
        let store = TestStore.sharedFactory()
        try ControlHarness.run(.inProcess, options: options, storeFactory: store) { a in
            try ControlHarness.run(.inProcess, options: options, storeFactory: store) { b in try body(a, b) }
        }
    }

    static func code(_ h: ControlHarness, user: String) throws -> TestResponse {
        try h.send(
            RequestBuilder.authorize(
                responseType: "code", scope: nil, responseMode: "query", nonce: nil, extra: [("login_hint", user)]))
    }

    static func codeValue(_ response: TestResponse) throws -> String {
        let location = try #require(response.headers["Location"], "\(response.status) \(response.text)")
        let query = String(try #require(location.split(separator: "?", maxSplits: 1).last))
        return try #require(try URLEncodedForm.decode(Array(query.utf8)).first { $0.name == "code" }?.value)
    }

    static func redeem(_ h: ControlHarness, _ code: String) throws -> TestResponse {
        try h.send(
            RequestBuilder.form(
                "/auth/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("client_id", TestKeys.webClientID),
                    ("client_secret", try h.secret(TestKeys.webClientID)), ("redirect_uri", TestKeys.redirectURI),
                ]))
    }

    static func sub(_ response: TestResponse) throws -> String? {
        let idToken = try #require(response.json?["id_token"]?.stringValue, "\(response.status) \(response.text)")
        return try JWS(compact: idToken).payload["sub"]?.stringValue
    }

    @Test func aCodeForAUserAddedAtAnotherReplicaIsRedeemedWithTheirSub() throws {
        try Self.fleet { (a, b) throws in
            let added = try a.call("POST", "/mock/users", ["id": "dave", "email": "dave@example.com"])
            #expect(added.status == 201)
            let code = try Self.codeValue(try Self.code(a, user: "dave"))
            let redeemed = try Self.redeem(b, code)
            #expect(redeemed.status == 200, "B takes dave from the fleet before deciding: \(redeemed.text)")
            #expect(try Self.sub(redeemed) == added.json?["sub"]?.stringValue)
        }
    }

    /// A revoked user who signs in again is authorized at every replica, not only at the one that served
    /// the sign-in (found by the differential test: Tests/ScaleOut/sequences/credential-state-after-sign-in-shared.json).
    @Test func aSignInThatReauthorizesARevokedUserIsSeenByTheOtherReplica() throws {
        try Self.fleet { (a, b) throws in
            let revoked = try b.call("PATCH", "/mock/users/alice", ["credential_state": "revoked"])
            #expect(revoked.status == 200, "\(revoked.text)")
            #expect(try a.call("GET", "/mock/users/alice").json?["credential_state"]?.stringValue == "revoked")
            let signedIn = try Self.code(a, user: "alice")
            _ = try Self.codeValue(signedIn)
            #expect(try a.call("GET", "/mock/users/alice").json?["credential_state"]?.stringValue == "authorized")
            let atB = try b.call("GET", "/mock/users/alice")
            #expect(atB.json?["credential_state"]?.stringValue == "authorized", "\(atB.text)")
        }
    }

    /// The re-authorization a sign-in publishes carries the fleet's other changes of the user, not this
    /// replica's older profile: publishing a stale profile undid B's forwarding change fleet-wide (found
    /// by the differential test's long run: Tests/ScaleOut/sequences/reauthorizing-sign-in-keeps-others-changes.json).
    @Test func aReauthorizingSignInDoesNotUndoAnotherReplicasChange() throws {
        try Self.fleet { (a, b) throws in
            #expect(try b.call("PATCH", "/mock/users/alice", ["credential_state": "revoked"]).status == 200)
            #expect(try a.call("GET", "/mock/users/alice").json?["credential_state"]?.stringValue == "revoked")
            let forwarding = try b.call("PATCH", "/mock/users/alice", ["email_forwarding": false])
            #expect(forwarding.status == 200, "\(forwarding.text)")
            _ = try Self.codeValue(try Self.code(a, user: "alice"))
            let atB = try b.call("GET", "/mock/users/alice")
            #expect(atB.json?["credential_state"]?.stringValue == "authorized", "\(atB.text)")
            #expect(atB.json?["email_forwarding"]?.boolValue == false, "\(atB.text)")
        }
    }

    @Test func aUserAddedAtAnotherReplicaSignsInThereAtOnce() throws {
        try Self.fleet { (a, b) throws in
            #expect(try a.call("POST", "/mock/users", ["id": "erin", "email": "erin@example.com"]).status == 201)
            let authorized = try Self.code(b, user: "erin")
            #expect(authorized.status == 302, "login_hint erin at B: \(authorized.status) \(authorized.text)")
            #expect(try Self.redeem(b, try Self.codeValue(authorized)).status == 200)
            let credential = try b.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "erin"])
            #expect(credential.status == 200, "a native credential for erin at B: \(credential.text)")
        }
    }

    @Test func controlRequestsAtAnotherReplicaSeeTheLatestProfileAndLoseNoChange() throws {
        try Self.fleet { (a, b) throws in
            #expect(try a.call("POST", "/mock/users", ["id": "fay", "email": "fay@example.com"]).status == 201)
            #expect(try b.call("GET", "/mock/users/fay").status == 200)
            #expect(try a.call("PATCH", "/mock/users/fay", ["email_forwarding": false]).status == 200)
            // B changes another field: made on the fleet's latest profile, so A's change is kept.
            #expect(try b.call("PATCH", "/mock/users/fay", ["first_name": "Faye"]).status == 200)
            let fay = try #require(try a.call("GET", "/mock/users/fay").json)
            #expect(fay["email_forwarding"] == .bool(false), "A's change survives B's")
            #expect(fay["first_name"] == .string("Faye"))
        }
    }

    @Test func aUserTheFleetDoesNotKnowIsStillRefused() throws {
        try Self.fleet { (_, b) throws in
            #expect(try Self.code(b, user: "nobody").status == 400)
            expectControlError(try b.call("GET", "/mock/users/nobody"), 404, field: "id")
        }
    }
}
