/// One error-injection rule: which requests, when, and what happens instead of (or on top of) the
/// normal answer. The rule is a value; its counters live in `FaultEngine`.
public struct FaultRule: Sendable, Equatable {
    /// Stable name (`token-503`), used by `/mock/faults/{id}` and timeline `start_fault`/`stop_fault`.
    public var id: String
    public var matcher: RequestMatcher
    /// Skip the first `after` matching requests.
    public var after: Int
    /// Fire at most this many times (nil: unlimited).
    public var times: Int?
    /// Chance of firing on an eligible request, drawn from the scenario seed.
    public var probability: Double
    /// Active only while the mock clock is in this window, relative to the clock at load.
    public var window: TimeWindow?
    /// Whether the rule is active at start (a timeline `start_fault` can switch it on later).
    public var enabled: Bool
    public var action: FaultAction

    public init(
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
    public struct TimeWindow: Sendable, Equatable {
        public var fromMilliseconds: Int64?
        public var untilMilliseconds: Int64?

        public init(fromMilliseconds: Int64? = nil, untilMilliseconds: Int64? = nil) {
            self.fromMilliseconds = fromMilliseconds
            self.untilMilliseconds = untilMilliseconds
        }

        /// Whether `offset` (ms since load) lies in `[from, until)`.
        public func contains(_ offset: Int64) -> Bool {
            if let fromMilliseconds, offset < fromMilliseconds { return false }
            if let untilMilliseconds, offset >= untilMilliseconds { return false }
            return true
        }
    }
}

/// What a firing rule does. A `response` replaces the endpoint's answer; a `connection` fault changes
/// how the (real or replaced) answer is delivered; a `delay` holds it back first. At least one is set.
public struct FaultAction: Sendable, Equatable {
    public var response: FaultResponse?
    public var delay: DelayRange?
    public var connection: ConnectionFault?

    public init(response: FaultResponse? = nil, delay: DelayRange? = nil, connection: ConnectionFault? = nil) {
        self.response = response
        self.delay = delay
        self.connection = connection
    }
}

/// An HTTP answer sent instead of the endpoint's: `status`, Apple's `error`/`error_description` as
/// JSON, or a raw `body`, plus `headers` (e.g. `Retry-After`).
public struct FaultResponse: Sendable, Equatable {
    public var status: Int
    public var error: String?
    public var errorDescription: String?
    public var body: String?
    public var headers: [(name: String, value: String)]

    public init(
        status: Int, error: String? = nil, errorDescription: String? = nil, body: String? = nil,
        headers: [(name: String, value: String)] = []
    ) {
        self.status = status
        self.error = error
        self.errorDescription = errorDescription
        self.body = body
        self.headers = headers
    }

    public static func == (lhs: FaultResponse, rhs: FaultResponse) -> Bool {
        lhs.status == rhs.status && lhs.error == rhs.error && lhs.errorDescription == rhs.errorDescription
            && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }
}

/// A fixed delay (`min == max`) or a range drawn uniformly from the seeded generator.
public struct DelayRange: Sendable, Equatable {
    public var minMilliseconds: Int64
    public var maxMilliseconds: Int64

    public init(minMilliseconds: Int64, maxMilliseconds: Int64) {
        self.minMilliseconds = minMilliseconds
        self.maxMilliseconds = maxMilliseconds
    }
}

/// Faults at the connection level.
public enum ConnectionFault: Sendable, Equatable {
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
    public var name: String {
        switch self {
        case .reset: "reset"
        case .closeWithoutResponse: "close_without_response"
        case .malformedJSON: "malformed_json"
        case .truncatedBody: "truncated_body"
        case .slowBody: "slow_body"
        }
    }
}
