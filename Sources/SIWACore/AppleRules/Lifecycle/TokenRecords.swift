/// A stored authorization code.
import ScenarioModel

struct CodeRecord: Sendable {
    var grant: AuthorizationGrant
    var issuedAt: Int64
    var expiresAt: Int64
    var state: AuthorizationCodeState
    /// Insertion order, for evicting the oldest when the store is full (set by `insertCode`).
    var sequence: UInt64 = 0
}

/// A stored refresh token. No time-based expiry (Apple documents none); removed when revoked.
struct RefreshTokenRecord: Sendable {
    var grant: AuthorizationGrant
    var issuedAt: Int64
    /// Insertion order, for evicting the oldest when the store is full.
    var sequence: UInt64
}

/// A stored access token (user tokens from code/refresh grants, or client_credentials tokens).
package struct AccessTokenRecord: Sendable, Equatable {
    package var clientID: String
    /// Nil for `client_credentials` tokens (no user).
    package var grant: AuthorizationGrant?
    /// `user.migration` for client_credentials tokens.
    package var scope: String?
    package var issuedAt: Int64
    package var expiresAt: Int64
    /// Insertion order, for evicting the oldest when the store is full (set by `insertAccessToken`).
    var sequence: UInt64 = 0

    package init(clientID: String, grant: AuthorizationGrant?, scope: String?, issuedAt: Int64, expiresAt: Int64) {
        self.clientID = clientID
        self.grant = grant
        self.scope = scope
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// Consent of one user for one app group.
struct ConsentKey: Hashable, Sendable {
    var userID: String
    var groupID: String
}

struct ConsentRecord: Sendable {
    var scopes: [Scope]
    var grantedAt: Int64
    /// The consent sheet's email choice, reused by every later authorization of the group.
    var emailChoice: EmailChoice? = nil
}

/// Tokens issued by a successful grant. The id_token is made by the caller, outside the store lock.
package struct IssuedTokens: Sendable, Equatable {
    package var accessToken: String
    package var refreshToken: String?
    package var grant: AuthorizationGrant
    package var accessTokenExpiresIn: Int64

    package init(accessToken: String, refreshToken: String?, grant: AuthorizationGrant, accessTokenExpiresIn: Int64) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.grant = grant
        self.accessTokenExpiresIn = accessTokenExpiresIn
    }
}
