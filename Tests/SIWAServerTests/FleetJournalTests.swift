import HTTP
import JSON
import SIWACore
import SIWATestSupport
import Synchronization
import Testing

@testable import SIWAServer

/// The fleet journal (`--shared-journal`, docs/scale-out.md "The fleet journal"): every replica's
/// entries in one order at `GET /mock/requests?scope=fleet`, on either store.
@Suite struct FleetJournalTests {
    /// Two replicas sharing a fleet state and a fleet journal; their writers name them `a` and `b`.
    static func fleet(
        _ body: (ControlHarness, FleetJournalWriter, ControlHarness, FleetJournalWriter) throws -> Void
    ) throws {
        let journal = TestStore.fleetJournal()
        let state = TestStore.fleetState()
        let writerA = FleetJournalWriter(journal: journal, replica: "a")
        let writerB = FleetJournalWriter(journal: journal, replica: "b")
        try ControlHarness.run(.inProcess, options: .init(fleetState: state, fleetJournal: writerA)) { a in
            try ControlHarness.run(.inProcess, options: .init(fleetState: state, fleetJournal: writerB)) { b in
                try body(a, writerA, b, writerB)
            }
        }
    }

    static func badToken(_ h: ControlHarness, code: String) throws {
        let response = try h.send(
            RequestBuilder.form("/auth/token", [("grant_type", "authorization_code"), ("code", code)]))
        #expect(response.status == 400 || response.status == 401, "\(response.text)")
    }

    static func requests(_ h: ControlHarness, _ query: String) throws -> (entries: [JSONValue], next: JSONValue?) {
        let response = try h.call("GET", "/mock/requests?" + query)
        #expect(response.status == 200, "\(response.text)")
        let object = try #require(response.json)
        return (try #require(object["requests"]?.arrayValue), object["next_after"])
    }

    @Test func everyReplicasEntriesAreReadAtAnyReplicaInOneOrder() throws {
        try Self.fleet { a, writerA, b, writerB in
            try Self.badToken(a, code: "from-a")
            try writerA.flush()  // the 100 ms tick of `MockHost`
            try Self.badToken(b, code: "from-b")
            // B sends its own pending entries before reading: what it answered is in the page.
            let (entries, next) = try Self.requests(b, "scope=fleet")
            #expect(next == nil)
            #expect(entries.compactMap { $0["replica"]?.stringValue } == ["a", "b"])
            #expect(entries.compactMap { $0["sequence"]?.intValue } == [1, 2])
            #expect(entries.allSatisfy { $0["path"] == "/auth/token" && $0["replica_sequence"] == .int(1) })
            #expect(
                entries.first?["parameters"]?["code"]?.stringValue == SecretFingerprint.of("from-a"),
                "secrets stay fingerprints in the shared journal")
            // The same page at A, once B's read (a /mock/ call, left out by default) is flushed too.
            try writerB.flush()
            #expect(try Self.requests(a, "scope=fleet").entries == entries)
            let withMock = try Self.requests(a, "scope=fleet&include=mock").entries
            #expect(withMock.count == 4, "both replicas' GET /mock/requests: \(withMock)")
            // This replica's journal is still its own.
            #expect(try Self.requests(b, "path=/auth/token").entries.count == 1)
        }
    }

    @Test func fleetPagesFilterAndGoOnFromNextAfter() throws {
        try Self.fleet { a, writerA, b, writerB in
            for round in 0..<3 {
                try Self.badToken(a, code: "a\(round)")
                try writerA.flush()
                #expect(try b.call("GET", "/auth/keys").status == 200)
                try writerB.flush()
            }
            // Sequences: A's tokens 1, 3, 5; B's key reads 2, 4, 6.
            let tokens = try Self.requests(b, "scope=fleet&path=/auth/token&limit=2")
            #expect(tokens.entries.count == 2 && tokens.next == .int(3), "\(tokens)")
            let rest = try Self.requests(b, "scope=fleet&path=/auth/token&after=3")
            #expect(rest.entries.count == 1 && rest.next == nil)
            #expect(rest.entries.first?["parameters"]?["code"]?.stringValue == SecretFingerprint.of("a2"))
            let keys = try Self.requests(a, "scope=fleet&path=/auth/keys")
            #expect(keys.entries.compactMap { $0["replica"]?.stringValue } == ["b", "b", "b"])
        }
    }

    @Test func clearingTheFleetJournalLeavesEachReplicasOwn() throws {
        try Self.fleet { a, writerA, b, _ in
            try Self.badToken(a, code: "x")
            try writerA.flush()
            let cleared = try a.call("DELETE", "/mock/requests?scope=fleet")
            #expect(cleared.status == 200 && cleared.json?["cleared"] == .int(1), "\(cleared.text)")
            #expect(try Self.requests(b, "scope=fleet").entries.isEmpty)
            #expect(try Self.requests(a, "path=/auth/token").entries.count == 1)
        }
    }

    @Test func scopeFleetWithoutASharedJournalSaysHowToTurnItOn() throws {
        try ControlHarness.run(.inProcess) { h in
            let response = try h.call("GET", "/mock/requests?scope=fleet")
            expectControlError(response, 400, field: "scope")
            #expect(response.json?["message"]?.stringValue?.contains("--shared-journal") == true)
            expectControlError(try h.call("DELETE", "/mock/requests?scope=fleet"), 400, field: "scope")
            expectControlError(try h.call("GET", "/mock/requests?scope=everywhere"), 400, field: "scope")
            #expect(try h.call("GET", "/mock/requests?scope=replica").status == 200)
        }
    }

