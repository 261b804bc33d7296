extension JSONValue {
    /// Serialization with each member and element on its own line, indented by `indent` spaces per level,
    /// `": "` after keys and no final newline — the layout of Python's `json.dumps(value, indent=2)` and
    /// of Apple's `/auth/keys` body (docs/fidelity.md, "Identifier shapes", key set). Empty arrays and
    /// objects stay `[]` and `{}`; strings and numbers are written as ``serialized()`` writes them.
    package func prettySerialized(indent: Int = 2) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        writePretty(to: &output, indent: indent, depth: 0)
        return output
    }

    private func writePretty(to output: inout [UInt8], indent: Int, depth: Int) {
        func newline(_ level: Int) {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
        }
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                element.writePretty(to: &output, indent: indent, depth: depth + 1)
            }
            newline(depth)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.keys.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                Self.writeString(key, to: &output)
                output.append(contentsOf: ": ".utf8)
                object[key]?.writePretty(to: &output, indent: indent, depth: depth + 1)
            }
            newline(depth)
            output.append(UInt8(ascii: "}"))
        default:
            write(to: &output)
        }
    }
}
