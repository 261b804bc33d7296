import HTTP

/// Every route of the mock, declared once and frozen before the server starts (the shape of
/// Hummingbird's router): literal paths by exact string, then patterns in declaration order.
///
/// A match carries the facts the pipeline acts on (`RouteFacts`): the route's own, or for a path no
/// route serves those of the surface owning its first segment (`/mock/…` is the control API's because
/// its routes are), so a miss gets its surface's 404 without a list of prefixes.
package struct RouteTable: Sendable {
    /// The answer for one method and path.
    enum Match: Sendable {
        case found(Route, captures: [String: String])
        /// The path exists, the method does not: the `Allow` list, in declaration order.
        case methodNotAllowed(allow: [HTTPMethod], RouteFacts)
        case notFound(RouteFacts)

        /// What the pipeline does around the answer.
        var facts: RouteFacts {
            switch self {
            case .found(let route, _): route.facts
            case .methodNotAllowed(_, let facts), .notFound(let facts): facts
            }
        }
    }

    /// Routes sharing one path pattern, in declaration order (a handful: a linear scan comparing
    /// methods is cheaper than hashing one).
    struct Resource: Sendable {
        let pattern: PathPattern
        var routes: [Route] = []

        var methods: [HTTPMethod] { routes.map(\.method) }

        func route(for method: HTTPMethod) -> Route? { routes.first { $0.method == method } }
    }

    private var literal: [String: Resource] = [:]
    /// `literal` again, by the path's length in bytes: a lookup compares a few paths of that length
    /// (usually one, and small strings compare in a word or two) instead of hashing the path.
    private var literalByLength: [[(path: String, resource: Resource)]] = []
    private var patterns: [Resource] = []
    /// The surface of the routes under each first path segment (`mock` in `/mock/health`); a path no
    /// route serves belongs to its first segment's surface, else Apple's (the mock stands in for
    /// `appleid.apple.com`).
    private var surfaces: [Substring: RouteSurface] = [:]
    /// Every route, in declaration order (for the OpenAPI check and `check`'s match validation).
    package private(set) var routes: [Route] = []

    package init(_ routes: [Route] = []) {
        for route in routes { add(route) }
    }

    /// Adds a route. Declaring one method and path twice, or a route of another surface under a first
    /// segment (or on a path) already taken, is a programming error.
    package mutating func add(_ route: Route) {
        let key = route.path.description
        if let segment = Self.firstSegment(of: key) {
            let surface = surfaces[segment, default: route.facts.surface]
            precondition(surface == route.facts.surface, "route \(route.method) \(key) leaves its segment's surface")
            surfaces[segment] = surface
        }
        if route.path.isLiteral {
            var resource = literal[key] ?? Resource(pattern: route.path)
            Self.insert(route, into: &resource)
            literal[key] = resource
            let length = key.utf8.count
            while literalByLength.count <= length { literalByLength.append([]) }
            if let index = literalByLength[length].firstIndex(where: { $0.path == key }) {
                literalByLength[length][index].resource = resource
            } else {
                literalByLength[length].append((key, resource))
            }
        } else if let index = patterns.firstIndex(where: { $0.pattern == route.path }) {
            Self.insert(route, into: &patterns[index])
        } else {
            var resource = Resource(pattern: route.path)
            Self.insert(route, into: &resource)
            patterns.append(resource)
        }
        routes.append(route)
    }

    private static func insert(_ route: Route, into resource: inout Resource) {
        precondition(resource.route(for: route.method) == nil, "route \(route.method) \(route.path) declared twice")
        precondition(
            resource.routes.allSatisfy { $0.facts.surface == route.facts.surface },
            "route \(route.method) \(route.path) leaves its path's surface")
        resource.routes.append(route)
    }

    func match(_ method: HTTPMethod, _ path: String) -> Match {
        let length = path.utf8.count
        if length < literalByLength.count {
            for entry in literalByLength[length] where entry.path == path {
                return Self.select(method, in: entry.resource, captures: [:])
            }
        }
        for resource in patterns {
            if let captures = resource.pattern.match(path[...]) {
                return Self.select(method, in: resource, captures: captures)
            }
        }
        return .notFound(Self.missFacts(surface(ofPath: path)))
    }

    private static func select(_ method: HTTPMethod, in resource: Resource, captures: [String: String]) -> Match {
        guard let route = resource.route(for: method) else {
            let surface = resource.routes[0].facts.surface
            return .methodNotAllowed(allow: resource.methods, missFacts(surface))
        }
        return .found(route, captures: captures)
    }

    /// The surface a path belongs to: its literal route's, else its first segment's (see `surfaces`).
    package func surface(ofPath path: String) -> RouteSurface {
        if let resource = literal[path], let route = resource.routes.first { return route.facts.surface }
        return Self.firstSegment(of: path).flatMap { surfaces[$0] } ?? .apple
    }

    /// What the pipeline does for a method or path no route answers: the surface's 404 or 405, after the
    /// admin token where the surface asks for it.
    static func missFacts(_ surface: RouteSurface) -> RouteFacts {
        switch surface {
        case .apple: .apple
        case .control: .control
        }
    }

    /// `mock` of `/mock/…`: the first segment of a path that goes on past it; nil for `/mock` or `/`.
    static func firstSegment(of path: String) -> Substring? {
        let rest = path.utf8.dropFirst()
        guard path.utf8.first == UInt8(ascii: "/"), let slash = rest.firstIndex(of: UInt8(ascii: "/")) else {
            return nil
        }
        return path[rest.startIndex..<slash]
    }

    /// Whether some route serves `path` (any method); `methods` lists which.
    package func methods(servingPath path: String) -> [HTTPMethod] {
        switch match(HTTPMethod(rawValue: "\u{0}"), path) {
        case .methodNotAllowed(let allow, _): allow
        case .found, .notFound: []
        }
    }
}
