import HTTP
import JOSE
import JSON
import SIWACore
import SIWATestSupport
import Testing

@testable import SIWAServer

@Suite struct ControlAPITests {
    @Test(arguments: Transport.allCases)
    func nativeCredentialIsRedeemedLikeABackend(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let response = try h.call(
                "POST", "/mock/credentials",
                ["client_id": "com.example.app", "user": "alice", "nonce": "nonce-1", "state": "st"])
            #expect(response.status == 200, "\(response.text)")
            let credential = try #require(response.json)
            #expect(credential["user"] == .string("001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"))
            #expect(credential["email"] == .string("alice@example.com"))
            #expect(credential["fullName"]?["givenName"] == .string("Alice"))
            #expect(credential["realUserStatus"] == .int(2))
            #expect(credential["authorizedScopes"] == .array([.string("full_name"), .string("email")]))
            #expect(credential["state"] == .string("st"))
            let token = try #require(credential["identityToken"]?.stringValue)
            let code = try #require(credential["authorizationCode"]?.stringValue)
            let claims = try h.verifiedClaims(token)
            #expect(claims["aud"] == .string("com.example.app") && claims["nonce"] == .string("nonce-1"))
            #expect(claims["c_hash"] == .string(IDTokenMaker.halfHash(code)) && claims["real_user_status"] == .int(2))

            // The backend redeems with the bundle ID and no redirect_uri.
            let redeemed = try h.send(
                RequestBuilder.form(
                    "/auth/token",
                    [
                        ("grant_type", "authorization_code"), ("code", code), ("client_id", "com.example.app"),
                        ("client_secret", try h.secret("com.example.app")),
                    ]))
            #expect(redeemed.status == 200, "\(redeemed.text)")
            let idToken = try #require(redeemed.json?["id_token"]?.stringValue)
            #expect(try h.verifiedClaims(idToken)["sub"] == credential["user"])

            // Second sign-in: no name or email, status unsupported.
            let again = try #require(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"]).json)
            #expect(again["fullName"] == .null && again["email"] == .null && again["realUserStatus"] == .int(0))
        }
    }

    @Test(arguments: Transport.allCases)
    func badInputNamesTheFieldAndAppliesNothing(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            expectControlError(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "zed"]), 404,
                field: "user")
            expectControlError(
                try h.call("POST", "/mock/credentials", ["client_id": "com.nope", "user": "alice"]), 404,
                field: "client_id")
            expectControlError(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.web", "user": "alice"]), 400,
                field: "client_id")
            expectControlError(try h.call("POST", "/mock/credentials", ["user": "alice"]), 400, field: "client_id")
            expectControlError(
                try h.call(
                    "POST", "/mock/credentials",
                    ["client_id": "com.example.app", "user": "alice", "scopes": ["profile"]]), 400, field: "scopes")
            expectControlError(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice", "extra": 1]),
                400, field: "extra")
            let notJSON = try h.send(
                RequestBuilder.post("/mock/credentials", body: "{nope", contentType: "application/json"))
            expectControlError(notJSON, 400, field: "body")
            expectControlError(
                try h.call("PATCH", "/mock/users/alice", ["credential_state": "gone"]), 400, field: "credential_state")
            expectControlError(try h.call("PATCH", "/mock/users/alice", ["email": ""]), 400, field: "email")
            expectControlError(try h.call("PATCH", "/mock/users/zed", ["email": "z@example.com"]), 404, field: "id")
            #expect(h.provider.user(named: "alice")?.email == "alice@example.com")
            expectControlError(try h.call("GET", "/mock/nothing"), 404, field: "path")
            expectControlError(try h.call("DELETE", "/mock/clock"), 405, field: "method")
            #expect(h.provider.store.counts.codes == 0, "no credential was issued by a refused call")
        }
    }

    @Test(arguments: Transport.allCases)
    func credentialStateFollowsUserChanges(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            func state() throws -> JSONValue? {
                try h.send(
                    RequestBuilder.get(
                        "/mock/credential-state",
                        query: [
                            ("user", "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"), ("client_id", "com.example.app"),
                        ])
                ).json?["state"]
            }
            #expect(try state() == .string("notFound"))
            _ = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"])
            #expect(try state() == .string("authorized"))
            let patched = try h.call("PATCH", "/mock/users/alice", ["credential_state": "revoked"])
            #expect(patched.status == 200 && patched.json?["credential_state"] == .string("revoked"))
            #expect(try state() == .string("revoked"))
            expectControlError(
                try h.send(RequestBuilder.get("/mock/credential-state", query: [("user", "alice")])), 400,
                field: "client_id")
            // Unknown users are notFound, as on a device; only an unknown app is an error.
            let nobody = try h.send(
                RequestBuilder.get(
                    "/mock/credential-state", query: [("user", "nobody"), ("client_id", "com.example.app")]))
            #expect(nobody.status == 200 && nobody.json?["state"] == .string("notFound"))
            expectControlError(
                try h.send(
                    RequestBuilder.get("/mock/credential-state", query: [("user", "alice"), ("client_id", "com.nope")])),
                404, field: "client_id")
        }
    }

    @Test(arguments: Transport.allCases)
    func deletedUsersAreNotFoundWithTheReasonInTheJournal(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let bob = try #require(try h.call("GET", "/mock/users/bob").json?["sub"]?.stringValue)
            #expect(try h.call("DELETE", "/mock/users/bob").status == 200)
            for user in [bob, "bob"] {
                let query = [("user", user), ("client_id", "com.example.app")]
                let answer = try h.send(RequestBuilder.get("/mock/credential-state", query: query))
                #expect(answer.status == 200 && answer.json == ["state": "notFound", "raw_value": 2])
            }
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/mock/credential-state")]))
            let reasons = journal.json?["requests"]?.arrayValue?.compactMap { $0["reason"]?.stringValue } ?? []
            #expect(reasons.count == 2)
            #expect(reasons.allSatisfy { $0.hasPrefix("user 'bob' (identifier '") && $0.contains("was deleted at 20") })
        }
    }

    @Test(arguments: Transport.allCases)
    func usersCanBeReadAddedChangedAndDeleted(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let bob = try h.call("GET", "/mock/users/bob")
            #expect(bob.json?["relay_email"] == .string("k7x2m9q4ab@privaterelay.appleid.com"))
            let byEmail = try h.call("GET", "/mock/users/carol%40example.net")
            #expect(byEmail.json?["id"] == .string("carol"))
            let added = try h.call(
                "POST", "/mock/users",
                ["id": "dave", "email": "dave@example.com", "private_email": true, "first_name": "Dave"])
            #expect(added.status == 201, "\(added.text)")
            #expect(added.json?["relay_email"]?.stringValue?.hasSuffix("@privaterelay.appleid.com") == true)
            expectControlError(
                try h.call("POST", "/mock/users", ["id": "dave", "email": "d2@example.com"]), 409, field: "id")
            expectControlError(try h.call("PATCH", "/mock/users/dave"), 400, field: "body")
            expectControlError(
                try h.call("PATCH", "/mock/users/dave", ["email_forwarding": nil]), 400, field: "email_forwarding")
            #expect(
                try h.call("PATCH", "/mock/users/dave", ["real_user_status": 1.0]).json?["real_user_status"]
                    == .string("unknown"))
            let changed = try h.call(
                "PATCH", "/mock/users/dave", ["real_user_status": "unknown", "email_forwarding": false])
            #expect(
                changed.json?["real_user_status"] == .string("unknown")
                    && changed.json?["email_forwarding"] == .bool(false))
            let credential = try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "dave"])
            #expect(credential.json?["realUserStatus"] == .int(1))
            #expect(try h.call("DELETE", "/mock/users/dave").status == 200)
            expectControlError(try h.call("GET", "/mock/users/dave"), 404, field: "id")
            #expect(try h.call("GET", "/mock/users").json?["users"]?.arrayValue?.count == 3)
        }
    }

    /// The clock body reads time with the scenario files' grammar (issue #9): a unit is required in
    /// text, a JSON number stays seconds, `-` goes back, and timestamps need uppercase T/Z and no `:60`.
    @Test(arguments: Transport.allCases)
    func clockTextUsesTheScenarioGrammar(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let bare = try h.call("POST", "/mock/clock", ["advance": "90"])
            expectControlError(bare, 400, field: "advance")
            #expect(bare.text.contains("(add a unit)"))
            #expect(
                try h.call("POST", "/mock/clock", ["advance": 90]).json?["epoch_seconds"]
                    == .int(TestFixtures.epoch + 90))
            #expect(
                try h.call("POST", "/mock/clock", ["advance": "1h30m"]).json?["epoch_seconds"]
                    == .int(TestFixtures.epoch + 90 + 5400))
            #expect(
                try h.call("POST", "/mock/clock", ["advance": "-1h31m30s"]).json?["epoch_seconds"]
                    == .int(TestFixtures.epoch))
            let lowercase = try h.call("POST", "/mock/clock", ["set": "2030-01-01t00:00:00z"])
            expectControlError(lowercase, 400, field: "set")
            #expect(lowercase.text.contains("uppercase"))
            expectControlError(try h.call("POST", "/mock/clock", ["set": "2016-12-31T23:59:60Z"]), 400, field: "set")
        }
    }

    @Test(arguments: Transport.allCases)
    func clockAdvanceExpiresCodesAndResetRestores(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let credential = try #require(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "bob"]).json)
            let advanced = try h.call("POST", "/mock/clock", ["advance": "6m"])
            #expect(advanced.json?["epoch_seconds"] == .int(TestFixtures.epoch + 360))
            let redeemed = try h.send(
                RequestBuilder.form(
                    "/auth/token",
                    [
                        ("grant_type", "authorization_code"),
                        ("code", credential["authorizationCode"]?.stringValue ?? ""),
                        ("client_id", "com.example.app"), ("client_secret", try h.secret("com.example.app")),
                    ]))
            expectAppleError(redeemed, "invalid_grant", "The code has expired or has been revoked.")
            let set = try h.call("POST", "/mock/clock", ["set": "2030-01-01T00:00:00Z"])
            #expect(
                set.json?["epoch_seconds"] == .int(1_893_456_000)
                    && set.json?["now"] == .string("2030-01-01T00:00:00.000Z"))
            expectControlError(try h.call("POST", "/mock/clock", ["advance": "soon"]), 400, field: "advance")
            expectControlError(try h.call("POST", "/mock/clock", ["set": "yesterday"]), 400, field: "set")
            expectControlError(try h.call("POST", "/mock/clock", ["advance": "999999999999d"]), 400, field: "advance")
            expectControlError(try h.call("POST", "/mock/clock", ["advance": 99_999_999_999]), 400, field: "advance")
            let wrongMethod = try h.call("PUT", "/mock/clock", ["freeze": true])
            #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "GET, POST")
            expectControlError(
                try h.call("POST", "/mock/clock", ["advance": "1m", "freeze": true]), 400, field: "body")
            #expect(try h.call("POST", "/mock/clock", ["freeze": true]).json?["frozen"] == .bool(true))
            #expect(try h.call("POST", "/mock/reset").status == 200)
            #expect(try h.call("GET", "/mock/clock").json?["epoch_seconds"] == .int(TestFixtures.epoch))
            #expect(h.provider.store.counts.codes == 0)
        }
    }

    @Test(arguments: Transport.allCases)
    func keysRotatePublishAndRetire(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            // Served before the rotation too: the answer prepared for the old key set must not outlive it.
            let before = try #require(try h.send(RequestBuilder.get("/auth/keys")).json?["keys"]?.arrayValue)
            #expect(before.compactMap { $0["kid"]?.stringValue } == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
            let rotated = try h.call("POST", "/mock/keys/rotate", ["kid": "NewKey0001"])
            #expect(rotated.json?["signing_kid"] == .string("NewKey0001"))
            let jwks = try #require(try h.send(RequestBuilder.get("/auth/keys")).json?["keys"]?.arrayValue)
            #expect(
                jwks.compactMap { $0["kid"]?.stringValue } == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm", "NewKey0001"])
            let credential = try #require(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "carol"]).json)
            let token = try #require(credential["identityToken"]?.stringValue)
            #expect(try JWS(compact: token).keyID == "NewKey0001")
            _ = try h.verifiedClaims(token)
            expectControlError(try h.call("POST", "/mock/keys/NewKey0001/retire"), 409, field: "kid")
            #expect(try h.call("POST", "/mock/keys/Pb7Yt1ZcQ9/retire").status == 200)
            let after = try #require(try h.send(RequestBuilder.get("/auth/keys")).json?["keys"]?.arrayValue)
            #expect(after.compactMap { $0["kid"]?.stringValue } == ["Aj3F8kLq2X", "Tq8Nv3WcLm", "NewKey0001"])
            #expect(try h.call("POST", "/mock/keys/Pb7Yt1ZcQ9/publish").status == 200)
            #expect(try h.call("POST", "/mock/keys/Aj3F8kLq2X/sign").json?["signing_kid"] == .string("Aj3F8kLq2X"))
            expectControlError(try h.call("POST", "/mock/keys/Missing123/publish"), 404, field: "kid")
        }
    }

    @Test(arguments: Transport.allCases)
    func journalRecordsRequestsWithFingerprintsAndFilters(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let credential = try #require(
                try h.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"]).json)
            let code = try #require(credential["authorizationCode"]?.stringValue)
            let secret = try h.secret("com.example.app")
            _ = try h.send(
                RequestBuilder.form(
                    "/auth/token",
                    [
                        ("grant_type", "authorization_code"), ("code", code), ("client_id", "com.example.app"),
                        ("client_secret", secret),
                    ]))
            _ = try h.send(RequestBuilder.get("/auth/keys"))
            let listed = try h.send(
                RequestBuilder.get(
                    "/mock/requests", query: [("path", "/auth/token"), ("client_id", "com.example.app")]))
            let entries = try #require(listed.json?["requests"]?.arrayValue)
            #expect(entries.count == 1)
            let entry = try #require(entries.first)
            #expect(
                entry["user"] == .string("alice") && entry["status"] == .int(200) && entry["outcome"] == .string("ok"))
            #expect(entry["parameters"]?["grant_type"] == .string("authorization_code"))
            #expect(entry["parameters"]?["code"]?.stringValue?.hasPrefix("sha256:") == true)
            #expect(!listed.text.contains(code) && !listed.text.contains(secret), "no secret in the journal")
            let byUser = try h.send(
                RequestBuilder.get("/mock/requests", query: [("user", "alice"), ("path", "/auth/token")]))
            #expect(byUser.json?["requests"]?.arrayValue?.count == 1)
            #expect(try h.call("DELETE", "/mock/requests").status == 200)
            let cleared = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/auth/token")]))
            #expect(cleared.json?["requests"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(arguments: Transport.allCases)
    func adminTokenGuardsOnlyTheControlAPI(_ transport: Transport) throws {
        try ControlHarness.run(transport, adminToken: "s3cret") { h in
            expectControlError(try h.call("GET", "/mock/users"), 401, field: "Authorization")
            expectControlError(try h.call("POST", "/mock/reset", token: "wrong"), 401, field: "Authorization")
            #expect(try h.call("POST", "/mock/reset", token: "s3cret").status == 200)
            #expect(try h.call("GET", "/mock/health").status == 200, "health checks need no token")
            #expect(try h.send(RequestBuilder.get("/auth/keys")).status == 200)
        }
    }

    @Test func scenarioReplacementNeedsALoader() throws {
        try ControlHarness.run(.inProcess) { h in
            let response = try h.send(
                RequestBuilder.post("/mock/scenario", body: "name: x", contentType: "text/yaml").with(method: "PUT"))
            expectControlError(response, 501, field: nil)
        }
    }

    /// The document and the route table describe the same API: every route is documented with its
    /// method, and every documented operation is routed.
    @Test func openAPIDocumentMatchesTheRouteTable() throws {
        try ControlHarness.run(.inProcess) { h in
            let response = try h.call("GET", "/mock/openapi.json")
            #expect(response.status == 200)
            #expect(response.json?["openapi"]?.stringValue?.hasPrefix("3.") == true)
            let paths = try #require(response.json?["paths"]?.objectValue)
            var documented = Set<String>()
            for (path, item) in paths.pairs {
                for method in ["get", "post", "put", "patch", "delete", "head"] where item[method] != nil {
                    documented.insert("\(method.uppercased()) \(path)")
                }
            }
            let routed = Set(h.server.pipeline.routes.map { "\($0.method) \($0.path)" })
            #expect(routed.count > 30)
            #expect(routed.subtracting(documented).sorted() == [], "routed but not documented")
            #expect(documented.subtracting(routed).sorted() == [], "documented but not routed")
        }
    }
}

extension HTTPRequest {
    func with(method: HTTPMethod) -> HTTPRequest {
        var copy = self
        copy.method = method
        return copy
    }
}

@Suite struct RequestJournalTests {
    @Test func keepsTheNewestEntriesInOrder() {
        let journal = RequestJournal(capacity: 3)
        for index in 1...5 {
            journal.append(
                JournalEntry(
                    sequence: 0, kind: "request", method: "GET", path: "/p\(index)", parameters: [], clientID: nil,
                    user: index.isMultiple(of: 2) ? "alice" : nil, outcome: "ok", status: 200, timeMilliseconds: 0))
        }
        #expect(journal.entries().map(\.path) == ["/p3", "/p4", "/p5"])
        #expect(journal.entries().map(\.sequence) == [3, 4, 5])
        #expect(journal.entries(user: "alice").map(\.path) == ["/p4"])
        #expect(journal.clear() == 3)
        #expect(journal.entries().isEmpty)
    }
}
