import ScenarioModel

extension FaultEngine {
    /// The `tamper:` rule that fires for a token minted outside a request to Apple's endpoints — a native
    /// credential (`POST /mock/credentials`) or a server-to-server notification — with its case; nil
    /// when none does (only tampering rules of that kind are eligible: `FaultRule.isEligible`). Counted
    /// in this process (a fleet counts rules per replica here).
    /// - Parameters:
    ///   - clientID: the app the token is for (matched by a rule's `client`).
    ///   - user: the scenario user (matched by a rule's `user`).
    package func tampering(
        _ occasion: RequestFacts.Occasion, clientID: String, user: String?, nowMilliseconds: Int64
    ) -> (ruleID: String, tamper: TamperCase)? {
        let path = occasion == .notification ? "/notifications" : "/mock/credentials"
        let facts = RequestFacts(method: "POST", path: path, fields: [("client_id", clientID)], occasion: occasion)
        guard let decision = decide(facts, nowMilliseconds: nowMilliseconds, resolveUser: { user }),
            let tamper = decision.action.tamper
        else { return nil }
        return (decision.ruleID, tamper)
    }
}
