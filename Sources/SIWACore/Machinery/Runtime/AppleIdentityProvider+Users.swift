/// Runtime user changes (control API `PATCH /mock/users/{id}`, `POST /mock/users`, timeline actions).
import ScenarioModel

extension AppleIdentityProvider {
    /// The user named by scenario id, `sub` (any team) or email.
    package func user(named value: String) -> UserProfile? {
        let snapshot = self.snapshot
        return snapshot.user(id: value) ?? snapshot.scenario.user(matching: value)?.user
    }

    /// Changes a user's fields atomically and returns the user as stored.
    ///
    /// `credentialState` `revoked` or `notFound` also ends every authorization the user holds (consent,
    /// tokens, outstanding codes), as revoking in Settings does. Emits `consentRevoked` (for groups that
    /// had consent) and `emailDisabled`/`emailEnabled` (when forwarding flips) to observers.
    /// - Throws: `ProviderChangeError.notFound` for an unknown user, `.invalid` when the result is not valid.
    @discardableResult
    package func updateUser(_ name: String, _ change: UserChange) throws(ProviderChangeError) -> UserProfile {
        let now = clock.nowMilliseconds
        try checkStoreReachable()
        let result = try changeUsers(
            { (scenario, users) throws(ProviderChangeError) -> (before: UserProfile, after: UserProfile) in
                guard let index = Self.position(of: name, in: scenario, users) else {
                    throw .unknownUser(name, among: scenario.users.map(\.id))
                }
                let found = scenario.users[index]
                if let email = change.email, email.isEmpty {
                    throw ProviderChangeError(.invalid, field: "email", "must not be empty")
                }
                // A change keeps id and sub, so only the user's own rules can break.
                let updated = change.applied(to: found)
                try updated.checkSize()
                try Self.check(Scenario.problems(ofUser: updated, at: index))
                scenario.users[index] = updated
                users.replace(found, with: updated, in: scenario)
                return (found, updated)
            },
            commit: { result, snapshot in
                if let state = change.credentialState, state == .revoked || state == .notFound {
                    _ = try? snapshot.store.endAllAuthorizations(userID: result.after.id)
                }
            })
        var events: [UserEvent] = []
        let groups = (try? store.consentGroupIDs(userID: result.after.id, includingRevoked: true)) ?? []
        if let state = change.credentialState, state == .revoked, result.before.credentialState != .revoked {
            events.append(
                UserEvent(kind: .consentRevoked, user: result.after, appGroupIDs: groups, timeMilliseconds: now))
        }
        if result.before.emailForwardingEnabled != result.after.emailForwardingEnabled {
            let kind: UserEvent.Kind = result.after.emailForwardingEnabled ? .emailEnabled : .emailDisabled
            events.append(UserEvent(kind: kind, user: result.after, appGroupIDs: groups, timeMilliseconds: now))
        }
        emit(events)
        return result.after
    }

    /// Adds a user; an empty `sub` and a missing relay address of a user who hides their email are
    /// derived from the seed and the user id as the loader derives them, so every replica of a fleet
    /// (and every restart) gives the same user the same identifiers and two users never share one.
    /// - Throws: `ProviderChangeError.invalid` for a duplicate id or sub, or another invalid field.
    @discardableResult
    package func addUser(_ user: UserProfile) throws(ProviderChangeError) -> UserProfile {
        try changeUsers { (scenario, users) throws(ProviderChangeError) -> UserProfile in
            var user = user
            if user.sub.isEmpty { user.sub = scenario.derivedSub(ofUserID: user.id) }
            if user.privateEmail && user.relayEmail == nil { user.relayEmail = scenario.derivedRelayEmail(of: user) }
            if user.id.isEmpty { throw ProviderChangeError(.invalid, field: "id", "must not be empty") }
            try user.checkSize()
            if scenario.users.count >= UserProfile.maximumCount {
                throw ProviderChangeError(
                    .conflict, field: "id", "at most \(UserProfile.maximumCount) users; delete some first")
            }
            if users.positions[user.id] != nil {
                throw ProviderChangeError(.conflict, field: "id", "user '\(user.id)' already exists")
            }
            if users.containsSub(user.sub) {
                throw ProviderChangeError(.invalid, field: "sub", "duplicate sub '\(user.sub)'")
            }
            try Self.check(Scenario.problems(ofUser: user, at: scenario.users.count))
            users.insert(user, at: scenario.users.append(user), in: scenario)
            return user
        }
    }

    /// The user deletes their Apple Account: removed from the scenario, every authorization ended,
    /// `accountDeleted` emitted for the groups they had used.
    @discardableResult
    package func deleteAccount(_ name: String) throws(ProviderChangeError) -> UserProfile {
        let now = clock.nowMilliseconds
        try checkStoreReachable()
        let groupsBefore =
            try user(named: name).map { user throws(ProviderChangeError) in
                try ProviderChangeError.storing { () throws(StoreUnavailable) in
                    try store.consentGroupIDs(userID: user.id, includingRevoked: true)
                }
            } ?? []
        let removed = try changeUsers(
            { (scenario, users) throws(ProviderChangeError) -> UserProfile in
                guard let index = Self.position(of: name, in: scenario, users) else {
                    throw .unknownUser(name, among: scenario.users.map(\.id))
                }
                let (found, compacted) = scenario.users.remove(at: index)
                if compacted { users = UserIndex(scenario) } else { users.remove(found, in: scenario) }
                return found
            },
            commit: { removed, snapshot in _ = try? snapshot.store.endAllAuthorizations(userID: removed.id) })
        rememberDeletion(of: removed, at: now)
        emit([UserEvent(kind: .accountDeleted, user: removed, appGroupIDs: groupsBefore, timeMilliseconds: now)])
        return removed
    }
}

extension AppleIdentityProvider {
    /// Refuses a change whose store half could not be applied: a shared store that is down now answers
    /// 503 before anything changes (the store step runs after the scenario swap and cannot fail it).
    func checkStoreReachable() throws(ProviderChangeError) {
        if let reason = store.unavailableReason {
            throw ProviderChangeError(.unavailable, field: "store", StoreUnavailable(reason).description)
        }
    }

    /// A new sign-in re-establishes a user flagged `revoked` or `notFound` (they authorized again). With a
    /// shared store the change is made like a control-API change: the fleet's changes of the user are taken
    /// first (so the profile published is not one another replica changed a moment ago), then the state is
    /// set and published, so every replica (and one started later) sees the user authorized, not only the
    /// one that served the sign-in (docs/scale-out.md).
    func noteSignIn(userID: String) {
        guard let user = snapshot.user(id: userID), Self.reauthorizes(user) else { return }
        shareOwnUserChange {
            let changed: Bool? = try? changeUsers { (scenario, users) throws(ProviderChangeError) in
                guard let index = users.positions[userID], Self.reauthorizes(scenario.users[index]) else {
                    return false
                }
                scenario.users[index].credentialState = .authorized
                return true
            }
            return changed == true ? userID : nil
        }
    }

    private static func reauthorizes(_ user: UserProfile) -> Bool {
        user.credentialState == .revoked || user.credentialState == .notFound
    }

    /// The position of the user named by id (O(1)), or else by `sub` in any team or email.
    static func position(of name: String, in scenario: Scenario, _ users: UserIndex) -> Int? {
        if let index = users.positions[name] { return index }
        guard let found = scenario.user(matching: name)?.user else { return nil }
        return users.positions[found.id]
    }
}
