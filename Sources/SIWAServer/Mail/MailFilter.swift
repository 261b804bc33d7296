import SIWACore
import ScenarioFormat

/// The filters of `GET /mock/mail` (`relay_address`, `real_address`, `team`, `sender`, `status`,
/// `since`, and `query`: a search in Mailpit's syntax over from, to, subject and body, the one
/// `MailpitSearch` that `/api/v1/search` runs), read once from the query and applied to the stored records or to each new one a waiting
/// request sees (`MailWaiters`).
struct MailFilter: Sendable {
    var relayAddress: String?
    var realAddress: String?
    var team: String?
    var sender: String?
    var status: String?
    /// Mock-clock milliseconds.
    var since: Int64?
    var search: MailpitSearch?

    init(_ query: QueryParameters) throws(ControlFailure) {
        if let text = query["since"] {
            do throws(TimeSyntax.Failure) {
                since = try TimeSyntax.timestamp(text).millisecondsSinceEpoch
            } catch {
                throw .invalid("since", error.message)
            }
        }
        status = query["status"]
        if let status, !["delivered", "rejected", "deferred"].contains(status) {
            throw .invalid("status", "must be delivered, rejected or deferred")
        }
        relayAddress = query["relay_address"]?.lowercased()
        realAddress = query["real_address"]?.lowercased()
        sender = query["sender"]?.lowercased()
        team = query["team"]
        if let text = query["query"], !text.allSatisfy(\.isWhitespace) {
            search = try MailpitSearch.parsing(query: text)
        }
    }

    func matches(_ record: MailRecord) -> Bool {
        (relayAddress == nil || record.relayAddress.lowercased() == relayAddress)
            && (realAddress == nil || record.deliveredTo?.lowercased() == realAddress)
            && (team == nil || record.teamID == team)
            && (sender == nil || record.envelopeSender.lowercased() == sender
                || record.headerFrom?.lowercased() == sender)
            && (since.map { record.timeMilliseconds >= $0 } ?? true)
            && (status == nil || record.statusName == status)
            && (search.map { $0.matches(MailpitView(record)) } ?? true)
    }
}
