import HTTP
import JOSE
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// Clock and signing-key changes made through one replica's control API reach the others through the
/// shared fleet state (docs/scale-out.md, "What is shared"); in memory, or on Redis with SIWA_TEST_STORE.
@Suite struct FleetSyncTests {
    /// Two mocks ("replicas") sharing one fleet state.
    static func fleet(
        _ state: any FleetState = TestStore.fleetState(), _ body: (ControlHarness, ControlHarness) throws -> Void
    ) throws {
        let options = MockServer.ControlOptions(fleetState: state)
        try ControlHarness.run(.inProcess, options: options) { a in
            try ControlHarness.run(.inProcess, options: options) { b in try body(a, b) }
        }
    }

    static func jwksKIDs(_ h: ControlHarness) throws -> [String] {
        let keys = try #require(try h.send(RequestBuilder.get("/auth/keys")).json?["keys"]?.arrayValue)
        return keys.compactMap { $0["kid"]?.stringValue }
    }

    @Test func keyRotatedAtOneReplicaIsPublishedAndSignsAtAnother() throws {
        try Self.fleet { (a, b) throws in
            #expect(try a.call("POST", "/mock/keys/rotate", ["kid": "NewKey0001"]).status == 200)
            #expect(try !Self.jwksKIDs(b).contains("NewKey0001"), "not before B polls")
            #expect(try a.server.fleet?.pull() == [], "A does not re-apply its own publication")
            #expect(try b.server.fleet?.pull() == [.keys])
            #expect(try Self.jwksKIDs(b) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm", "NewKey0001"])
            let credential = try #require(
                try b.call("POST", "/mock/credentials", ["client_id": "com.example.app", "user": "carol"]).json)
            let token = try #require(credential["identityToken"]?.stringValue)
            #expect(try JWS(compact: token).keyID == "NewKey0001")
            _ = try b.verifiedClaims(token)
            #expect(try b.server.fleet?.pull() == [], "nothing new: one stamp read, nothing applied")
            // Publishing, retiring and choosing the signer are shared as well (the whole set is published).
            #expect(try a.call("POST", "/mock/keys/Pb7Yt1ZcQ9/retire").status == 200)
            #expect(try b.server.fleet?.pull() == [.keys])
            #expect(try Self.jwksKIDs(b) == ["Aj3F8kLq2X", "Tq8Nv3WcLm", "NewKey0001"])
        }
    }

    @Test func clockChangedAtOneReplicaMovesAnother() throws {
        try Self.fleet { (a, b) throws in
            let before = b.clock.nowMilliseconds
            #expect(try a.call("POST", "/mock/clock", ["advance": "6m"]).status == 200)
            #expect(try b.server.fleet?.pull() == [.clock])
            #expect(b.clock.nowMilliseconds == before + 360_000)
            #expect(b.clock.nowMilliseconds == a.clock.nowMilliseconds)
            #expect(try b.call("POST", "/mock/clock", ["set": "2030-01-01T00:00:00Z"]).status == 200)
            #expect(try a.server.fleet?.pull() == [.clock])
            #expect(a.clock.nowMilliseconds == 1_893_456_000_000)
        }
    }

    @Test func aReplicaJoiningLaterTakesTheFleetState() throws {
        let state = TestStore.fleetState()
        try ControlHarness.run(.inProcess, options: .init(fleetState: state)) { a throws in
            #expect(try a.call("POST", "/mock/keys/rotate", ["kid": "Early00001"]).status == 200)
        }
        try ControlHarness.run(.inProcess, options: .init(fleetState: state)) { late throws in
            #expect(try late.server.fleet?.pull() == [.keys])
            #expect(try Self.jwksKIDs(late).contains("Early00001"))
        }
    }

    @Test func aStateThatCannotBeReadIsSkippedAndLogged() throws {
        let state = LocalFleetState()
        try Self.fleet(state) { (_, b) throws in
            state.publish(.keys, value: "not json")
            state.publish(.clock, value: "{}")
            let before = b.clock.nowMilliseconds
            #expect(try b.server.fleet?.pull() == [])
            #expect(try Self.jwksKIDs(b) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
            #expect(b.clock.nowMilliseconds == before)
            #expect(b.log.lines.contains { $0.contains("fleet: the keys state") })
        }
    }

    /// A clock state is read from a store this replica does not trust: a reading outside the control
    /// API's range (years 1970 to 9999) is ignored and logged, never a trap (issue #21: `mock_ms` near
    /// `Int64.min` killed every replica with SIGILL at the next poll).
    @Test(arguments: [
        (Int64.min, Int64(1_700_000_000_000), false), (Int64.min, 1_700_000_000_000, true),
        (Int64.max, 1_700_000_000_000, false), (-1, 1_700_000_000_000, true),
        (TimeText.maximumMilliseconds + 1, 1_700_000_000_000, false), (1_700_000_000_000, Int64.min, false),
        (1_700_000_000_000, Int64.max, false),
    ])
    func aClockStateOutsideTheControlAPIRangeIsIgnored(mock: Int64, real: Int64, frozen: Bool) throws {
        let state = LocalFleetState()
        try Self.fleet(state) { (_, b) throws in
            let before = b.clock.nowMilliseconds
            state.publish(.clock, value: "{\"mock_ms\":\(mock),\"real_ms\":\(real),\"frozen\":\(frozen)}")
            #expect(try b.server.fleet?.pull() == [])
            #expect(b.clock.nowMilliseconds == before)
            #expect(b.log.lines.contains { $0.contains("fleet: the clock state") })
        }
    }

    /// The largest reading that passes, published long ago, stays inside the range when it runs on.
    @Test func aRunningClockStateIsKeptInsideTheRange() {
        let clock = ManualClock(seconds: 0)
        let state = FleetClockState(mockMilliseconds: TimeText.maximumMilliseconds, realMilliseconds: 0, frozen: false)
        state.apply(to: clock, real: ManualClock(seconds: 1_800_000_000))
        #expect(clock.nowMilliseconds == TimeText.maximumMilliseconds)
    }

    /// A change the fleet cannot take is undone locally: applied everywhere or nowhere.
    @Test func aChangeThatCannotBePublishedIsUndoneAndAnswers503() throws {
        let options = MockServer.ControlOptions(fleetState: UnreachableFleetState())
        try ControlHarness.run(.inProcess, options: options) { h throws in
            let before = h.clock.nowMilliseconds
            let clock = try h.call("POST", "/mock/clock", ["advance": "6m"])
            expectControlError(clock, 503, field: "store")
            #expect(h.clock.nowMilliseconds == before)
            expectControlError(try h.call("POST", "/mock/keys/rotate", ["kid": "NewKey0001"]), 503, field: "store")
            #expect(try Self.jwksKIDs(h) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"])
            #expect(throws: StoreUnavailable.self) { try h.server.fleet?.pull() }
        }
    }

    @Test func clockAndKeyStatesSurviveTheirText() throws {
        let clock = FleetClockState(mockMilliseconds: 5, realMilliseconds: 7, frozen: true)
        #expect(FleetClockState(text: clock.text) == clock)
        let keys = FleetKeysState(keys: [
            SigningKey(kid: "k\"1", privateKeyPEM: "-----\nA\n", published: false, signs: true)
        ])
        #expect(FleetKeysState(text: keys.text) == keys)
        #expect(FleetKeysState(text: "[{\"kid\":\"x\"}]") == nil)
    }
}

