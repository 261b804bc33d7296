import JOSE
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// The notification cases of the hostile-Apple catalogue against the valid notification they came from.
@Suite struct TokenTampererNotificationTests {
    let keys: ScenarioKeys
    let tamperer: TokenTamperer
    let now = TestFixtures.epoch

    init() throws {
        keys = try ScenarioKeys(loading: .builtIn)
        tamperer = TokenTamperer(scenario: .builtIn, keys: keys)
    }

    func notification(eventsAsText: Bool = false, milliseconds: Bool = false) throws -> PreparedNotification {
        let details = JSONObject([
            ("type", .string("consent-revoked")), ("sub", .string("001234.abc")),
            ("event_time", .int(milliseconds ? now * 1000 : now)),
        ])
        let claims = JSONObject([
            ("iss", .string("https://appleid.apple.com")), ("aud", .string("com.example.app")), ("iat", .int(now)),
            ("exp", .int(now + 86400)), ("jti", .string("jti-1")),
            ("events", eventsAsText ? .string(JSONValue.object(details).serializedString()) : .object(details)),
        ])
        let header = JSONObject([("kid", .string(keys.signingKID)), ("alg", .string("RS256"))])
        return PreparedNotification(
            url: "https://backend.example/apple", appGroupID: "g", audience: "com.example.app", jti: "jti-1",
            type: "consent-revoked", userID: "alice",
            payload: try JWS.sign(header: header, payload: claims, with: keys.signingKey))
    }

    func claims(_ notification: PreparedNotification) throws -> JSONObject {
        try JWS(compact: notification.payload).payload
    }
    func signed(_ notification: PreparedNotification) throws -> Bool {
        try JWS(compact: notification.payload).isSigned(by: keys.signingKey.publicKey)
    }

    @Test func invalidSignatureChangesOnlyTheSignature() throws {
        let valid = try notification()
        let tampered = try tamperer.notification(valid, as: .notificationInvalidSignature)
        let before = try claims(valid)
        #expect(try claims(tampered) == before && tampered.jti == valid.jti)
        #expect(try signed(valid))
        #expect(try !signed(tampered))
    }

    @Test func invalidAudienceNamesAnotherTeamsApp() throws {
        let valid = try notification()
        let tampered = try tamperer.notification(valid, as: .notificationInvalidAudience)
        let after = try claims(tampered)
        #expect(TokenTampererTests.changed(try claims(valid), after) == ["aud"])
        #expect(
            after["aud"] == .string("com.example.another-team.app")
                && tampered.audience == "com.example.another-team.app")
        #expect(try signed(tampered))
    }

    @Test func replayedJTIReusesTheEarlierOne() throws {
        let valid = try notification()
        let tampered = try tamperer.notification(valid, as: .notificationReplayedJTI, replayedJTI: "jti-0")
        #expect(TokenTampererTests.changed(try claims(valid), try claims(tampered)) == ["jti"])
        #expect(try claims(tampered)["jti"] == .string("jti-0") && tampered.jti == "jti-0")
        #expect(try signed(tampered))
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func staleEventTimeMovesBackThirtyDaysInItsOwnUnitAndShape(asText: Bool, milliseconds: Bool) throws {
        let valid = try notification(eventsAsText: asText, milliseconds: milliseconds)
        let tampered = try tamperer.notification(valid, as: .notificationStaleEventTime)
        let after = try claims(tampered)
        #expect(TokenTampererTests.changed(try claims(valid), after) == ["events"])
        let events = try #require(
            asText ? try JSONValue.parse(after["events"]?.stringValue ?? "").objectValue : after["events"]?.objectValue)
        let back: Int64 = 30 * 86400
        #expect(events["event_time"] == .int(milliseconds ? (now - back) * 1000 : now - back))
        #expect(events["type"] == .string("consent-revoked"))
        #expect(try signed(tampered))
    }

    @Test func idTokenCasesAreRefusedForNotifications() throws {
        let valid = try notification()
        for tamper in TamperCase.cases(for: .idToken) {
            #expect(throws: JOSEError.self) { try tamperer.notification(valid, as: tamper) }
        }
    }
}
