import JOSE
import SIWACore
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// Issue #11 items 3 and 4 in SIWACore: no key generation on the caller's thread when a supply is set,
/// linear scenario validation, store byte caps, a bounded diagnostics list.
@Suite struct HardeningCoreTests {
    final class CallCounter: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
    }

    /// A supply whose "generation" hands out a fixed key and counts the calls.
    static func countingSupply(capacity: Int = 2) -> (SigningKeySupply, CallCounter) {
        let calls = CallCounter()
        let supply = SigningKeySupply(capacity: capacity) {
            calls.count.withLock { $0 += 1 }
            return Scenario.BuiltInKeys.signingKeyPb7Yt1ZcQ9
        }
        return (supply, calls)
    }

    /// Nothing is generated until a key is asked for: a server that never rotates spends no CPU on keys.
    @Test func keysAreMadeOnlyAfterTheFirstDemand() {
        let (supply, calls) = Self.countingSupply(capacity: 2)
        #expect(supply.refill() == 0 && calls.value == 0)
        #expect(supply.take() == nil, "none ready yet; this asks for them")
        #expect(supply.refill() == 2 && calls.value == 2)
        #expect(supply.take() != nil)
        #expect(supply.refill() == 1, "kept topped up once asked")
    }

    /// A stopping host waits for the key being made, not for a whole refill: a refill of four keys
    /// (up to 2 s of RSA generation) outlived the host's wait, and the process exit then crashed in
    /// OpenSSL's cleanup under the generating thread.
    @Test func stopEndsARefillAfterTheKeyInHand() {
        let calls = CallCounter()
        let box = Mutex<SigningKeySupply?>(nil)
        let supply = SigningKeySupply(capacity: 4) {
            calls.count.withLock { $0 += 1 }
            box.withLock { $0?.stop() }
            return Scenario.BuiltInKeys.signingKeyPb7Yt1ZcQ9
        }
        box.withLock { $0 = supply }
        supply.prime()
        #expect(supply.refill() == 1 && calls.value == 1, "stopped during the first key: no second one")
        #expect(supply.refill() == 0 && calls.value == 1)
        #expect(supply.readyCount == 1)
    }

    @Test func rotationTakesPreGeneratedKeysAndIsRefusedWhenNoneIsReady() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let (supply, calls) = Self.countingSupply(capacity: 1)
        provider.takeSigningKeys(from: supply)
        do {
            try provider.rotateSigningKey(kid: "NEWKEY0001")
            Issue.record("rotated although no key was ready")
        } catch {
            #expect(error.kind == .unavailable && error.field == "kid")
        }
        #expect(supply.refill() == 1)
        let kid = try provider.rotateSigningKey(kid: "NEWKEY0001")
        #expect(provider.keys.signingKID == kid)
        #expect(calls.value == 1, "the key came from refill(), not from the rotating thread")
        #expect(supply.readyCount == 0)
    }

    /// Off the event loop (the pipeline runs rotation on a background thread) a rotation with no key
    /// ready makes one on its own thread and succeeds, instead of answering 503 (issue #22).
    @Test func rotationOffTheLoopMakesAKeyWhenNoneIsReady() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let (supply, calls) = Self.countingSupply(capacity: 1)
        provider.takeSigningKeys(from: supply)
        #expect(supply.readyCount == 0)
        let kid = try provider.rotateSigningKey(kid: "NEWKEY0002", offLoop: true)
        #expect(provider.keys.signingKID == kid && kid == "NEWKEY0002")
        #expect(calls.value == 1, "made on the rotating thread")
        // Later rotations take what the background refill made.
        #expect(supply.refill() == 1 && calls.value == 2)
        try provider.rotateSigningKey(kid: "NEWKEY0003", offLoop: true)
        #expect(calls.value == 2 && supply.readyCount == 0)
    }

    @Test func scenariosSentOverHTTPDrawMissingKeysFromTheSupply() throws {
        let (supply, calls) = Self.countingSupply(capacity: 2)
        supply.prime()
        supply.refill()
        var loader = ScenarioLoader()
        loader.keySupply = supply
        let three = """
            signing_keys:
              - {kid: K1, signs: true}
              - {kid: K2}
              - {kid: K3}
            """
        do {
            _ = try loader.load(three, file: "s.yaml")
            Issue.record("a third key-less key was accepted with two ready")
        } catch {
            #expect(error.description.contains("key 'K3' has no PEM and no pre-generated key is ready"))
        }
        #expect(calls.value == 2, "the loader itself generated nothing")
    }

    @Test func atMostTenKeysMayBeGeneratedPerScenario() throws {
        let keys = (1...11).map { "  - {kid: K\($0)\($0 == 1 ? ", signs: true" : "")}" }.joined(separator: "\n")
        let loader = ScenarioLoader(generateMissingKeys: false)
        do {
            _ = try loader.load("signing_keys:\n" + keys, file: "s.yaml")
            Issue.record("eleven key-less signing keys were accepted")
        } catch {
            #expect(error.description.contains("at most 10 signing keys may be generated per scenario"))
        }
    }

    static func users(_ count: Int) -> [UserProfile] {
        (0..<count).map { UserProfile(id: "u\($0)", sub: "000000.\($0).0000", email: "u\($0)@example.com") }
    }

    /// 40,000 users validated in well under a second; the quadratic version took 29 s in release and
    /// minutes in a debug build.
    @Test(.timeLimit(.minutes(1))) func validationIsLinear() throws {
        var scenario = Scenario.builtIn
        scenario.users = UserList(Self.users(40_000))
        #expect(scenario.validate().isEmpty)
        scenario.users.append(UserProfile(id: "u7", sub: "000000.7.0000", email: "x@example.com"))
        #expect(
            scenario.validate().map(\.description) == [
                "users[40000].id: duplicate user id 'u7'", "users[40000].sub: duplicate sub '000000.7.0000'",
            ])
        scenario.users.removeLast()

        let provider = try TestFixtures.provider(scenario: scenario, clock: TestFixtures.clock())
        for i in 0..<100 { try provider.addUser(UserProfile(id: "new\(i)", sub: "", email: "n\(i)@example.com")) }
        #expect(provider.scenario.users.count == 40_100)
    }

    /// Runtime key additions stop at `maximumSigningKeys` with a conflict: added keys are never dropped,
    /// so a rotation loop grew the key set, `/auth/keys` and the cost of every key change without bound.
    @Test func signingKeysStopAtTheirCap() throws {
        let provider = try TestFixtures.provider(clock: TestFixtures.clock())
        let pem = Scenario.BuiltInKeys.signingKeyPb7Yt1ZcQ9
        let cap = AppleIdentityProvider.maximumSigningKeys
        for i in provider.scenario.signingKeys.keys.count..<cap {
            try provider.addSigningKey(SigningKey(kid: "K\(i)", privateKeyPEM: pem, published: false))
        }
        #expect(provider.scenario.signingKeys.keys.count == cap)
        for attempt in [
            { try provider.addSigningKey(SigningKey(kid: "over", privateKeyPEM: pem, signs: true)) },
            { try provider.rotateSigningKey() },
        ] {
            do {
                _ = try attempt()
                Issue.record("a key beyond the cap was added")
            } catch {
                let refusal = error as? ProviderChangeError
                #expect(refusal?.kind == .conflict && refusal?.message.contains("at most \(cap) signing keys") == true)
            }
        }
        #expect(provider.scenario.signingKeys.keys.count == cap)
        #expect(provider.snapshot.keys.signingKID == "Aj3F8kLq2X", "the signer did not change")
    }

    @Test func codeAndTokenTablesStayUnderTheirByteCaps() throws {
        var limits = IdentityStore.Limits()
        limits.maxCodeBytes = 256 * 1024
        limits.maxAccessTokenBytes = 256 * 1024
        limits.maxRefreshTokenBytes = 256 * 1024
        let store = IdentityStore(
            settings: ScenarioSettings(), identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 3)),
            limits: limits)
        let nonce = String(repeating: "n", count: ParameterLimits.maximumBytes(for: "nonce"))
        for i in 0..<2_000 {
            let code = store.authorize(
                userID: "user\(i)", clientID: TestKeys.webClientID, consentGroupID: "g", requestedScopes: [.email],
                redirectURI: TestKeys.redirectURI, nonce: nonce, now: TestFixtures.epoch
            ).code
            _ = try store.redeemCode(
                code, clientID: TestKeys.webClientID, redirectURI: TestKeys.redirectURI, now: TestFixtures.epoch
            ).get()
        }
        let bytes = store.tableBytes
        #expect(bytes.codes <= limits.maxCodeBytes && bytes.codes > 0)
        #expect(bytes.accessTokens <= limits.maxAccessTokenBytes && bytes.refreshTokens <= limits.maxRefreshTokenBytes)
        #expect(store.counts.codes < 2_000, "old codes were evicted for bytes, not only by count")
    }

    @Test func aScenarioWithThousandsOfErrorsListsFiftyAndACount() throws {
        let users = (0..<2_000).map { "  - {id: u\($0), email: e, bogus: 1}" }.joined(separator: "\n")
        do {
            _ = try ScenarioLoader(generateMissingKeys: false).load("users:\n" + users, file: "s.yaml")
            Issue.record("accepted")
        } catch {
            #expect(error.diagnostics.count == 51)
            let last = error.diagnostics.last?.message ?? ""
            #expect(
                last.hasPrefix("… and ") && last.hasSuffix("more problems (only the first 50 are listed)"), "\(last)")
        }
    }
}
