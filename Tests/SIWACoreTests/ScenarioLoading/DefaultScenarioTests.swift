import SIWACore
import SIWATestSupport
import Testing

@Suite struct DefaultScenarioTests {
    @Test func embeddedTextIsDefaultYAMLByteForByte() throws {
        let file = try #require(ScenarioFiles.read(ScenarioFiles.directory + "/default.yaml"))
        #expect(Array(ScenarioLoader.defaultScenarioText.utf8) == Array(file.utf8))
        for (name, text) in ScenarioLoader.defaultScenarioFiles {
            #expect(ScenarioFiles.read(ScenarioFiles.directory + "/" + name) == text, "\(name)")
        }
    }

    @Test func embeddedDefaultLoadsToBuiltIn() throws {
        let loaded = try ScenarioLoader.loadDefaultScenario()
        #expect(loaded == Scenario.builtIn)
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
