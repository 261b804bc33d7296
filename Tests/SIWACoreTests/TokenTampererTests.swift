import JOSE
import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// Each id_token case of the hostile-Apple catalogue against the valid token it came from: the header
/// and claims that differ are exactly the case's, and the signature is what the case says.
@Suite struct TokenTampererTests {
    let keys: ScenarioKeys
    let tamperer: TokenTamperer
    let valid: String
    let now = TestFixtures.epoch

    init() throws {
        keys = try ScenarioKeys(loading: .builtIn)
        tamperer = TokenTamperer(scenario: .builtIn, keys: keys)
        let grant = AuthorizationGrant(
            clientID: "com.example.web", redirectURI: TestKeys.redirectURI, userID: "bob", consentGroupID: "g",
            scopes: [.email], nonce: "n-1", authTime: now - 5, isFirstAuthorization: true)
        let bob = try #require(Scenario.builtIn.user(id: "bob"))
        valid = try IDTokenMaker(settings: ScenarioSettings(), keys: keys).makeIDToken(
            for: grant, user: bob, issuedAt: now, companion: .code("c1"))
    }

    /// Header and claims of a compact JWS (any `alg`, an empty signature too) and its raw signature.
    static func parts(_ token: String) throws -> (header: JSONObject, claims: JSONObject, signature: [UInt8]) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(pieces.count == 3, "three parts: \(token)")
        let bytes = pieces.map { Base64URL.decode($0) }
        let headerBytes = try #require(bytes[0])
        let claimBytes = try #require(bytes[1])
        let header = try #require(try JSONValue.parse(headerBytes).objectValue)
        let claims = try #require(try JSONValue.parse(claimBytes).objectValue)
        return (header, claims, try #require(bytes[2]))
    }

