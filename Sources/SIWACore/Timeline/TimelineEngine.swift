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

    private let state: Mutex<State>

    package init(entries: [TimelineEntry] = [], startMilliseconds: Int64 = 0) {
        state = Mutex(State(entries: entries.map { EntryState(entry: $0) }, startMilliseconds: startMilliseconds))
    }

    /// Replaces the script and its progress (scenario reload).
    package func replace(entries: [TimelineEntry], startMilliseconds: Int64) {
        state.withLock {
            $0 = State(entries: entries.map { EntryState(entry: $0) }, startMilliseconds: startMilliseconds)
        }
    }

    /// Actions of time triggers that are due at `nowMilliseconds` and have not fired, in script order.
    package func dueActions(nowMilliseconds: Int64) -> [TimelineAction] {
        state.withLock { state in
            var actions: [TimelineAction] = []
            for index in state.entries.indices where !state.entries[index].fired {
                guard case .at(let offset) = state.entries[index].entry.trigger,
                    nowMilliseconds >= state.startMilliseconds + offset
                else { continue }
                state.entries[index].fired = true
                actions += state.entries[index].entry.actions
            }
            return actions
        }
    }

    /// Counts an answered request; returns the actions of request triggers that reach their count.
    package func recordRequest(_ request: RequestFacts, resolveUser: () -> String?) -> [TimelineAction] {
        state.withLock { state in
            var actions: [TimelineAction] = []
            for index in state.entries.indices where !state.entries[index].fired {
                guard case .afterRequests(let count, let matcher) = state.entries[index].entry.trigger,
                    matcher.matches(request, resolveUser: resolveUser)
                else { continue }
                state.entries[index].count += 1
                if state.entries[index].count >= count {
                    state.entries[index].fired = true
                    actions += state.entries[index].entry.actions
                }
            }
            return actions
        }
    }

    /// How many entries have fired (for `/mock/faults`-style inspection and tests).
    package var firedCount: Int { state.withLock { $0.entries.filter(\.fired).count } }

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
    /// - Parameter send: delivers prepared notifications (`notify` actions).
    /// - Returns: one line per action: `applied …` or `failed …: reason`.
    package func apply(
        _ actions: [TimelineAction], faults: FaultEngine, send: ([PreparedNotification]) -> Void = { _ in }
    ) -> [String] {
        actions.map { action in
            do throws(ProviderChangeError) {
                switch action {
                case .updateUser(let user, let change): try updateUser(user, change)
                case .deleteUser(let user): try deleteAccount(user)
                case .rotateKey(let key): try addSigningKey(key)
                case .signWith(let kid): try signWithKey(kid: kid)
                case .publishKey(let kid): try publishKey(kid: kid)
                case .retireKey(let kid): try retireKey(kid: kid)
                case .startFault(let id):
                    if !faults.setEnabled(id: id, true) {
                        throw ProviderChangeError(.notFound, field: "fault", "unknown fault '\(id)'")
                    }
                case .notify(let kind, let user, let clientID):
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
}
