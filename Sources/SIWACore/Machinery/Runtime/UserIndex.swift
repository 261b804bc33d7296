/// Where each user sits in `Scenario.users` (its slot), which subs are taken and whose relay addresses
/// are which: what a user change needs to check uniqueness and find its user without revalidating every
/// user (40,000 users once cost 58 ms per `POST /mock/users` under the provider's lock), and what the
/// SMTP relay needs to resolve `RCPT TO` without scanning every user (bench/RESULTS.md: the scan, which
/// also copied each user, dominated the relay's CPU).
///
/// Part of each `ProviderSnapshot`, so request paths find a user by id or relay address in O(log n) too.
/// The tables are `PersistentMap`s: built (O(n · teams)) with a snapshot of a new scenario, then carried
/// forward by user changes one key at a time, each copying only a path (O(log n)) and sharing the rest
/// with the snapshot a request thread may still hold. Only a delete that compacts `UserList` (amortised
/// O(1)) rebuilds it. Relay addresses depend on the scenario's teams (`Scenario.relayEmail(of:inTeam:)`),
/// so a change of teams goes through `AppleIdentityProvider.change`, which builds a new index.
import ScenarioModel

struct UserIndex: Sendable {
    /// One team's view of a user's relay address.
    struct RelayHolder: Sendable, Equatable {
        var userID: String
        var teamID: String
        /// The team's place in `Scenario.teams`: among holders of one address the first user in list
        /// order wins, then the first team (the order the relay's lookup always had).
        var teamOrder: Int
    }

    private(set) var positions = PersistentMap<String, Int>()
    private(set) var subs = PersistentMap<String, Bool>()
    /// Lowercased relay address → its holders (one, unless a scenario gives two users one address).
    private(set) var relays = PersistentMap<String, [RelayHolder]>()
    /// Holders indexed: one per user with a relay address and team.
    private(set) var relayHolderCount = 0

    init(_ scenario: Scenario) {
        let users = scenario.users
        positions = PersistentMap(zip(users.indices.map { users[$0].id }, users.indices))
        subs = PersistentMap(users.lazy.map { ($0.sub, true) })
        var holders: [String: [RelayHolder]] = [:]
        for user in users {
            for (address, holder) in Self.relayAddresses(of: user, in: scenario) {
                holders[address, default: []].append(holder)
                relayHolderCount += 1
            }
        }
        relays = PersistentMap(holders.lazy.map { ($0.key, $0.value) })
    }

    /// Records a user stored in slot `position`.
    mutating func insert(_ user: UserProfile, at position: Int, in scenario: Scenario) {
        positions.updateValue(position, forKey: user.id)
        subs.updateValue(true, forKey: user.sub)
        addRelayAddresses(of: user, in: scenario)
    }

    /// Forgets a removed user.
    mutating func remove(_ user: UserProfile, in scenario: Scenario) {
        positions.removeValue(forKey: user.id)
        subs.removeValue(forKey: user.sub)
        forgetRelayAddresses(of: user, in: scenario)
    }

    /// Follows an edit of a user in place (id and sub kept): only a changed relay address touches the index.
    mutating func replace(_ before: UserProfile, with after: UserProfile, in scenario: Scenario) {
        guard before.relayEmail != after.relayEmail else { return }
        forgetRelayAddresses(of: before, in: scenario)
        addRelayAddresses(of: after, in: scenario)
    }

    func containsSub(_ sub: String) -> Bool { subs[sub] != nil }

    /// The holder of `address` (any case) that the relay delivers to, with the user's slot.
    func relayHolder(ofAddress address: String) -> (holder: RelayHolder, position: Int)? {
        guard let holders = relays[address.lowercased()] else { return nil }
        // The usual case, one holder: no intermediate array (the relay asks this per RCPT and message).
        if holders.count == 1 { return positions[holders[0].userID].map { (holder: holders[0], position: $0) } }
        return
            holders
            .compactMap { holder in positions[holder.userID].map { (holder: holder, position: $0) } }
            .min { ($0.position, $0.holder.teamOrder) < ($1.position, $1.holder.teamOrder) }
    }

    /// Nodes of these tables that `other` does not share (tests: a change copies only paths).
    func nodesNotShared(with other: UserIndex) -> Int {
        positions.nodeIdentities.subtracting(other.positions.nodeIdentities).count
            + subs.nodeIdentities.subtracting(other.subs.nodeIdentities).count
            + relays.nodeIdentities.subtracting(other.relays.nodeIdentities).count
    }

    private mutating func addRelayAddresses(of user: UserProfile, in scenario: Scenario) {
        for (address, holder) in Self.relayAddresses(of: user, in: scenario) {
            relays.updateValue((relays[address] ?? []) + [holder], forKey: address)
            relayHolderCount += 1
        }
    }

    private mutating func forgetRelayAddresses(of user: UserProfile, in scenario: Scenario) {
        for (address, _) in Self.relayAddresses(of: user, in: scenario) {
            let before = relays[address] ?? []
            let kept = before.filter { $0.userID != user.id }
            relayHolderCount -= before.count - kept.count
            if kept.isEmpty { relays.removeValue(forKey: address) } else { relays.updateValue(kept, forKey: address) }
        }
    }

    /// The user's relay address in each team (lowercased), as the relay matches them.
    private static func relayAddresses(of user: UserProfile, in scenario: Scenario) -> [(String, RelayHolder)] {
        guard user.relayEmail != nil else { return [] }
        let teamIDs = scenario.teams.isEmpty ? [""] : scenario.teams.map(\.id)
        return teamIDs.enumerated().compactMap { order, teamID in
            scenario.relayEmail(of: user, inTeam: teamID).map {
                ($0.lowercased(), RelayHolder(userID: user.id, teamID: teamID, teamOrder: order))
            }
        }
    }
}
