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
        codeExpiries.append(code, expiresAt: record.expiresAt, sequence: nextSequence)
        insert(code, record, into: \.codes, bytes: \.codes, keys: \.codes)
    }

    mutating func removeCode(_ code: String) { remove(code, from: \.codes, bytes: \.codes, keys: \.codes) }

    mutating func insertAccessToken(_ token: String, _ record: AccessTokenRecord) {
        accessTokenExpiries.append(token, expiresAt: record.expiresAt, sequence: nextSequence)
        insert(token, record, into: \.accessTokens, bytes: \.accessTokens, keys: \.accessTokens)
    }

    mutating func removeAccessToken(_ token: String) {
        remove(token, from: \.accessTokens, bytes: \.accessTokens, keys: \.accessTokens)
    }

    mutating func insertRefreshToken(_ token: String, _ record: RefreshTokenRecord) {
        insert(token, record, into: \.refreshTokens, bytes: \.refreshTokens, keys: \.refreshTokens)
    }

    mutating func removeRefreshToken(_ token: String) {
        remove(token, from: \.refreshTokens, bytes: \.refreshTokens, keys: \.refreshTokens)
    }

    /// Stores `record` (replacing any entry under `key`) with the next insertion sequence, counts its
    /// bytes and indexes it under its grant's (user, app group).
    private mutating func insert<Record: StoredEntry>(
        _ key: String, _ record: Record, into table: WritableKeyPath<Self, [String: Record]>,
        bytes: WritableKeyPath<TableBytes, Int>, keys: WritableKeyPath<GrantKeys, Set<String>>
    ) {
        remove(key, from: table, bytes: bytes, keys: keys)
        var record = record
        record.sequence = nextSequence
        nextSequence &+= 1
        self[keyPath: table][key] = record
        self.bytes[keyPath: bytes] += record.bytes(key)
        if let grant = record.indexedGrant { index(grant) { $0[keyPath: keys].insert(key) } }
    }

    private mutating func remove<Record: StoredEntry>(
        _ key: String, from table: WritableKeyPath<Self, [String: Record]>, bytes: WritableKeyPath<TableBytes, Int>,
        keys: WritableKeyPath<GrantKeys, Set<String>>
    ) {
        guard let record = self[keyPath: table].removeValue(forKey: key) else { return }
        self.bytes[keyPath: bytes] -= record.bytes(key)
        if let grant = record.indexedGrant { unindex(grant) { $0[keyPath: keys].remove(key) } }
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
