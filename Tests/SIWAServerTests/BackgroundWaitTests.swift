import Background
import Dispatch
import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// Control calls that depend on background work (a signing key the key supply has not made yet) wait for
/// it off the event loop and answer 200, instead of 503 "retry in a second" (issue #22).
@Suite struct BackgroundWaitTests {
    /// A supply with nothing ready whose key generation waits for `release` (a slow RSA generation).
    final class GatedSupply: Sendable {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let made = Mutex(0)
        var supply: SigningKeySupply {
            SigningKeySupply(capacity: 1) { [self] in
                started.signal()
                release.wait()
                made.withLock { $0 += 1 }
                return Scenario.BuiltInKeys.signingKeyPb7Yt1ZcQ9
            }
        }
    }

    @Test(arguments: Transport.allCases)
    func rotationOnAFreshServerWaitsForAKeyAndAnswers200(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            h.provider.takeSigningKeys(from: SigningKeySupply(capacity: 1))  // never refilled: nothing ready
            let rotated = try h.call("POST", "/mock/keys/rotate", ["kid": "Fresh00001"])
            #expect(rotated.status == 200, "body: \(rotated.text)")
            #expect(rotated.json?["signing_kid"] == .string("Fresh00001"))
            let kids = try #require(try h.send(RequestBuilder.get("/auth/keys")).json?["keys"]?.arrayValue)
            #expect(kids.contains { $0["kid"]?.stringValue == "Fresh00001" })
            let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/mock/keys/rotate")]))
            let entry = try #require(journal.json?["requests"]?[0])
            #expect(entry["status"] == .int(200) && entry["outcome"] == .string("ok"))
        }
    }

    /// The wait happens off the event loop: while a rotation waits for its key, the same server answers
    /// other requests.
    @Test func theEventLoopServesOthersWhileARotationWaits() throws {
        let gate = GatedSupply()
        try ControlHarness.run(.live) { h in
            h.provider.takeSigningKeys(from: gate.supply)
            let result = Mutex<TestResponse?>(nil)
            let rotating = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let response = try? h.call("POST", "/mock/keys/rotate", ["kid": "Slow000001"])
                result.withLock { $0 = response }
                rotating.signal()
            }
            #expect(gate.started.wait(timeout: .now() + 10) == .success, "the rotation asked for a key")
            #expect(try h.send(RequestBuilder.get("/mock/health")).status == 200)
            #expect(try h.send(RequestBuilder.get("/auth/keys")).status == 200)
            #expect(result.withLock { $0 } == nil, "still waiting for its key")
            gate.release.signal()
            #expect(rotating.wait(timeout: .now() + 10) == .success)
            let response = try #require(result.withLock { $0 })
            #expect(response.status == 200 && response.json?["signing_kid"] == .string("Slow000001"))
            #expect(gate.made.withLock { $0 } == 1)
        }
    }

    /// 503 only for a real outage: no background thread to wait on (the scheduler is stopped).
    @Test(arguments: Transport.allCases)
    func withoutBackgroundThreadsAnEmptySupplyIsA503(_ transport: Transport) throws {
        let stopped = BackgroundScheduler()
        stopped.stop()
        try ControlHarness.run(transport, options: MockServer.ControlOptions(scheduler: stopped)) { h in
            h.provider.takeSigningKeys(from: SigningKeySupply(capacity: 1))
            let refused = try h.call("POST", "/mock/keys/rotate")
            #expect(refused.status == 503 && refused.json?["error"] == .string("unavailable"))
            #expect(refused.json?["message"]?.stringValue?.contains("no background thread could be started") == true)
        }
    }
}
