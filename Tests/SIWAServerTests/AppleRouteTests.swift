import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Testing

/// `AppleEndpoints.ruleTargets` (what `siwa-mock check` lets fault rules and timeline triggers point at)
/// is the route table's list: over the wire every listed method is answered (no 404, no 405), every other
/// gets 405, an unlisted path 404; and `AppleRoute.problems` names what is wrong.
@Suite struct AppleRouteTests {
    let routes = AppleEndpoints.ruleTargets

    @Test func theTargetsAreTheRouteTablesAppleRoutes() throws {
        let endpoints = try TestFixtures.endpoints().endpoints
        let table = Set(endpoints.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        let targets = Set(routes.flatMap { route in route.methods.map { "\($0) \(route.path)" } })
        // Sign in with Apple JS is Apple's CDN, not appleid.apple.com: served, but no fault rule targets it.
        let script = Set(BrowserEndpoints.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        #expect(script == ["GET /appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js"])
        #expect(table.subtracting(script) == targets)
        #expect(routes.map(\.path).count == 6)
        #expect(routes.first { $0.path == "/auth/authorize" }?.methods == ["GET", "POST"])
    }

    @Test(arguments: Transport.allCases)
    func everyListedRouteIsServedAndNothingElse(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            for route in routes {
                for method in ["GET", "POST"] {
                    let request = method == "GET" ? RequestBuilder.get(route.path) : RequestBuilder.form(route.path, [])
                    let status = try h.send(request).status
                    if route.methods.contains(method) {
                        #expect(status != 404 && status != 405, "\(method) \(route.path) answered \(status)")
                    } else {
                        #expect(status == 405, "\(method) \(route.path) answered \(status)")
                    }
                }
            }
            #expect(try h.send(RequestBuilder.get("/auth/tokne")).status == 404)
        }
    }

    @Test func problemsNameThePartAndSuggest() {
        #expect(AppleRoute.problems(with: RequestMatcher(method: "POST", path: "/auth/token"), among: routes).isEmpty)
        #expect(AppleRoute.problems(with: RequestMatcher(method: "GET"), among: routes).isEmpty)
        #expect(AppleRoute.problems(with: RequestMatcher(fields: ["client_id": "x"]), among: routes).isEmpty)
        #expect(
            AppleRoute.problems(with: RequestMatcher(path: "/auth/tokne"), among: routes)
                == [.path("no Apple endpoint has the path '/auth/tokne' (did you mean '/auth/token'?)")])
        #expect(
            AppleRoute.problems(with: RequestMatcher(method: "PSOT", path: "/auth/revoke"), among: routes)
                == [.method("/auth/revoke answers only POST, not PSOT (did you mean 'POST'?)")])
        #expect(
            AppleRoute.problems(with: RequestMatcher(fields: ["refresh_tokn": "x"]), among: routes)
                == [
                    .field(
                        "refresh_tokn", "no Apple endpoint reads a field 'refresh_tokn' (did you mean 'refresh_token'?)"
                    )
                ])
    }
}
