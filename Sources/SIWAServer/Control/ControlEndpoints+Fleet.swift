import HTTP
import SIWACore
import ScenarioModel

/// Clock and key changes reach the whole fleet (docs/scale-out.md, "What is shared").
extension ControlEndpoints {
    /// Runs a local change of `topic`, then publishes the resulting state to the other replicas. When
    /// the store cannot take it, the local change is undone and the answer is 503 `unavailable`, so a
    /// change is applied everywhere or nowhere (replicas pick it up within 250 ms). Without a shared
    /// store this is just `change`.
    func sharing(_ topic: FleetTopic, _ change: () throws(ControlFailure) -> HTTPResponse)
        throws(ControlFailure) -> HTTPResponse
    {
        guard let fleet else { return try change() }
        // One step against the poll: a poll applying an older published state between the change and its
        // publication would otherwise undo the change and have it published undone.
        return try fleet.exclusively { () throws(ControlFailure) -> HTTPResponse in
            let undo = fleet.restorePoint(topic)
            let response = try change()
            do throws(StoreUnavailable) {
                try fleet.publish(topic, undo: undo)
            } catch {
                throw ControlFailure(ProviderChangeError(.unavailable, field: "store", error.description))
            }
            return response
        }
    }

    /// Runs a change of one user through the control API, then publishes the user's resulting state
    /// (absolute; a deletion as such), with no poll applying another replica's state in between. When the store cannot take it, the user is put back and the answer
    /// is 503; effects on grants (tokens ended by a revocation) are in the shared store already and stay.
    func sharingUser(_ name: String, _ change: () throws(ControlFailure) -> HTTPResponse)
        throws(ControlFailure) -> HTTPResponse
    {
        guard let fleet else { return try change() }
        return try fleet.changingUsers { () throws(ControlFailure) -> HTTPResponse in
            let before = provider.user(named: name)
            let response = try change()
            try publishUser(before?.id ?? name, before: before)
            return response
        }
    }

    /// Publishes the user's state after a local change (`POST`, `PATCH`, `DELETE /mock/users`).
    func publishUser(_ id: String, before: UserProfile?) throws(ControlFailure) {
        do throws(StoreUnavailable) {
            try fleet?.publishUser(id: id, before: before)
        } catch {
            throw ControlFailure(ProviderChangeError(.unavailable, field: "store", error.description))
        }
    }

    /// Takes the fleet's user changes before a control-API request reads or changes users, so that a
    /// user added or changed at another replica a moment ago is seen here (and a change here is made on
    /// the fleet's latest profile, not on a stale one). One store round trip; when the store cannot be
    /// read, a change answers 503 and a read (`reading`) answers from this replica's users.
    func withFleetUsers(reading: Bool = false, _ body: () throws(ControlFailure) -> HTTPResponse)
        throws(ControlFailure) -> HTTPResponse
    {
        do throws(StoreUnavailable) {
            try fleet?.pullUsers()
        } catch {
            if !reading { throw ControlFailure(ProviderChangeError(.unavailable, field: "store", error.description)) }
        }
        return try body()
    }
}
