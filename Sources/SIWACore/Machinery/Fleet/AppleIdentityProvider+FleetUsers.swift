/// A user created or changed at another replica is seen before a request here decides on it
/// (docs/scale-out.md, "Changes visible before they are used").
import ScenarioModel

extension AppleIdentityProvider {
    /// Installs what `refreshUsersFromFleet` runs: one read of the fleet's user changes, applied here,
    /// returning whether it reached the store.
    package func followFleetUsers(_ pull: @escaping @Sendable () -> Bool) {
        fleetUsers.withLock { $0 = pull }
    }

    /// Installs what runs a user change this replica makes by itself, not through the control API (which
    /// publishes its own): the re-authorization of a revoked user by a new sign-in, a timeline entry this
    /// replica fired. It takes the fleet's user changes, runs `change` (which returns the id of the user it
    /// changed, or nil) and publishes that user, as one step against the fleet's user poll.
    package func shareOwnUserChanges(_ share: @escaping @Sendable (_ change: () -> String?) -> Void) {
        sharesOwnUserChange.withLock { $0 = share }
    }

    /// Runs `change` as `shareOwnUserChanges` installed, or just runs it without a shared store.
    func shareOwnUserChange(_ change: () -> String?) {
        guard let share = sharesOwnUserChange.withLock({ $0 }) else {
            _ = change()
            return
        }
        share(change)
    }

    /// Takes the fleet's user changes now (one store round trip); false without a shared store or when
    /// the store cannot be read. Called when a request names a user this replica does not know, before
    /// it is refused: another replica may have added the user less than a poll period ago.
    package func refreshUsersFromFleet() -> Bool {
        guard let pull = fleetUsers.withLock({ $0 }) else { return false }
        return pull()
    }

    /// The user `id`, taking the fleet's user changes first when this replica does not know them.
    package func user(id: String, in snapshot: ProviderSnapshot) -> (UserProfile, ProviderSnapshot)? {
        if let user = snapshot.user(id: id) { return (user, snapshot) }
        guard refreshUsersFromFleet() else { return nil }
        let fresh = self.snapshot
        return fresh.user(id: id).map { ($0, fresh) }
    }
}
