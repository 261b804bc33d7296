import Foundation
import JOSE
import JSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Verifies Apple identity tokens as Apple tells backends to
/// (https://developer.apple.com/documentation/signinwithapple/verifying-a-user): RS256 signature with
/// the `/auth/keys` key its `kid` names (refetched once for an unknown `kid`, after a key rotation),
/// then `iss`, `aud`, `exp` and `nonce`.
public actor TokenVerifier {
    public struct Claims: Sendable, Equatable {
        public var subject: String
        public var email: String?
        public var isPrivateEmail: Bool
        public var nonce: String?
        public var expiresAt: Date
    }

    private let configuration: AppleConfiguration
    private let session: URLSession
    private var keys: JWKS?
    /// Judges `exp`; a test passes the mock's clock (`{ apple.now }`).
    private let now: @Sendable () -> Date

    public init(
        configuration: AppleConfiguration, session: URLSession = .shared,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.session = session
        self.now = now
    }

    public func verify(_ token: String, nonce: String?) async throws(SignInError) -> Claims {
        let jws: JWS
        do {
            jws = try JWS(compact: token)
        } catch {
            throw .invalidToken("not a JWS")
        }
        guard jws.algorithm == "RS256", let kid = jws.keyID else { throw .invalidToken("alg must be RS256 with a kid") }
        var key = try await publicKey(kid, refresh: false)
        if key == nil { key = try await publicKey(kid, refresh: true) }
        guard let key else { throw .invalidToken("no Apple key '\(kid)'") }
        guard jws.isSigned(by: key) else { throw .invalidToken("bad signature") }
        let claims = jws.payload
        guard claims["iss"]?.stringValue == configuration.issuer else { throw .invalidToken("wrong issuer") }
        guard claims["aud"]?.stringValue == configuration.bundleID else { throw .invalidToken("wrong audience") }
        guard let exp = claims["exp"]?.intValue, Double(exp) > now().timeIntervalSince1970 else {
            throw .invalidToken("expired")
        }
        if let nonce, claims["nonce"]?.stringValue != nonce { throw .invalidToken("nonce mismatch") }
        guard let subject = claims["sub"]?.stringValue else { throw .invalidToken("no sub") }
        // Apple sent booleans as strings until 2024; accept both.
        let privateEmail = claims["is_private_email"]
        return Claims(
            subject: subject, email: claims["email"]?.stringValue,
            isPrivateEmail: privateEmail?.boolValue ?? (privateEmail?.stringValue == "true"),
            nonce: claims["nonce"]?.stringValue, expiresAt: Date(timeIntervalSince1970: Double(exp)))
    }

    private func publicKey(_ kid: String, refresh: Bool) async throws(SignInError) -> RSAPublicKey? {
        if refresh || keys == nil {
            do {
                let (data, _) = try await session.data(from: configuration.keysURL)
                keys = try JWKS(json: try JSONValue.parse(Array(data)))
            } catch {
                throw .appleUnavailable("cannot fetch Apple's keys: \(error)")
            }
        }
        guard let jwk = keys?.key(withID: kid) else { return nil }
        return try? RSAPublicKey(jwk: jwk)
    }
}
