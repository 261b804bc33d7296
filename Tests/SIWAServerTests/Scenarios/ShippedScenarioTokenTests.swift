import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// Tampering is never active unless a fault rule asks for it (docs/rp-check.md): the built-in scenario
/// and every file in `scenarios/` issue only valid id_tokens — hybrid authorize for every Services ID,
/// native credentials for every App ID — and validly signed notifications.
@Suite struct ShippedScenarioTokenTests {
    static var scenarios: [String] { ["(built-in)"] + ScenarioFiles.yamlFiles }

    static func load(_ name: String) throws -> Scenario {
        name == "(built-in)" ? .builtIn : try ScenarioFiles.load(name)
    }

    @Test(arguments: scenarios)
    func issuesOnlyValidTokens(_ name: String) throws {
        var scenario = try Self.load(name)
        #expect(!scenario.faults.contains { $0.action.tamper != nil }, "\(name) ships no tampering rule")
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        for index in scenario.appGroups.indices { scenario.appGroups[index].notificationURL = receiver.url }
        let user = try #require(scenario.users.first?.id)
        try NotificationTests.run(.inProcess, scenario: scenario) { (h, scheduler, _) throws in
            var checked = 0
            for client in scenario.clients where client.kind == .services {
                for redirect in client.redirectURIs.prefix(1) {
                    let response = try h.send(
                        RequestBuilder.authorize(
                            clientID: client.id, redirectURI: redirect, nonce: "n-\(client.id)",
                            extra: [("login_hint", user)]))
                    guard response.status == 200, let form = HTMLForm.parse(response.text)?.inputs,
                        let token = form.first(where: { $0.name == "id_token" })?.value
                    else { continue }
                    let code = try #require(form.first { $0.name == "code" }?.value)
                    try Self.expectValid(
                        token, h, scenario, client: client.id, nonce: "n-\(client.id)", hash: ("c_hash", code))
                    checked += 1
                }
            }
            for client in scenario.clients where client.kind == .native {
                let credential = try h.call(
                    "POST", "/mock/credentials",
                    ["client_id": .string(client.id), "user": .string(user), "nonce": "n-1"])
                guard credential.status == 200, let json = credential.json else { continue }
                let token = try #require(json["identityToken"]?.stringValue)
                let code = try #require(json["authorizationCode"]?.stringValue)
                try Self.expectValid(token, h, scenario, client: client.id, nonce: "n-1", hash: ("c_hash", code))
                checked += 1
            }
            #expect(checked > 0, "\(name): at least one id_token checked")
            if !scenario.appGroups.isEmpty {
                _ = try h.call("POST", "/mock/notifications", ["type": "consent-revoked", "user": .string(user)])
                #expect(scheduler.waitUntilIdle())
                for payload in receiver.payloads {
                    let claims = try h.verifiedClaims(payload)
                    #expect(claims["iss"] == .string(scenario.settings.issuer))
                    #expect(scenario.appGroups.map(\.primaryAppID).contains(claims["aud"]?.stringValue ?? ""))
                }
                let journal = try h.send(RequestBuilder.get("/mock/requests")).json?["requests"]?.arrayValue ?? []
                #expect(
                    journal.allSatisfy { $0["parameters"]?["tamper"] == nil }, "\(name): nothing journaled as tampered")
            }
        }
    }

    /// Signed by a key `/auth/keys` publishes (`verifiedClaims`), RS256 with that `kid`, and every claim
    /// Apple's rules give it.
    static func expectValid(
        _ token: String, _ h: ControlHarness, _ scenario: Scenario, client: String, nonce: String,
        hash: (name: String, of: String)
    ) throws {
        let jws = try JWS(compact: token)
        #expect(jws.algorithm == "RS256" && jws.keyID != nil)
        let claims = try h.verifiedClaims(token)
        let now = h.clock.nowSeconds
        #expect(claims["iss"] == .string(scenario.settings.issuer))
        #expect(claims["aud"] == .string(client))
        #expect(claims["sub"]?.stringValue?.isEmpty == false)
        let iat = try #require(claims["iat"]?.intValue)
        let exp = try #require(claims["exp"]?.intValue)
        #expect(iat <= now && now < exp)
        #expect(claims["nonce"] == .string(nonce))
        #expect(claims[hash.name] == .string(IDTokenMaker.halfHash(hash.of)))
        for flag in ["email_verified", "is_private_email"] {
            guard let value = claims[flag] else { continue }
            switch scenario.settings.booleanStyle {
            case .bool: #expect(value == .bool(true) || value == .bool(false), "\(flag): \(value)")
            case .string: #expect(value == .string("true") || value == .string("false"), "\(flag): \(value)")
            }
        }
    }
}
