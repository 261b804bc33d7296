import Background
import Glibc
import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import Synchronization
import Testing

/// `GET /mock/mail?wait=`: answers at once when a match is stored, else parks off the event loop until
/// a matching record is stored or the wait ends; bounded in length and in parked requests.
@Suite struct MailWaitTests {
    static let bob = "k7x2m9q4ab@privaterelay.appleid.com"

    func converse(_ server: MockServer, _ text: String) -> String {
        let session = RelaySMTPService(server: server).makeSession(remoteAddress: "127.0.0.1:5")
        var out = session.open().bytes
        Array(text.utf8).withUnsafeBytes { out += session.receive($0).bytes }
        return String(decoding: out, as: UTF8.self)
    }

    func transaction(from: String) -> String {
        "EHLO test\r\nMAIL FROM:<\(from)>\r\nRCPT TO:<\(Self.bob)>\r\nDATA\r\n"
            + "From: Shop <\(from)>\r\nSubject: Hi\r\n\r\nHello\r\n.\r\n"
    }

    /// A harness whose background helper runs on a manual clock, so timeouts are advanced, not slept.
    func run(maxWaiters: Int = 64, _ body: (ControlHarness, Timing) throws -> Void) throws {
        let clock = ManualSchedulerClock()
        let scheduler = BackgroundScheduler(clock: clock, maximumThreads: 2)
        var options = MockServer.ControlOptions()
        options.scheduler = scheduler
        options.mailboxLimits.maxWaiters = maxWaiters
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml"), options: options) {
            try body($0, Timing(clock: clock, scheduler: scheduler))
        }
    }

    struct Timing {
        let clock: ManualSchedulerClock
        let scheduler: BackgroundScheduler

        /// Moves the helper's clock on and lets the jobs that became due run.
        func advance(milliseconds: Int64) {
            clock.advance(milliseconds: milliseconds)
            scheduler.waitUntilIdle()
        }
    }

    /// The pipeline's own answer: a deferred one stays deferred here, to be watched.
    func start(_ harness: ControlHarness, _ target: String) -> HTTPResponse {
        harness.server.pipeline.respond(
            to: HTTPRequest(method: .get, target: target, headers: HTTPHeaders([("Host", "127.0.0.1")])))
    }

    /// Records what a deferred response is finished with.
    final class Outcome: Sendable {
        let response = Mutex<HTTPResponse?>(nil)
        init(_ answer: HTTPResponse) {
            guard case .deferred(let pending) = answer.delivery else {
                response.withLock { $0 = answer }
                return
            }
            pending.whenFulfilled { finished in self.response.withLock { $0 = finished } }
        }
        var json: JSONObject? {
            guard let response = response.withLock({ $0 }),
                case .object(let object)? = try? JSONValue.parse(response.body)
            else { return nil }
            return object
        }
        var messages: [JSONValue]? {
            guard let response = response.withLock({ $0 }),
                case .object(let object)? = try? JSONValue.parse(response.body),
                case .array(let items)? = object["messages"]
            else { return nil }
            return items
        }
    }

    @Test(arguments: Transport.allCases) func aMatchAlreadyStoredAnswersAtOnce(_ transport: Transport) throws {
        try ControlHarness.run(transport, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            let list = try harness.call(.get, "/mock/mail?relay_address=\(Self.bob)&wait=60s")
            #expect(list.status == 200)
            #expect(list.json?["messages"]?.arrayValue?.count == 1)
            #expect(list.json?["waiting"] == .int(0))
        }
    }

    @Test func aWaitReturnsWhenAMatchingMessageIsStored() throws {
        try run { harness, _ in
            let waiting = Outcome(start(harness, "/mock/mail?status=delivered&wait=5s"))
            #expect(waiting.response.withLock { $0 } == nil, "parked: nothing matches yet")
            #expect(harness.server.mailbox.waiters.count == 1)
            // A refused attempt is stored too, but does not pass `status=delivered`: still parked.
            let refused = Outcome(start(harness, "/mock/mail?status=rejected&wait=5s"))
            _ = converse(harness.server, transaction(from: "x@evil.example"))
            #expect(refused.messages?.count == 1, "a refusal wakes the waiters it matches")
            #expect(waiting.response.withLock { $0 } == nil)
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            let messages = try #require(waiting.messages)
            #expect(messages.count == 1)
            #expect(messages.first?.objectValue?["status"] == .string("delivered"))
            #expect(harness.server.mailbox.waiters.count == 0)
        }
    }

    @Test func aWaitWithNoMatchEndsEmptyWhenItsTimeIsUp() throws {
        try run { harness, timing in
            let waiting = Outcome(start(harness, "/mock/mail?relay_address=nobody@privaterelay.appleid.com&wait=5s"))
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            timing.advance(milliseconds: 4_000)
            #expect(waiting.response.withLock { $0 } == nil, "4 s of 5: still waiting")
            timing.advance(milliseconds: 1_000)
            #expect(waiting.messages?.isEmpty == true)
            #expect(
                waiting.json?["no_mail"]
                    == .string(
                        "no mail matching relay_address=nobody@privaterelay.appleid.com in 5s; the mailbox has 1 "
                            + "record: m1 delivered hello@shop.example -> \(Self.bob) \"Hi\""))
            #expect(harness.server.mailbox.waiters.count == 0)
        }
    }

    /// The one "no mail" text every helper shows: the filters in a fixed order as given, the wait in the
    /// duration grammar, the newest ten records with the reply of each refused one.
    @Test func aTimedOutWaitSaysWhatTheMailboxHolds() throws {
        try run { harness, timing in
            let empty = Outcome(start(harness, "/mock/mail?status=delivered&sender=A@Shop.example&wait=1500ms"))
            timing.advance(milliseconds: 1_500)
            #expect(
                empty.json?["no_mail"]
                    == .string(
                        "no mail matching sender=A@Shop.example status=delivered in 1s500ms; the mailbox is empty"))
            for _ in 0..<11 { _ = converse(harness.server, transaction(from: "x@evil.example")) }
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            let full = Outcome(start(harness, "/mock/mail?relay_address=nobody@privaterelay.appleid.com&wait=1s"))
            timing.advance(milliseconds: 1_000)
            let text = try #require(full.json?["no_mail"]?.stringValue)
            #expect(
                text.hasPrefix(
                    "no mail matching relay_address=nobody@privaterelay.appleid.com in 1s; "
                        + "the mailbox has 12 records (the newest 10): m3 rejected x@evil.example -> \(Self.bob) \"Hi\" (5"
                ))
            #expect(text.hasSuffix("; m12 delivered hello@shop.example -> \(Self.bob) \"Hi\""))
            #expect(text.components("; m") == 9, "ten records")
            let found = Outcome(start(harness, "/mock/mail?status=delivered&wait=1s"))
            #expect(found.messages?.count == 1 && found.json?["no_mail"] == nil, "no_mail only when nothing came")
        }
    }

    /// A wait longer than one park (60 s) is parked again for the rest: still one waiter, answered at
    /// its total, and a match or the peer leaving in a later park answers at once.
    @Test func aWaitLongerThanOneParkIsParkedAgain() throws {
        try run { harness, timing in
            let long = Outcome(start(harness, "/mock/mail?status=delivered&wait=2m30s"))
            timing.advance(milliseconds: 60_000)
            timing.advance(milliseconds: 60_000)
            #expect(long.response.withLock { $0 } == nil, "120 s of 150: still waiting")
            #expect(harness.server.mailbox.waiters.count == 1)
            timing.advance(milliseconds: 30_000)
            #expect(
                long.json?["no_mail"] == .string("no mail matching status=delivered in 2m30s; the mailbox is empty"))
            #expect(harness.server.mailbox.waiters.count == 0)

            let woken = Outcome(start(harness, "/mock/mail?status=delivered&wait=1h"))
            timing.advance(milliseconds: 90_000)
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            #expect(woken.messages?.count == 1)

            let answer = start(harness, "/mock/mail?status=rejected&wait=1h")
            let left = Outcome(answer)
            timing.advance(milliseconds: 61_000)
            guard case .deferred(let pending) = answer.delivery else {
                Issue.record("the wait was answered at once")
                return
            }
            pending.cancel()
            #expect(left.messages?.isEmpty == true && left.json?["no_mail"] == nil, "answered when the peer left")
            #expect(harness.server.mailbox.waiters.count == 0)
        }
    }

    @Test(arguments: [
        ("5", "expected a duration like 500ms, 30s, 10m or 2h, found '5' (add a unit)"),
        ("61m", "at most 1h, found '61m'"),
        ("-1s", "duration '-1s' must not be negative (only clock advance goes back)"),
        ("soon", "expected a duration like 500ms, 30s, 10m or 2h, found 'soon'"),
    ])
    func aBadWaitIsRefusedPrecisely(_ value: String, _ message: String) throws {
        try run { harness, _ in
            let response = try harness.call(.get, "/mock/mail?wait=\(value)")
            #expect(response.status == 400)
            #expect(response.json?["error"] == .string("invalid_request"))
            #expect(response.json?["field"] == .string("wait"))
            #expect(response.json?["message"] == .string(message))
        }
    }

    /// With a shared store every request is answered on a store worker: the wait's own deferred answer is
    /// forwarded through the worker's, and cancelling the outer one reaches the waiter.
    @Test func aWaitAnsweredOnAStoreWorkerIsForwarded() throws {
        var options = MockServer.ControlOptions()
        options.storeWorkers = BackgroundScheduler(maximumThreads: 2)
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml"), options: options) {
            harness in
            func settled(_ outcome: Outcome) -> Bool {
                for _ in 0..<500 where outcome.response.withLock({ $0 }) == nil { usleep(2_000) }
                return outcome.response.withLock { $0 } != nil
            }
            func parked() -> Bool {
                for _ in 0..<500 where harness.server.mailbox.waiters.count == 0 { usleep(2_000) }
                return harness.server.mailbox.waiters.count == 1
            }
            let woken = Outcome(start(harness, "/mock/mail?status=delivered&wait=30s"))
            #expect(parked())
            _ = converse(harness.server, transaction(from: "hello@shop.example"))
            #expect(settled(woken) && woken.messages?.count == 1)

            let answer = start(harness, "/mock/mail?status=rejected&wait=30s")
            let cancelled = Outcome(answer)
            #expect(parked())
            guard case .deferred(let outer) = answer.delivery else {
                Issue.record("a store worker answers later")
                return
            }
            outer.cancel()
            #expect(settled(cancelled) && cancelled.messages?.isEmpty == true)
            #expect(harness.server.mailbox.waiters.count == 0)
        }
    }

    @Test func parkedRequestsAreBoundedAndACancelledOneLeaves() throws {
        try run(maxWaiters: 2) { harness, _ in
            let first = start(harness, "/mock/mail?wait=30s")
            let second = Outcome(start(harness, "/mock/mail?wait=30s"))
            let third = try harness.call(.get, "/mock/mail?wait=30s")
            #expect(third.status == 503)
            #expect(third.json?["field"] == .string("wait"))
            #expect(third.headers["Retry-After"] == "1")
            guard case .deferred(let pending) = first.delivery else {
                Issue.record("the first wait was answered at once")
                return
            }
            let firstOutcome = Outcome(first)
            pending.cancel()  // what the event loop does when the peer closes
            #expect(firstOutcome.messages?.isEmpty == true, "a cancelled wait answers now")
            #expect(harness.server.mailbox.waiters.count == 1)
            #expect(second.response.withLock { $0 } == nil)
            #expect(Outcome(start(harness, "/mock/mail?wait=30s")).response.withLock { $0 } == nil, "room again")
        }
    }
}
