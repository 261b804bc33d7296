/// How a scalar was written in the source.
package enum ScalarStyle: Sendable, Hashable {
    /// Unquoted text, such as `alice` or `42`.
    case plain
    /// `'text'`, where `''` stands for one quote.
    case singleQuoted
    /// `"text"`, with backslash escapes already decoded.
    case doubleQuoted
    /// A literal block scalar introduced by `|`, `|-` or `|+`.
    case literal
}

/// A node of a parsed scenario document: a scalar, a mapping or a sequence, with where it starts.
package struct Node: Sendable, Hashable {
    /// What the node holds.
    package enum Kind: Sendable, Hashable {
        /// A scalar's text (after unquoting and unescaping) and how it was written.
        case scalar(String, ScalarStyle)
        /// Key–value pairs in source order; keys are unique.
        case mapping([MappingEntry])
        /// Items in source order.
        case sequence([Node])
    }

    /// What the node holds.
    package var kind: Kind
    /// Where the node starts: the first character of a scalar (its quote or `|`), the first key of a
    /// block mapping, the first `-` of a block sequence, or the `{` / `[` of a flow collection.
    package var position: SourcePosition
    /// The file the node came from, for diagnostics.
    package var file: String

    package init(_ kind: Kind, at position: SourcePosition, file: String) {
        self.kind = kind
        self.position = position
        self.file = file
    }

    /// A diagnostic located at this node.
    package func diagnostic(_ message: String) -> ScenarioDiagnostic {
        ScenarioDiagnostic(file: file, position: position, message: message)
    }

    /// `true` for the plain scalars `null` and `~` (YAML's spellings of "no value").
    package var isNull: Bool {
        if case .scalar(let text, .plain) = kind { return text == "null" || text == "~" }
        return false
    }

    /// "a mapping", "a sequence" or "a scalar", for messages.
    package var kindDescription: String {
        switch kind {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a sequence"
        }
    }
}

/// One `key: value` pair of a mapping.
package struct MappingEntry: Sendable, Hashable {
    /// The key's scalar node (its position is the key's first character).
    package var key: Node
    /// The value.
    package var value: Node

    package init(key: Node, value: Node) {
        self.key = key
        self.value = value
    }

    /// The key's text.
    package var keyText: String {
        if case .scalar(let text, _) = key.kind { return text }
        return ""
    }
}
