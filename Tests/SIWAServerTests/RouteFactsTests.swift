import Background
import Dispatch
import HTTP
import SIWATestSupport
import Synchronization
import Testing

@testable import SIWAServer

/// Every route carries its facts (`RouteFacts`), declared with its group: the table is walked and each
/// route's facts checked against a list written here, independently of the declarations, so a route that
/// lost (or gained) a fact fails. Then the pipeline is shown acting on them: which requests leave the
/// event loop, and which surface a path no route serves belongs to.
@Suite struct RouteFactsTests {
    static let appleRoutes: Set<String> = [
        "GET /.well-known/openid-configuration", "GET /auth/keys", "GET /auth/authorize", "POST /auth/authorize",
        "POST /auth/token", "POST /auth/revoke", "POST /auth/usermigrationinfo",
        "GET /appleauth/static/jsapi/appleid/1/{locale}/appleid.auth.js",
    ]
    static let publicControlRoutes: Set<String> = [
        "GET /mock/health", "HEAD /mock/health", "GET /mock/tls/ca.pem", "HEAD /mock/tls/ca.pem", "GET /mock/ui",
        "GET /mock/ui/dashboard.js", "GET /mock/ui/dashboard.css", "GET /mock/ui/icon.svg", "POST /mock/ui/login",
        "POST /mock/ui/logout",
    ]
    static let servedFromMemory: Set<String> = [
        "GET /auth/keys", "GET /.well-known/openid-configuration", "GET /mock/health", "HEAD /mock/health",
        "GET /mock/openapi.json",
    ]
    static let waitsOnBackgroundWork: Set<String> = ["POST /mock/keys/rotate", "PUT /mock/scenario"]
    static let unjournaled: Set<String> = [
        "GET /mock/ui", "GET /mock/ui/dashboard.js", "GET /mock/ui/dashboard.css", "GET /mock/ui/icon.svg",
    ]

    /// A server with every route group, the CA certificate's included.
    static func server(storeWorkers: BackgroundScheduler? = nil) throws -> MockServer {
        var options = MockServer.ControlOptions(caCertificatePEM: "-----BEGIN CERTIFICATE-----\n")
        options.storeWorkers = storeWorkers
        return try MockServer(
            configuration: .init(
                publicURL: "http://127.0.0.1:8080", clock: TestFixtures.clock(), random: TestFixtures.random(),
                storeFactory: TestStore.factory()),
            options: options)
    }

    @Test func everyRouteCarriesTheFactsOfItsClass() throws {
        let routes = try Self.server().pipeline.routes
        var seen: Set<String> = []
        for route in routes {
            let name = "\(route.method.rawValue) \(route.path.description)"
            let path = route.path.description
            seen.insert(name)
            let facts = route.facts
            if Self.appleRoutes.contains(name) {
                #expect(facts.surface == .apple && facts.isPublic, "\(name): Apple's, open to anyone")
            } else {
                // Every other route is the mock's own: under /mock/, or Mailpit's API under /api/v1/.
                #expect(path.hasPrefix("/mock/") || path.hasPrefix("/api/v1/"), "\(name): unclassified")
                #expect(facts.surface == .control, "\(name): a control route")
                #expect(facts.isPublic == Self.publicControlRoutes.contains(name), "\(name): public?")
            }
            #expect(facts.servedFromMemory == Self.servedFromMemory.contains(name), "\(name): from memory?")
            let mailView = path.hasPrefix("/mock/mail/") || path.hasPrefix("/api/v1/")
            let lane: RouteFacts.Lane? =
                Self.waitsOnBackgroundWork.contains(name) ? .backgroundWork : mailView ? .mailView : nil
            #expect(facts.lane == lane, "\(name): lane")
            #expect(facts.journaled == !Self.unjournaled.contains(name), "\(name): journaled?")
        }
        // The lists name real routes: a renamed route fails here rather than passing unchecked.
        let named = Self.appleRoutes.union(Self.publicControlRoutes).union(Self.servedFromMemory)
            .union(Self.waitsOnBackgroundWork).union(Self.unjournaled)
        #expect(named.subtracting(seen).isEmpty, "listed but not routed: \(named.subtracting(seen))")
        #expect(routes.contains { $0.facts.lane == .mailView && $0.path.description.hasPrefix("/api/v1/") })
        #expect(routes.contains { $0.facts.lane == .mailView && $0.path.description.hasPrefix("/mock/mail/") })
    }

