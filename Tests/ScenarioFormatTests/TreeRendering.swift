import ScenarioFormat

/// A compact, exact rendering of a node tree for golden comparisons:
/// scalars as `p"text"@line:col` (p/s/d/l = plain, single, double, literal), mappings as
/// `{key: value, ...}@line:col`, sequences as `[item, ...]@line:col`.
func render(_ node: Node) -> String {
    switch node.kind {
    case .scalar(let text, let style):
        let prefix =
            switch style {
            case .plain: "p"
            case .singleQuoted: "s"
            case .doubleQuoted: "d"
            case .literal: "l"
            }
        return "\(prefix)\(text.debugDescription)@\(node.position)"
    case .mapping(let entries):
        return "{" + entries.map { "\(render($0.key)): \(render($0.value))" }.joined(separator: ", ")
            + "}@\(node.position)"
    case .sequence(let items):
        return "[" + items.map(render).joined(separator: ", ") + "]@\(node.position)"
    }
}

/// Parses `text` as `t.yaml` and renders the tree, or the diagnostics (one per line) if it fails.
func parseAndRender(_ text: String) -> String {
    do {
        return render(try ScenarioDocument.parse(text, file: "t.yaml").root)
    } catch {
        return error.description
    }
}

/// Parses `text` and returns its diagnostics joined by newlines ("" if it parsed).
func diagnostics(_ text: String) -> String {
    do {
        _ = try ScenarioDocument.parse(text, file: "t.yaml")
        return ""
    } catch {
        return error.description
    }
}

/// Parses `text`, which must succeed, and returns the root.
func root(_ text: String) throws -> Node {
    try ScenarioDocument.parse(text, file: "t.yaml").root
}
