import JOSE
import JSON
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct ScenarioTests {
    @Test func builtInMatchesTheContract() throws {
        let scenario = Scenario.builtIn
        #expect(scenario.validate() == [])
        #expect(scenario.teams.map(\.id) == ["ABCDE12345"])
        #expect(scenario.teams[0].clientSecretKeys.map(\.kid) == ["KEY1234567"])
        let native = try #require(scenario.client(id: "com.example.app"))
        #expect(native.kind == .native && native.redirectURIs.isEmpty)
        let web = try #require(scenario.client(id: "com.example.web"))
        #expect(web.kind == .services)
        #expect(
            web.redirectURIs == [
                "https://app.example.com/auth/apple/callback", "https://localhost:8443/callback",
                "http://127.0.0.1:8000/callback",
            ])
        #expect(
            scenario.consentGroupID(forClient: "com.example.app")
                == scenario.consentGroupID(forClient: "com.example.web"))
        #expect(scenario.client(id: "COM.EXAMPLE.WEB") == nil)

        let alice = try #require(scenario.user(id: "alice"))
        #expect(alice.sub == "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111")
        #expect(alice.deliveredEmail == "alice@example.com" && !alice.isDeliveredEmailPrivate)
        #expect(
            alice.name == PersonName(firstName: "Alice", lastName: "Appleseed") && alice.realUserStatus == .likelyReal)
        let bob = try #require(scenario.user(id: "bob"))
        #expect(bob.sub == "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222")
        #expect(bob.email == "bob@example.com" && bob.deliveredEmail == "k7x2m9q4ab@privaterelay.appleid.com")
        #expect(bob.isDeliveredEmailPrivate && bob.name.lastName == "Bobson")
        let carol = try #require(scenario.user(id: "carol"))
        #expect(carol.sub == "001234.2c3d4e5f60718293a4b5c6d7e8f90a1b.3333")
        #expect(
            carol.email == "carol@example.net" && carol.realUserStatus == .unknown && carol.name.firstName == "Carol")

        #expect(scenario.signingKeys.signingKey?.kid == "Aj3F8kLq2X")
        #expect(scenario.signingKeys.publishedKeys.map(\.kid) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
        let settings = scenario.settings
        #expect(settings.issuer == "https://appleid.apple.com" && settings.idTokenLifetimeSeconds == 86400)
        #expect(settings.booleanStyle == .bool && settings.codeLifetimeSeconds == 300)
        #expect(settings.accessTokenLifetimeSeconds == 3600 && settings.clientSecretMaxLifetimeSeconds == 15_777_000)
    }

    @Test func loginHintsMatchIDEmailRelayAndSub() {
        let scenario = Scenario.builtIn
        #expect(scenario.user(matchingHint: "alice")?.id == "alice")
        #expect(scenario.user(matchingHint: "carol@example.net")?.id == "carol")
        #expect(scenario.user(matchingHint: "k7x2m9q4ab@privaterelay.appleid.com")?.id == "bob")
        #expect(scenario.user(matchingHint: "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222")?.id == "bob")
        #expect(scenario.user(matchingHint: "mallory") == nil)
    }

    @Test func builtInKeysLoadAndPublishAllThreeKeys() throws {
        let keys = try ScenarioKeys(loading: .builtIn)
        #expect(keys.signingKID == "Aj3F8kLq2X")
        let jwks = try #require(try JSONValue.parse(keys.jwksBytes).objectValue)
        let listed = try #require(jwks["keys"]?.arrayValue)
        #expect(
            listed.compactMap { $0.objectValue?["kid"]?.stringValue } == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
        #expect(listed.allSatisfy { $0.objectValue?.keys == ["kty", "kid", "use", "alg", "n", "e"] })
        #expect(keys.teamKeys["ABCDE12345"]?["KEY1234567"] != nil)
    }

    /// The built-in keys publish their JWKS from the Swift-read moduli and are parsed on first use; the
    /// bytes are the ones OpenSSL's keys give, and any other key is parsed (and checked) at load.
    @Test func builtInKeysAreParsedOnFirstUseWithTheSameJWKS() throws {
        let deferred = try ScenarioKeys(loading: .builtIn)
        #expect(!deferred.isParsed)
        let openSSL = JWKS(
            keys: try Scenario.builtIn.signingKeys.publishedKeys.map {
                try RSAPrivateKey(pem: $0.privateKeyPEM).publicKey.jwk(kid: $0.kid)
            }
        )
        #expect(deferred.jwksBytes == openSSL.prettySerialized())
        _ = deferred.signingKey
        #expect(deferred.isParsed)

        var scenario = Scenario.builtIn
        scenario.signingKeys.keys[2].privateKeyPEM = try RSAPrivateKey.generate().pemPKCS8()
        let eager = try ScenarioKeys(loading: scenario)
        #expect(eager.isParsed)
        #expect(eager.jwksBytes != deferred.jwksBytes)
    }

    @Test func badPEMIsReportedWithItsPath() {
        var scenario = Scenario.builtIn
        scenario.signingKeys.keys[1].privateKeyPEM = "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----"
        #expect(throws: ScenarioKeyError.self) { try ScenarioKeys(loading: scenario) }
        do {
            _ = try ScenarioKeys(loading: scenario)
        } catch {
            #expect(error.path == "signing_keys[1]")
        }
    }

    @Test func validationListsEveryProblem() {
        var scenario = Scenario.builtIn
        scenario.teams.append(Team(id: "bad"))
        scenario.clients.append(
            Client(id: "com.example.web", teamID: "NOPE000000", kind: .native, redirectURIs: ["ftp://x"]))
        scenario.users.append(UserProfile(id: "alice", sub: "", email: "x@y", privateEmail: true))
        scenario.signingKeys.keys[1].signs = true
        scenario.settings.codeLifetimeSeconds = 0
        let paths = scenario.validate().map(\.path)
        #expect(paths.contains("teams[1].id"))
        #expect(paths.contains("clients[2].id"))
        #expect(paths.contains("clients[2].team"))
        #expect(paths.contains("clients[2].redirect_uris"))
        #expect(paths.contains("clients[2].redirect_uris[0]"))
        #expect(paths.contains("users[3].id"))
        #expect(paths.contains("users[3].sub"))
        #expect(paths.contains("users[3].relay_email"))
        #expect(paths.contains("signing_keys"))
        #expect(paths.contains("settings.code_lifetime"))
    }
}
