import ScenarioFormat

/// Collects every problem found while turning a node tree into a `Scenario`, and remembers where each
/// model path (`users[1].id`) came from so model-level validation can be reported with positions.
final class LoadContext {
    let root: Node
    let file: String
    private(set) var diagnostics: [ScenarioDiagnostic] = []
    /// Model path → the node it was read from.
    private(set) var nodes: [String: Node] = [:]
    /// Ids read so far, for cross-references (clients → teams, faults → users, …).
    var teamIDs: [String] = []
    var clientIDs: [String] = []
    var userIDs: [String] = []
    /// Whether `client:`/`user:` references are checked against the ids above.
    var checksReferences = true
    /// Keys without a PEM met so far (`ScenarioLoader.maximumGeneratedKeys`).
    var generatedKeys = 0

    init(root: Node, file: String) {
        self.root = root
        self.file = file
    }

    func report(_ diagnostic: ScenarioDiagnostic) { diagnostics.append(diagnostic) }

    /// The most problems one load reports (the parser stops at 50 too); a scenario with 80,000 bad
    /// users once answered with a 12.7 MB list.
    static let maximumReported = 50

    /// Every problem sorted by position, cut to the first `maximumReported` plus one
    /// "… and N more problems" line at the position of the first one left out.
    var failure: ScenarioDiagnostics {
        let sorted = diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        guard sorted.count > Self.maximumReported else { return ScenarioDiagnostics(sorted) }
        let first = sorted[Self.maximumReported]
        let more = ScenarioDiagnostic(
            file: first.file, line: first.line, column: first.column,
            message: "… and \(sorted.count - Self.maximumReported) more problems (only the first "
                + "\(Self.maximumReported) are listed)")
        return ScenarioDiagnostics(Array(sorted.prefix(Self.maximumReported)) + [more])
    }

    func report(_ node: Node, _ message: String) { diagnostics.append(node.diagnostic(message)) }

    func note(_ path: String, _ node: Node) { nodes[path] = node }

    /// Runs a typed read, recording its diagnostic and returning nil on failure.
    func read<T>(_ node: Node?, at path: String? = nil, _ body: (Node) throws(ScenarioDiagnostic) -> T) -> T? {
        guard let node else { return nil }
        if let path { nodes[path] = node }
        do { return try body(node) } catch {
            diagnostics.append(error)
            return nil
        }
    }

    /// The node as a mapping whose unknown keys are reported (with suggestions); nil if not a mapping.
    func mapping(_ node: Node, allowed: [String], at path: String? = nil) -> MappingReader? {
        if let path { nodes[path] = node }
        do {
            let reader = try node.mapping()
            diagnostics += reader.unknownKeyDiagnostics(allowed: allowed)
            return reader
        } catch {
            diagnostics.append(error)
            return nil
        }
    }

    /// The items of a sequence node; nil (with a diagnostic) otherwise.
    func sequence(_ node: Node?, at path: String) -> [Node]? {
        read(node, at: path) { node throws(ScenarioDiagnostic) in try node.sequence() }
    }

    /// A list of strings (`[a, b]`), each a scalar.
    func strings(_ node: Node?, at path: String) -> [String]? {
        guard let items = sequence(node, at: path) else { return nil }
        return items.enumerated().compactMap { index, item in
            read(item, at: "\(path)[\(index)]") { node throws(ScenarioDiagnostic) in try node.string() }
        }
    }

    /// The position for a model path: the node recorded for it, or for its nearest recorded parent.
    func node(forPath path: String) -> Node {
        var current = path
        while !current.isEmpty {
            if let node = nodes[current] { return node }
            if let cut = current.lastIndex(where: { $0 == "." || $0 == "[" }) {
                current = String(current[..<cut])
            } else {
                break
            }
        }
        return root
    }

    /// Reports `Scenario.validate()` problems at the nodes they came from.
    func report(_ problems: [ScenarioProblem]) {
        for problem in problems {
            // A generated sub only repeats when the user id does, which is reported already.
            if problem.path.hasSuffix(".sub") && nodes[problem.path] == nil { continue }
            report(node(forPath: problem.path), problem.message)
        }
    }
}