    @Test func whileTheStoreIsDownEntriesWaitAndReadsAnswer503() throws {
        let store = SwitchableFleetJournal()
        let writer = FleetJournalWriter(journal: store, replica: "a")
        try ControlHarness.run(.inProcess, options: .init(fleetJournal: writer)) { h in
            store.down.withLock { $0 = true }
            try Self.badToken(h, code: "waiting")
            let response = try h.call("GET", "/mock/requests?scope=fleet")
            expectControlError(response, 503, field: nil)
            #expect(response.headers["Retry-After"] == "1")
            #expect(writer.pendingCount == 2, "the token request and the refused read wait")
            store.down.withLock { $0 = false }
            #expect(try writer.flush() == 2)
            #expect(try Self.requests(h, "scope=fleet").entries.first?["path"] == "/auth/token")
        }
    }

    @Test func pendingEntriesAreBoundedAndTheRestCounted() throws {
        let store = SwitchableFleetJournal()
        store.down.withLock { $0 = true }
        let writer = FleetJournalWriter(journal: store, replica: "a")
        let entry = JournalEntry(
            kind: "request", method: "GET", path: "/auth/keys", parameters: [], clientID: nil, user: nil,
            outcome: "ok", status: 200, timeMilliseconds: 0)
        for _ in 0..<(FleetJournalWriter.maximumPending + 5) { writer.enqueue(entry) }
        #expect(writer.pendingCount == FleetJournalWriter.maximumPending && writer.dropped == 5)
        #expect(throws: StoreUnavailable.self) { try writer.flush() }
        #expect(writer.pendingCount == FleetJournalWriter.maximumPending, "a failed batch goes back")
        store.down.withLock { $0 = false }
        #expect(try writer.flush() == FleetJournalWriter.maximumPending && writer.pendingCount == 0)
        #expect(try store.records(after: 0, count: 20_000).count == FleetJournalWriter.maximumPending)
    }

    @Test func pendingBytesAreBoundedToo() throws {
        let store = SwitchableFleetJournal()
        store.down.withLock { $0 = true }
        let writer = FleetJournalWriter(journal: store, replica: "a")
        let large = JournalEntry(
            kind: "request", method: "POST", path: "/auth/token",
            parameters: (0..<JournalEntry.maximumParameters).map { ("p\($0)", String(repeating: "x", count: 256)) },
            clientID: nil, user: nil, outcome: "ok", status: 200, timeMilliseconds: 0
        ).bounded()
        for _ in 0..<2_000 { writer.enqueue(large) }
        let kept = writer.pendingCount
        #expect(kept > 0 && kept < 2_000 && writer.dropped == 2_000 - kept)
        #expect(kept * large.approximateBytes <= FleetJournalWriter.maximumPendingBytes)
        #expect((kept + 1) * large.approximateBytes > FleetJournalWriter.maximumPendingBytes, "filled to the bound")
        store.down.withLock { $0 = false }
        #expect(try writer.flush() == kept)
    }

    @Test func anOutageIsLoggedOnceWithTheEntriesItDropped() throws {
        let store = SwitchableFleetJournal()
        let writer = FleetJournalWriter(journal: store, replica: "a")
        let log = LogRecorder()
        let entry = JournalEntry(
            kind: "request", method: "GET", path: "/auth/keys", parameters: [], clientID: nil, user: nil,
            outcome: "ok", status: 200, timeMilliseconds: 0)
        writer.enqueue(entry)
        writer.tick(log: log.record)
        #expect(log.lines.isEmpty, "a healthy flush logs nothing")
        store.down.withLock { $0 = true }
        for _ in 0..<(FleetJournalWriter.maximumPending + 3) { writer.enqueue(entry) }
        writer.tick(log: log.record)
        writer.tick(log: log.record)
        #expect(log.lines.count == 1 && log.lines[0].contains("cannot write"), "\(log.lines)")
        store.down.withLock { $0 = false }
        writer.tick(log: log.record)
        #expect(log.lines.count == 2 && log.lines[1].contains("3 entries dropped"), "\(log.lines)")
        writer.tick(log: log.record)
        #expect(log.lines.count == 2, "the recovery is logged once")
        #expect(try store.records(after: 0, count: 20_000).count == 1 + FleetJournalWriter.maximumPending)
    }
}

/// A fleet journal in this process that can be switched off like an unreachable store.
final class SwitchableFleetJournal: FleetJournal {
    let local = LocalFleetJournal(capacity: 100_000)
    let down = Mutex(false)

    func check() throws(StoreUnavailable) {
        if down.withLock({ $0 }) { throw StoreUnavailable("connection refused") }
    }

    func append(_ records: [String]) throws(StoreUnavailable) {
        try check()
        try local.append(records)
    }

    func records(after: Int, count: Int) throws(StoreUnavailable) -> [(sequence: Int, text: String)] {
        try check()
        return try local.records(after: after, count: count)
    }

    func clear() throws(StoreUnavailable) -> Int {
        try check()
        return try local.clear()
    }
}
