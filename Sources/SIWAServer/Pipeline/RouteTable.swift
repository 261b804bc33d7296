import HTTP

/// Every route of the mock, declared once and frozen before the server starts (the shape of
/// Hummingbird's router): literal paths by exact string, then patterns in declaration order.
package struct RouteTable: Sendable {
    /// The answer for one method and path.
    enum Match {
        case found(Route, captures: [String: String])
        /// The path exists, the method does not: the `Allow` list, in declaration order.
        case methodNotAllowed(allow: [HTTPMethod])
        case notFound

        /// A public route answers without the admin token.
        var isPublic: Bool {
            if case .found(let route, _) = self { route.isPublic } else { false }
        }
    }

    /// Routes sharing one path pattern, by method.
    struct Resource: Sendable {
        let pattern: PathPattern
        var methods: [HTTPMethod] = []
        var routes: [HTTPMethod: Route] = [:]
    }

    private var literal: [String: Resource] = [:]
    private var patterns: [Resource] = []
    /// Every route, in declaration order (for the OpenAPI check and `check`'s match validation).
    package private(set) var routes: [Route] = []

    package init(_ routes: [Route] = []) {
        for route in routes { add(route) }
    }

    /// Adds a route. Declaring one method and path twice is a programming error.
    package mutating func add(_ route: Route) {
        let key = route.path.description
        if route.path.isLiteral {
            var resource = literal[key] ?? Resource(pattern: route.path)
            Self.insert(route, into: &resource)
            literal[key] = resource
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
        precondition(resource.routes[route.method] == nil, "route \(route.method) \(route.path) declared twice")
        resource.methods.append(route.method)
        resource.routes[route.method] = route
    }

    func match(_ method: HTTPMethod, _ path: String) -> Match {
        if let resource = literal[path] { return Self.select(method, in: resource, captures: [:]) }
        for resource in patterns {
            if let captures = resource.pattern.match(path[...]) {
                return Self.select(method, in: resource, captures: captures)
            }
        }
        return .notFound
    }

    private static func select(_ method: HTTPMethod, in resource: Resource, captures: [String: String]) -> Match {
        guard let route = resource.routes[method] else { return .methodNotAllowed(allow: resource.methods) }
        return .found(route, captures: captures)
    }

    /// Whether some route serves `path` (any method); `methods` lists which.
    package func methods(servingPath path: String) -> [HTTPMethod] {
        switch match(HTTPMethod(rawValue: "\u{0}"), path) {
        case .methodNotAllowed(let allow): allow
        case .found, .notFound: []
        }
    }
}
