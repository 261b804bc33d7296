/// A JSON document as a value, with object keys kept in insertion order so that serialized output is
/// byte-stable (JWKS, id_token claims, golden files).
///
/// Integers and doubles are distinct cases: JWT times (`iat`, `exp`) must serialize as integers.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object that remembers the order in which keys were first set.
public struct JSONObject: Sendable, Equatable {
    public private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    public init() {}

    public init(_ pairs: [(String, JSONValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Key/value pairs in insertion order.
    public var pairs: [(key: String, value: JSONValue)] { keys.map { ($0, storage[$0]!) } }
}

/// Why a JSON text could not be parsed, with the byte offset where the problem was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "JSON error at byte \(offset): \(message)" }
}

// STUB (to be implemented by the JSON/JOSE work): parse, serialize, accessors, literals.
extension JSONValue {
    /// Parses RFC 8259 JSON. Rejects trailing garbage, nesting deeper than `maxDepth`, invalid UTF-8,
    /// lone surrogates and duplicate object keys (the last would silently win otherwise).
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        fatalError("unimplemented")
    }

    /// Compact serialization (no whitespace), object keys in insertion order, `/` not escaped,
    /// non-ASCII written as UTF-8, control characters as `\u00XX`.
    public func serialized() -> [UInt8] { fatalError("unimplemented") }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var intValue: Int64? { if case .int(let i) = self { i } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
