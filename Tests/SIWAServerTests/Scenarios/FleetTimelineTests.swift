import Background
import HTTP
import SIWACore
import SIWAServer
import SIWATestSupport
import Testing

/// A fleet runs one timeline (docs/scale-out.md, "What is shared"): request triggers count across
/// replicas, each entry fires once, led by one replica that notifies, and the others follow.
@Suite struct FleetTimelineTests {
    /// Two replicas of one scenario on one clock, sharing `state`; notifications go to `receiver`.
    struct Fleet {
        let a: MockServer
        let b: MockServer
        let clock: ManualClock
        let schedulers: [BackgroundScheduler]
        /// Starts another replica of the same scenario on the same clock and state, as a replica started
        /// later (or restarted) does: it takes the fleet's clock, keys and users, then its timeline run.
        let join: () throws -> MockServer

        func settle() -> Bool { schedulers.allSatisfy { $0.waitUntilIdle() } }

        func forwarding(_ server: MockServer) -> Bool? {
            server.apple.provider.snapshot.user(id: "alice")?.emailForwardingEnabled
        }

        func revoked(_ server: MockServer) -> Bool {
            server.apple.provider.snapshot.user(id: "alice")?.credentialState == .revoked
        }
    }

    static func fleet(
        timeline: String, receiver: NotificationReceiver, state: any FleetState = TestStore.fleetState(),
        storeWorkers: BackgroundScheduler? = nil, _ body: (Fleet) throws -> Void
    ) throws {
        let text =
            TimelineTests.base + """
                app_groups:
                  - {id: com.example.web, clients: [com.example.web], notification_url: "\(receiver.url)"}
                timeline:
                """ + timeline
        let scenario = try ScenarioFiles.loader.load(text, file: ScenarioFiles.directory + "/inline.yaml")
        let clock = TestFixtures.clock()
        let schedulers = [
            BackgroundScheduler(clock: ManualSchedulerClock()), BackgroundScheduler(clock: ManualSchedulerClock()),
        ]
        let late = BackgroundScheduler(clock: ManualSchedulerClock())
        defer { (schedulers + [late]).forEach { $0.stop() } }
        func replica(_ scheduler: BackgroundScheduler) throws -> MockServer {
            try MockServer(
                configuration: .init(publicURL: "http://127.0.0.1:8080", scenario: scenario, clock: clock),
                options: MockServer.ControlOptions(scheduler: scheduler, storeWorkers: storeWorkers, fleetState: state))
        }
        let servers = try schedulers.map(replica)
        let join = { () throws -> MockServer in
            let server = try replica(late)
            _ = try server.fleet?.pull()
            _ = try server.fleet?.pullUsers()
            try server.pollTimeline()
            return server
        }
        try body(Fleet(a: servers[0], b: servers[1], clock: clock, schedulers: schedulers, join: join))
    }

    static let refresh = RequestBuilder.form(
        "/auth/token",
        [
            ("grant_type", "refresh_token"), ("refresh_token", "r"), ("client_id", "com.example.web"),
            ("client_secret", "s"),
        ])

    static let countTrigger = """

          - after: 3 POST /auth/token with grant_type=refresh_token
            do:
              - revoke_consent: alice
              - notify: {type: consent-revoked, user: alice}
        """

    static let forwardingOffAtFirstRefresh = """

          - after: 1 POST /auth/token with grant_type=refresh_token
            do: [{update_user: {user: alice, email_forwarding: false}}]
        """

    /// `PATCH /mock/users/alice` with a JSON body.
    static func patchAlice(_ json: String) -> HTTPRequest {
        HTTPRequest(
            method: "PATCH", target: "/mock/users/alice",
            headers: HTTPHeaders([("Host", "127.0.0.1"), ("Content-Type", "application/json")]), body: Array(json.utf8))
    }

