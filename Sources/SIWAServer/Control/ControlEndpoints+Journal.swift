import HTTP
import JSON
import SIWACore
import ScenarioModel

/// The request journal and server-to-server notifications.
extension ControlEndpoints {
    /// `GET /mock/requests?path=…&client_id=…&user=…&include=mock&after=SEQ&limit=N` (user: scenario id;
    /// a sub or email is resolved). The mock's own `/mock/` calls are left out unless `include=mock` or a
    /// `/mock/` path filter asks for them: a tester reading the journal wants the backend's traffic, not
    /// their own polls. Pages: at most `limit` (1…1000, default 1000) entries with a sequence above
    /// `after`; `next_after` is set when more follow. A page is at most 1000 × `JournalEntry.maximumBytes`.
    ///
    /// `scope=fleet` (with `--shared-journal`) reads the fleet journal instead: every replica's entries
    /// in one order, numbered by the fleet (`sequence`), each with `replica` and `replica_sequence`.
    func listRequests(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let query = try context.query()
        let fleetJournal = try Self.scope(query, journal)
        var user = query["user"]
        if let name = user, let resolved = provider.user(named: name) { user = resolved.id }
        let includeControl: Bool
        switch query["include"] {
        case nil: includeControl = query["path"].map { context.routes.surface(ofPath: $0) == .control } ?? false
        case "mock": includeControl = true
        case let other?: throw .invalid("include", "unknown value '\(other)' (use include=mock)")
        }
        let limit = try Self.pagingNumber(query, "limit", in: 1...1000) ?? 1000
        let after = try Self.pagingNumber(query, "after", in: 0...Int.max) ?? 0
        let routes = context.routes
        if let fleetJournal {
            return try Self.fleetPage(
                fleetJournal, after: after, limit: limit,
                matching: { entry in
                    guard let path = entry["path"]?.stringValue else { return false }
                    return (query["path"] == nil || path == query["path"])
                        && (query["client_id"] == nil || entry["client_id"]?.stringValue == query["client_id"])
                        && (user == nil || entry["user"]?.stringValue == user)
                        && (includeControl || routes.surface(ofPath: path) != .control)
                })
        }
        let entries = journal.entries(
            path: query["path"], clientID: query["client_id"], user: user, after: after, limit: limit + 1,
            including: { includeControl || routes.surface(ofPath: $0.path) != .control })
        var object = JSONObject([("requests", .array(entries.prefix(limit).map(\.json)))])
        if entries.count > limit { object["next_after"] = .int(Int64(entries[limit - 1].sequence)) }
        return Self.ok(object)
    }

