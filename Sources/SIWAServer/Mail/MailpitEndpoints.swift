import HTTP
import JSON
import Mailbox

/// A Mailpit-compatible subset of the mailbox at Mailpit's own paths, so test helpers written for
/// Mailpit's API v1 work against the relay unchanged (docs/relay-mail.md, "Mailpit-compatible API"):
/// list, message summary, raw source, attachment parts, search, delete. Control routes: the admin token and loopback
/// guard apply as on `/mock/mail`. Mailpit's mailbox holds mail that arrived, so only delivered
/// records are messages here; refused attempts stay in `/mock/mail`.
struct MailpitEndpoints: Sendable {
    let mailbox: Mailbox

    /// The routes, with the control surface's facts, in the mail-view lane: each reads stored messages.
    var routes: [Route] {
        let view = RouteFacts.control.running(in: .mailView)
        return [
            .control(.get, "/api/v1/messages", view) { (context) throws(ControlFailure) in
                try page(nil, query: try context.query())
            },
            .control(.delete, "/api/v1/messages", view) { (context) throws(ControlFailure) in try delete(&context) },
            .control(.get, "/api/v1/search", view) { (context) throws(ControlFailure) in
                let query = try context.query()
                let search = try MailpitSearch.parsing(query: query["query"] ?? "")
                return try page(search, query: query)
            },
            // Mailpit serves these on the paths above (read status, delete by search); the subset does not,
            // and says so with the 404 docs/relay-mail.md promises for Mailpit routes it leaves out.
            .control(.put, "/api/v1/messages", view) { _ throws(ControlFailure) in
                throw Self.outsideTheSubset("PUT /api/v1/messages")
            },
            .control(.delete, "/api/v1/search", view) { _ throws(ControlFailure) in
                throw Self.outsideTheSubset("DELETE /api/v1/search")
            },
            .control(.get, "/api/v1/message/{id}", view) { (context) throws(ControlFailure) in
                ControlEndpoints.ok(try message(context.capture("id")).detail)
            },
            .control(.get, "/api/v1/message/{id}/part/{part}", view) { (context) throws(ControlFailure) in
                let record = try message(context.capture("id")).record
                return MailContent.download(try MailContent.part(context.capture("part"), of: record), of: record)
            },
            .control(.get, "/api/v1/message/{id}/raw", view) { (context) throws(ControlFailure) in
                let view = try message(context.capture("id"))
                return HTTPResponse(
                    status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                    body: view.record.raw)
            },
        ]
    }

    static func outsideTheSubset(_ call: String) -> ControlFailure {
        ControlFailure(
            status: .notFound, error: "not_found", field: "path",
            "\(call) is not in siwa-mock's Mailpit subset (docs/relay-mail.md)")
    }

    /// Mailpit's mailbox holds mail that arrived: delivered records only.
    static func isMessage(_ record: MailRecord) -> Bool { record.outcome == .accepted }

    /// `{ID}` or `latest` (Mailpit's name for the newest message).
    func message(_ id: String) throws(ControlFailure) -> MailpitView {
        let record = id == "latest" ? mailbox.newest(where: Self.isMessage) : mailbox.record(id: id)
        guard let record, Self.isMessage(record) else {
            throw ControlFailure(
                status: .notFound, error: "not_found", field: "id",
                id == "latest" ? "no message in the mailbox" : "no message '\(id)' in the mailbox")
        }
        return MailpitView(record)
    }

    /// Mailpit's `MessagesSummary` for `start`/`limit` (defaults 0 and 50) of the messages `search`
    /// finds (all without one), newest first (Mailpit's order): summaries of the page only, from the
    /// index.
    func page(_ search: MailpitSearch?, query: QueryParameters) throws(ControlFailure) -> HTTPResponse {
        let start = try Self.number(query, "start", in: 0...1_000_000) ?? 0
        let limit = try Self.number(query, "limit", in: 1...1000) ?? 50
        let total = Int64(mailbox.deliveredCount)
        let page = mailbox.deliveredPage(passing: search, start: start, limit: limit)
        return ControlEndpoints.ok(
            JSONObject([
                ("total", .int(total)), ("unread", .int(total)), ("count", .int(Int64(page.records.count))),
                ("messages_count", .int(Int64(page.matching))), ("messages_unread", .int(Int64(page.matching))),
                ("start", .int(Int64(start))), ("tags", .array([])),
                ("messages", .array(page.records.map { .object(MailpitView($0).summary) })),
            ]))
    }

    static func number(_ query: QueryParameters, _ name: String, in range: ClosedRange<Int>) throws(ControlFailure)
        -> Int?
    {
        guard let text = query[name] else { return nil }
        guard text.count <= 9, let value = Int(text), range.contains(value) else {
            throw .invalid(name, "must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// `DELETE /api/v1/messages` with `{"IDs": [...]}` deletes those (unknown ids skipped, as Mailpit
    /// does); without a body or with no IDs, every message. Answers `ok` as text, as Mailpit does. The
    /// field name matches case-insensitively (`ids`, `Ids`), as Go's `encoding/json` matches Mailpit's
    /// `IDs`; an exact `IDs` wins over the others.
    func delete(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json()
        let key = body.object.keys.contains("IDs") ? "IDs" : body.object.keys.first { $0.lowercased() == "ids" }
        for other in body.object.keys where other.lowercased() != "ids" {
            throw .invalid(other, "unknown field (allowed: IDs)")
        }
        let ids = try key.flatMap { (key) throws(ControlFailure) in try body.strings(key) } ?? []
        guard ids.count <= 10_000 else { throw .invalid("IDs", "at most 10000 ids") }
        let wanted = Set(ids)
        let delivered = mailbox.records { Self.isMessage($0) && (wanted.isEmpty || wanted.contains($0.id)) }
        mailbox.remove(ids: Set(delivered.map(\.id)))
        return HTTPResponse(
            status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Array("ok".utf8))
    }
}
