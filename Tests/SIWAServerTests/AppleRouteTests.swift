import SIWACore
import SIWATestSupport
import Testing

/// `AppleRoute.all` (what `siwa-mock check` lets fault rules and timeline triggers point at) and the
/// endpoints the server answers stay one list: every listed method is answered (no 404, no 405), every
/// other method gets 405, and an unlisted path gets 404.
@Suite struct AppleRouteTests {
    @Test(arguments: Transport.allCases)
    func everyListedRouteIsServedAndNothingElse(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            for route in AppleRoute.all {
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
        #expect(AppleRoute.problems(with: RequestMatcher(method: "POST", path: "/auth/token")).isEmpty)
        #expect(AppleRoute.problems(with: RequestMatcher(method: "GET")).isEmpty)
        #expect(AppleRoute.problems(with: RequestMatcher(fields: ["client_id": "x"])).isEmpty)
        #expect(
            AppleRoute.problems(with: RequestMatcher(path: "/auth/tokne"))
                == [.path("no Apple endpoint has the path '/auth/tokne' (did you mean '/auth/token'?)")])
        #expect(
            AppleRoute.problems(with: RequestMatcher(method: "PSOT", path: "/auth/revoke"))
                == [.method("/auth/revoke answers only POST, not PSOT (did you mean 'POST'?)")])
        #expect(
            AppleRoute.problems(with: RequestMatcher(fields: ["refresh_tokn": "x"]))
                == [
                    .field(
                        "refresh_tokn", "no Apple endpoint reads a field 'refresh_tokn' (did you mean 'refresh_token'?)"
                    )
                ])
    }
}
