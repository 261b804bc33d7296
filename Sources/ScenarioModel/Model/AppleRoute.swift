import ScenarioFormat

/// One of Apple's endpoints as fault rules and timeline triggers can name it: its path, the methods it
/// answers and the form or query fields it reads.
///
/// `siwa-mock check` uses the list of them to refuse rules that could never fire
/// (`match: POST /auth/tokne`, `form: {grant_typ: …}`). The list comes from the route table that serves
/// the requests (`AppleEndpoints.ruleTargets` in SIWAServer), handed to `ScenarioLoader.ruleTargets`.
package struct AppleRoute: Sendable, Equatable {
    package var path: String
    package var methods: [String]
    package var fields: [String]

    package init(path: String, methods: [String], fields: [String]) {
        self.path = path
        self.methods = methods
        self.fields = fields
    }
}

extension AppleRoute {
    /// Why `matcher` can never match a request to one of `routes`; empty when it can.
    ///
    /// Each problem says what is wrong and, where a known name is close, suggests it.
    package static func problems(with matcher: RequestMatcher, among routes: [AppleRoute]) -> [RouteProblem] {
        var problems: [RouteProblem] = []
        var candidates = routes
        if let path = matcher.path {
            candidates = routes.filter { $0.path == path }
            if candidates.isEmpty {
                let hint = EditDistance.suggestion(for: path, among: routes.map(\.path)).map {
                    " (did you mean '\($0)'?)"
                }
                problems.append(.path("no Apple endpoint has the path '\(path)'\(hint ?? "")"))
                return problems
            }
        }
        if let method = matcher.method {
            let serving = candidates.filter { $0.methods.contains(method) }
            if serving.isEmpty {
                let methods = Set(candidates.flatMap(\.methods)).sorted()
                let allowed = methods.joined(separator: ", ")
                let hint = EditDistance.suggestion(for: method, among: methods).map { " (did you mean '\($0)'?)" }
                let message =
                    matcher.path.map { "\($0) answers only \(allowed), not \(method)" }
                    ?? "no Apple endpoint answers \(method) (they answer \(allowed))"
                problems.append(.method(message + (hint ?? "")))
                return problems
            }
            candidates = serving
        }
        let known = Set(candidates.flatMap(\.fields))
        let endpoint = matcher.path.map { path in matcher.method.map { "\($0) \(path)" } ?? path }
        for name in matcher.fields.keys.sorted() where !known.contains(name) {
            let hint = EditDistance.suggestion(for: name, among: known.sorted()).map { " (did you mean '\($0)'?)" }
            let reads = endpoint.map { "\($0) never reads" } ?? "no Apple endpoint reads"
            problems.append(.field(name, "\(reads) a field '\(name)'\(hint ?? "")"))
        }
        return problems
    }
}

/// What is wrong with a request matcher, with the part of the rule it is about.
package enum RouteProblem: Sendable, Equatable {
    case path(String)
    case method(String)
    /// A form or query field name, and the message.
    case field(String, String)

    package var message: String {
        switch self {
        case .path(let message), .method(let message), .field(_, let message): message
        }
    }
}
