import Foundation
import JOSE
import JSON
import SIWACore

/// The claims of an identity token that checked out
/// (https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple).
public struct IdentityTokenClaims: Sendable, Equatable {
    /// `iss`: `https://appleid.apple.com`.
    public var issuer: String
    /// `aud`: the bundle ID or Services ID.
    public var audience: String
    /// `sub`: the user's stable identifier for the team.
    public var subject: String
    public var issuedAt: Date
    public var expiresAt: Date
    public var nonce: String?
    public var email: String?
    public var emailVerified: Bool?
    public var isPrivateEmail: Bool?
    /// `real_user_status` (native first authorizations only).
    public var realUserStatus: UserDetectionStatus?
    /// `c_hash` (front channel) or `at_hash` (token endpoint).
    public var codeHash: String?
    public var accessTokenHash: String?
    /// `transfer_sub`, during a team transfer.
    public var transferSubject: String?
    /// The `kid` of the key that signed it.
    public var keyID: String
    /// Every claim as JSON text, for anything not modelled here.
    public var json: String

    init(_ jws: JWS) {
        let claims = jws.payload
        func string(_ name: String) -> String? { claims[name]?.stringValue }
        // Apple sent booleans as strings until about February 2024 (`boolean_style:` in scenarios).
        func bool(_ name: String) -> Bool? { claims[name]?.boolValue ?? string(name).map { $0 == "true" } }
        issuer = string("iss") ?? ""
        audience = string("aud") ?? ""
        subject = string("sub") ?? ""
        issuedAt = Date(timeIntervalSince1970: Double(claims["iat"]?.intValue ?? 0))
        expiresAt = Date(timeIntervalSince1970: Double(claims["exp"]?.intValue ?? 0))
        nonce = string("nonce")
        email = string("email")
        emailVerified = bool("email_verified")
        isPrivateEmail = bool("is_private_email")
        realUserStatus = claims["real_user_status"]?.intValue.flatMap { UserDetectionStatus(rawValue: Int($0)) }
        codeHash = string("c_hash")
        accessTokenHash = string("at_hash")
        transferSubject = string("transfer_sub")
        keyID = jws.keyID ?? ""
        json = JSONValue.object(claims).serializedString()
    }
}

extension AppleIDMock {
    /// Verifies `idToken` as Apple tells a backend to: the RS256 signature with the key of this mock's
    /// `/auth/keys` its `kid` names, `iss`, `aud`, `exp` and `iat` by **the mock's clock**, and `nonce`.
    ///
    /// - Parameters:
    ///   - idToken: the token (from a credential, a web sign-in or `/auth/token`).
    ///   - audience: the expected `aud`, your bundle ID or Services ID.
    ///   - nonce: the expected `nonce`; nil: not checked.
    /// - Throws: ``AppleIDMockError`` `.invalidToken` listing every problem.
    public func verify(idToken: String, audience: String, nonce: String? = nil) throws(AppleIDMockError)
        -> IdentityTokenClaims
    {
        let jws: JWS
        let keys: JWKS
        do {
            jws = try JWS(compact: idToken)
            keys = try JWKS(json: try JSONValue.parse(provider.jwksBytes))
        } catch {
            throw AppleIDMockError(.invalidToken, field: "id_token", "not a JWS: \(error)")
        }
        let problems = IDTokenVerification.problems(
            of: jws, keys: keys, issuer: provider.scenario.settings.issuer, audience: audience, nonce: nonce,
            now: provider.clock.nowSeconds)
        guard problems.isEmpty else {
            throw AppleIDMockError(.invalidToken, field: "id_token", problems.joined(separator: "; "))
        }
        return IdentityTokenClaims(jws)
    }

    /// ``verify(idToken:audience:nonce:)`` for the bytes of ``AppleIDCredential/identityToken``.
    public func verify(idToken: Data, audience: String, nonce: String? = nil) throws(AppleIDMockError)
        -> IdentityTokenClaims
    {
        try verify(idToken: String(decoding: idToken, as: UTF8.self), audience: audience, nonce: nonce)
    }
}
