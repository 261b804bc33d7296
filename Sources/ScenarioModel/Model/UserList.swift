/// A scenario's users in order, stored so that one runtime change (add, edit, delete) costs O(log n)
/// instead of copying every user.
///
/// Provider snapshots are immutable values that request threads may still hold, so a change makes a new
/// version; with an array that meant copying all users (40,000 users + 100 `POST /mock/users` took
/// 8.6 s in a debug build). Here the users sit in a `PersistentVector` of slots: a change copies the path
/// to one leaf and shares the rest with the previous version. A deleted user leaves an empty slot, so the
/// slots of the others (the positions `UserIndex` records) stay valid; once empty slots outnumber the
/// users (and 32), `remove(at:)` compacts, which renumbers the slots (amortised O(1) per delete; the
/// caller rebuilds its index then).
///
/// Indices are slot numbers. A list made from an array has no empty slots, so `users[0]` is the first
/// user as before.
package struct UserList: Sendable, Equatable, ExpressibleByArrayLiteral, BidirectionalCollection,
    MutableCollection
{
    private var slots: PersistentVector<UserProfile?>
    /// Users present (slots minus the emptied ones).
    package private(set) var count: Int
    /// The first slot holding a user (`endIndex` when there is none).
    package private(set) var startIndex: Int

    package init<Users: Sequence>(_ users: Users) where Users.Element == UserProfile {
        slots = PersistentVector(users.lazy.map { Optional($0) })
        count = slots.count
        startIndex = 0
    }

    package init(arrayLiteral users: UserProfile...) { self.init(users) }

    package var endIndex: Int { slots.count }

    package subscript(position: Int) -> UserProfile {
        get {
            guard let user = slots[position] else { preconditionFailure("UserList: no user in slot \(position)") }
            return user
        }
        set {
            precondition(slots[position] != nil, "UserList: no user in slot \(position)")
            slots[position] = newValue
        }
    }

    package func index(after position: Int) -> Int {
        var next = position + 1
        while next < slots.count && slots[next] == nil { next += 1 }
        return next
    }

    package func index(before position: Int) -> Int {
        var previous = position - 1
        while previous > 0 && slots[previous] == nil { previous -= 1 }
        return previous
    }

    /// Appends `user` in a new slot (returned).
    @discardableResult
    package mutating func append(_ user: UserProfile) -> Int {
        slots.append(user)
        if count == 0 { startIndex = slots.count - 1 }
        count += 1
        return slots.count - 1
    }

    /// Removes the user in `position`; `compacted` says the remaining users were renumbered.
    @discardableResult
    package mutating func remove(at position: Int) -> (user: UserProfile, compacted: Bool) {
        let user = self[position]
        slots[position] = nil
        count -= 1
        if position == startIndex { startIndex = index(after: position) }
        guard slots.count - count > Swift.max(count, 32) else { return (user, false) }
        self = UserList(Array(self))
        return (user, true)
    }

    package mutating func removeLast() {
        remove(at: index(before: endIndex))
    }

    package static func == (lhs: UserList, rhs: UserList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Nodes of this list that `other` does not share (tests: a change copies only a path).
    package func nodesNotShared(with other: UserList) -> Int {
        slots.nodeIdentities.subtracting(other.slots.nodeIdentities).count
    }
}
