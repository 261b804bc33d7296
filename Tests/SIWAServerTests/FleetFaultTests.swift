import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// Fault rules with `times` or `after` count across the fleet (docs/scale-out.md, "What is shared").
@Suite struct FleetFaultTests {
    static func addRule(_ h: ControlHarness, _ rule: String) throws {
        let response = try h.send(
            HTTPRequest(
                method: "POST", target: "/mock/faults", headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: Array(rule.utf8)))
        #expect(response.status == 201, "\(response.text)")
    }

    /// A request that is not worth a code: the fault answers before the handler.
    static func token(_ h: ControlHarness) throws -> Int {
        try h.send(RequestBuilder.form("/auth/token", [("grant_type", "authorization_code"), ("code", "x")])).status
    }

    @Test func timesCountsAcrossReplicas() throws {
        try FleetSyncTests.fleet { (a, b) throws in
            let rule = #"{"id": "twice", "match": "POST /auth/token", "status": 503, "times": 2}"#
            try Self.addRule(a, rule)
            try Self.addRule(b, rule)
            var statuses: [Int] = []
            for round in 0..<6 { statuses.append(try Self.token(round % 2 == 0 ? a : b)) }
            #expect(statuses.filter { $0 == 503 }.count == 2, "\(statuses)")
            #expect(statuses.prefix(2) == [503, 503], "the first two requests of the fleet, one per replica")
        }
    }

    @Test func afterCountsAcrossReplicasAndResetClearsTheFleetCounters() throws {
        try FleetSyncTests.fleet { (a, b) throws in
            let rule = #"{"id": "late", "match": "POST /auth/token", "status": 503, "after": 3, "times": 1}"#
            try Self.addRule(a, rule)
            try Self.addRule(b, rule)
            let statuses = try [a, b, a, b, a].map(Self.token)
            #expect(statuses.map { $0 == 503 } == [false, false, false, true, false], "\(statuses)")
            #expect(try a.call("POST", "/mock/faults/reset").status == 200)
            let again = try [b, a, b, a].map(Self.token)
            #expect(again.map { $0 == 503 } == [false, false, false, true], "\(again)")
        }
    }

    @Test func aCountedRuleAnswers503WhenTheStoreIsDown() throws {
        try ControlHarness.run(.inProcess, options: .init(fleetState: UnreachableFleetState())) { h throws in
            try Self.addRule(h, #"{"id": "twice", "match": "POST /auth/token", "status": 429, "times": 2}"#)
            let response = try h.send(
                RequestBuilder.form("/auth/token", [("grant_type", "authorization_code"), ("code", "x")]))
            #expect(response.status == 503 && response.body.isEmpty && response.headers["Retry-After"] == "1")
            #expect(try h.call("GET", "/mock/faults/twice").json?["fired"] == .int(0))
        }
    }
}
