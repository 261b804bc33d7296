import EventLoop
import Foundation
import HTTP
import JOSE
import Locking
import SIWACore
import SIWAServer

/// Sign in with Apple's server, in your test process.
///
/// ``start(scenario:)`` binds `127.0.0.1` on a free port and serves Apple's endpoints with the same
/// server and event loops as the `siwa-mock` binary: point your backend's Apple base URL at
/// ``baseURL`` and it redeems codes, refreshes and revokes tokens and fetches keys over real HTTP.
/// Your test plays the device with ``authorize(user:client:scopes:nonce:state:)`` (what
/// `ASAuthorizationAppleIDCredential` hands the app) and drives the mock with Swift methods: users,
/// clock, keys, faults, the request journal and server-to-server notifications.
///
/// Every mock has its own port, state, clock and background threads, so parallel tests each start
/// their own and never see each other's users or codes.
///
/// ```swift
/// let apple = try await AppleIDMock.start()
/// defer { apple.shutdown() }
/// let credential = try apple.authorize(user: "alice", client: "com.example.app", nonce: "n-1")
/// // hand credential.authorizationCode to the backend, which redeems it at apple.endpoints.token
/// ```
public final class AppleIDMock: Sendable {
    /// `http://127.0.0.1:PORT`: what stands for `https://appleid.apple.com`.
    public let baseURL: URL
    /// Apple's endpoints on this mock.
    public let endpoints: Endpoints
    /// The scenario's first team's Team ID (the `iss` of client secrets), if it has a team.
    public var teamID: String? { provider.scenario.primaryTeamID }

    let host: MockHost
    let server: EventLoopServer
    let deliveries: DeliveryFeed
    let revocations: RevocationFeed
    let script = AuthorizationScript()
    private let stopped = Lock(false)

    var provider: AppleIdentityProvider { host.mock.apple.provider }

    /// Apple's endpoint URLs on a mock.
    public struct Endpoints: Sendable, Equatable {
        /// `GET /auth/authorize` (the web flow; with the mock's `login_hint` the user signs in headlessly).
        public var authorize: URL
        /// `POST /auth/token`: redeem codes, refresh, client credentials.
        public var token: URL
        /// `POST /auth/revoke`.
        public var revoke: URL
        /// `GET /auth/keys`: the JWKS identity tokens verify against.
        public var keys: URL
        /// `POST /auth/usermigrationinfo` (team transfers).
        public var userMigrationInfo: URL
        /// `GET /.well-known/openid-configuration`.
        public var discovery: URL

        init(base: URL) {
            authorize = base.appendingPathComponent("auth/authorize")
            token = base.appendingPathComponent("auth/token")
            revoke = base.appendingPathComponent("auth/revoke")
            keys = base.appendingPathComponent("auth/keys")
            userMigrationInfo = base.appendingPathComponent("auth/usermigrationinfo")
            discovery = base.appendingPathComponent(".well-known/openid-configuration")
        }
    }

    /// Starts a mock on `127.0.0.1` and a port the kernel picks.
    ///
    /// - Parameter scenario: the built-in scenario, a file or scenario text.
    /// - Throws: ``AppleIDMockError`` `.scenario` with every problem as `file:line:column: message`,
    ///   or `.server` when no port could be bound.
    /// The first mock in a process also tells OpenSSL not to tear itself down at exit (the test process
    /// shares libcrypto with the mock's threads; OpenSSL's `atexit` cleanup freed what a key-generating
    /// thread was still using, and a passing test run ended in SIGSEGV). Memory OpenSSL holds is then
    /// returned by the process exit, as for any other library.
    public static func start(scenario: ScenarioSource = .builtIn) async throws(AppleIDMockError) -> AppleIDMock {
        OpenSSLLibrary.skipCleanupAtExit()
        let (loaded, origin) = try scenario.load()
        let responder = LateBoundResponder()
        var configuration = HTTPServerConfiguration()
        configuration.listener.host = "127.0.0.1"
        configuration.listener.port = 0
        let log = LogBuffer()
        let server = EventLoopServer(configuration: configuration, responder: responder)
        do {
            try server.start()
        } catch {
            throw AppleIDMockError(.server, "cannot listen on 127.0.0.1: \(error)")
        }
        let base = "http://127.0.0.1:\(server.port)"
        let host: MockHost
        do {
            host = try MockHost(
                .init(
                    endpoints: .init(publicURL: base, scenario: loaded, log: log.append),
                    control: .init(scenarioOrigin: origin)))
        } catch {
            server.shutdown()
            throw AppleIDMockError(.scenario, field: "signing_keys", "\(error)")
        }
        responder.install(host.mock)
        return AppleIDMock(host: host, server: server, baseURL: URL(string: base)!, log: log)
    }

    private init(host: MockHost, server: EventLoopServer, baseURL: URL, log: LogBuffer) {
        self.host = host
        self.server = server
        self.baseURL = baseURL
        self.endpoints = Endpoints(base: baseURL)
        self.log = log
        self.deliveries = DeliveryFeed(dispatcher: host.mock.control.notifications)
        self.revocations = RevocationFeed(provider: host.mock.apple.provider)
    }

    /// What the mock logged (refused requests, notification outcomes, maintenance), oldest first.
    public var logLines: [String] { log.lines }
    let log: LogBuffer

    /// Stops serving: in-flight requests finish, the port is released, background work stops and every
    /// ``notifications()`` and ``credentialRevocations(client:)`` stream ends. Calling it again does nothing.
    public func shutdown() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        server.shutdown()
        host.stop()
        deliveries.finish()
        revocations.fanout.finish()
    }

    deinit { shutdown() }

    /// Back to the scenario's start: users, keys, codes, tokens, consents, clock, faults, the request
    /// journal and notification history (`POST /mock/reset`), and no scripted authorization failure.
    public func reset() {
        script.set(nil)
        let mock = host.mock
        _ = mock.control.reset(restartScript: {
            mock.restartScript(with: mock.apple.provider.initialScenario, byReset: true)
        })
    }
}

/// The mock's log lines, kept in memory (at most `capacity`, oldest dropped).
final class LogBuffer: Sendable {
    private let state = Lock<[String]>([])
    let capacity = 1000

    @Sendable func append(_ line: String) {
        state.withLock { lines in
            lines.append(line)
            if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
        }
    }

    var lines: [String] { state.withLock { $0 } }
}
