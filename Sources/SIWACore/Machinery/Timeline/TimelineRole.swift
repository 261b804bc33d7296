/// How a replica takes part in a timeline entry that fired (docs/scale-out.md, "What is shared").
package enum TimelineRole: Sendable, Equatable {
    /// No fleet, or this replica's timeline is its own (its scenario was replaced): every action here.
    case alone
    /// This replica fired the entry for the fleet: it takes the fleet's user changes first, makes the
    /// entry's user changes and publishes them like control-API changes, sends its notifications and
    /// publishes its key set (the caller does that).
    case leading
    /// Another replica fired it: users are taken as the fleet shares them (what the leader published,
    /// in the fleet's order of changes; re-deriving the change here could put it after a later one),
    /// key actions come with the leader's key set, `notify` sends nothing; fault switches, each
    /// replica's own, change here.
    case following
}
