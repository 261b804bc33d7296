import SIWATestSupport
import ScenarioModel
import Testing

/// `pem_file:` goes through the loader's file reader, and a loader without one (scenarios sent over
/// HTTP) refuses it with a positioned error instead of touching the file system.
@Suite struct PEMFileAccessTests {
    let text = """
        teams: [{id: ABCDE12345, keys: [{id: KEY1234567, pem_file: /etc/ssl/private/host.pem}]}]
        signing_keys:
          - {kid: HOSTKEY, pem_file: ../../host-key.pem, signs: true}
        timeline:
          - at: 1m
            do: [{rotate_key: {kid: NEXT, pem_file: /dev/stdin}}]
        """

    @Test func withoutAReaderEveryPEMFileIsRefusedWithItsPosition() throws {
        let refusal =
            "'pem_file' is not read in a scenario sent over HTTP (it would expose the server's files); "
            + "give the key inline with 'pem: |', or load the file with --scenario"
        do {
            _ = try ScenarioLoader(readFile: nil, generateMissingKeys: false).load(text, file: "scenario")
            Issue.record("loaded")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "scenario:1:60: \(refusal)", "scenario:3:3: at least one signing key is required",
                    "scenario:3:30: \(refusal)", "scenario:6:45: \(refusal)",
                ])
        }
    }

    @Test func theReadersReasonIsReportedAtTheKey() throws {
        let reader: ScenarioLoader.FileReader = { path throws(FileReadError) in
            throw FileReadError(path == "/dev/stdin" ? "a character device, not a regular file" : "Permission denied")
        }
        do {
            _ = try ScenarioLoader(readFile: reader, generateMissingKeys: false).load(text, file: "dir/s.yaml")
            Issue.record("loaded")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "dir/s.yaml:1:60: cannot read PEM file '/etc/ssl/private/host.pem': Permission denied",
                    "dir/s.yaml:3:3: at least one signing key is required",
                    "dir/s.yaml:3:30: cannot read PEM file 'dir/../../host-key.pem': Permission denied",
                    "dir/s.yaml:6:45: cannot read PEM file '/dev/stdin': a character device, not a regular file",
                ])
        }
    }

    @Test func inlinePEMsNeedNoReader() throws {
        let inline =
            "signing_keys:\n  - kid: K1\n    signs: true\n    pem: |\n"
            + Scenario.BuiltInKeys.signingKeyAj3F8kLq2X.split(separator: "\n").map { "      " + $0 }.joined(
                separator: "\n")
        let scenario = try ScenarioLoader(readFile: nil).load(inline, file: "scenario")
        #expect(scenario.signingKeys.keys.map(\.kid) == ["K1"])
    }
}
