// Fuzzes the second stage: scenario text → validated Scenario (users, faults, timeline, PEMs).
// Any crash, sanitizer report, leak or timeout is a bug: bad input must become a diagnostic.
import FuzzDriver
import SIWACore

#if canImport(Glibc)
    import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Every `pem_file:` reads the built-in signing key, so inputs reach PEM parsing and validation.
    let loader = ScenarioLoader(
        readFile: { _ in Scenario.BuiltInKeys.signingKeyAj3F8kLq2X }, generateMissingKeys: false)
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let scenario = try? loader.load(text, file: "fuzz.yaml") {
        // What the server does with a loaded scenario: fault and timeline engines run on it.
        let faults = FaultEngine(rules: scenario.faults, seed: scenario.seed, startMilliseconds: 0)
        let request = RequestFacts(method: "POST", path: "/auth/token", fields: [("grant_type", "refresh_token")])
        _ = faults.decide(request, nowMilliseconds: 1000, resolveUser: { scenario.users.first?.id })
        let timeline = TimelineEngine(entries: scenario.timeline, startMilliseconds: 0)
        _ = timeline.dueActions(nowMilliseconds: Int64.max / 2)
        _ = timeline.recordRequest(request, resolveUser: { scenario.users.first?.id })
    }
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
