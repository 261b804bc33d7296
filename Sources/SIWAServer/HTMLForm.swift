/// A minimal reader for the mock's own HTML: the first `<form>`'s method and action and its inputs.
/// Good enough for pages the mock renders (`AuthorizePages`); not a general HTML parser. Tests and
/// `SIWAMockTesting`'s web sign-in read the form_post page with it, as a browser would submit it.
package struct HTMLForm: Sendable, Equatable {
    package var method: String
    package var action: String
    /// `name`/`value` of every `<input>` in order (hidden and radio inputs alike).
    package var inputs: [(name: String, value: String)]

    package static func == (lhs: HTMLForm, rhs: HTMLForm) -> Bool {
        lhs.method == rhs.method && lhs.action == rhs.action
            && lhs.inputs.elementsEqual(rhs.inputs) { $0.name == $1.name && $0.value == $1.value }
    }

    package subscript(name: String) -> String? { inputs.first { $0.name == name }?.value }

    /// Parses the first form in `html`; nil when there is none.
    package static func parse(_ html: String) -> HTMLForm? {
        guard let formTag = tags(named: "form", in: html).first else { return nil }
        let inputs = tags(named: "input", in: html).compactMap { attributes -> (name: String, value: String)? in
            guard let name = attributes["name"] else { return nil }
            return (name, attributes["value"] ?? "")
        }
        return HTMLForm(method: formTag["method"] ?? "get", action: formTag["action"] ?? "", inputs: inputs)
    }

    /// Attribute dictionaries of every `<name …>` tag.
    static func tags(named name: String, in html: String) -> [[String: String]] {
        var result: [[String: String]] = []
        var rest = Substring(html)
        while let open = rest.firstRange(of: "<" + name + " ") ?? rest.firstRange(of: "<" + name + ">") {
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else { break }
            result.append(attributes(in: rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    static func attributes(in text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].split(separator: " ").last.map(String.init) ?? ""
            var after = rest[rest.index(after: equals)...]
            guard after.first == "\"" else { break }
            after = after.dropFirst()
            guard let end = after.firstIndex(of: "\"") else { break }
            attributes[name] = unescape(String(after[..<end]))
            rest = after[after.index(after: end)...]
        }
        return attributes
    }

    /// Reverses the mock's HTML escaping.
    package static func unescape(_ text: String) -> String {
        text.replacingOccurrences("&quot;", "\"").replacingOccurrences("&#39;", "'")
            .replacingOccurrences("&lt;", "<").replacingOccurrences("&gt;", ">").replacingOccurrences("&amp;", "&")
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        out += rest
        return out
    }
}