/// A shared store that is down.
final class UnreachableFleetState: FleetState {
    func publish(_ topic: FleetTopic, value: String) throws(StoreUnavailable) -> String {
        throw StoreUnavailable("connection refused")
    }
    func currentStamp() throws(StoreUnavailable) -> String? { throw StoreUnavailable("connection refused") }
    func read() throws(StoreUnavailable) -> FleetSnapshot { throw StoreUnavailable("connection refused") }
    func publishUser(id: String, text: String) throws(StoreUnavailable) -> FleetCursor {
        throw StoreUnavailable("connection refused")
    }
    func userChanges(after cursor: FleetCursor?, limit: Int) throws(StoreUnavailable) -> (
        cursor: FleetCursor?, changes: [(id: String, text: String)]
    ) {
        throw StoreUnavailable("connection refused")
    }
    func countFaults(_ rules: [FleetFaultCount]) throws(StoreUnavailable) -> FleetFaultOutcome {
        throw StoreUnavailable("connection refused")
    }
    func resetFaultCounters(_ ruleIDs: [String]) throws(StoreUnavailable) {
        throw StoreUnavailable("connection refused")
    }
    func timelineRun(proposing run: FleetTimelineRun, replacing: Bool) throws(StoreUnavailable) -> FleetTimelineRun {
        throw StoreUnavailable("connection refused")
    }
    func timelineProgress(generation: String) throws(StoreUnavailable) -> (run: FleetTimelineRun?, fired: [Int]) {
        throw StoreUnavailable("connection refused")
    }
    func countTimeline(generation: String, entries: [TimelineEngine.Pending]) throws(StoreUnavailable)
        -> [FleetTimelineCount]
    {
        throw StoreUnavailable("connection refused")
    }
    func claimTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) -> Bool {
        throw StoreUnavailable("connection refused")
    }
    func finishTimelineEntry(generation: String, index: Int) throws(StoreUnavailable) {
        throw StoreUnavailable("connection refused")
    }
    func timelineEntriesUnfinished(generation: String, before index: Int) throws(StoreUnavailable) -> Bool {
        throw StoreUnavailable("connection refused")
    }
}
