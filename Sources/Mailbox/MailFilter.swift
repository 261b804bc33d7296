/// The filters of `GET /mock/mail` (`relay_address`, `real_address`, `team`, `sender`, `status`,
/// `since`, and `query`: a search in Mailpit's syntax over from, to, subject and body, the one
/// `MailpitSearch` that `/api/v1/search` runs), read once from the query (`MailFilter+Query.swift` in
/// SIWAServer) and applied to the stored records or to each new one a waiting request sees
/// (`MailWaiters`). It reads a record's fields and its `MailIndex`, never its message.
package struct MailFilter: Sendable {
    /// Lowercased.
    package var relayAddress: String?
    /// Lowercased.
    package var realAddress: String?
    package var team: String?
    /// Lowercased.
    package var sender: String?
    /// `delivered`, `rejected` or `deferred`.
    package var status: String?
    /// Mock-clock milliseconds.
    package var since: Int64?
    package var search: MailpitSearch?

    package init() {}

    package func matches(_ record: MailRecord) -> Bool {
        (relayAddress == nil || record.relayAddress.lowercased() == relayAddress)
            && (realAddress == nil || record.deliveredTo?.lowercased() == realAddress)
            && (team == nil || record.teamID == team)
            && (sender == nil || record.envelopeSender.lowercased() == sender
                || record.headerFrom?.lowercased() == sender)
            && (since.map { record.timeMilliseconds >= $0 } ?? true)
            && (status == nil || record.statusName == status)
            && (search.map { $0.matches(record) } ?? true)
    }
}
