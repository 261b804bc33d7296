import Locking
import ScenarioModel
import Synchronization

/// Runs a scenario's timeline lazily: time triggers are checked on each request against the mock
/// clock (no timer thread), request triggers count matching requests after they are answered.
///
/// Thread-safe: progress lives behind one lock; each entry fires at most once.
package final class TimelineEngine: Sendable {
    struct EntryState: Sendable {
        var entry: TimelineEntry
        var count = 0
        var fired = false
    }

    struct State: Sendable {
        var entries: [EntryState]
        var startMilliseconds: Int64
    }

    private let state: Lock<State>
    /// Whether an entry has not fired, stored under `state`'s lock after every change of the entries or
    /// their `fired` flags (`settle`): read without the lock by `isIdle`.
    private let anyPending = Atomic<Bool>(false)

    package init(entries: [TimelineEntry] = [], startMilliseconds: Int64 = 0) {
        state = Lock(State(entries: entries.map { EntryState(entry: $0) }, startMilliseconds: startMilliseconds))
        anyPending.store(!entries.isEmpty, ordering: .releasing)
    }

    /// Every entry has fired (or there is none), as of the last change: nothing is due and no request
    /// is counted, so `FaultStage` skips the timeline with one load. An entry added or taken back on
    /// another thread at this moment may be missed, as it may be by a request that took the lock first.
    package var isIdle: Bool { !anyPending.load(ordering: .acquiring) }

    /// Publishes whether `state` has an entry that has not fired; called with the lock held.
    private func settle(_ state: State) {
        anyPending.store(state.entries.contains { !$0.fired }, ordering: .releasing)
    }

    /// Replaces the script and its progress (scenario reload).
    package func replace(entries: [TimelineEntry], startMilliseconds: Int64) {
        state.withLock {
            $0 = State(entries: entries.map { EntryState(entry: $0) }, startMilliseconds: startMilliseconds)
            settle($0)
        }
    }

    /// An entry that fired: its position in the scenario's timeline (the same on every replica that
    /// loaded the same scenario) and its actions.
    package struct Fired: Sendable, Equatable {
        package var index: Int
        package var actions: [TimelineAction]
    }

    /// A request-triggered entry a request matched, before it is counted (the fleet counts it).
    package struct Pending: Sendable, Equatable {
        package var index: Int
        /// The trigger's count: the entry fires with the request that reaches it.
        package var threshold: Int

        package init(index: Int, threshold: Int) {
            self.index = index
            self.threshold = threshold
        }
    }

    /// Actions of time triggers that are due at `nowMilliseconds` and have not fired, in script order.
    package func dueActions(nowMilliseconds: Int64) -> [TimelineAction] {
        dueEntries(nowMilliseconds: nowMilliseconds).flatMap(\.actions)
    }

    /// Time-triggered entries due at `nowMilliseconds` that had not fired, now marked fired, in order.
    package func dueEntries(nowMilliseconds: Int64) -> [Fired] {
        state.withLock { state in
            var fired: [Fired] = []
            for index in state.entries.indices where !state.entries[index].fired {
                guard case .at(let offset) = state.entries[index].entry.trigger,
                    nowMilliseconds >= state.startMilliseconds + offset
                else { continue }
                state.entries[index].fired = true
                fired.append(Fired(index: index, actions: state.entries[index].entry.actions))
            }
            if !fired.isEmpty { settle(state) }
            return fired
        }
    }

    /// Counts an answered request; returns the actions of request triggers that reach their count.
    package func recordRequest(_ request: RequestFacts, resolveUser: () -> String?) -> [TimelineAction] {
        state.withLock { state in
            var actions: [TimelineAction] = []
            var firedAny = false
            for index in state.entries.indices where !state.entries[index].fired {
                guard case .afterRequests(let count, let matcher) = state.entries[index].entry.trigger,
                    matcher.matches(request, resolveUser: resolveUser)
                else { continue }
                state.entries[index].count += 1
                if state.entries[index].count >= count {
                    state.entries[index].fired = true
                    firedAny = true
                    actions += state.entries[index].entry.actions
                }
            }
            if firedAny { settle(state) }
            return actions
        }
    }

    /// The request-triggered entries that have not fired and that `request` matches, counted nowhere:
    /// with a shared store the fleet counts them (`FleetState.countTimeline`).
    package func pendingEntries(matching request: RequestFacts, resolveUser: () -> String?) -> [Pending] {
        state.withLock { state in
            state.entries.indices.compactMap { index -> Pending? in
                guard !state.entries[index].fired,
                    case .afterRequests(let count, let matcher) = state.entries[index].entry.trigger,
                    matcher.matches(request, resolveUser: resolveUser)
                else { return nil }
                return Pending(index: index, threshold: count)
            }
        }
    }

    /// Marks entry `index` fired; its actions when it had not fired here (nil: fired already, or no such
    /// entry in this timeline).
    package func markFired(_ index: Int) -> Fired? {
        state.withLock { state in
            guard state.entries.indices.contains(index), !state.entries[index].fired else { return nil }
            state.entries[index].fired = true
            settle(state)
            return Fired(index: index, actions: state.entries[index].entry.actions)
        }
    }

    /// Takes back `markFired` (or `dueEntries`) for an entry whose firing could not be settled with the
    /// fleet, so it is tried again.
    package func unmarkFired(_ index: Int) {
        state.withLock { state in
            guard state.entries.indices.contains(index) else { return }
            state.entries[index].fired = false
            settle(state)
        }
    }

    /// Where time triggers count from (the mock clock's reading at load, or the fleet's).
    package var startMilliseconds: Int64 { state.withLock { $0.startMilliseconds } }

    /// Starts the script over from `startMilliseconds` with the same entries (a fleet's timeline run).
    package func restart(startMilliseconds: Int64) {
        state.withLock { state in
            state = State(
                entries: state.entries.map { EntryState(entry: $0.entry) }, startMilliseconds: startMilliseconds)
            settle(state)
        }
    }

    /// Whether the script has any entry.
    package var hasEntries: Bool { state.withLock { !$0.entries.isEmpty } }

    /// Whether any entry has not fired yet.
    package var hasPendingEntries: Bool { state.withLock { $0.entries.contains { !$0.fired } } }

    /// How many entries have fired (for `/mock/faults`-style inspection and tests).
    package var firedCount: Int { state.withLock { $0.entries.filter(\.fired).count } }

    /// Whether a pending request trigger names a user: the server looks the request's user up only then,
    /// before taking the engine's lock.
    package var requestTriggersNameUsers: Bool {
        state.withLock { state in
            state.entries.contains { entry in
                if case .afterRequests(_, let matcher) = entry.entry.trigger {
                    return !entry.fired && matcher.userID != nil
                }
                return false
            }
        }
    }

    /// Whether any entry counts requests (the server resolves users only then).
    package var hasRequestTriggers: Bool {
        state.withLock { state in
            state.entries.contains { entry in
                if case .afterRequests = entry.entry.trigger { return !entry.fired }
                return false
            }
        }
    }
}

