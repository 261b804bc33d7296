/// Key lookup and unknown-key checks on a mapping node, for the second stage.
///
/// ```swift
/// let client = try node.mapping()
/// try client.checkKeys(allowed: ["id", "redirect_uris", "lifetime"])
/// let id = try client.required("id").string()
/// let lifetime = try client.optional("lifetime")?.duration()
/// ```
package struct MappingReader: Sendable, Hashable {
    /// The mapping node.
    package let node: Node
    /// The entries in source order.
    package let entries: [MappingEntry]

    /// Wraps a mapping node; throws "expected a mapping" for anything else.
    package init(_ node: Node) throws(ScenarioDiagnostic) {
        guard case .mapping(let entries) = node.kind else {
            throw node.diagnostic("expected a mapping, found \(node.kindDescription)")
        }
        self.node = node
        self.entries = entries
    }

    /// The keys in source order.
    package var keys: [String] { entries.map(\.keyText) }

    /// The value for `key`, or `nil` if absent.
    package func optional(_ key: String) -> Node? {
        entries.first { $0.keyText == key }?.value
    }

    /// The value for `key`, or a diagnostic at the mapping: "missing required key 'key'".
    package func required(_ key: String) throws(ScenarioDiagnostic) -> Node {
        guard let value = optional(key) else { throw node.diagnostic("missing required key '\(key)'") }
        return value
    }

    /// One diagnostic per key not in `allowed`, at the key, with the nearest allowed key as a suggestion:
    /// "unknown key 'lifetme' (did you mean 'lifetime'?)", or the list of allowed keys if none is close.
    package func unknownKeyDiagnostics(allowed: [String]) -> [ScenarioDiagnostic] {
        let allowedSet = Set(allowed)
        return entries.compactMap { entry in
            let key = entry.keyText
            guard !allowedSet.contains(key) else { return nil }
            let shown = Node.excerpt(key)
            if let suggestion = EditDistance.suggestion(for: key, among: allowed) {
                return entry.key.diagnostic("unknown key '\(shown)' (did you mean '\(suggestion)'?)")
            }
            let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
            return entry.key.diagnostic("unknown key '\(shown)' (expected one of \(list))")
        }
    }

    /// Throws all unknown-key diagnostics at once, if there are any.
    package func checkKeys(allowed: [String]) throws(ScenarioDiagnostics) {
        let problems = unknownKeyDiagnostics(allowed: allowed)
        if !problems.isEmpty { throw ScenarioDiagnostics(problems) }
    }
}

extension Node {
    /// Checks that this is a mapping whose keys are all in `allowed`, reporting every unknown key with a
    /// "did you mean" suggestion.
    package func checkKeys(allowed: [String]) throws(ScenarioDiagnostics) {
        let reader: MappingReader
        do { reader = try MappingReader(self) } catch { throw ScenarioDiagnostics([error]) }
        try reader.checkKeys(allowed: allowed)
    }
}
