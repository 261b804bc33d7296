/// One error-injection rule: which requests, when, and what happens instead of (or on top of) the
/// normal answer. The rule is a value; its counters live in `FaultEngine`.
package struct FaultRule: Sendable, Equatable {
    /// Stable name (`token-503`), used by `/mock/faults/{id}` and timeline `start_fault`/`stop_fault`.
    package var id: String
    package var matcher: RequestMatcher
    /// Skip the first `after` matching requests.
    package var after: Int
    /// Fire at most this many times (nil: unlimited).
    package var times: Int?
    /// Chance of firing on an eligible request, drawn from the scenario seed.
    package var probability: Double
    /// Active only while the mock clock is in this window, relative to the clock at load.
    package var window: TimeWindow?
    /// Whether the rule is active at start (a timeline `start_fault` can switch it on later).
    package var enabled: Bool
    package var action: FaultAction

    /// The longest fault rule text `POST /mock/faults` accepts (rules from a scenario file are bounded
    /// by the file's 4 MiB).
    package static let maximumTextBytes = 16 * 1024

    package init(
        id: String, matcher: RequestMatcher = RequestMatcher(), after: Int = 0, times: Int? = nil,
        probability: Double = 1, window: TimeWindow? = nil, enabled: Bool = true, action: FaultAction
    ) {
        self.id = id
        self.matcher = matcher
        self.after = after
        self.times = times
        self.probability = probability
        self.window = window
        self.enabled = enabled
        self.action = action
    }

    /// A span of mock-clock time, as offsets from the clock at load (`from: 5m`, `until: 10m`).
    package struct TimeWindow: Sendable, Equatable {
        package var fromMilliseconds: Int64?
        package var untilMilliseconds: Int64?

        package init(fromMilliseconds: Int64? = nil, untilMilliseconds: Int64? = nil) {
            self.fromMilliseconds = fromMilliseconds
            self.untilMilliseconds = untilMilliseconds
        }

        /// Whether `offset` (ms since load) lies in `[from, until)`.
        package func contains(_ offset: Int64) -> Bool {
            if let fromMilliseconds, offset < fromMilliseconds { return false }
            if let untilMilliseconds, offset >= untilMilliseconds { return false }
            return true
        }
    }
}

/// What a firing rule does. A `response` replaces the endpoint's answer; a `connection` fault changes
/// how the (real or replaced) answer is delivered; a `delay` holds it back first; `tamper` makes the
/// answer's id_token (or a notification) one case of the hostile-Apple catalogue. At least one is set.
package struct FaultAction: Sendable, Equatable {
    package var response: FaultResponse?
    package var delay: DelayRange?
    package var connection: ConnectionFault?
    /// The only way a tampered token leaves the mock (docs/rp-check.md).
    package var tamper: TamperCase?

    package init(
        response: FaultResponse? = nil, delay: DelayRange? = nil, connection: ConnectionFault? = nil,
        tamper: TamperCase? = nil
    ) {
        self.response = response
        self.delay = delay
        self.connection = connection
        self.tamper = tamper
    }
}

/// An HTTP answer sent instead of the endpoint's: `status`, Apple's `error`/`error_description` as
/// JSON, or a raw `body`, plus `headers` (e.g. `Retry-After`).
package struct FaultResponse: Sendable, Equatable {
    package var status: Int
    package var error: String?
    package var errorDescription: String?
    package var body: String?
    package var headers: [(name: String, value: String)]

    package init(
        status: Int, error: String? = nil, errorDescription: String? = nil, body: String? = nil,
        headers: [(name: String, value: String)] = []
    ) {
        self.status = status
        self.error = error
        self.errorDescription = errorDescription
        self.body = body
        self.headers = headers
    }

    package static func == (lhs: FaultResponse, rhs: FaultResponse) -> Bool {
        lhs.status == rhs.status && lhs.error == rhs.error && lhs.errorDescription == rhs.errorDescription
            && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }
}

/// A fixed delay (`min == max`) or a range drawn uniformly from the seeded generator.
package struct DelayRange: Sendable, Equatable {
    package var minMilliseconds: Int64
    package var maxMilliseconds: Int64

    package init(minMilliseconds: Int64, maxMilliseconds: Int64) {
        self.minMilliseconds = minMilliseconds
        self.maxMilliseconds = maxMilliseconds
    }
}

/// Faults at the connection level.
package enum ConnectionFault: Sendable, Equatable {
    /// TCP RST instead of an answer.
    case reset
    /// Clean close (FIN) without an answer.
    case closeWithoutResponse
    /// The answer with its JSON body cut in half (Content-Length matches the cut body).
    case malformedJSON
    /// Head and half the body, then close.
    case truncatedBody
    /// The answer dribbled `chunkSize` bytes every `intervalMilliseconds`.
    case slowBody(chunkSize: Int, intervalMilliseconds: Int)

    /// The scenario-file spelling.
    package var name: String {
        switch self {
        case .reset: "reset"
        case .closeWithoutResponse: "close_without_response"
        case .malformedJSON: "malformed_json"
        case .truncatedBody: "truncated_body"
        case .slowBody: "slow_body"
        }
    }
}
