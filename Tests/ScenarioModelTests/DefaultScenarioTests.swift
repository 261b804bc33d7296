import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct DefaultScenarioTests {
    @Test func embeddedTextIsDefaultYAMLByteForByte() throws {
        let file = try #require(ScenarioFiles.read(ScenarioFiles.directory + "/default.yaml"))
        #expect(Array(ScenarioLoader.defaultScenarioText.utf8) == Array(file.utf8))
        for (name, text) in ScenarioLoader.defaultScenarioFiles {
            #expect(ScenarioFiles.read(ScenarioFiles.directory + "/" + name) == text, "\(name)")
        }
    }

    /// The values users configure their backends with (README "Pointing a backend at it").
    @Test func builtInScenarioHasTheDocumentedValues() throws {
        let scenario = try ScenarioLoader.loadDefaultScenario()
        #expect(scenario.teams.map(\.id) == ["ABCDE12345"])
        #expect(scenario.teams.first?.clientSecretKeys.map(\.kid) == ["KEY1234567"])
        #expect(scenario.client(id: "com.example.app")?.kind == .native)
        let web = try #require(scenario.client(id: "com.example.web"))
        #expect(web.kind == .services)
        #expect(
            web.redirectURIs == [
                "https://app.example.com/auth/apple/callback", "https://localhost:8443/callback",
                "http://127.0.0.1:8000/callback",
            ])
        #expect(
            scenario.consentGroupID(forClient: "com.example.web")
                == scenario.consentGroupID(forClient: "com.example.app"))
        #expect(scenario.users.map(\.id) == ["alice", "bob", "carol"])
        let alice = try #require(scenario.user(id: "alice"))
        #expect(alice.sub == "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111")
        #expect(alice.email == "alice@example.com")
        #expect(alice.realUserStatus == .likelyReal)
        let bob = try #require(scenario.user(id: "bob"))
        #expect(bob.sub == "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222")
        #expect(bob.privateEmail && bob.relayEmail == "k7x2m9q4ab@privaterelay.appleid.com")
        let carol = try #require(scenario.user(id: "carol"))
        #expect(carol.sub == "001234.2c3d4e5f60718293a4b5c6d7e8f90a1b.3333")
        #expect(carol.realUserStatus == .unknown)
        #expect(scenario.signingKeys.keys.map(\.kid) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
        #expect(scenario.signingKeys.signingKey?.kid == "Aj3F8kLq2X")
        #expect(scenario.signingKeys.publishedKeys.count == 3)
        #expect(scenario.settings.issuer == "https://appleid.apple.com")
        #expect(scenario.settings.idTokenLifetimeSeconds == 86400)
        #expect(scenario.settings.booleanStyle == .bool)
        #expect(scenario == Scenario.builtIn)
    }

    @Test func defaultFileOnDiskLoadsToBuiltIn() throws {
        #expect(try ScenarioFiles.load("default.yaml") == Scenario.builtIn)
    }

    @Test func everyScenarioFileLoads() throws {
        let files = ScenarioFiles.yamlFiles
        #expect(files.count >= 8, "scenarios/ holds \(files)")
        for name in files {
            do {
                _ = try ScenarioFiles.load(name)
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }
}
