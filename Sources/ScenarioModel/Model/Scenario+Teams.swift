import JOSE

/// Team-scoped identities: a user's `sub` and relay address differ per team, and a transfer
/// identifier maps one-to-one to the sender's `sub` for one recipient team
/// (https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team
/// and https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service).
extension Scenario {
    /// The team whose identifiers are the users' declared `sub` and `relayEmail` (the first team).
    package var primaryTeamID: String? { teams.first?.id }

    /// The user's `sub` as apps of `teamID` see it: declared, or derived deterministically.
    package func sub(of user: UserProfile, inTeam teamID: String) -> String {
        if let explicit = user.teamSubs[teamID] { return explicit }
        if teamID == primaryTeamID || teams.count <= 1 { return user.sub }
        return Self.derivedIdentifier(from: user.sub, salt: "sub:" + teamID)
    }

    /// The user's relay address for `teamID` (the same across one team's apps, different across teams).
    package func relayEmail(of user: UserProfile, inTeam teamID: String) -> String? {
        guard let relay = user.relayEmail else { return nil }
        if teamID == primaryTeamID || teams.count <= 1 { return relay }
        return Self.relayAddress(hashing: "relay:\(teamID)|\(relay)")
    }

    /// The relay address of a user who hides their email without a declared `relay_email` (the loader's
    /// and the consent sheet's): derived from the seed, the first team and the user id, so it is stable
    /// run to run; other teams then see `relayEmail(of:inTeam:)` of it.
    package func derivedRelayEmail(of user: UserProfile) -> String {
        Self.relayAddress(hashing: "relay:\(seedText)|\(primaryTeamID ?? "TEAM")|\(user.id)")
    }

    /// The `sub` of a user declared (or added at run time) without one: derived from the seed, the first
    /// team and the user id, so it is stable run to run and differs between users whatever the seed.
    package func derivedSub(ofUserID id: String) -> String {
        Self.derivedIdentifier(from: "\(seedText)|\(id)", salt: "sub:" + (primaryTeamID ?? "TEAM"))
    }

    /// The seed as derived identifiers use it ("0" without one).
    var seedText: String { seed.map(String.init) ?? "0" }

    /// `<10 lowercase alphanumerics>@privaterelay.appleid.com` from SHA-256 of `text`.
    static func relayAddress(hashing text: String) -> String {
        let digest = SHA256.hash(Array(text.utf8))
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let local = digest.prefix(10).map { alphabet[Int($0) % alphabet.count] }
        return String(decoding: local, as: UTF8.self) + "@privaterelay.appleid.com"
    }

    /// The transfer identifier of `user` from team `from` for recipient team `to`: the scenario's fixed
    /// `transfer_sub` when it sets one, else derived from the sender's `sub`. The one source for the
    /// sender's `/auth/usermigrationinfo` answer, the recipient's exchange and the recipient's id_tokens,
    /// so the value an id_token carries is the one the recipient can exchange (Apple: "Transferring your
    /// apps and users to another team",
    /// https://developer.apple.com/documentation/signinwithapple/transferring-your-apps-and-users-to-another-team).
    package func transferSub(of user: UserProfile, from: String, to: String) -> String {
        user.transferSub ?? Self.derivedIdentifier(from: sub(of: user, inTeam: from), salt: "transfer:" + to)
    }

    /// A stable `00NNNN.<32 hex>.NNNN` identifier derived from SHA-256 of `salt|value`: captured subs
    /// begin with `00` (docs/fidelity.md, "Identifier shapes").
    static func derivedIdentifier(from value: String, salt: String) -> String {
        let digest = SHA256.hash(Array("\(salt)|\(value)".utf8))
        let digits = [UInt8(0x30), UInt8(0x30)] + digest.prefix(4).map { UInt8(0x30) + $0 % 10 }
        let tail = digest[22..<26].map { UInt8(0x30) + $0 % 10 }
        return String(decoding: digits, as: UTF8.self) + "." + Base16.lowercase(digest[6..<22]) + "."
            + String(decoding: tail, as: UTF8.self)
    }

    /// The transfer that moved `clientID` into its current team, if any.
    package func transfer(ofClient clientID: String) -> TeamTransfer? {
        guard let client = client(id: clientID) else { return nil }
        return transfers.first { $0.toTeamID == client.teamID && $0.clientIDs.contains(clientID) }
    }

    /// The user as apps of `clientID`'s team see them at `now`: team-scoped `sub` and relay address,
    /// and `transfer_sub` while the client's transfer window is open; with `emailChoice` (the consent
    /// sheet's, kept in the grant) the address shared or hidden as the user chose.
    package func view(
        of user: UserProfile, forClient clientID: String, now: Int64, emailChoice: EmailChoice? = nil
    ) -> UserProfile {
        let user = emailChoice?.applied(to: user, in: self) ?? user
        guard let client = client(id: clientID) else { return user }
        var copy = user
        copy.sub = sub(of: user, inTeam: client.teamID)
        copy.relayEmail = relayEmail(of: user, inTeam: client.teamID)
        if copy.transferSub == nil, let transfer = transfer(ofClient: clientID),
            transfer.isWithinExchangeWindow(now: now)
        {
            copy.transferSub = transferSub(of: user, from: transfer.fromTeamID, to: transfer.toTeamID)
        }
        return copy
    }

    /// A user named by scenario id, `sub` in any team, or email (real or relay); with the team whose
    /// `sub` matched, when it was a sub.
    package func user(matching value: String) -> (user: UserProfile, teamID: String?)? {
        if let user = user(id: value) { return (user, nil) }
        for user in users {
            if user.sub == value { return (user, primaryTeamID) }
            for team in teams where sub(of: user, inTeam: team.id) == value { return (user, team.id) }
        }
        if let user = users.first(where: { $0.email == value || ($0.relayEmail != nil && $0.relayEmail == value) }) {
            return (user, nil)
        }
        return nil
    }
}
