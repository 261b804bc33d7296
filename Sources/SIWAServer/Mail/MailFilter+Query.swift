import Mailbox
import ScenarioFormat

extension MailFilter {
    /// The filters of `GET /mock/mail`'s query; a bad one is the control API's 400 naming it.
    init(_ query: QueryParameters) throws(ControlFailure) {
        self.init()
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
}
