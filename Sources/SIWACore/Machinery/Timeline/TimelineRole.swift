/// How a replica takes part in a timeline entry that fired (docs/scale-out.md, "What is shared").
package enum TimelineRole: Sendable, Equatable {
    /// No fleet, or this replica's timeline is its own (its scenario was replaced): every action here.
    case alone
    /// This replica fired the entry for the fleet: each user change is made on the fleet's latest state
    /// of the user and published like a control-API change, as one step against the fleet's user poll;
    /// it sends the notifications, and publishes its key set (the caller does that). A user change that
    /// fails here (an unknown user, the store gone right after the claim) is logged and not made anywhere.
    case leading
    /// Another replica fired it: users are taken as the fleet shares them, at once or at the next user poll (what the
    /// leader published, in the fleet's order of changes; re-deriving the change here could put it after
    /// a later one),
    /// key actions come with the leader's key set, `notify` sends nothing; fault switches, each
    /// replica's own, change here.
    case following
}
