/// Header fields in arrival order; lookups are case-insensitive (RFC 9110 §5.1).
package struct HTTPHeaders: Sendable, Equatable {
    package private(set) var fields: [(name: String, value: String)] = []
    /// The wire form of the first `wire.fieldCount` fields, for a set built once and sent many times
    /// (`prepared()`); appending keeps it, any other change drops it.
    var wire: PreparedFields?

    package init() {}
    package init(_ fields: [(String, String)]) {
        self.fields.reserveCapacity(fields.count)
        for (name, value) in fields { add(name, value) }
    }

    /// An empty header list with room for `capacity` fields (the parser's and responders' fast path).
    package init(reservingCapacity capacity: Int) {
        fields.reserveCapacity(capacity)
    }

    package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Removes every field, keeping the storage when no other copy shares it (the parser refills one
    /// set per connection, so a request's fields cost no allocation).
    package mutating func removeAll() {
        wire = nil
        fields.removeAll(keepingCapacity: true)
    }

    /// Replaces every field of that name with one.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    package mutating func remove(_ name: String) {
        wire = nil
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The first value for `name`, if any.
    package subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    package func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether any field is named `name` (case-insensitive).
    package func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison without allocating (field names are tokens, RFC 9110 §5.1).
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        // Different lengths never match: the O(1) count spares most comparisons.
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in ASCII.equalsIgnoringCase(x, y) }
        }
    }
}
