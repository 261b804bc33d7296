/// Where each user sits in `Scenario.users`, and which subs are taken: what a user change needs to
/// check uniqueness and find its user in O(1) instead of revalidating every user (40,000 users once
/// cost 58 ms per `POST /mock/users` under the provider's lock).
///
/// Part of each `ProviderSnapshot`, so request paths find a user by id in O(1) too. Built (O(n)) with a
/// snapshot of a new scenario; user changes carry it forward entry by entry (a delete rebuilds it).
struct UserIndex: Sendable {
    private(set) var positions: [String: Int] = [:]
    private(set) var subs: Set<String> = []

    init(_ users: [UserProfile]) {
        positions.reserveCapacity(users.count)
        for (position, user) in users.enumerated() { positions[user.id] = position }
        subs = Set(users.map(\.sub))
    }

    /// Records a user appended at `position`.
    mutating func append(_ user: UserProfile, at position: Int) {
        positions[user.id] = position
        subs.insert(user.sub)
    }
}
