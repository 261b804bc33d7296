import HTTPServer
import SIWACore

/// The whole HTTP surface: `/mock/…` to the control API, everything else to Apple's endpoints.
/// Both share one `AppleIdentityProvider`, so control calls change what the Apple endpoints answer.
///
/// Every request lands in the journal (`GET /mock/requests`); with an admin token every `/mock/`
/// call needs `Authorization: Bearer <token>` (401 otherwise) while Apple's endpoints stay open.
public struct MockServer: HTTPResponder {
    /// Control-side options of `siwa-mock serve`.
    public struct ControlOptions: Sendable {
        /// `--admin-token`: the shared secret `/mock/` calls must present.
        public var adminToken: String?
        public var scenarioLoader: ControlEndpoints.ScenarioLoader?
        /// Newest journal entries kept.
        public var journalCapacity: Int

        public init(
            adminToken: String? = nil, scenarioLoader: ControlEndpoints.ScenarioLoader? = nil, journalCapacity: Int = 1000
        ) {
            self.adminToken = adminToken
            self.scenarioLoader = scenarioLoader
            self.journalCapacity = journalCapacity
        }
    }

    public let apple: AppleEndpoints
    public let control: ControlEndpoints
    let recorder: JournalRecorder
    let adminToken: String?

    public init(configuration: AppleEndpoints.Configuration, options: ControlOptions = ControlOptions()) throws(ScenarioKeyError) {
        let apple = try AppleEndpoints(configuration: configuration)
        let provider = apple.provider
        let journal = RequestJournal(capacity: options.journalCapacity)
        let notifications = NotificationDispatcher(provider: provider, journal: journal)
        self.apple = apple
        self.control = ControlEndpoints(
            provider: provider, journal: journal, notifications: notifications, scenarioLoader: options.scenarioLoader)
        self.recorder = JournalRecorder(provider: provider, journal: journal)
        self.adminToken = options.adminToken
        let log = configuration.log
        provider.observeUserEvents { [weak provider] event in
            guard let provider, provider.scenario.settings.notifications.sendOnUserChanges else { return }
            do {
                notifications.send(try provider.prepareNotifications(for: event))
            } catch {
                log("notification for \(event.kind) of \(event.user.id) not sent: \(error)")
            }
        }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let prelude = recorder.prelude(for: request)
        let response: HTTPResponse
        if request.path.hasPrefix("/mock/") {
            if let adminToken, !Self.presents(adminToken, in: request) {
                response = ControlFailure(
                    status: 401, error: "unauthorized", field: "Authorization",
                    "control calls need Authorization: Bearer <admin token>"
                ).response
            } else {
                response = control.respond(to: request)
            }
        } else {
            response = apple.respond(to: request)
        }
        recorder.record(request, prelude: prelude, response: response)
        return response
    }

    /// Constant-time comparison of the bearer token with the admin token.
    static func presents(_ token: String, in request: HTTPRequest) -> Bool {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.utf8.dropFirst(7))
        let expected = Array(token.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }
}
