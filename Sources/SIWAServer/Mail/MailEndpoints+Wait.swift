import Background
import HTTP
import Locking
import Mailbox
import ScenarioFormat

extension MailEndpoints {
    /// The longest `wait=`. A request waits in parks of at most `MailWaiters.maximumWaitMilliseconds`
    /// (so the timer jobs stay bounded, docs/limits.md), parked again for the rest until this is used.
    package static let maximumWaitMilliseconds: Int64 = 3_600_000

    /// `wait=<duration>` (the one duration grammar, `TimeSyntax`): nil when absent; 0 answers at once.
    static func waitMilliseconds(_ text: String?) throws(ControlFailure) -> Int64? {
        guard let text else { return nil }
        let milliseconds: Int64
        do throws(TimeSyntax.Failure) {
            milliseconds = try TimeSyntax.durationMilliseconds(text)
        } catch {
            throw .invalid("wait", error.message)
        }
        guard milliseconds <= maximumWaitMilliseconds else {
            let limit = TimeSyntax.durationText(milliseconds: maximumWaitMilliseconds)
            throw .invalid("wait", "at most \(limit), found '\(text)'")
        }
        return milliseconds
    }

    /// Answers now when a stored record already matches; otherwise parks the request (off the event
    /// loop: the loop serves others meanwhile) until a matching record is stored — delivered or
    /// refused — or `milliseconds` pass, then answers the list as it is then. After a timeout the list
    /// is empty and `no_mail` says why (`noMailMessage`), the one text every helper shows.
    /// The peer closing its side answers at once, so a closed connection holds no waiter.
    func waitForMail(_ filter: MailFilter, query: QueryParameters, milliseconds: Int64) throws(ControlFailure)
        -> HTTPResponse
    {
        if mailbox.contains(where: filter.matches) { return listing(filter) }
        let wait = MailWait(
            endpoints: self, filter: filter, wanted: Self.wanted(query),
            milliseconds: milliseconds, deadline: scheduler.clock.nowMilliseconds + milliseconds)
        guard wait.park() else { throw Self.noRoomToWait(mailbox.waiters.limit) }
        // Weak: `pending` keeps its handler after it is answered; the parked waiter keeps `wait` alive.
        wait.pending.onCancel { [weak wait] in wait?.cancel() }
        return .deferred(wait.pending)
    }

    static func noRoomToWait(_ limit: Int) -> ControlFailure {
        ControlFailure(
            status: .serviceUnavailable, error: "unavailable", field: "wait",
            "\(limit) requests are already waiting for mail (the limit, docs/limits.md); retry, or list without wait")
    }
}

/// One `wait=` request: parked for at most `MailWaiters.maximumWaitMilliseconds` at a time, and parked
/// again until its deadline; answered once, when a match is stored, the deadline passes or the peer
/// leaves.
final class MailWait: Sendable {
    let endpoints: MailEndpoints
    let filter: MailFilter
    /// The filters as the request gave them, for `no_mail`.
    let wanted: String
    let milliseconds: Int64
    /// On the scheduler's clock.
    let deadline: Int64
    let pending = DeferredResponse()
    /// The waiter parked now, and whether the peer left.
    private let state = Lock<(id: UInt64?, cancelled: Bool)>((nil, false))

    init(endpoints: MailEndpoints, filter: MailFilter, wanted: String, milliseconds: Int64, deadline: Int64) {
        self.endpoints = endpoints
        self.filter = filter
        self.wanted = wanted
        self.milliseconds = milliseconds
        self.deadline = deadline
    }

    /// Parks until the deadline or one park's length, whichever comes first; false when no room.
    func park() -> Bool {
        let waiters = endpoints.mailbox.waiters
        let scheduler = endpoints.scheduler
        let rest = max(0, deadline - scheduler.clock.nowMilliseconds)
        let filter = filter
        guard
            let id = waiters.park(
                for: min(rest, MailWaiters.maximumWaitMilliseconds), on: scheduler, matches: { filter.matches($0) },
                finish: { self.ended() })
        else { return false }
        let cancelled = state.withLock { state in
            state.id = id
            return state.cancelled
        }
        // Gone meanwhile, or a record stored between the last look and parking woke no one: finish now.
        if cancelled || endpoints.mailbox.contains(where: filter.matches) { waiters.finish(id) }
        return true
    }

    /// A park ended (a match, its time, or the peer leaving): answer, or park again for the rest.
    private func ended() {
        let cancelled = state.withLock { state in
            state.id = nil
            return state.cancelled
        }
        let found = endpoints.mailbox.contains(where: filter.matches)
        if !found, !cancelled, endpoints.scheduler.clock.nowMilliseconds < deadline {
            if park() { return }
            pending.fulfill(MailEndpoints.noRoomToWait(endpoints.mailbox.waiters.limit).response)
            return
        }
        let noMail = found || cancelled ? nil : endpoints.noMailMessage(wanted: wanted, milliseconds: milliseconds)
        pending.fulfill(endpoints.listing(filter, noMail: noMail))
    }

    /// The peer closed its side: answer now.
    func cancel() {
        let id = state.withLock { state in
            state.cancelled = true
            return state.id
        }
        if let id { endpoints.mailbox.waiters.finish(id) }
    }
}
