import ScenarioFormat
import ScenarioModel

/// What a device's `getCredentialState(forUserID:)` answers (`GET /mock/credential-state`,
/// `AppleIDMock.credentialState`), with the reason for a `notFound` kept for the journal and log.
extension AppleIdentityProvider {
    /// A credential state and, for `notFound`, why in words ("deleted at …", "did you mean alice's sub
    /// …?"); the reason belongs in the journal and log, never in the answer (Apple's says only the state).
    package struct CredentialStateAnswer: Sendable, Equatable {
        package var state: CredentialState
        package var reason: String?

        package init(state: CredentialState, reason: String?) {
            self.state = state
            self.reason = reason
        }
    }

    /// What `getCredentialState(forUserID:)` answers on a device running `clientID`.
    ///
    /// `transferred` when `user` is the sender team's id of a client that moved teams (or the user is
    /// flagged so); else `revoked`/`notFound` when flagged; else `authorized` with a live consent for the
    /// client's group, `revoked` when that consent was ended, `notFound` when there never was one.
    /// An identifier the mock does not know (deleted, purged, never existed) is `notFound`, as Apple
    /// answers for "the user can't be found"
    /// (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/credentialstate/notfound).
    /// - Throws: `.notFound` only for an unknown `clientID` (the app itself is not configured);
    ///   `.unavailable` when the shared store cannot be read.
    package func credentialState(user value: String, clientID: String) throws(ProviderChangeError) -> CredentialState {
        try credentialStateAnswer(user: value, clientID: clientID).state
    }

    /// `credentialState(user:clientID:)` with the reason for `notFound`.
    package func credentialStateAnswer(user value: String, clientID: String) throws(ProviderChangeError)
        -> CredentialStateAnswer
    {
        let snapshot = self.snapshot
        let scenario = snapshot.scenario
        guard let client = scenario.client(id: clientID) else {
            throw .unknownClient(clientID, among: scenario.clients.map(\.id))
        }
        guard let (user, matchedTeam) = scenario.user(matching: value) else {
            return CredentialStateAnswer(state: .notFound, reason: unknownUserReason(value, in: scenario))
        }
        if let matchedTeam, matchedTeam != client.teamID,
            let transfer = scenario.transfer(ofClient: clientID), transfer.fromTeamID == matchedTeam
        {
            return CredentialStateAnswer(state: .transferred, reason: nil)
        }
        let state = try Self.credentialState(of: user, clientID: clientID, in: snapshot)
        guard state == .notFound else { return CredentialStateAnswer(state: state, reason: nil) }
        let why =
            user.credentialState == .notFound
            ? "user '\(user.id)' is flagged credential_state notFound"
            : "user '\(user.id)' has not signed in to '\(scenario.consentGroupID(forClient: clientID))'"
        return CredentialStateAnswer(state: .notFound, reason: why)
    }

    /// `credentialState(user:clientID:)` for each of the scenario's clients, in the scenario's order, for a
    /// user as stored (the per-app states of `GET /mock/users`), read from one snapshot.
    package func credentialStates(of user: UserProfile) -> [(clientID: String, state: CredentialState)] {
        let snapshot = self.snapshot
        // During a store outage a user's consent cannot be read: listed as `notFound` (GET /mock/users stays up).
        return snapshot.scenario.clients.map {
            ($0.id, (try? Self.credentialState(of: user, clientID: $0.id, in: snapshot)) ?? .notFound)
        }
    }

    /// The user's flag when it is not `authorized`, else the consent of the client's group.
    static func credentialState(of user: UserProfile, clientID: String, in snapshot: ProviderSnapshot)
        throws(ProviderChangeError) -> CredentialState
    {
        if user.credentialState != .authorized { return user.credentialState }
        let group = snapshot.scenario.consentGroupID(forClient: clientID)
        let status = try ProviderChangeError.storing { () throws(StoreUnavailable) in
            try snapshot.store.consentStatus(userID: user.id, consentGroupID: group)
        }
        switch status {
        case .active: return .authorized
        case .revoked: return .revoked
        case .none: return .notFound
        }
    }

    /// Remembers a deleted account under every identifier it had (id, `sub` per team, emails).
    func rememberDeletion(of user: UserProfile, at timeMilliseconds: Int64) {
        let scenario = self.scenario
        var identifiers = [user.id, user.sub] + scenario.teams.map { scenario.sub(of: user, inTeam: $0.id) }
        identifiers.append(user.email)
        if let relay = user.relayEmail { identifiers.append(relay) }
        runtime.withLock {
            $0.deletions.record(userID: user.id, identifiers: identifiers, timeMilliseconds: timeMilliseconds)
        }
    }

    /// How many identifiers a "did you mean" for an unknown user compares against.
    static let suggestionCandidates = 1000

    /// Why `value` names no user: deleted (when), close to a user's id or `sub`, or simply unknown.
    func unknownUserReason(_ value: String, in scenario: Scenario) -> String {
        if let deletion = runtime.withLock({ $0.deletions.deletion(of: value) }) {
            let when = TimeText.rfc3339(milliseconds: deletion.timeMilliseconds)
            return "user '\(deletion.userID)' (identifier '\(value)') was deleted at \(when)"
        }
        var labels: [String: String] = [:]
        var candidates: [String] = []
        func add(_ identifier: String, _ label: String) {
            guard labels[identifier] == nil else { return }
            labels[identifier] = label
            candidates.append(identifier)
        }
        // Suggestions compare against at most `suggestionCandidates` identifiers (a large scenario's
        // look-up stays cheap on the event loop); past that the reason only says the identifier is unknown.
        for user in scenario.users where candidates.count < Self.suggestionCandidates {
            add(user.id, "")
            add(user.sub, "\(user.id)'s sub")
            for team in scenario.teams {
                add(scenario.sub(of: user, inTeam: team.id), "\(user.id)'s sub in team \(team.id)")
            }
        }
        if let close = EditDistance.suggestion(for: value, among: candidates), let label = labels[close] {
            return "no user has the identifier '\(value)' (did you mean \(label.isEmpty ? "" : label + " ")'\(close)'?)"
        }
        return "no user has the identifier '\(value)'"
    }
}
