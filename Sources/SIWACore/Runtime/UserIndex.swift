/// Where each user sits in `Scenario.users` (its slot) and which subs are taken: what a user change needs
/// to check uniqueness and find its user without revalidating every user (40,000 users once cost 58 ms
/// per `POST /mock/users` under the provider's lock).
///
/// Part of each `ProviderSnapshot`, so request paths find a user by id in O(log n) too. Both tables are
/// `PersistentMap`s: built (O(n)) with a snapshot of a new scenario, then carried forward by user changes
/// one key at a time, each copying only a path (O(log n)) and sharing the rest with the snapshot a
/// request thread may still hold. Only a delete that compacts `UserList` (amortised O(1)) rebuilds it.
struct UserIndex: Sendable {
    private(set) var positions = PersistentMap<String, Int>()
    private(set) var subs = PersistentMap<String, Bool>()

    init(_ users: UserList) {
        positions = PersistentMap(zip(users.indices.map { users[$0].id }, users.indices))
        subs = PersistentMap(users.lazy.map { ($0.sub, true) })
    }

    /// Records a user stored in slot `position`.
    mutating func insert(_ user: UserProfile, at position: Int) {
        positions.updateValue(position, forKey: user.id)
        subs.updateValue(true, forKey: user.sub)
    }

    /// Forgets a removed user.
    mutating func remove(_ user: UserProfile) {
        positions.removeValue(forKey: user.id)
        subs.removeValue(forKey: user.sub)
    }

    func containsSub(_ sub: String) -> Bool { subs[sub] != nil }

    /// Nodes of these tables that `other` does not share (tests: a change copies only paths).
    func nodesNotShared(with other: UserIndex) -> Int {
        positions.nodeIdentities.subtracting(other.positions.nodeIdentities).count
            + subs.nodeIdentities.subtracting(other.subs.nodeIdentities).count
    }
}
