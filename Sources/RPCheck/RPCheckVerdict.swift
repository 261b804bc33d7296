/// What `rp-check` concluded for one case.
package enum RPCheckVerdict: Sendable, Equatable {
    /// The backend refused the broken token: what it should do.
    case rejected
    /// The backend accepted the broken token: a defect.
    case accepted
    /// The correct token was refused, so refusing this case proves nothing.
    case controlFailed
    /// Not judged, and why (e.g. a claim case needs a pattern saying how the backend reads the claim).
    case skipped(String)
    /// The case could not be run (mock or backend unreachable).
    case error(String)

    package var label: String {
        switch self {
        case .rejected: "rejected"
        case .accepted: "ACCEPTED"
        case .controlFailed: "control failed"
        case .skipped: "skipped"
        case .error: "error"
        }
    }
}

/// One judged case (or the control) of one surface.
package struct RPCheckResult: Sendable, Equatable {
    /// `native`, `web` or `notifications`.
    package var surface: String
    /// The case name, or `control` for the correct token.
    package var name: String
    package var verdict: RPCheckVerdict
    package var risk: String
    package var fix: String
    /// What the backend answered, in a few words (`HTTP 401`).
    package var detail: String
}
