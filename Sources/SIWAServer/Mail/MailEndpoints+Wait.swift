import HTTP
import Mailbox
import ScenarioFormat

extension MailEndpoints {
    /// `wait=<duration>` (the one duration grammar, `TimeSyntax`): nil when absent; 0 answers at once.
    static func waitMilliseconds(_ text: String?) throws(ControlFailure) -> Int64? {
        guard let text else { return nil }
        let milliseconds: Int64
        do throws(TimeSyntax.Failure) {
            milliseconds = try TimeSyntax.durationMilliseconds(text)
        } catch {
            throw .invalid("wait", error.message)
        }
        let limit = MailWaiters.maximumWaitMilliseconds
        guard milliseconds <= limit else {
            throw .invalid("wait", "at most \(limit / 1000)s, found '\(text)'")
        }
        return milliseconds
    }

    /// Answers now when a stored record already matches; otherwise parks the request (off the event
    /// loop: the loop serves others meanwhile) until a matching record is stored — delivered or
    /// refused — or `milliseconds` pass, then answers the list as it is then (empty after a timeout).
    /// The peer closing its side answers at once, so a closed connection holds no waiter.
    func waitForMail(_ filter: MailFilter, milliseconds: Int64) throws(ControlFailure) -> HTTPResponse {
        if mailbox.contains(where: filter.matches) { return listing(filter) }
        let pending = DeferredResponse()
        let waiters = mailbox.waiters
        guard
            let id = waiters.park(
                for: milliseconds, on: scheduler, matches: { filter.matches($0) },
                finish: { pending.fulfill(listing(filter)) })
        else {
            throw ControlFailure(
                status: .serviceUnavailable, error: "unavailable", field: "wait",
                "\(waiters.limit) requests are already waiting for mail (the limit, docs/limits.md); "
                    + "retry, or list without wait")
        }
        pending.onCancel { waiters.finish(id) }
        // A record stored between the first look and parking woke no one: look again.
        if mailbox.contains(where: filter.matches) { waiters.finish(id) }
        return .deferred(pending)
    }
}
