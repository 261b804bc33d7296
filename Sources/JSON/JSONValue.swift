/// A JSON document as a value, with object keys kept in insertion order so that serialized output is
/// byte-stable (JWKS, id_token claims, golden files).
///
/// Integers and doubles are distinct cases: JWT times (`iat`, `exp`) must serialize as integers.
/// Parse with ``parse(_:maxDepth:)``, write with ``serialized()``.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// The string, if this is a string.
    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, if this is an integer (a double is never converted).
    package var intValue: Int64? { if case .int(let i) = self { i } else { nil } }
    /// The Boolean, if this is `true` or `false`.
    package var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The object, if this is an object.
    package var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// The number as a `Double`, for either numeric case.
    package var doubleValue: Double? {
        switch self {
        case .double(let d): d
        case .int(let i): Double(i)
        default: nil
        }
    }

    /// Whether this is `null`.
    package var isNull: Bool { if case .null = self { true } else { false } }

    /// The member named `key`, if this is an object that has it.
    package subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// The element at `index`, if this is an array and the index is in range.
    package subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialization, as text.
    package var description: String { serializedString() }
}