    /// Names whose values differ between two objects (present in one only counts), sorted.
    static func changed(_ a: JSONObject, _ b: JSONObject) -> [String] {
        Set(a.keys + b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    func signedBySigningKey(_ token: String) throws -> Bool {
        try JWS(compact: token).isSigned(by: keys.signingKey.publicKey)
    }

    @Test(arguments: [
        (TamperCase.invalidIssuer, "iss", JSONValue.string("https://appleid.example.com")),
        (.issuerHTTP, "iss", .string("http://appleid.apple.com")),
        (.issuerTrailingSlash, "iss", .string("https://appleid.apple.com/")),
        (.audienceSameTeam, "aud", .string("com.example.app")),
        (.audienceOtherTeam, "aud", .string("com.example.another-team.app")),
        (.nonceChanged, "nonce", .string("n-1-not-yours")),
        (.emailVerifiedFalseString, "email_verified", .string("false")),
        (.privateEmailFalseString, "is_private_email", .string("false")),
        (.hashChanged, "c_hash", .string(IDTokenMaker.halfHash("not the code or token issued with it"))),
    ])
    func oneClaimChangesAndTheSignatureStillVerifies(tamper: TamperCase, claim: String, value: JSONValue) throws {
        let original = try Self.parts(valid)
        let tampered = try tamperer.idToken(valid, as: tamper)
        let after = try Self.parts(tampered)
        #expect(Self.changed(original.claims, after.claims) == [claim])
        #expect(after.claims[claim] == value)
        #expect(after.header == original.header)
        #expect(try signedBySigningKey(tampered), "validly signed: only the claim is wrong")
    }

    @Test(arguments: [(TamperCase.missingSubject, "sub"), (.missingIssuedAt, "iat")])
    func oneClaimIsRemoved(tamper: TamperCase, claim: String) throws {
        let original = try Self.parts(valid)
        let after = try Self.parts(try tamperer.idToken(valid, as: tamper))
        #expect(Self.changed(original.claims, after.claims) == [claim] && after.claims[claim] == nil)
        #expect(original.claims[claim] != nil)
    }

    @Test func expiredMovesTheWholeLifetimeIntoThePast() throws {
        let original = try Self.parts(valid)
        let tampered = try tamperer.idToken(valid, as: .expired)
        let after = try Self.parts(tampered)
        #expect(Self.changed(original.claims, after.claims) == ["auth_time", "exp", "iat"])
        #expect(after.claims["exp"] == .int(now - 3600) && after.claims["iat"] == .int(now - 3600 - 86400))
        #expect(try signedBySigningKey(tampered))
    }

    @Test func issuedInTheFuture() throws {
        let original = try Self.parts(valid)
        let after = try Self.parts(try tamperer.idToken(valid, as: .issuedInFuture))
        #expect(Self.changed(original.claims, after.claims) == ["exp", "iat"])
        #expect(after.claims["iat"] == .int(now + 3600) && after.claims["exp"] == .int(now + 3600 + 86400))
    }

    @Test func invalidSignatureKeepsHeaderAndClaimsAndBreaksOnlyTheSignature() throws {
        let tampered = try tamperer.idToken(valid, as: .invalidSignature)
        let original = try Self.parts(valid)
        let after = try Self.parts(tampered)
        #expect(after.header == original.header && after.claims == original.claims)
        #expect(zip(original.signature, after.signature).filter { $0 != $1 }.count == 1)
        #expect(try signedBySigningKey(valid))
        #expect(try !signedBySigningKey(tampered))
    }

    @Test func algorithmNoneHasAnEmptySignature() throws {
        let tampered = try tamperer.idToken(valid, as: .algorithmNone)
        #expect(tampered.hasSuffix("."))
        let after = try Self.parts(tampered)
        #expect(after.header["alg"] == .string("none") && after.signature.isEmpty)
        #expect(after.claims == (try Self.parts(valid)).claims)
    }

    @Test func hs256IsKeyedWithThePublicKeyPEM() throws {
        let tampered = try tamperer.idToken(valid, as: .hmacWithPublicKey)
        let after = try Self.parts(tampered)
        #expect(after.header["alg"] == .string("HS256") && after.header["kid"] == .string(keys.signingKID))
        let pem = keys.signingKey.publicKey.pem()
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let input = Array(tampered.split(separator: ".").prefix(2).joined(separator: ".").utf8)
        #expect(after.signature == HMACSHA256.authenticate(input, key: Array(pem.utf8)))
    }

    @Test func keySelectionCases() throws {
        let unknown = try Self.parts(try tamperer.idToken(valid, as: .unknownKeyID))
        #expect(
            unknown.header["kid"] == .string("siwa-mock-unknown-kid") && keys.publicKeys["siwa-mock-unknown-kid"] == nil
        )
        #expect(try signedBySigningKey(try tamperer.idToken(valid, as: .unknownKeyID)))
        let absent = try tamperer.idToken(valid, as: .keyIDAbsentMultipleKeys)
        #expect(try Self.parts(absent).header.keys == ["alg"])
        #expect(Scenario.builtIn.signingKeys.publishedKeys.count > 1, "several keys published")
        let retired = try tamperer.idToken(valid, as: .retiredKey)
        let kid = try #require(try Self.parts(retired).header["kid"]?.stringValue)
        #expect(!Scenario.builtIn.signingKeys.publishedKeys.map(\.kid).contains(kid))
        #expect(try !signedBySigningKey(retired))
        #expect(try JWS(compact: retired).isSigned(by: try #require(TokenTamperer.madeRetiredKey).publicKey))
    }

    @Test func notificationCasesAreRefusedForIDTokens() {
        for tamper in TamperCase.cases(for: .notification) {
            #expect(throws: JOSEError.self) { try tamperer.idToken(valid, as: tamper) }
        }
    }

    @Test func everyIDTokenCaseMakesADifferentToken() throws {
        for tamper in TamperCase.cases(for: .idToken) {
            #expect(try tamperer.idToken(valid, as: tamper) != valid, "\(tamper.name)")
        }
    }
}