    @Test func requestTriggersCountAcrossReplicasAndFireOnce() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.fleet(timeline: Self.countTrigger, receiver: receiver) { fleet throws in
            for server in [fleet.a, fleet.b] { _ = server.respond(to: Self.refresh) }
            #expect(!fleet.revoked(fleet.a) && !fleet.revoked(fleet.b), "two requests: not yet")
            _ = fleet.a.respond(to: Self.refresh)
            #expect(fleet.revoked(fleet.a), "the fleet's third request fired the entry at the replica that took it")
            #expect(!fleet.revoked(fleet.b), "not before B polls")
            try fleet.b.pollTimeline()
            #expect(fleet.revoked(fleet.b), "B followed")
            for server in [fleet.b, fleet.a, fleet.b] { _ = server.respond(to: Self.refresh) }
            #expect(fleet.settle())
            #expect(receiver.bodies.count == 1, "one notification for the fleet: \(receiver.bodies.count)")
        }
    }

    @Test func aTimeTriggerFiresOnceAndEveryReplicaApplies() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let timeline = """

              - at: 1m
                do:
                  - revoke_consent: alice
                  - notify: {type: consent-revoked, user: alice}
            """
        try Self.fleet(timeline: timeline, receiver: receiver) { fleet throws in
            _ = fleet.b.respond(to: Self.refresh)
            fleet.clock.advance(seconds: 60)
            _ = fleet.a.respond(to: RequestBuilder.get("/auth/keys"))
            #expect(!fleet.revoked(fleet.a), "an event-loop request leaves fleet entries to the poll")
            try fleet.a.pollTimeline()
            #expect(fleet.revoked(fleet.a), "the poll fired the due entry")
            _ = fleet.b.respond(to: Self.refresh)
            #expect(fleet.revoked(fleet.b), "B's next request found it due and followed A's claim")
            #expect(fleet.settle())
            #expect(receiver.bodies.count == 1, "one notification for the fleet: \(receiver.bodies.count)")
        }
    }

    /// `/auth/keys` is answered on the event loop, which never waits on the store: the fleet counts it on
    /// a store worker right after the answer.
    @Test func eventLoopRequestsAreCountedOnAStoreWorker() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let workers = BackgroundScheduler(maximumThreads: 2)
        defer { workers.stop() }
        let timeline = """

              - after: 3 GET /auth/keys
                do: [{revoke_consent: alice}]
            """
        try Self.fleet(timeline: timeline, receiver: receiver, storeWorkers: workers) { fleet throws in
            for server in [fleet.a, fleet.b] {
                #expect(server.respond(to: RequestBuilder.get("/auth/keys")).status == 200)
            }
            #expect(workers.waitUntilIdle())
            #expect(!fleet.revoked(fleet.a) && !fleet.revoked(fleet.b))
            _ = fleet.b.respond(to: RequestBuilder.get("/auth/keys"))
            #expect(workers.waitUntilIdle())
            #expect(fleet.revoked(fleet.b), "the fleet's third /auth/keys, counted off the loop")
            try fleet.a.pollTimeline()
            #expect(fleet.revoked(fleet.a))
        }
    }

    /// A key action runs at the leader, which publishes its key set: a generated key is one key for all.
    @Test func keyActionsComeWithTheLeadersKeySet() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let timeline = """

              - at: 1m
                do:
                  - rotate_key: {kid: Pb7Yt1ZcQ9, pem_file: keys/signing-Pb7Yt1ZcQ9.pem}
            """
        try Self.fleet(timeline: timeline, receiver: receiver) { fleet throws in
            func kids(_ server: MockServer) -> [String] {
                server.apple.provider.snapshot.scenario.signingKeys.keys.map(\.kid)
            }
            fleet.clock.advance(seconds: 60)
            _ = fleet.a.respond(to: Self.refresh)
            #expect(kids(fleet.a) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9"], "A led")
            _ = fleet.b.respond(to: Self.refresh)
            #expect(kids(fleet.b) == ["Aj3F8kLq2X"], "B followed without making the key itself")
            #expect(try fleet.b.fleet?.pull() == [.keys])
            #expect(kids(fleet.b) == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9"], "B took A's key set")
        }
    }

    /// Entry 1 fires before entry 0; a replica started afterwards ends where the fleet is, not where
    /// replaying the entries in index order leads (found by the differential test:
    /// Tests/ScaleOut/sequences/timeline-entries-replayed-in-index-order.json).
    @Test func aLateReplicaFollowsEntriesInTheOrderTheyFired() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let timeline = """

              - after: 2 POST /auth/token with grant_type=refresh_token
                do: [{update_user: {user: alice, email_forwarding: true}}]
              - after: 1 POST /auth/token with grant_type=refresh_token
                do: [{update_user: {user: alice, email_forwarding: false}}]
            """
        try Self.fleet(timeline: timeline, receiver: receiver) { fleet throws in
            _ = fleet.a.respond(to: Self.refresh)
            #expect(fleet.forwarding(fleet.a) == false, "entry 1 fired first")
            _ = fleet.b.respond(to: Self.refresh)
            #expect(fleet.forwarding(fleet.b) == true, "entry 0 fired second")
            try fleet.a.pollTimeline()
            #expect(fleet.forwarding(fleet.a) == true, "A follows the entry B fired")
            let late = try fleet.join()
            #expect(late.timeline.firedCount == 2)
            #expect(fleet.forwarding(late) == true, "the late replica ends where the fleet is")
        }
    }

    /// A control-API change made after an entry fired is not undone by a replica that joins later and
    /// follows the entry (found by the differential test:
    /// Tests/ScaleOut/sequences/timeline-entry-applied-by-a-replica-started-later.json).
    @Test func aLateReplicaKeepsAChangeMadeAfterAnEntryFired() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.fleet(timeline: Self.forwardingOffAtFirstRefresh, receiver: receiver) { fleet throws in
            _ = fleet.a.respond(to: Self.refresh)
            #expect(fleet.forwarding(fleet.a) == false, "A fired the entry")
            let patched = fleet.b.respond(to: Self.patchAlice(#"{"email_forwarding": true}"#))
            #expect(patched.status == 200, "\(patched.status)")
            try fleet.a.fleet?.pullUsers()
            #expect(fleet.forwarding(fleet.a) == true && fleet.forwarding(fleet.b) == true)
            let late = try fleet.join()
            #expect(fleet.forwarding(late) == true, "the change after the entry stands at the late replica")
        }
    }

    /// The replica that fired an entry publishes the users it changed; when the store refuses that, it
    /// publishes them again at its next poll, so the others do not keep the old state for good.
    @Test func aUserChangeTheStoreRefusedIsPublishedAtTheNextPoll() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let state = SteeredFleetState(TestStore.fleetState())
        try Self.fleet(timeline: Self.forwardingOffAtFirstRefresh, receiver: receiver, state: state) { fleet throws in
            state.refuseUserPublications(1)
            _ = fleet.a.respond(to: Self.refresh)
            #expect(fleet.forwarding(fleet.a) == false, "A fired the entry")
            try fleet.b.pollTimeline()
            try fleet.b.fleet?.pullUsers()
            #expect(fleet.forwarding(fleet.b) == true, "the fleet was not told yet")
            try fleet.a.fleet?.pullUsers()
            try fleet.b.fleet?.pullUsers()
            #expect(fleet.forwarding(fleet.b) == false, "A's next poll published it")
        }
    }

    /// A change waiting to be published is dropped when another replica changed the user meanwhile (its
    /// acknowledged change must not be overwritten), and a publication the store keeps refusing does not
    /// stop this replica from taking the fleet's user changes.
    @Test func aChangeWaitingToBePublishedYieldsToALaterChangeAndNeverBlocksThePull() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let state = SteeredFleetState(TestStore.fleetState())
        try Self.fleet(timeline: Self.forwardingOffAtFirstRefresh, receiver: receiver, state: state) { fleet throws in
            state.refuseUserPublications(1)
            _ = fleet.a.respond(to: Self.refresh)
            #expect(fleet.forwarding(fleet.a) == false, "A fired the entry; its publication was refused")
            state.refuseUserPublications(1)
            #expect(throws: Never.self, "the retry failing does not fail the pull") { try fleet.a.fleet?.pullUsers() }
            #expect(fleet.b.respond(to: Self.patchAlice(#"{"first_name": "Alicia"}"#)).status == 200)
            try fleet.a.fleet?.pullUsers()
            try fleet.b.fleet?.pullUsers()
            for server in [fleet.a, fleet.b] {
                let alice = server.apple.provider.snapshot.user(id: "alice")
                #expect(alice?.name.firstName == "Alicia", "B's acknowledged change stands everywhere")
            }
        }
    }

    @Test func aResetStartsANewRunForTheFleet() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.fleet(timeline: Self.countTrigger, receiver: receiver) { fleet throws in
            for server in [fleet.a, fleet.b, fleet.a] { _ = server.respond(to: Self.refresh) }
            #expect(fleet.revoked(fleet.a))
            let reset = fleet.b.respond(
                to: RequestBuilder.post("/mock/reset", body: "", contentType: "application/json"))
            #expect(reset.status == 200)
            #expect(!fleet.revoked(fleet.b), "B was reset")
            try fleet.a.pollTimeline()
            #expect(fleet.revoked(fleet.a), "a reset resets only the replica that took it, apart from the store")
            // A follows the new run B started: the entry counts again from zero across both.
            for server in [fleet.a, fleet.b] { _ = server.respond(to: Self.refresh) }
            #expect(!fleet.revoked(fleet.b))
            _ = fleet.a.respond(to: Self.refresh)
            try fleet.b.pollTimeline()
            #expect(fleet.revoked(fleet.b), "fired again in the new run")
            #expect(fleet.settle())
            #expect(receiver.bodies.count == 2, "once per run: \(receiver.bodies.count)")
        }
    }

    @Test func aReplacedScenarioRunsItsOwnTimeline() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        try Self.fleet(timeline: Self.countTrigger, receiver: receiver) { fleet throws in
            try fleet.a.replaceScenario(fleet.a.apple.provider.scenario)
            for server in [fleet.a, fleet.b, fleet.a, fleet.b] { _ = server.respond(to: Self.refresh) }
            #expect(!fleet.revoked(fleet.a) && !fleet.revoked(fleet.b), "A counts alone now: 2 of 3")
            _ = fleet.a.respond(to: Self.refresh)
            #expect(fleet.revoked(fleet.a), "A's own third request")
            try fleet.b.pollTimeline()
            #expect(!fleet.revoked(fleet.b), "B's run counted 2 and saw nothing fired")
        }
    }

    @Test func entriesWaitWhileTheStoreIsUnreachable() throws {
        let receiver = try NotificationReceiver()
        defer { receiver.stop() }
        let timeline = """

              - at: 1m
                do: [{revoke_consent: alice}]
            """
        try Self.fleet(timeline: timeline, receiver: receiver, state: UnreachableFleetState()) { fleet throws in
            fleet.clock.advance(seconds: 60)
            let answer = fleet.a.respond(to: Self.refresh)
            #expect(answer.status == 400 || answer.status == 401, "answered as usual: \(answer.status)")
            #expect(!fleet.revoked(fleet.a), "not fired without the fleet: it would fire twice")
            #expect(throws: StoreUnavailable.self) { try fleet.a.pollTimeline() }
        }
    }
}