    /// A non-negative decimal query parameter within `range` (no sign, at most 18 digits: never traps).
    static func pagingNumber(
        _ query: QueryParameters, _ name: String, in range: ClosedRange<Int>
    ) throws(ControlFailure) -> Int? {
        guard let text = query[name] else { return nil }
        guard text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text),
            range.contains(value)
        else { throw .invalid(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return value
    }

    /// `DELETE /mock/requests[?scope=fleet]`: forgets this replica's entries, or the fleet journal's.
    func clearRequests(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        guard let fleetJournal = try Self.scope(try context.query(), journal) else {
            return Self.ok(JSONObject([("cleared", .int(Int64(journal.clear())))]))
        }
        do throws(StoreUnavailable) {
            // Pending entries first, so none of them lands after the clear.
            try fleetJournal.flush()
            return Self.ok(JSONObject([("cleared", .int(Int64(try fleetJournal.journal.clear())))]))
        } catch {
            throw Self.storeUnavailable(error)
        }
    }

    /// `scope`: absent or `replica` → nil (this replica's journal); `fleet` → the fleet journal, or a
    /// 400 that says how to turn it on.
    static func scope(_ query: QueryParameters, _ journal: RequestJournal) throws(ControlFailure)
        -> FleetJournalWriter?
    {
        switch query["scope"] {
        case nil, "replica": return nil
        case "fleet":
            guard let fleet = journal.fleet else {
                throw .invalid(
                    "scope",
                    "this mock keeps its journal per replica: start every replica with --store redis://HOST:PORT "
                        + "--shared-journal ENTRIES to read scope=fleet (docs/scale-out.md)")
            }
            return fleet
        case let other?: throw .invalid("scope", "unknown value '\(other)' (use scope=replica or scope=fleet)")
        }
    }

    /// The most fleet-journal entries one page reads while filtering (10 round trips of 1,000): a filter
    /// that matches nothing still answers promptly, with `next_after` to go on from.
    static let fleetScanLimit = 10_000

    /// One page of the fleet journal: entries above `after` that match, at most `limit`. This replica's
    /// pending entries are sent first, so a request it answered is in the page that follows it.
    static func fleetPage(
        _ fleet: FleetJournalWriter, after: Int, limit: Int, matching: (JSONObject) -> Bool
    ) throws(ControlFailure) -> HTTPResponse {
        var selected: [JSONObject] = []
        var cursor = after
        var scanned = 0
        var more = false
        do throws(StoreUnavailable) {
            try fleet.flush()
            scan: while true {
                let records = try fleet.journal.records(after: cursor, count: 1_000)
                for (sequence, text) in records {
                    if selected.count == limit || scanned == fleetScanLimit {
                        more = true
                        break scan
                    }
                    cursor = sequence
                    scanned += 1
                    if let entry = FleetJournalWriter.entry(sequence: sequence, text: text), matching(entry) {
                        selected.append(entry)
                    }
                }
                if records.count < 1_000 { break }
            }
        } catch {
            throw storeUnavailable(error)
        }
        var object = JSONObject([("requests", .array(selected.map { .object($0) }))])
        if more { object["next_after"] = .int(Int64(cursor)) }
        return ok(object)
    }

    static func storeUnavailable(_ error: StoreUnavailable) -> ControlFailure {
        ControlFailure(
            status: .serviceUnavailable, error: "unavailable", "the shared store is unreachable: \(error.reason)")
    }

    func listNotifications() -> HTTPResponse {
        Self.ok(JSONObject([("notifications", .array(notifications.records.map(\.json)))]))
    }

    /// `POST /mock/notifications {type, user, client_id?, deliveries?}` → 202 with the queued
    /// notifications (`deliveries` copies of each, default the `deliveries_per_event` setting).
    func sendNotification(_ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json()
        try body.allowOnly(["type", "user", "client_id", "deliveries"])
        let typeName = try body.requiredString("type")
        guard let kind = UserEvent.Kind(typeName: typeName) else {
            throw .invalid(
                "type", "must be email-disabled, email-enabled, consent-revoked, account-delete or account-deleted")
        }
        let user = try body.requiredString("user")
        let clientID = try body.string("client_id")
        let copies = try body.integer("deliveries")
        if let copies, !(1...10).contains(copies) { throw .invalid("deliveries", "must be from 1 to 10") }
        let prepared: [PreparedNotification]
        do throws(ProviderChangeError) {
            prepared = try provider.prepareNotifications(kind: kind, user: user, clientID: clientID)
        } catch {
            throw ControlFailure(error)
        }
        let ids = notifications.send(prepared, copies: copies.map(Int.init))
        let perNotification = ids.count / max(prepared.count, 1)
        let records = notifications.records
        let queued = ids.enumerated().map { index, id in
            // As sent: a `tamper:` rule may have changed its jti or aud (docs/rp-check.md).
            let notification =
                records.last { $0.id == id }?.notification ?? prepared[index / max(perNotification, 1)]
            return
                JSONValue.object(
                    JSONObject([
                        ("id", .int(Int64(id))), ("type", .string(notification.type)),
                        ("jti", .string(notification.jti)),
                        ("url", .string(notification.url)), ("aud", .string(notification.audience)),
                    ]))
        }
        return Self.ok(JSONObject([("queued", .array(queued))]), status: .accepted)
    }
}
