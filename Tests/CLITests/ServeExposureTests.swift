import Testing

@testable import siwa_mock

/// `serve` refuses to open the control API beyond this machine without `--admin-token`, unless the
/// operator says `--insecure-control-api` (docs/security.md).
@Suite struct ServeExposureTests {
    let parser = ArgumentParser(options: ServeCommand.options, acceptsPositionals: false)

    func serve(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> ServeCommand {
        try ServeCommand(try parser.parse(arguments, environment: environment))
    }

    @Test(arguments: ["127.0.0.1", "127.8.9.10", "::1", "localhost"])
    func loopbackNeedsNoToken(_ host: String) throws {
        #expect(try serve(["--host", host]).adminToken == nil)
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.10", "2001:db8::1"])
    func aReachableAddressWithoutATokenIsRefused(_ host: String) throws {
        do {
            _ = try serve(["--host", host])
            Issue.record("accepted \(host)")
        } catch {
            #expect(error.message.hasPrefix("--host \(host) is not a loopback address and no --admin-token is set"))
            #expect(error.message.contains("docs/security.md"))
        }
    }

    @Test func aTokenOrTheExplicitFlagAllowsIt() throws {
        #expect(try serve(["--host", "0.0.0.0", "--admin-token", "t"]).adminToken == "t")
        #expect(try serve(["--host", "0.0.0.0", "--insecure-control-api"]).insecureControlAPI)
        let fromEnvironment = try serve(
            [], environment: ["SIWA_MOCK_HOST": "0.0.0.0", "SIWA_MOCK_INSECURE_CONTROL_API": "true"])
        #expect(fromEnvironment.insecureControlAPI && fromEnvironment.host == "0.0.0.0")
        #expect(throws: UsageError.self) {
            _ = try serve([], environment: ["SIWA_MOCK_HOST": "0.0.0.0", "SIWA_MOCK_INSECURE_CONTROL_API": "false"])
        }
    }
}
