/// A JSON object that remembers the order in which keys were first set.
///
/// Setting an existing key replaces its value but keeps its position; setting `nil` removes it.
/// Equality compares both the members and their order.
package struct JSONObject: Sendable, Equatable {
    package private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    package init() {}

    package init(_ pairs: [(String, JSONValue)]) {
        // Sized once: growing the table key by key rehashes every key at each doubling.
        keys.reserveCapacity(pairs.count)
        storage.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    package subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    package var count: Int { keys.count }
    package var isEmpty: Bool { keys.isEmpty }

    /// Key/value pairs in insertion order.
    package var pairs: [(key: String, value: JSONValue)] { keys.map { ($0, storage[$0]!) } }

    /// Whether the object has a member named `key`.
    package func contains(_ key: String) -> Bool { storage[key] != nil }

    /// Adds a member only if `key` is new; returns false (and changes nothing) for a duplicate.
    mutating func insertNew(_ key: String, _ value: JSONValue) -> Bool {
        guard storage[key] == nil else { return false }
        storage[key] = value
        keys.append(key)
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keeps the literal's order; a repeated key keeps its first position and takes the last value.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact serialization, as text.
    package var description: String { JSONValue.object(self).serializedString() }
}
