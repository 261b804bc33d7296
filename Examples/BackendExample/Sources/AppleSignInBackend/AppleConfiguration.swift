import Foundation

/// Where Apple is and who this backend is. In production `baseURL` is `https://appleid.apple.com`;
/// in tests it is an `AppleIDMock`'s `baseURL`.
public struct AppleConfiguration: Sendable {
    public var baseURL: URL
    /// `iss` of Apple's identity tokens.
    public var issuer: String
    /// The App ID (bundle ID) the iOS app signs in with: the `aud` of its tokens and the `client_id`
    /// for redeeming its codes.
    public var bundleID: String
    /// Makes a fresh ES256 client secret (in production: signed with the team's `.p8` key).
    public var clientSecret: @Sendable () throws -> String

    public init(
        baseURL: URL, issuer: String = "https://appleid.apple.com", bundleID: String,
        clientSecret: @escaping @Sendable () throws -> String
    ) {
        self.baseURL = baseURL
        self.issuer = issuer
        self.bundleID = bundleID
        self.clientSecret = clientSecret
    }

    var tokenURL: URL { baseURL.appendingPathComponent("auth/token") }
    var keysURL: URL { baseURL.appendingPathComponent("auth/keys") }
    var revokeURL: URL { baseURL.appendingPathComponent("auth/revoke") }
}