    @Test func aPathNoRouteServesTakesItsFirstSegmentsSurface() throws {
        let table = try Self.server().pipeline.table
        let cases: [(String, RouteSurface)] = [
            ("/mock/nope", .control), ("/mock/users/alice/x", .control), ("/api/v1/nope", .control),
            ("/auth/nope", .apple), ("/nope", .apple), ("/mock", .apple), ("/", .apple), ("", .apple),
        ]
        for (path, surface) in cases {
            let facts = table.match(.get, path).facts
            #expect(facts == RouteTable.missFacts(surface), "\(path)")
            #expect(table.surface(ofPath: path) == surface, "\(path)")
            #expect(facts.isPublic == (surface == .apple), "\(path): a control miss still needs the token")
        }
        // A wrong method keeps its path's surface and the facts of a miss there (no route ran).
        #expect(table.match(.delete, "/mock/health").facts == .control)
        #expect(table.match(.delete, "/auth/keys").facts == .apple)
    }

    /// A segment's routes share one surface (what a miss under it is answered as): declaring a control
    /// route under Apple's `/auth/` is a programming error, caught when the table is built.
    @Test func aRouteOfAnotherSurfaceUnderATakenSegmentTraps() async {
        await #expect(processExitsWith: .failure) {
            let answer: Route.Handler = { _ in HTTPResponse(status: .ok) }
            _ = RouteTable([
                Route(.get, "/auth/keys", .apple, handler: answer), Route(.get, "/auth/x", .control, handler: answer),
            ])
        }
        await #expect(processExitsWith: .success) {
            let answer: Route.Handler = { _ in HTTPResponse(status: .ok) }
            _ = RouteTable([
                Route(.get, "/auth/keys", .apple, handler: answer), Route(.get, "/auth/x", .apple, handler: answer),
            ])
        }
    }

    /// With a shared store every request leaves the loop for a store worker except those served from
    /// memory; without one, only the background-work and mail-view lanes leave it.
    @Test func thePipelineRunsEachClassWhereItsFactsSay() throws {
        let withStore = try Self.server(storeWorkers: BackgroundScheduler(maximumThreads: 1))
        for name in Self.servedFromMemory {
            #expect(try !Self.leavesTheLoop(withStore, name), "\(name) answered on the loop")
        }
        for name in ["GET /mock/users", "POST /auth/token", "GET /mock/mail", "GET /mock/nope", "GET /nope"] {
            #expect(try Self.leavesTheLoop(withStore, name), "\(name) on a store worker")
        }

        let plain = try Self.server()
        for name in Self.waitsOnBackgroundWork.union(["GET /mock/mail/m1", "GET /api/v1/messages"]) {
            #expect(try Self.leavesTheLoop(plain, name), "\(name) in its lane")
        }
        for name in Self.servedFromMemory.union(["GET /mock/users", "POST /auth/token", "GET /mock/mail"]) {
            #expect(try !Self.leavesTheLoop(plain, name), "\(name) on the loop")
        }
    }

    /// The dashboard's page and files stay out of the journal; signing out, a miss under its path and
    /// the rest are journaled.
    @Test func unjournaledRoutesStayOutOfTheJournal() throws {
        try ControlHarness.run(.inProcess) { h in
            for target in ["/mock/ui", "/mock/ui/dashboard.js", "/mock/ui/icon.svg", "/mock/ui/nope", "/auth/keys"] {
                _ = try h.send(RequestBuilder.get(target))
            }
            #expect(try h.send(RequestBuilder.form("/mock/ui/logout", [])).status == 303)
            let paths = try h.call("GET", "/mock/requests?include=mock").json?["requests"]?.arrayValue?
                .compactMap { $0.objectValue?["path"]?.stringValue }
            #expect(paths == ["/mock/ui/nope", "/auth/keys", "/mock/ui/logout"], "oldest first")
        }
    }

    /// Whether the server answers `name` ("METHOD path") deferred; waits for a deferred answer.
    static func leavesTheLoop(_ server: MockServer, _ name: String) throws -> Bool {
        let parts = name.split(separator: " ")
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: String(parts[0])), target: String(parts[1]),
            headers: HTTPHeaders([("Host", "127.0.0.1")]))
        guard case .deferred(let pending) = server.respond(to: request).delivery else { return false }
        let done = DispatchSemaphore(value: 0)
        pending.whenFulfilled { _ in done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success, "\(name) answered")
        return true
    }
}
