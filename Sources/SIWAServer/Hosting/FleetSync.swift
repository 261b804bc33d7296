import SIWACore
import ScenarioModel
import Synchronization

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
    private let seen = Mutex<(poll: String?, topics: [FleetTopic: String])>((nil, [:]))
    /// Where this replica is in the fleet's user changes.
    private let userCursor = Mutex<FleetCursor?>(nil)
    /// Held for a whole `pullUsers`: the poll and a request's refresh never apply an older read after a
    /// newer one.
    private let pulling = Mutex<Void>(())
    /// Held while a local clock or key change is made and published (`exclusively`), and while a poll
    /// reads and applies published states (`pull`): a poll can no longer put an older state back between
    /// a change and its publication, which then published the older state — a clock advance answered 200
    /// was lost (found by the differential test, bench/RESULTS.md).
    private let topicChange = Mutex<Void>(())
    /// Users this replica changed by itself whose publication failed; `pullUsers` publishes them first.
    private let unpublished = Mutex<Set<String>>([])
    /// User changes applied per poll at most; the next poll continues.
    static let userChangesPerPoll = 1000

    package init(state: any FleetState, provider: AppleIdentityProvider, log: @escaping @Sendable (String) -> Void) {
        self.state = state
        self.provider = provider
        self.log = log
        // Weak: the provider outlives nothing here, and this object holds the provider.
        provider.followFleetUsers { [weak self] in (try? self?.pullUsers()) != nil }
        // A sign-in that re-authorized a revoked user, or a timeline entry this replica fired: published
        // like a control-API change. If the store cannot take it, the change stands here and is published
        // again, with the user's state then, at the next poll that reaches the store.
        provider.publishOwnUserChanges { [weak self] id in
            guard let self else { return }
            do throws(StoreUnavailable) {
                try self.publishOwnChange(of: id)
            } catch {
                unpublished.withLock { _ = $0.insert(id) }
                self.log(
                    "fleet: user '\(id)' changed here could not be published yet (\(error)); retrying at the next poll")
            }
        }
    }

    private func publishOwnChange(of id: String) throws(StoreUnavailable) {
        try state.publishUser(id: id, text: FleetUserState(id: id, profile: provider.snapshot.user(id: id)).text)
    }

    /// Publishes the users whose own change could not be published before (`publishOwnUserChanges`).
    private func publishPendingChanges() throws(StoreUnavailable) {
        for id in unpublished.withLock({ $0 }).sorted() {
            try publishOwnChange(of: id)
            unpublished.withLock { _ = $0.remove(id) }
        }
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
        try pulling.withLock { _ throws(StoreUnavailable) in
            try publishPendingChanges()
            return try pullUsersNow()
        }
    }

    private func pullUsersNow() throws(StoreUnavailable) -> [String] {
        let (cursor, changes) = try state.userChanges(after: userCursor.withLock { $0 }, limit: Self.userChangesPerPoll)
        var applied: [String] = []
        for (id, text) in changes {
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
        return applied
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
