import Background
import HTTP
import JSON
import MIME
import Mailbox
import SIWACore
import ScenarioFormat

/// The mailbox under `/mock/mail` (docs/relay-mail.md): what the relay delivered and refused, each
/// message parsed or raw, and a simulated user reply. Routes join the one route table.
package struct MailEndpoints: Sendable {
    let mailbox: Mailbox
    let provider: AppleIdentityProvider
    let journal: RequestJournal
    /// Times out parked `wait` requests (the server's one background helper).
    let scheduler: BackgroundScheduler

    package init(
        mailbox: Mailbox, provider: AppleIdentityProvider, journal: RequestJournal, scheduler: BackgroundScheduler
    ) {
        self.scheduler = scheduler
        self.mailbox = mailbox
        self.provider = provider
        self.journal = journal
    }

    /// The routes, with the control surface's facts; the views of one message (`/mock/mail/…`) parse it
    /// and run in the mail-view lane.
    package var routes: [Route] {
        let view = RouteFacts.control.running(in: .mailView)
        return [
            .control(.get, "/mock/mail") { (context) throws(ControlFailure) in try list(&context) },
            .control(.delete, "/mock/mail") { _ in
                ControlEndpoints.ok(JSONObject([("cleared", .int(Int64(mailbox.clear(resettingCounters: true))))]))
            },
            // Before `{id}`: `m1.eml` must reach the raw message, not be taken as an id.
            .control(.get, "/mock/mail/{id}.eml", view) { (context) throws(ControlFailure) in
                let record = try find(context.capture("id"))
                return HTTPResponse(
                    status: .ok, headers: HTTPHeaders([("Content-Type", "message/rfc822")]), body: record.raw)
            },
            .control(.get, "/mock/mail/{id}", view) { (context) throws(ControlFailure) in
                detail(try find(context.capture("id")))
            },
            .control(.delete, "/mock/mail/{id}", view) { (context) throws(ControlFailure) in
                let record = try find(context.capture("id"))
                return ControlEndpoints.ok(
                    JSONObject([("cleared", .int(Int64(mailbox.remove(ids: [record.id]))))]))
            },
            // The viewer at /mock/ui (docs/relay-mail.md, "The viewer").
            .control(.get, "/mock/mail/{id}/html", view) { (context) throws(ControlFailure) in
                try MailContent.html(try find(context.capture("id")))
            },
            .control(.get, "/mock/mail/{id}/parts/{part}", view) { (context) throws(ControlFailure) in
                let record = try find(context.capture("id"))
                return MailContent.download(try MailContent.part(context.capture("part"), of: record), of: record)
            },
            .control(.post, "/mock/mail/{id}/reply", view) { (context) throws(ControlFailure) in try reply(&context) },
        ]
    }

    func find(_ id: String) throws(ControlFailure) -> MailRecord {
        guard let record = mailbox.record(id: id) else {
            throw ControlFailure(
                status: .notFound, error: "not_found", field: "id", "no message '\(id)' in the mailbox")
        }
        return record
    }

    /// `GET /mock/mail?relay_address=&real_address=&team=&sender=&status=&since=&wait=`: oldest first;
    /// with `wait`, parked until a match is stored (`MailEndpoints+Wait.swift`).
    func list(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let query = try context.query()
        let filter = try MailFilter(query)
        guard let wait = try Self.waitMilliseconds(query["wait"]), wait > 0 else { return listing(filter) }
        return try waitForMail(filter, query: query, milliseconds: wait)
    }

    /// The records `filter` passes, with the mailbox's usage; `no_mail` when a wait ended with none.
    func listing(_ filter: MailFilter, noMail: String? = nil) -> HTTPResponse {
        let records = mailbox.records(where: filter.matches)
        let usage = mailbox.usage
        var object = JSONObject([
            ("messages", .array(records.map { .object($0.summaryJSON) })),
            ("stored", .int(Int64(usage.records))), ("stored_bytes", .int(Int64(usage.bytes))),
            ("dropped", .int(Int64(usage.dropped))), ("waiting", .int(Int64(mailbox.waiters.count))),
        ])
        if let noMail { object["no_mail"] = .string(noMail) }
        return ControlEndpoints.ok(object)
    }

    /// One message: the summary, every header field, the text and HTML parts, the other parts; their
    /// text within `MailViewBudget` (`truncated` names what was cut).
    func detail(_ record: MailRecord) -> HTTPResponse {
        var object = record.summaryJSON
        let message = MailMessage(parsing: record.raw)
        var budget = MailViewBudget()
        // `value` as sent; `decoded` as read, for fields with RFC 2047 encoded words.
        object["headers"] = .array(
            message.fields.map { field in
                let value = budget.take(field.value, as: "headers")
                var header = JSONObject([("name", .string(field.name)), ("value", .string(value))])
                let decoded = EncodedWords.decode(value)
                if decoded != value { header["decoded"] = .string(decoded) }
                return .object(header)
            })
        let parts = message.textParts(decodingAtMost: MailViewBudget.decodedBytes)
        object["text"] = parts.text.map { .string(budget.take($0, as: "text")) } ?? .null
        object["html"] = parts.html.map { .string(budget.take($0, as: "html")) } ?? .null
        object["other_parts"] = .array(parts.otherTypes.map { .string($0) })
        object["attachments"] = MailContent.partsJSON(record, parts)
        object["truncated"] = .array(budget.cut.map { .string($0) })
        return ControlEndpoints.ok(object)
    }
}
