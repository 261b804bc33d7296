// Fuzzes the second stage: scenario text → validated Scenario (users, faults, timeline, PEMs).
// Any crash, sanitizer report, leak or timeout is a bug: bad input must become a diagnostic.
import FuzzDriver
import SIWACore
import ScenarioModel

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
        // What the server does with a loaded scenario: fault and timeline engines run on it, at both
        // ends of the mock clock's range and from the scenario's own start (integer fields, issue #11).
        let start = scenario.clock.startMilliseconds ?? 0
        let faults = FaultEngine(rules: scenario.faults, seed: scenario.seed, startMilliseconds: start)
        let request = RequestFacts(method: "POST", path: "/auth/token", fields: [("grant_type", "refresh_token")])
        let timeline = TimelineEngine(entries: scenario.timeline, startMilliseconds: start)
        for now in [0, start, TimeText.maximumMilliseconds] {
            _ = faults.decide(request, nowMilliseconds: now, resolveUser: { scenario.users.first?.id })
            _ = timeline.dueActions(nowMilliseconds: now)
        }
        _ = timeline.recordRequest(request, resolveUser: { scenario.users.first?.id })
        // Lifetimes and transfer windows in arithmetic: issue, redeem and refresh at the clock's extremes.
        let store = IdentityStore(
            settings: scenario.settings, identifiers: IdentifierGenerator(random: SeededRandomSource(seed: 1)))
        for now in [Int64(0), TimeText.maximumMilliseconds / 1000] {
            let code = store.authorize(
                userID: "u", clientID: "c", consentGroupID: "g", requestedScopes: [], redirectURI: nil, nonce: nil,
                now: now
            ).code
            if case .success(let tokens) = store.redeemCode(code, clientID: "c", redirectURI: nil, now: now) {
                _ = store.refresh(tokens.refreshToken ?? "", clientID: "c", now: now)
            }
            for transfer in scenario.transfers {
                _ = transfer.isWithinExchangeWindow(now: now)
                _ = transfer.allowsCreatingTransferSubs(now: now)
            }
        }
    }
    return 0
}

exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
