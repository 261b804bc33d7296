import ScenarioFormat

extension ScenarioLoader {
    /// `tamper: oidcc-client-test-invalid-aud`: a case of the catalogue (`TamperCase`). It answers with
    /// the endpoint's own answer, so it takes no response or connection keys; an id_token case matches
    /// `/auth/token`, `/auth/authorize` or (no `match`) also native credentials; a notification case
    /// matches notifications, so it takes no `match` or `form`.
    func readTamper(_ node: Node, rule: FaultRule, _ map: MappingReader, _ context: LoadContext) -> TamperCase? {
        guard let text = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() }) else {
            return nil
        }
        guard let tamper = TamperCase(rawValue: text) else {
            let hint = EditDistance.suggestion(for: text, among: TamperCase.allCases.map(\.name))
            context.report(
                node,
                "unknown tamper case '\(text)'" + (hint.map { " (did you mean '\($0)'?)" } ?? "")
                    + "; docs/rp-check.md lists them")
            return nil
        }
        for key in ["status", "error", "body", "headers", "connection"] where map.optional(key) != nil {
            context.report(node, "'tamper' answers with the endpoint's own (tampered) answer; drop '\(key)'")
            return nil
        }
        switch tamper.target {
        case .idToken:
            if let path = rule.matcher.path, !Self.idTokenPaths.contains(path) {
                context.report(node, "\(path) issues no id_token; '\(text)' needs /auth/token or /auth/authorize")
                return nil
            }
        case .notification:
            if rule.matcher.path != nil || rule.matcher.method != nil || !rule.matcher.fields.isEmpty {
                context.report(
                    node, "'\(text)' tampers with notifications, which no request asks for: drop 'match'/'form'")
                return nil
            }
        }
        return tamper
    }

    /// The Apple endpoints whose answers carry an id_token.
    static let idTokenPaths = ["/auth/token", "/auth/authorize"]
}
