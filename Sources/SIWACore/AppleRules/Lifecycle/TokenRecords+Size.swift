/// Approximate heap bytes of the store's tables: the UTF-8 of every string an entry holds plus a fixed
/// allowance for the record, its dictionary slot and its index entry. Kept exact under inserts and
/// removals, so the store can enforce a byte cap, not only an entry count (docs/limits.md).
package struct TableBytes: Sendable, Equatable {
    package var codes = 0
    package var accessTokens = 0
    package var refreshTokens = 0
}

/// Record and dictionary-slot overhead per entry (struct fields, hash-table slot, index set slot).
let entryOverheadBytes = 160

extension AuthorizationGrant {
    /// The strings this grant holds (client, redirect_uri, user, group, nonce, scopes).
    var stringBytes: Int {
        clientID.utf8.count + (redirectURI?.utf8.count ?? 0) + userID.utf8.count + consentGroupID.utf8.count
            + (nonce?.utf8.count ?? 0) + scopes.count * 16
    }
}

/// What the store's tables hold: an insertion sequence (eviction order), a size, and the grant the
/// entry is indexed under (nil: not indexed, e.g. `client_credentials` tokens).
protocol StoredEntry: Sendable {
    var sequence: UInt64 { get set }
    var indexedGrant: AuthorizationGrant? { get }
    func bytes(_ key: String) -> Int
}

extension CodeRecord: StoredEntry {
    var indexedGrant: AuthorizationGrant? { grant }
    func bytes(_ key: String) -> Int { key.utf8.count + grant.stringBytes + entryOverheadBytes }
}

extension AccessTokenRecord: StoredEntry {
    var indexedGrant: AuthorizationGrant? { grant }
    func bytes(_ key: String) -> Int {
        key.utf8.count + clientID.utf8.count + (grant?.stringBytes ?? 0) + (scope?.utf8.count ?? 0)
            + entryOverheadBytes
    }
}

extension RefreshTokenRecord: StoredEntry {
    var indexedGrant: AuthorizationGrant? { grant }
    func bytes(_ key: String) -> Int { key.utf8.count + grant.stringBytes + entryOverheadBytes }
}
