import JSON
import ScenarioFormat

extension MailEndpoints {
    /// The filters of `GET /mock/mail` in the order `no_mail` names them.
    static let filterNames = ["relay_address", "real_address", "team", "sender", "status", "since", "query"]
    /// The newest records `no_mail` describes.
    static let noMailShown = 10

    /// `relay_address=… status=…`: the filters the request gave, as given, in `filterNames` order.
    static func wanted(_ query: QueryParameters) -> String {
        filterNames.compactMap { name in query[name].map { "\(name)=\($0)" } }.joined(separator: " ")
    }

    /// Why a wait ended with nothing, the text every helper's `wait_for_mail` fails with
    /// (docs/relay-mail.md, "Waiting for mail"): the filters, the wait, and the newest records the
    /// mailbox holds, so a test sees at once whether the mail went to another address, was refused, or
    /// never came. `no mail matching relay_address=k7x…@privaterelay.appleid.com status=delivered in 5s;
    /// the mailbox has 1 record: m1 rejected news@other.example -> k7x…@privaterelay.appleid.com "Hi"
    /// (550 5.1.1 <news@other.example>: unauthorized sender)`.
    func noMailMessage(wanted: String, milliseconds: Int64) -> String {
        let waited = TimeSyntax.durationText(milliseconds: milliseconds)
        let text = "no mail\(wanted.isEmpty ? "" : " matching \(wanted)") in \(waited); "
        let records = mailbox.records()
        guard !records.isEmpty else { return text + "the mailbox is empty" }
        let shown = records.suffix(Self.noMailShown)
        let lines = shown.map { record in
            let summary = record.summaryJSON
            let from = record.envelopeSender.isEmpty ? "<>" : record.envelopeSender
            let subject = (summary["subject"] ?? .null).serializedString()
            let reply = record.statusName == "delivered" ? "" : " (\(record.reply))"
            return "\(record.id) \(record.statusName) \(from) -> \(record.relayAddress) \(subject)\(reply)"
        }
        let count = "\(records.count) record\(records.count == 1 ? "" : "s")"
        let newest = records.count > shown.count ? " (the newest \(shown.count))" : ""
        return text + "the mailbox has \(count)\(newest): " + lines.joined(separator: "; ")
    }
}
