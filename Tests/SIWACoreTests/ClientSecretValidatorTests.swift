import JOSE
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct ClientSecretValidatorTests {
    let clock = TestFixtures.clock()
    let validator: ClientSecretValidator
    let maker: ClientSecretMaker
    var now: Int64 { clock.nowSeconds }
    static let web = TestKeys.webClientID

    init() throws {
        validator = ClientSecretValidator(scenario: .builtIn, keys: try ScenarioKeys(loading: .builtIn), clock: clock)
        maker = try ClientSecretMaker()
    }

    func failure(_ secret: String, clientID: String = web) -> ClientSecretFailure? {
        do {
            _ = try validator.validate(secret, clientID: clientID)
            return nil
        } catch {
            #expect(error.appleError == .invalidClient && error.appleError.message == nil)
            return error
        }
    }

    @Test func acceptsACorrectSecretAndCachesIt() throws {
        let secret = try maker.make(clientID: Self.web, now: now)
        let first = try validator.validate(secret, clientID: Self.web)
        #expect(
            first.signatureVerified && !first.fromCache && first.teamID == "ABCDE12345" && first.keyID == "KEY1234567")
        let second = try validator.validate(secret, clientID: Self.web)
        #expect(second.fromCache && second.signatureVerified)
        // The native client of the same team may use the same key.
        #expect(
            try validator.validate(try maker.make(clientID: "com.example.app", now: now), clientID: "com.example.app")
                .signatureVerified)
    }

    @Test func cachedSecretStillFailsTimeAndIdentityChecks() throws {
        let secret = try maker.make(clientID: Self.web, now: now, lifetime: 100)
        _ = try validator.validate(secret, clientID: Self.web)
        #expect(failure(secret, clientID: "com.example.app") == .wrongSubject(Self.web, clientID: "com.example.app"))
        clock.advance(seconds: 100)
        #expect(failure(secret) == .expired)
    }

    @Test func audienceMayBeAnArrayContainingApple() throws {
        let secret = try maker.make(clientID: Self.web, now: now) {
            $0["aud"] = .array([.string("https://example.com"), .string("https://appleid.apple.com")])
        }
        #expect(try validator.validate(secret, clientID: Self.web).signatureVerified)
    }

    @Test func rejectsWrongAlgorithm() throws {
        var m = maker
        m.algorithm = "ES384"
        #expect(failure(try m.make(clientID: Self.web, now: now)) == .wrongAlgorithm("ES384"))
        m.algorithm = "none"
        #expect(failure(try m.make(clientID: Self.web, now: now)) == .wrongAlgorithm("none"))
    }

    @Test func rejectsMissingAndUnknownKeyID() throws {
        var m = maker
        m.keyID = nil
        #expect(failure(try m.make(clientID: Self.web, now: now)) == .missingKeyID)
        m.keyID = "OTHERKEY99"
        #expect(failure(try m.make(clientID: Self.web, now: now)) == .unknownKeyID("OTHERKEY99"))
    }

    @Test func rejectsWrongIssuerSubjectAndAudience() throws {
        #expect(
            failure(try maker.make(clientID: Self.web, now: now) { $0["iss"] = .string("ZZZZZ99999") })
                == .wrongIssuer("ZZZZZ99999"))
        #expect(
            failure(try maker.make(clientID: "COM.EXAMPLE.WEB", now: now))
                == .wrongSubject("COM.EXAMPLE.WEB", clientID: Self.web))
        #expect(
            failure(try maker.make(clientID: Self.web, now: now) { $0["aud"] = .string("https://appleid.apple.com/") })
                == .wrongAudience)
        #expect(
            failure(try maker.make(clientID: "com.unknown", now: now), clientID: "com.unknown")
                == .unknownClient("com.unknown"))
    }

    @Test func rejectsMissingClaims() throws {
        for claim in ["iss", "sub", "aud", "iat", "exp"] {
            #expect(failure(try maker.make(clientID: Self.web, now: now) { $0[claim] = nil }) == .missingClaim(claim))
        }
        #expect(
            failure(try maker.make(clientID: Self.web, now: now) { $0["exp"] = .string("soon") })
                == .missingClaim("exp"))
    }

    @Test func enforcesTimeRules() throws {
        #expect(failure(try maker.make(clientID: Self.web, now: now - 7200, lifetime: 3600)) == .expired)
        #expect(failure(try maker.make(clientID: Self.web, now: now, lifetime: 15_777_001)) == .expiresTooFarAhead)
        #expect(
            try validator.validate(
                try maker.make(clientID: Self.web, now: now, lifetime: 15_777_000), clientID: Self.web
            ).signatureVerified)
        #expect(failure(try maker.make(clientID: Self.web, now: now + 3600)) == .issuedInFuture)
        #expect(
            try validator.validate(try maker.make(clientID: Self.web, now: now + 30), clientID: Self.web)
                .signatureVerified)
    }

    /// Extreme NumericDates on a clock before the epoch must be refused, not overflow `exp - now`.
    @Test func extremeDatesDoNotOverflow() throws {
        let early = ManualClock(seconds: -1000)
        let keys = try ScenarioKeys(loading: .builtIn)
        let validator = ClientSecretValidator(scenario: .builtIn, keys: keys, clock: early)
        let farFuture = try maker.make(clientID: Self.web, now: -1000) { $0["exp"] = .int(Int64.max) }
        #expect(throws: ClientSecretFailure.expiresTooFarAhead) {
            try validator.validate(farFuture, clientID: Self.web)
        }
        let late = ClientSecretValidator(scenario: .builtIn, keys: keys, clock: ManualClock(seconds: Int64.max / 1000))
        let issuedLate = try maker.make(clientID: Self.web, now: Int64.max / 1000 - 10, lifetime: 3600) {
            $0["iat"] = .int(Int64.max)
        }
        #expect(throws: ClientSecretFailure.issuedInFuture) { try late.validate(issuedLate, clientID: Self.web) }
    }

    @Test func rejectsDERAndBadSignatures() throws {
        let header = maker.header()
        let payload = maker.claims(clientID: Self.web, now: now)
        let der = try maker.make(header: header, payload: payload) { raw in Self.der(raw) }
        if case .signatureNotRaw(let count) = failure(der) {
            #expect(count >= 68 && count <= 72)
        } else {
            Issue.record("a DER signature must be refused as not raw")
        }
        let flipped = try maker.make(header: header, payload: payload) { raw in
            var bytes = raw
            bytes[10] ^= 0x01
            return bytes
        }
        #expect(failure(flipped) == .badSignature)
        let otherKey = ClientSecretMaker(key: try P256PrivateKey.generate())
        #expect(failure(try otherKey.make(clientID: Self.web, now: now)) == .badSignature)
        // A P-384-sized signature (96 bytes) claiming ES256: wrong curve.
        let wrongCurve = try maker.make(header: header, payload: payload) { raw in raw + raw.prefix(32) }
        #expect(failure(wrongCurve) == .signatureNotRaw(byteCount: 96))
    }

    @Test func rejectsGarbage() {
        for garbage in ["", "abc", "a.b.c", "eyJhbGciOiJFUzI1NiJ9.e30", "....", String(repeating: "x", count: 20000)] {
            if case .malformed = failure(garbage) {
            } else {
                Issue.record("expected malformed for \(garbage.prefix(20))")
            }
        }
    }

    @Test func teamWithoutKeysChecksClaimsButNotSignature() throws {
        var scenario = Scenario.builtIn
        scenario.teams[0].clientSecretKeys = []
        let relaxed = ClientSecretValidator(scenario: scenario, keys: try ScenarioKeys(loading: scenario), clock: clock)
        #expect(!relaxed.verifiesSignatures(forTeam: "ABCDE12345"))
        let other = ClientSecretMaker(key: try P256PrivateKey.generate())
        let result = try relaxed.validate(try other.make(clientID: Self.web, now: now), clientID: Self.web)
        #expect(!result.signatureVerified)
        #expect(throws: ClientSecretFailure.expired) {
            try relaxed.validate(try other.make(clientID: Self.web, now: now - 7200), clientID: Self.web)
        }
    }

    /// DER-encodes a raw r||s signature (SEQUENCE of two INTEGERs).
    static func der(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }
}
