extension FaultRule {
    /// Whether the rule may fire on `facts` at all: a tampering rule only where its case's token is
    /// minted (an id_token case on `/auth/token`, `/auth/authorize` and native credentials, a
    /// notification case on notifications), and a native credential or a notification only for a
    /// tampering rule of its kind — so an ordinary fault never touches them, and nothing but a
    /// tampering rule ever opens the seam (docs/rp-check.md).
    package func isEligible(for facts: RequestFacts) -> Bool {
        switch (facts.occasion, action.tamper?.target) {
        case (.request, nil): true
        case (.request, .idToken?): ScenarioLoader.idTokenPaths.contains(facts.path)
        case (.nativeCredential, .idToken?), (.notification, .notification?): true
        default: false
        }
    }
}
