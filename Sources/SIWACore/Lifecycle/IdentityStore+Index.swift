/// The keys of one (user, app group)'s live codes and user tokens.
struct GrantKeys: Sendable {
    var codes: Set<String> = []
    var accessTokens: Set<String> = []
    var refreshTokens: Set<String> = []

    var isEmpty: Bool { codes.isEmpty && accessTokens.isEmpty && refreshTokens.isEmpty }
}

/// Every write to the code and token tables goes through these, so the per-(user, app group) index
/// always names exactly the entries of that pair (client_credentials tokens have no user: not indexed).
extension IdentityStore.State {
    mutating func insertCode(_ code: String, _ record: CodeRecord) {
        removeCode(code)
        var record = record
        record.sequence = nextSequence
        nextSequence &+= 1
        codes[code] = record
        bytes.codes += record.bytes(code)
        index(record.grant) { $0.codes.insert(code) }
    }

    mutating func removeCode(_ code: String) {
        guard let record = codes.removeValue(forKey: code) else { return }
        bytes.codes -= record.bytes(code)
        unindex(record.grant) { $0.codes.remove(code) }
    }

    mutating func insertAccessToken(_ token: String, _ record: AccessTokenRecord) {
        removeAccessToken(token)
        var record = record
        record.sequence = nextSequence
        nextSequence &+= 1
        accessTokens[token] = record
        bytes.accessTokens += record.bytes(token)
        if let grant = record.grant { index(grant) { $0.accessTokens.insert(token) } }
    }

    mutating func removeAccessToken(_ token: String) {
        guard let record = accessTokens.removeValue(forKey: token) else { return }
        bytes.accessTokens -= record.bytes(token)
        if let grant = record.grant { unindex(grant) { $0.accessTokens.remove(token) } }
    }

    mutating func insertRefreshToken(_ token: String, _ record: RefreshTokenRecord) {
        removeRefreshToken(token)
        var record = record
        record.sequence = nextSequence
        nextSequence &+= 1
        refreshTokens[token] = record
        bytes.refreshTokens += record.bytes(token)
        index(record.grant) { $0.refreshTokens.insert(token) }
    }

    mutating func removeRefreshToken(_ token: String) {
        guard let record = refreshTokens.removeValue(forKey: token) else { return }
        bytes.refreshTokens -= record.bytes(token)
        unindex(record.grant) { $0.refreshTokens.remove(token) }
    }

    /// Records a consent (a first authorization, or a seeded returning user).
    mutating func grantConsent(_ key: ConsentKey, _ record: ConsentRecord) {
        consents[key] = record
        endedConsents.remove(key)
        groupsByUser[key.userID, default: []].insert(key.groupID)
    }

    /// Ends an authorization: consent forgotten (remembered as ended), tokens removed, codes revoked.
    /// Costs O(the pair's grants).
    mutating func endAuthorization(_ key: ConsentKey) {
        if consents.removeValue(forKey: key) != nil { endedConsents.insert(key) }
        if let keys = grants.removeValue(forKey: key) {
            revocationVisits += keys.codes.count + keys.accessTokens.count + keys.refreshTokens.count
            for token in keys.refreshTokens {
                if let record = refreshTokens.removeValue(forKey: token) { bytes.refreshTokens -= record.bytes(token) }
            }
            for token in keys.accessTokens {
                if let record = accessTokens.removeValue(forKey: token) { bytes.accessTokens -= record.bytes(token) }
            }
            // Revoked is terminal, so the codes leave the index but stay in the table (a later
            // redemption is answered "expired or revoked" until they are collected).
            for code in keys.codes {
                if let state = codes[code]?.state { codes[code]!.state = state.handle(.revoke).next }
            }
        }
        pruneUser(key)
    }

    private mutating func index(_ grant: AuthorizationGrant, _ add: (inout GrantKeys) -> Void) {
        let key = ConsentKey(userID: grant.userID, groupID: grant.consentGroupID)
        add(&grants[key, default: GrantKeys()])
        groupsByUser[key.userID, default: []].insert(key.groupID)
    }

    private mutating func unindex(_ grant: AuthorizationGrant, _ remove: (inout GrantKeys) -> Void) {
        let key = ConsentKey(userID: grant.userID, groupID: grant.consentGroupID)
        guard grants[key] != nil else { return }
        remove(&grants[key]!)
        if grants[key]!.isEmpty {
            grants[key] = nil
            pruneUser(key)
        }
    }

    /// Forgets the group for the user once nothing of that pair is left.
    private mutating func pruneUser(_ key: ConsentKey) {
        guard grants[key] == nil, consents[key] == nil, !endedConsents.contains(key) else { return }
        groupsByUser[key.userID]?.remove(key.groupID)
        if groupsByUser[key.userID]?.isEmpty == true { groupsByUser[key.userID] = nil }
    }
}