extension AppleIdentityProvider {
    /// Applies timeline actions in order; a failing action is reported and the rest still run.
    ///
    /// - Parameters:
    ///   - send: delivers prepared notifications (`notify` actions).
    ///   - role: whether this replica is alone, fired the entry for the fleet, or follows another
    ///     replica that did (`TimelineRole`).
    /// - Returns: one line per action: `applied …`, `failed …: reason`, or for a follower's user change
    ///   `followed …`.
    package func apply(
        _ actions: [TimelineAction], faults: FaultEngine, send: ([PreparedNotification]) -> Void = { _ in },
        role: TimelineRole = .alone
    ) -> [String] {
        // A follower takes the users now: the replica that fired the entry published them right after
        // its claim, which this replica just saw (else the next user poll brings them).
        if role == .following, actions.contains(where: \.changesUsers) { _ = refreshUsersFromFleet() }
        return actions.map { action in
            if role == .following, action.changesKeys {
                return "timeline: \(action.summary) comes with the key set the replica that fired it publishes"
            }
            if role == .following, action.changesUsers {
                return "timeline: followed \(action.summary): the replica that fired it publishes the user"
            }
            do throws(ProviderChangeError) {
                switch action {
                case .updateUser(let user, let change):
                    try changeUser(shared: role == .leading) { () throws(ProviderChangeError) in
                        try updateUser(user, change).id
                    }
                case .deleteUser(let user):
                    try changeUser(shared: role == .leading) { () throws(ProviderChangeError) in
                        try deleteAccount(user).id
                    }
                case .rotateKey(let key): try addSigningKey(key)
                case .signWith(let kid): try signWithKey(kid: kid)
                case .publishKey(let kid): try publishKey(kid: kid)
                case .retireKey(let kid): try retireKey(kid: kid)
                case .startFault(let id):
                    if !faults.setEnabled(id: id, true) {
                        throw ProviderChangeError(.notFound, field: "fault", "unknown fault '\(id)'")
                    }
                case .notify(let kind, let user, let clientID):
                    if role == .following { return "timeline: \(action.summary) sent by the replica that fired it" }
                    send(try prepareNotifications(kind: kind, user: user, clientID: clientID))
                case .stopFault(let id):
                    if !faults.setEnabled(id: id, false) {
                        throw ProviderChangeError(.notFound, field: "fault", "unknown fault '\(id)'")
                    }
                }
                return "timeline: applied \(action.summary)"
            } catch {
                return "timeline: failed \(action.summary): \(error)"
            }
        }
    }

    /// Runs a timeline entry's user change; `shared`: on the fleet's latest state of the user, published
    /// after (`shareOwnUserChange`).
    private func changeUser(
        shared: Bool, _ change: () throws(ProviderChangeError) -> String
    ) throws(ProviderChangeError) {
        guard shared else {
            _ = try change()
            return
        }
        var outcome: Result<String, ProviderChangeError>?
        shareOwnUserChange {
            let result = Result { () throws(ProviderChangeError) in try change() }
            outcome = result
            return try? result.get()
        }
        _ = try outcome?.get()
    }
}
