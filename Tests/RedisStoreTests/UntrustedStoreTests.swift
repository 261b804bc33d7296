import RedisStore
import SIWACore
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// Redis is a peer, not a part of the mock (issue #21): values another program (or damage) wrote under
/// a fleet's prefix are validated with the control API's own bounds when read back, logged once and
/// ignored, never a trap; and no scenario's keys lie under another scenario's prefix.
@Suite struct UntrustedStoreTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func record(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func state() throws -> (RedisFleetState, prefix: String, log: Lines) {
        let prefix = "untrusted-\(UInt64.random(in: 0...UInt64.max)):"
        let lines = Lines()
        let state = RedisFleetState(client: try SharedRedis.client(), prefix: prefix, log: { lines.record($0) })
        return (state, prefix, lines)
    }

    /// `tlrun` = `"abc 9223372036854775807"` killed every replica at its next poll (SIGILL): the start
    /// is outside the clock's range, so the run is ignored (logged once), and a replica joining starts
    /// its own over it.
    @Test(.enabled(if: RedisServerBinary.found)) func aTimelineRunOutsideTheClockRangeIsIgnoredAndLoggedOnce() throws {
        let (state, prefix, log) = try Self.state()
        for bad in ["abc 9223372036854775807", "abc -9223372036854775808", "abc -1"] {
            _ = try SharedRedis.client().send(["SET", prefix + "tlrun", bad])
            #expect(try state.timelineProgress(generation: "abc").run == nil)
            #expect(try state.timelineProgress(generation: "abc").run == nil)
            #expect(log.all.filter { $0.contains(bad) }.count == 1, "\(log.all)")
            let proposed = FleetTimelineRun(generation: "d00d", startMilliseconds: 1_700_000_000_000)
            #expect(try state.timelineRun(proposing: proposed, replacing: false) == proposed)
            #expect(try SharedRedis.client().send(["GET", prefix + "tlrun"]).string == proposed.text)
        }
    }

    /// Fault counters are the keys' values: a negative count written over them is ignored (the rule is
    /// neither fired nor its counts shown) instead of being taken as the fleet's count.
    @Test(.enabled(if: RedisServerBinary.found)) func aDamagedFaultCounterIsIgnoredAndLogged() throws {
        let (state, prefix, log) = try Self.state()
        _ = try SharedRedis.client().send(["HSET", prefix + "fc:r1", "m", "-100"])
        let outcome = try state.countFaults([FleetFaultCount(ruleID: "r1", after: 0, times: 5, drawHit: true)])
        #expect(outcome == FleetFaultOutcome(firing: nil, counts: []))
        #expect(log.all.contains { $0.contains("fault rule 'r1'") }, "\(log.all)")
        _ = try SharedRedis.client().send(["DEL", prefix + "fc:r1"])
        let fresh = try state.countFaults([FleetFaultCount(ruleID: "r1", after: 0, times: 5, drawHit: true)])
        #expect(fresh == FleetFaultOutcome(firing: 0, counts: [(1, 1)]))
    }

    /// A fired entry's place in the firing order that is not a count from 1 keeps the entry fired but
    /// orders it after every entry with a real place (by index), logged once.
    @Test(.enabled(if: RedisServerBinary.found)) func aDamagedFiringPlaceSortsLastAndIsLoggedOnce() throws {
        let (state, prefix, log) = try Self.state()
        _ = try SharedRedis.client().send(["HSET", prefix + "tl:abc", "f:4", "-9223372036854775808", "f:2", "x"])
        #expect(try state.claimTimelineEntry(generation: "abc", index: 7))
        #expect(try state.claimTimelineEntry(generation: "abc", index: 1))
        #expect(try state.timelineProgress(generation: "abc").fired == [7, 1, 2, 4])
        #expect(try state.timelineProgress(generation: "abc").fired == [7, 1, 2, 4])
        #expect(log.all.filter { $0.contains("fired timeline entry 4") }.count == 1, "\(log.all)")
        #expect(log.all.filter { $0.contains("fired timeline entry 2") }.count == 1, "\(log.all)")
    }

    @Test(.enabled(if: RedisServerBinary.found)) func aDamagedTimelineCountIsIgnoredAndLogged() throws {
        let (state, prefix, log) = try Self.state()
        _ = try SharedRedis.client().send(["HSET", prefix + "tl:abc", "c:1", "-50"])
        let counts = try state.countTimeline(generation: "abc", entries: [.init(index: 1, threshold: 1)])
        #expect(counts == [FleetTimelineCount(count: 0, claimed: false)])
        #expect(log.all.contains { $0.contains("timeline entry 1") }, "\(log.all)")
    }

    /// `POST /mock/reset` on scenario `team` deleted every key of scenario `team:b`: `siwa:team:` was a
    /// prefix of `siwa:team:b:`. Escaped names hold no `:`, so neither prefix starts the other.
    @Test(.enabled(if: RedisServerBinary.found)) func resettingOneScenarioLeavesAnotherWhoseNameItStarts() throws {
        let suffix = UInt64.random(in: 0...UInt64.max)
        func store(_ name: String) throws -> RedisGrantStore {
            var scenario = Scenario.builtIn
            scenario.name = name
            return RedisGrantStore(
                client: try SharedRedis.client(), prefix: RedisGrantStore.prefix(for: scenario),
                settings: scenario.settings, identifiers: IdentifierGenerator(random: SeededRandomSource(seed: suffix)))
        }
        let team = try store("team\(suffix)")
        let others = try ["team\(suffix):b", "team\(suffix)*", "team\(suffix)%3Ab"].map(store)
        #expect(Set(others.map(\.prefix) + [team.prefix]).count == 4)
        for store in [team] + others {
            _ = try store.authorize(
                userID: "alice", clientID: TestKeys.webClientID, consentGroupID: "g", requestedScopes: [],
                redirectURI: TestKeys.redirectURI, nonce: nil, now: 1000, nativeRealUserStatus: nil,
                forcedRealUserStatus: nil, emailChoice: nil)
        }
        try team.removeAll()
        #expect(try team.tableCounts().codes == 0)
        for other in others {
            #expect(try other.tableCounts().codes == 1, "\(other.prefix) kept its code")
            try other.removeAll()
        }
    }

    @Test func prefixesEscapeEverythingButLettersDigitsDotUnderscoreAndDash() {
        #expect(RedisGrantStore.prefix(forName: "team") == "siwa:team:")
        #expect(RedisGrantStore.prefix(forName: "Team_1.b-2") == "siwa:Team_1.b-2:")
        #expect(RedisGrantStore.prefix(forName: "team:b") == "siwa:team%3Ab:")
        #expect(RedisGrantStore.prefix(forName: "a%3Ab") == "siwa:a%253Ab:")
        #expect(RedisGrantStore.prefix(forName: "my app*é") == "siwa:my%20app%2A%C3%A9:")
        let names = ["team", "team:b", "team:", "te", "a%3Ab", "a:b", "", ":", "%", "team*", "team["]
        for first in names {
            for second in names where first != second {
                let (a, b) = (RedisGrantStore.prefix(forName: first), RedisGrantStore.prefix(forName: second))
                #expect(!b.hasPrefix(a), "'\(first)' → \(a) starts '\(second)' → \(b)")
            }
        }
    }
}
