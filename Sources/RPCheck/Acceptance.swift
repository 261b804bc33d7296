import HTTP

/// What counts as "the backend accepted it", as the user declares it: a status class, a `Location`
/// pattern, a body pattern, or a probe URL fetched with the answer's cookies. Every declared test must
/// hold. A correct token must be accepted (the control), or nothing else is judged.
package struct Acceptance: Sendable {
    /// `2` for 2xx, `3` for 3xx…; nil: any status.
    package var statusClass: Int?
    package var location: String?
    package var body: String?
    package var probeURL: String?
    package var probeBody: String?

    package init(
        statusClass: Int? = 2, location: String? = nil, body: String? = nil, probeURL: String? = nil,
        probeBody: String? = nil
    ) {
        self.statusClass = statusClass
        self.location = location
        self.body = body
        self.probeURL = probeURL
        self.probeBody = probeBody
    }

    /// Checks each pattern compiles. - Throws: a message naming the option.
    package func validate() throws(RPCheckError) {
        for (name, pattern) in [("--accept-location", location), ("--accept-body", body), ("--probe-body", probeBody)] {
            guard let pattern else { continue }
            do { _ = try Regex(pattern) } catch { throw RPCheckError("\(name): not a regular expression: \(pattern)") }
        }
        if probeURL != nil && probeBody == nil { throw RPCheckError("--probe needs --probe-body (who is signed in)") }
    }

    /// Whether `response` (and the probe, fetched once with its cookies) shows the token was accepted,
    /// and the text it showed: the answer's body, then the probe's.
    package func judge(
        _ response: HTTPClientResponse, probe: (String) throws -> HTTPClientResponse
    ) rethrows -> (accepted: Bool, shown: String) {
        let shown = response.bodyText
        if let statusClass, response.status / 100 != statusClass { return (false, shown) }
        if let location, !Self.matches(response.headers["Location"] ?? "", location) { return (false, shown) }
        if let body, !Self.matches(shown, body) { return (false, shown) }
        guard let probeURL, let probeBody else { return (true, shown) }
        let answer = try probe(probeURL)
        let accepted = (200..<300).contains(answer.status) && Self.matches(answer.bodyText, probeBody)
        return (accepted, shown + "\n" + answer.bodyText)
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return text.contains(regex)
    }
}

/// A failure of the run itself (not a verdict): bad options, an unreachable mock or backend.
package struct RPCheckError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
