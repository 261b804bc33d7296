import Foundation
import JOSE
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

@Suite struct RuntimeChangeTests {
    @Test func revokingAUserEndsTheirTokensAndReportsRevoked() throws {
        let clock = TestFixtures.clock()
        let provider = try TestFixtures.provider(clock: clock)
        let events = EventRecorder()
        provider.observeUserEvents { events.record($0) }
        _ = try provider.nativeCredential(clientID: TestKeys.nativeClientID, user: "alice")
        #expect(try provider.credentialState(user: "alice", clientID: TestKeys.nativeClientID) == .authorized)
        #expect(provider.store.counts.consents == 1)

        try provider.updateUser("alice", UserChange(credentialState: .revoked))
        #expect(provider.store.counts.consents == 0)
        #expect(try provider.credentialState(user: "alice", clientID: TestKeys.nativeClientID) == .revoked)
        #expect(events.kinds == [.consentRevoked])
        #expect(events.all.first?.appGroupIDs == ["com.example.app"])

        // Signing in again makes her authorized once more.
        _ = try provider.nativeCredential(clientID: TestKeys.nativeClientID, user: "alice")
        #expect(try provider.credentialState(user: "alice", clientID: TestKeys.nativeClientID) == .authorized)
    }

    @Test func neverSignedInAndUnknownUsersAreNotFoundAndUnknownClientsAreErrors() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let never = try provider.credentialStateAnswer(user: "bob", clientID: TestKeys.nativeClientID)
        #expect(never.state == .notFound && never.reason == "user 'bob' has not signed in to 'com.example.app'")
        // Apple answers notFound for any identifier it does not know; the reason is only for the journal.
        let unknown = try provider.credentialStateAnswer(user: "zed", clientID: TestKeys.nativeClientID)
        #expect(unknown == .init(state: .notFound, reason: "no user has the identifier 'zed'"))
        #expect(try provider.credentialState(user: "zed", clientID: TestKeys.nativeClientID) == .notFound)
        let alice = try #require(provider.user(named: "alice"))
        let typo = String(alice.sub.dropLast()) + "x"
        let near = try provider.credentialStateAnswer(user: typo, clientID: TestKeys.nativeClientID)
        #expect(
            near.state == .notFound
                && near.reason == "no user has the identifier '\(typo)' (did you mean alice's sub '\(alice.sub)'?)")
        #expect(throws: ProviderChangeError.unknownClient("com.nope")) {
            try provider.credentialState(user: "bob", clientID: "com.nope")
        }
    }

    @Test func invalidChangesApplyNothing() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let before = provider.scenario
        // bob is private; removing his relay address makes the user invalid → nothing changes.
        var change = UserChange(email: "new@example.com")
        change.privateEmail = true
        #expect(throws: ProviderChangeError.self) {
            try provider.addUser(UserProfile(id: "alice", sub: "", email: "dup@example.com"))
        }
        #expect(throws: ProviderChangeError.self) { try provider.updateUser("alice", UserChange(email: "")) }
        #expect(provider.scenario == before)
        let added = try provider.addUser(UserProfile(id: "dave", sub: "", email: "dave@example.com"))
        #expect(added.sub.split(separator: ".").count == 3)
        #expect(provider.user(named: "dave")?.email == "dave@example.com")
    }

    @Test func rotationRepublishesTheJWKSAndSignsWithTheNewKey() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let kid = try provider.rotateSigningKey()
        let jwks = try JWKS(json: JSONValue.parse(provider.jwksBytes))
        #expect(jwks.keys.map(\.kid) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm", kid])
        let credential = try provider.nativeCredential(clientID: TestKeys.nativeClientID, user: "carol")
        let token = try JWS(compact: credential.identityToken)
        #expect(token.keyID == kid)
        #expect(throws: ProviderChangeError.self) { try provider.retireKey(kid: kid) }
        try provider.retireKey(kid: "Aj3F8kLq2X")
        #expect(
            try JWKS(json: JSONValue.parse(provider.jwksBytes)).keys.map(\.kid) == ["Pb7Yt1ZcQ9", "Tq8Nv3WcLm", kid])
        try provider.publishKey(kid: "Aj3F8kLq2X")
        #expect(throws: ProviderChangeError(.notFound, field: "kid", "unknown key 'nope'")) {
            try provider.publishKey(kid: "nope")
        }
        provider.reset()
        #expect(
            try JWKS(json: JSONValue.parse(provider.jwksBytes)).keys.map(\.kid) == [
                "Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm",
            ])
    }

    @Test func resetRestoresUsersStoreAndClock() throws {
        let clock = TestFixtures.clock()
        let provider = try TestFixtures.provider(clock: clock)
        _ = try provider.nativeCredential(clientID: TestKeys.nativeClientID, user: "alice")
        try provider.deleteAccount("bob")
        clock.advance(seconds: 600)
        provider.reset()
        #expect(provider.user(named: "bob") != nil)
        #expect(provider.store.counts.consents == 0)
        #expect(clock.nowSeconds == TestFixtures.epoch)
    }

    @Test func nativeCredentialCarriesFirstTimeDataOnce() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let first = try provider.nativeCredential(
            clientID: TestKeys.nativeClientID, user: "bob", nonce: "n-1", state: "s")
        #expect(first.user == "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222")
        #expect(first.email == "k7x2m9q4ab@privaterelay.appleid.com")
        #expect(first.fullName == PersonName(firstName: "Bob", lastName: "Bobson"))
        #expect(first.realUserStatus == .likelyReal)
        let claims = try JWS(compact: first.identityToken).payload
        #expect(claims["nonce"] == .string("n-1"))
        #expect(claims["real_user_status"] == .int(2))
        #expect(claims["c_hash"] == .string(IDTokenMaker.halfHash(first.authorizationCode)))
        #expect(claims["aud"] == .string(TestKeys.nativeClientID))
        let second = try provider.nativeCredential(clientID: TestKeys.nativeClientID, user: "bob")
        #expect(second.email == nil && second.fullName == nil)
        #expect(try JWS(compact: second.identityToken).payload["real_user_status"] == nil)
        #expect(throws: ProviderChangeError.self) {
            try provider.nativeCredential(clientID: TestKeys.webClientID, user: "bob")
        }
    }

    @Test func transferredAppSeesTheNewTeamsIdentity() throws {
        let clock = TestFixtures.clock()
        let provider = try TestFixtures.provider(
            scenario: .transferFixture(acceptedAt: TestFixtures.epoch), clock: clock)
        let oldSub = "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"
        #expect(try provider.credentialState(user: oldSub, clientID: Scenario.movedAppID) == .transferred)
        let credential = try provider.nativeCredential(clientID: Scenario.movedAppID, user: oldSub)
        #expect(credential.user != oldSub)
        let claims = try JWS(compact: credential.identityToken).payload
        #expect(claims["sub"] == .string(credential.user))
        #expect(claims["transfer_sub"] != nil)
        clock.advance(seconds: TeamTransfer.windowSeconds)
        let later = try provider.nativeCredential(clientID: Scenario.movedAppID, user: "alice")
        #expect(try JWS(compact: later.identityToken).payload["transfer_sub"] == nil)
    }

    @Test func adjustableClockAdvancesSetsAndFreezes() {
        let clock = AdjustableClock()
        clock.setFrozen(true)
        clock.set(milliseconds: 1_000_000_000_000)
        #expect(clock.nowMilliseconds == 1_000_000_000_000)
        clock.advance(milliseconds: 360_000)
        #expect(clock.nowMilliseconds == 1_000_000_360_000)
        #expect(clock.isFrozen)
        clock.reset(initialMilliseconds: 0)
        #expect(!clock.isFrozen)
        #expect(clock.nowMilliseconds > 1_700_000_000_000)
    }

    /// The lock-free reading (`AdjustableClock.reading`) against a model of offset and freeze point, over
    /// 3,000 generated operations: frozen readings exact, running ones within the wall clock's reads
    /// taken around them.
    @Test func adjustableClockReadingFollowsItsModel() {
        let clock = AdjustableClock()
        let wall = SystemClock()
        var offset: Int64 = 0
        var frozenAt: Int64? = nil
        var generator = SystemRandomNumberGenerator()
        for step in 0..<3_000 {
            let amount = Int64.random(in: -10_000_000_000...10_000_000_000, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                clock.advance(milliseconds: amount)
                if let at = frozenAt { frozenAt = at + amount } else { offset += amount }
            case 1:
                let target = 1_700_000_000_000 + amount
                let before = wall.nowMilliseconds
                clock.set(milliseconds: target)
                if frozenAt != nil { frozenAt = target } else { offset = target - before }
            case 2:
                let before = wall.nowMilliseconds
                clock.setFrozen(true)
                if frozenAt == nil {
                    frozenAt = clock.nowMilliseconds
                    #expect(abs(frozenAt! - (before + offset)) <= 1_000, "step \(step)")
                }
            case 3:
                clock.setFrozen(false)
                if let at = frozenAt { offset = at - wall.nowMilliseconds }
                frozenAt = nil
            default:
                clock.reset(initialMilliseconds: 0)
                offset = 0
                frozenAt = nil
            }
            #expect(clock.isFrozen == (frozenAt != nil), "step \(step)")
            let before = wall.nowMilliseconds
            let reading = clock.nowMilliseconds
            let after = wall.nowMilliseconds
            if let frozenAt {
                #expect(reading == frozenAt, "step \(step)")
            } else {
                // Thawing and `set` read the wall clock once more than the model does: a few ms of slack.
                #expect(reading >= before + offset - 1_000 && reading <= after + offset + 1_000, "step \(step)")
            }
        }
    }
}

