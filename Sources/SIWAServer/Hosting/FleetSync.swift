import Locking
import SIWACore
import ScenarioModel

/// Keeps this replica's clock and signing keys in step with the fleet (docs/scale-out.md, "What is
/// shared"). The control API publishes the absolute state after a local change (`publish`); a
/// background job on the mock's `BackgroundScheduler` calls `pull` every 250 ms and applies states
/// other replicas published through the same operations the control API uses, without publishing
/// them again and without notifying. At start, `pull` makes a late joiner take the fleet's state.
package final class FleetSync: Sendable {
    package let state: any FleetState
    let provider: AppleIdentityProvider
    let log: @Sendable (String) -> Void
    /// The stamp last polled, and per topic the stamp this replica applied or published.
    private let seen = Lock<(poll: String?, topics: [FleetTopic: String])>((nil, [:]))
    /// Where this replica is in the fleet's user changes.
    private let userCursor = Lock<FleetCursor?>(nil)
    /// Held for a whole `pullUsers`: the poll and a request's refresh never apply an older read after a
    /// newer one.
    private let pulling = Lock<Void>(())
    /// Held while a local clock or key change is made and published (`exclusively`), and while a poll
    /// reads and applies published states (`pull`): a poll can no longer put an older state back between
    /// a change and its publication, which then published the older state — a clock advance answered 200
    /// was lost (found by the differential test, bench/RESULTS.md).
    private let topicChange = Lock<Void>(())
    /// Users this replica changed by itself whose publication failed; the next pull that reaches the store
    /// publishes them unless the fleet changed them since (the pull reads every change after the cursor,
    /// which a failed pull does not move).
    private let unpublished = Lock<Set<String>>([])
    /// User changes applied per poll at most; the next poll continues.
    static let userChangesPerPoll = 1000

    package init(state: any FleetState, provider: AppleIdentityProvider, log: @escaping @Sendable (String) -> Void) {
        self.state = state
        self.provider = provider
        self.log = log
        // Weak: the provider outlives nothing here, and this object holds the provider.
        provider.followFleetUsers { [weak self] in (try? self?.pullUsers()) != nil }
        // A sign-in that re-authorized a revoked user, or a timeline entry this replica fired: made on the
        // fleet's latest state of the user and published like a control-API change, as one step against
        // the poll (`changingUsers`). If the store cannot take it, the change stands here and is published
        // at a later poll, unless the fleet changed the user meanwhile.
        provider.shareOwnUserChanges { [weak self] change in
            guard let self else {
                _ = change()
                return
            }
            self.pulling.withLock { _ in
                if (try? self.pullUsersAndPublishPending()) == nil {
                    self.log(
                        "fleet: a user change made here starts from this replica's users (the store cannot be read)")
                }
                guard let id = change() else { return }
                do throws(StoreUnavailable) {
                    try self.publishOwnChange(of: id)
                } catch {
                    self.unpublished.withLock { _ = $0.insert(id) }
                    self.log(
                        "fleet: user '\(id)' changed here could not be published yet (\(error)); retrying at the next poll"
                    )
                }
            }
        }
    }

    private func publishOwnChange(of id: String) throws(StoreUnavailable) {
        try state.publishUser(id: id, text: FleetUserState(id: id, profile: provider.snapshot.user(id: id)).text)
    }

    /// After a pull: publishes the users whose own change could not be published before, except those
    /// the fleet changed since (`seen`: their newer state was just applied here; publishing ours would
    /// undo it). A failure leaves them for the next poll and does not stop the pull.
    private func publishPendingChanges(seen: Set<String>) {
        for id in unpublished.withLock({ $0.sorted() }) {
            if seen.contains(id) {
                unpublished.withLock { _ = $0.remove(id) }
                log(
                    "fleet: user '\(id)' changed here was changed by another replica before it was published; kept theirs"
                )
                continue
            }
            do throws(StoreUnavailable) {
                try publishOwnChange(of: id)
                unpublished.withLock { _ = $0.remove(id) }
            } catch {
                return
            }
        }
    }

    /// Forgets changes waiting to be published (`POST /mock/reset`: the store was cleared, the users reset).
    package func forgetUnpublishedChanges() { unpublished.withLock { $0.removeAll() } }

    /// Runs `body` (a control-API user change and its publication, `ControlEndpoints.sharingUser`) with no
    /// poll applying another replica's state between the change and its publication: the publication
    /// would otherwise carry that state instead of the change, which was then lost fleet-wide.
    package func changingUsers<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        try pulling.withLock { _ throws(E) -> Result in try body() }
    }

    /// Undoes a local change of `topic` that could not be published: the state before it, restored.
    package func restorePoint(_ topic: FleetTopic) -> () -> Void {
        switch topic {
        case .clock:
            guard let clock = provider.controllableClock else { return {} }
            let before = FleetClockState(of: clock)
            return { before.apply(to: clock) }
        case .keys:
            let before = provider.snapshot.scenario.signingKeys.keys
            return { [provider] in try? provider.replaceSigningKeys(before) }
        }
    }

    /// Runs `body` (a local clock or key change and its `publish`) with no poll applying states meanwhile.
    package func exclusively<Result: Sendable, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        try topicChange.withLock { _ throws(E) -> Result in try body() }
    }

    /// Publishes this replica's current state of `topic` after a local change. On failure the local
    /// change is undone with `undo` and the error is thrown, so nothing is applied anywhere.
    package func publish(_ topic: FleetTopic, undo: () -> Void) throws(StoreUnavailable) {
        let value: String
        switch topic {
        case .clock:
            guard let clock = provider.controllableClock else { return }
            value = FleetClockState(of: clock).text
        case .keys:
            value = FleetKeysState(keys: provider.snapshot.scenario.signingKeys.keys).text
        }
        do {
            let stamp = try state.publish(topic, value: value)
            seen.withLock { $0.topics[topic] = stamp }
        } catch {
            undo()
            throw error
        }
    }

    /// Publishes a user's state after a local change through the control API (`nil`: deleted). On
    /// failure the user is put back as `before` and the error is thrown.
    package func publishUser(id: String, before: UserProfile?) throws(StoreUnavailable) {
        let after = provider.snapshot.user(id: id)
        do {
            try state.publishUser(id: id, text: FleetUserState(id: id, profile: after).text)
        } catch {
            try? provider.applyFleetUser(FleetUserState(id: id, profile: before))
            throw error
        }
    }

    /// Applies user changes other replicas (or this one) published since the last call; returns the
    /// ids applied. One script round trip when nothing changed.
    @discardableResult
    package func pullUsers() throws(StoreUnavailable) -> [String] {
        try pulling.withLock { _ throws(StoreUnavailable) in try pullUsersAndPublishPending() }
    }

    /// `pullUsersNow`, then the changes of this replica still to be published (`publishPendingChanges`).
    private func pullUsersAndPublishPending() throws(StoreUnavailable) -> [String] {
        let (applied, seen) = try pullUsersNow()
        publishPendingChanges(seen: seen)
        return applied
    }

    /// The ids applied, and every id the fleet published a state of since the last pull.
    private func pullUsersNow() throws(StoreUnavailable) -> (applied: [String], seen: Set<String>) {
        let (cursor, changes) = try state.userChanges(after: userCursor.withLock { $0 }, limit: Self.userChangesPerPoll)
        var applied: [String] = []
        var seen: Set<String> = []
        for (id, text) in changes {
            seen.insert(id)
            guard let user = FleetUserState(id: id, text: text) else {
                log("fleet: the state of user '\(id)' published by another replica cannot be read; kept ours")
                continue
            }
            guard provider.snapshot.user(id: id) != user.profile else { continue }
            do throws(ProviderChangeError) {
                try provider.applyFleetUser(user)
                applied.append(id)
            } catch {
                log("fleet: user '\(id)' as another replica changed it cannot be applied here: \(error.message)")
            }
        }
        userCursor.withLock { $0 = cursor }
        return (applied, seen)
    }

    /// Applies what other replicas published since the last call; returns the topics applied. Cheap
    /// when nothing changed (one stamp read).
    @discardableResult
    package func pull() throws(StoreUnavailable) -> [FleetTopic] {
        let stamp = try state.currentStamp()
        guard stamp != nil, stamp != seen.withLock({ $0.poll }) else { return [] }
        return try exclusively { () throws(StoreUnavailable) -> [FleetTopic] in try pullNow() }
    }

    private func pullNow() throws(StoreUnavailable) -> [FleetTopic] {
        let snapshot = try state.read()
        var applied: [FleetTopic] = []
        for topic in FleetTopic.allCases {
            guard let published = snapshot.topics[topic],
                published.stamp != seen.withLock({ $0.topics[topic] })
            else { continue }
            if apply(topic, published.value) {
                applied.append(topic)
            } else {
                log("fleet: the \(topic.rawValue) state published by another replica cannot be applied; kept ours")
            }
            seen.withLock { $0.topics[topic] = published.stamp }
        }
        seen.withLock { $0.poll = snapshot.stamp }
        return applied
    }

    /// Applies one published state; false when it cannot be read or used (it is then skipped, and the
    /// replica keeps its own state until the next publication).
    private func apply(_ topic: FleetTopic, _ value: String) -> Bool {
        switch topic {
        case .clock:
            guard let clock = provider.controllableClock, let state = FleetClockState(text: value) else { return false }
            state.apply(to: clock)
            return true
        case .keys:
            guard let state = FleetKeysState(text: value) else { return false }
            if state.keys == provider.snapshot.scenario.signingKeys.keys { return true }
            do throws(ProviderChangeError) {
                try provider.replaceSigningKeys(state.keys)
                return true
            } catch {
                return false
            }
        }
    }
}
