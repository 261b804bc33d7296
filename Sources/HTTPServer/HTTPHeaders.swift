/// Header fields in arrival order; lookups are case-insensitive (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Equatable {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name, value) }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.lowercased() == name.lowercased() }
    }

    /// The first value for `name`, if any.
    public subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    public func values(for name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