/// Collects user events from observers (which may run on any thread).
final class EventRecorder: Sendable {
    private let events = Mutex<[UserEvent]>([])
    func record(_ event: UserEvent) { events.withLock { $0.append(event) } }
    var all: [UserEvent] { events.withLock { $0 } }
    var kinds: [UserEvent.Kind] { all.map(\.kind) }
}

@Suite struct TimeTextTests {
    /// The in-place formatter against Foundation's ISO 8601 formatter (an independent implementation), at
    /// the ends of the range and 2,000 generated instants in between.
    @Test func rfc3339AgreesWithFoundationAcrossTheRange() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        let instants: [Int64] =
            [0, 1, 999, 1000, 86_399_999, 951_782_400_000, TimeText.maximumMilliseconds]
            + (0..<2_000).map { _ in Int64.random(in: 0...TimeText.maximumMilliseconds, using: &generator) }
        for milliseconds in instants {
            // A tenth of a microsecond past the millisecond: Foundation rounds or cuts the binary fraction.
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000 + 1e-7)
            #expect(TimeText.rfc3339(milliseconds: milliseconds) == formatter.string(from: date), "\(milliseconds)")
        }
    }

    @Test func rfc3339FormatsMillisecondsInUTC() {
        #expect(TimeText.rfc3339(milliseconds: 1_893_456_000_500) == "2030-01-01T00:00:00.500Z")
        #expect(TimeText.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
    }

    @Test func deletedAccountsAreNotFoundWithWhenInTheReason() throws {
        let clock = TestFixtures.clock()
        let provider = try TestFixtures.provider(clock: clock)
        _ = try provider.nativeCredential(clientID: TestKeys.nativeClientID, user: "bob")
        let bob = try #require(provider.user(named: "bob"))
        #expect(try provider.credentialState(user: bob.sub, clientID: TestKeys.nativeClientID) == .authorized)
        try provider.deleteAccount("bob")
        let when = TimeText.rfc3339(milliseconds: clock.nowMilliseconds)
        for identifier in [bob.sub, "bob", bob.email] {
            let answer = try provider.credentialStateAnswer(user: identifier, clientID: TestKeys.nativeClientID)
            #expect(
                answer
                    == .init(
                        state: .notFound, reason: "user 'bob' (identifier '\(identifier)') was deleted at \(when)"))
        }
        provider.reset()
        // After a reset bob exists again (the scenario's user), and the deletion is forgotten.
        #expect(try provider.credentialState(user: bob.sub, clientID: TestKeys.nativeClientID) == .notFound)
        #expect(
            try provider.credentialStateAnswer(user: bob.sub, clientID: TestKeys.nativeClientID).reason
                == "user 'bob' has not signed in to 'com.example.app'")
    }
}
