import Foundation
import SIWAServer

/// One request the mock received, or one notification delivery it attempted (`GET /mock/requests`).
public struct JournalRecord: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// An HTTP request to the mock.
        case request
        /// A server-to-server notification delivery attempt by the mock.
        case notification
    }

    /// Increasing, unique for the mock's lifetime.
    public var sequence: Int
    public var kind: Kind
    public var method: String
    /// The request path, or the notification's destination URL.
    public var path: String
    /// Selected parameters in request order; secrets (codes, tokens, client secrets) only as
    /// `sha256:` fingerprints.
    public var parameters: [Parameter]
    public var clientID: String?
    /// The scenario user the request concerned.
    public var user: String?
    /// `ok`, the error code answered (`invalid_grant`, `invalid_client`, …) or a delivery outcome.
    public var outcome: String
    public var status: Int
    /// When, by the mock's clock.
    public var time: Date
    /// Why the request was refused, in words (Apple's answer never says); nil when it succeeded.
    public var reason: String?

    /// One `name=value` the journal kept.
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The value of the first parameter called `name`.
    public subscript(parameter name: String) -> String? { parameters.first { $0.name == name }?.value }

    init(_ entry: JournalEntry) {
        sequence = entry.sequence
        kind = entry.kind == "notification" ? .notification : .request
        method = entry.method
        path = entry.path
        parameters = entry.parameters.map { Parameter(name: $0.name, value: $0.value) }
        clientID = entry.clientID
        user = entry.user
        outcome = entry.outcome
        status = entry.status
        time = Date(timeIntervalSince1970: Double(entry.timeMilliseconds) / 1000)
        reason = entry.reason
    }
}

/// The request journal: what your backend sent and why the mock refused it.
extension AppleIDMock {
    /// Entries oldest first (the newest 1000 are kept), optionally only those for `path`, `client` or
    /// `user`, or after sequence number `after`.
    public func requests(
        path: String? = nil, client: String? = nil, user: String? = nil, after: Int = 0
    ) -> [JournalRecord] {
        host.mock.control.journal.entries(path: path, clientID: client, user: user, after: after).map(
            JournalRecord.init)
    }

    /// The refused requests (outcome other than `ok`), oldest first.
    public var refusals: [JournalRecord] { requests().filter { $0.kind == .request && $0.reason != nil } }

    /// Empties the journal.
    public func clearRequests() {
        host.mock.control.journal.clear()
    }
}
