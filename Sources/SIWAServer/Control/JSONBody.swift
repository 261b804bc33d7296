import HTTP
import JSON

/// A control call's JSON object body with typed field readers that name the field on failure
/// (`RequestContext.json(required:)` parses the body once).
struct JSONBody {
    let object: JSONObject

    /// Fails on the first key not in `allowed`.
    func allowOnly(_ allowed: Set<String>) throws(ControlFailure) {
        for key in object.keys where !allowed.contains(key) {
            throw .invalid(key, "unknown field (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// A string field; absent is nil, `null` or another type is a 400.
    func string(_ key: String) throws(ControlFailure) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else { throw .invalid(key, "must be a string") }
        return text
    }

    func requiredString(_ key: String) throws(ControlFailure) -> String {
        guard let text = try string(key), !text.isEmpty else { throw .invalid(key, "is required") }
        return text
    }

    func bool(_ key: String) throws(ControlFailure) -> Bool? {
        guard let value = object[key] else { return nil }
        guard let flag = value.boolValue else { throw .invalid(key, "must be true or false") }
        return flag
    }

    /// An integer field; integral JSON numbers such as `5.0` count (JSON Schema's `integer`).
    func integer(_ key: String) throws(ControlFailure) -> Int64? {
        guard let value = object[key] else { return nil }
        if let number = value.intValue { return number }
        if let double = value.doubleValue, double.rounded() == double, abs(double) < 9.0e15 { return Int64(double) }
        throw .invalid(key, "must be an integer")
    }

    func strings(_ key: String) throws(ControlFailure) -> [String]? {
        guard let value = object[key] else { return nil }
        guard let array = value.arrayValue else { throw .invalid(key, "must be an array of strings") }
        var out: [String] = []
        for element in array {
            guard let text = element.stringValue else { throw .invalid(key, "must be an array of strings") }
            out.append(text)
        }
        return out
    }
}

/// Query parameters of a control GET (`?user=…&client_id=…`), from the request's one form decode.
struct QueryParameters {
    let pairs: [(name: String, value: String)]

    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    func required(_ name: String) throws(ControlFailure) -> String {
        guard let value = self[name], !value.isEmpty else { throw .invalid(name, "query parameter is required") }
        return value
    }
}
